-- expect: no_model.lua:3: no model yet; call model.new{dim = 2} or model.new{dim = 3} first
-- ball.create before model.new
ball.create{id = 1, rad = 0.5, pos = {0, 0}}
