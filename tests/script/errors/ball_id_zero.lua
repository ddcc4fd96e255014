-- expect: ball_id_zero.lua:3: ball id must be an integer from 1 to 2147483647 (got 0)
model.new{dim = 2}
ball.create{id = 0, rad = 0.5, pos = {0, 0}}
