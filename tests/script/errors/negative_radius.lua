-- expect: negative_radius.lua:3: ball 1: radius must be > 0 (got -0.05); pass rad as a positive length
model.new{dim = 2}
ball.create{id = 1, rad = -0.05, pos = {0, 0}}
