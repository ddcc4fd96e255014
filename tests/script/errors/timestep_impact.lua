-- expect: timestep_impact.lua:3: model.timestep: impact (the least steps per impact) must be in [0, 1e6], 0 for no such bound (got -2)
model.new{dim = 3}
model.timestep{impact = -2}
