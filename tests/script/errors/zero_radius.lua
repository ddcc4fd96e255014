-- expect: zero_radius.lua:3: ball 1: radius must be > 0 (got 0); pass rad as a positive length
model.new{dim = 3}
ball.create{id = 1, rad = 0, pos = {0, 0, 0}}
