-- expect: cycle_negative_steps.lua:4: model.cycle: the number of steps must be a whole number >= 0 (got -1)
model.new{dim = 2}
model.timestep{fix = 1e-3}
model.cycle(-1)
