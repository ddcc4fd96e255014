-- expect: runaway_ball.lua:8: ball 1 moved 0.105081 in one step (step 94), more than its radius 0.05: the run is unstable
model.new{dim = 2}
model.gravity{0, -9.81}
contact.cmat_default{model = "linear", kn = 1e6, ks = 5e5, fric = 0.5}
wall.create{id = 1, nodes = {{-1, 0}, {1, 0}}}
ball.create{id = 1, rad = 0.05, pos = {0, 0.5}, density = 2600}
model.timestep{fix = 1e-2}
model.solve{time = 1}
