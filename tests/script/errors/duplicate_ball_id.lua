-- expect: duplicate_ball_id.lua:4: ball 7 already exists; give each ball a unique id
model.new{dim = 2}
ball.create{id = 7, rad = 0.5, pos = {0, 0}}
ball.create{id = 7, rad = 0.5, pos = {2, 0}}
