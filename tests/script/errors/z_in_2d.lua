-- expect: z_in_2d.lua:3: ball.create: pos: a 2D model has no z component (got 1); give 2 numbers
model.new{dim = 2}
ball.create{id = 1, rad = 0.5, pos = {0, 0, 1}}
