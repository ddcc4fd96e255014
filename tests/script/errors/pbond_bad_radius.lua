-- expect: contact model 'linearpbond': pb_rmul must be > 0 (got 0)
model.new{dim = 2}
contact.cmat_default{model = "linearpbond", kn = 1e5, pb_kn = 1e9, pb_rmul = 0}
ball.create{id = 1, rad = 0.01, pos = {0, 0}}
ball.create{id = 2, rad = 0.01, pos = {0.0199, 0}}
model.timestep{fix = 1e-6}
model.cycle(1)
