-- expect: contact model 'hertz': hz_alpha must be > 0 (got 0)
model.new{dim = 2}
contact.cmat_default{model = "hertz", hz_shear = 1e9, hz_alpha = 0}
wall.create{id = 1, nodes = {{-1, 0}, {1, 0}}}
ball.create{id = 1, rad = 0.1, pos = {0, 0.09}, density = 1000}
model.timestep{fix = 1e-6}
model.cycle(2)
