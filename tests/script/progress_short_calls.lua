-- A script that cycles in many short calls (about 2 s in a Release build): the status line
-- must appear on a terminal all the same.
model.new{dim = 2}
contact.cmat_default{model = "linear", kn = 1e3}
ball.create{id = 1, rad = 0.5, pos = {0, 0}}
ball.create{id = 2, rad = 0.5, pos = {0.99, 0}}
ball.fix{"velocity", "spin"}
model.timestep{fix = 1e-3}
for _ = 1, 1200000 do model.cycle(10) end
