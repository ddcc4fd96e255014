-- expect: ball_outside_cylinder_auto.lua:8: ball 1 moved 0.161394 in one step (step 1), more than its radius 0.1: the run is unstable under the automatic timestep, so a force on it is far beyond the model's range (a ball placed across a wall, such as outside a cylinder
-- A ball placed outside a cylinder (whose balls are inside), under the automatic timestep: the
-- advice is to check where the balls start, not to use the automatic timestep.
model.new{dim = 3}
contact.cmat_default{model = "linear", kn = 1e6}
wall.create{id = 1, kind = "cylinder", point = {0, 0, 0}, axis = {0, 0, 1}, radius = 1}
ball.create{id = 1, rad = 0.1, pos = {1.5, 0, 0}}
model.cycle(100)
