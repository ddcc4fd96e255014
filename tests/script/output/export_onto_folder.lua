-- history.export onto an existing folder: the temporary is written, the rename fails; the
-- temporary must be removed and the folder left as it was.
model.new{dim = 2}
ball.create{id = 1, rad = 0.5, pos = {0, 0}}
model.timestep{fix = 0.1}
history.add("x", function() return ball.pos(1)[1] end)
model.cycle{steps = 10, history_interval = 1}
history.export("a_folder")
