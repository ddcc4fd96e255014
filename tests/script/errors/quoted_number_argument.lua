-- expect: quoted_number_argument.lua:4: ball.rad: the value must be a number (got string); write it without quotes
model.new{dim = 2}
ball.create{id = 1, rad = 0.1, pos = {0, 0}}
ball.rad(1, "0.2")
