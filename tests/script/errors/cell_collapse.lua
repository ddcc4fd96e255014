-- expect: cell_collapse.lua:7: the periodic cell's rate {xx = -1e+09} would turn it inside out (its volume would go from 1 to -99999) at step 1 with the timestep 0.0001; give cell.rate
model.new{dim = 2}
cell.create{min = {0, 0}, max = {1, 1}}
ball.create{id = 1, rad = 0.1, pos = {0.5, 0.5}}
model.timestep{fix = 1e-4}
cell.rate{xx = -1e9}
model.cycle(3)
