-- expect: timestep_strict.lua:8: the fixed timestep 0.01 is above the stable estimate 0.00184483
model.new{dim = 2}
model.gravity{0, -9.81}
contact.cmat_default{model = "linear", kn = 1e6, ks = 5e5, fric = 0.5}
wall.create{id = 1, nodes = {{-1, 0}, {1, 0}}}
ball.create{id = 1, rad = 0.05, pos = {0, 0.5}, density = 2600}
model.timestep{fix = 1e-2, strict = true}
model.cycle(10)
