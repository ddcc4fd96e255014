-- expect: timestep_negative.lua:3: model.timestep: fix must be a positive time (got -1)
model.new{dim = 3}
model.timestep{fix = -1}
