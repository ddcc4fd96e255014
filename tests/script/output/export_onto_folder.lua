-- history.export onto an existing folder: refused before anything is written, with a message
-- saying it is a folder; no temporary is left and the folder stays as it was.
model.new{dim = 2}
ball.create{id = 1, rad = 0.5, pos = {0, 0}}
model.timestep{fix = 0.1}
history.add("x", function() return ball.pos(1)[1] end)
model.cycle{steps = 10, history_interval = 1}
history.export("a_folder")
