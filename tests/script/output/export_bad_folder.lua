-- history.export into a folder that does not exist fails cleanly and leaves nothing.
model.new{dim = 2}
ball.create{id = 1, rad = 0.5, pos = {0, 0}}
model.timestep{fix = 0.1}
history.add("x", function() return ball.pos(1)[1] end)
model.cycle{steps = 10, history_interval = 1}
history.export("no_such_dir/h.csv")
