-- expect: cylinder_closes.lua:6: cylinder wall 4's radial velocity -20000 would take its radius from 1 to -1 at step 1 (timestep 0.0001); slow it (wall.radial_vel) or stop it before it closes
model.new{dim = 3}
wall.create{id = 4, kind = "cylinder", point = {0, 0, 0}, axis = {0, 0, 1}, radius = 1}
model.timestep{fix = 1e-4}
wall.radial_vel(4, -2e4)
model.cycle(3)
