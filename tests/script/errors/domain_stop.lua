-- expect: domain_stop.lua:7: ball 1 left the model domain at step 45
model.new{dim = 2}
model.gravity{0, -10}
ball.create{id = 1, rad = 0.1, pos = {0, 0}}
model.domain{min = {-1, -1}, max = {1, 1}, condition = "stop"}
model.timestep{fix = 0.01}
model.cycle(1000)
