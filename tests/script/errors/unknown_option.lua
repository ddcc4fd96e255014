-- expect: unknown_option.lua:3: ball.create: unknown option 'radius'; the options are: id, rad, pos
model.new{dim = 2}
ball.create{id = 1, rad = 0.5, pos = {0, 0}, radius = 0.5}
