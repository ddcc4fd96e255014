-- expect: wrong_type_rad.lua:3: ball.create: option 'rad' must be a number (got string)
model.new{dim = 2}
ball.create{id = 1, rad = "big", pos = {0, 0}}
