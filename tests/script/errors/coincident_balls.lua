-- expect: coincident_balls.lua:7: balls 1 and 2 have the same centre (0.5, 0, 0), so no contact normal can be formed between them
model.new{dim = 2}
contact.cmat_default{model = "linear", kn = 1e5}
ball.create{id = 1, rad = 0.01, pos = {0.5, 0}}
ball.create{id = 2, rad = 0.01, pos = {0.5, 0}}
model.timestep{fix = 1e-5}
model.cycle(1)
