-- A run long enough (about 2 s in a Release build) for the progress display to appear on a terminal.
model.new{dim = 2}
contact.cmat_default{model = "linear", kn = 1e3}
ball.create{id = 1, rad = 0.5, pos = {0, 0}}
ball.create{id = 2, rad = 0.5, pos = {0.99, 0}}
ball.fix{"velocity", "spin"}
model.timestep{fix = 1e-3}
model.cycle(12000000)
