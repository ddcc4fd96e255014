-- expect: ball_ids_used_up.lua:5: the automatic ball ids are used up (the next would be 2147483648, above 2147483647); give the new balls ids yourself
model.new{dim = 2}
ball.create{id = 2147483647, rad = 0.1, pos = {0, 0}}
ball.create{id = 1, rad = 0.1, pos = {1, 0}}
ball.create{rad = 0.1, pos = {2, 0}}
