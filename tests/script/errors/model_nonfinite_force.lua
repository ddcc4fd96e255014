-- expect: returned a non-finite force (inf, 
-- (the message names the contact, the model and its library path, which varies, before this)
-- A plugin whose law gives an infinite force (hertzlike with hl_k = inf): the run stops, naming
-- the contact, the model and its library.
model.new{dim = 3}
model.load("hertzlike")
contact.cmat_default{model = "hertzlike", hl_k = math.huge, hl_dref = 1e-4}
ball.create{id = 1, rad = 0.01, pos = {0, 0, 0}}
ball.create{id = 2, rad = 0.01, pos = {0.0199, 0, 0}}
model.timestep{fix = 1e-6}
model.cycle(10)
