-- Exports a history CSV, then fails: the finished CSV must stay whole, with no temporary left.
model.new{dim = 2}
model.gravity{0, -10}
ball.create{id = 1, rad = 0.5, pos = {0, 0}}
model.timestep{fix = 0.01}
history.add("y", function() return ball.pos(1)[2] end)
history.add("vy", function() return ball.vel(1)[2] end)
model.cycle{steps = 20, history_interval = 2}   -- 10 rows
history.export("done.csv")
model.cycle(20)
history.export("no_such_dir/later.csv")         -- first failure: nothing may be left behind
