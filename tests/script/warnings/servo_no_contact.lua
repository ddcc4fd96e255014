-- A servo whose axis points away from the balls: it never meets them, and says so once.
model.new{dim = 2}
contact.cmat_default{model = "linear", kn = 1e6, ks = 0}
ball.create{id = 1, rad = 0.01, pos = {0, 0}}
ball.fix{"velocity", "spin"}
wall.create{id = 1, nodes = {{-0.1, 0.1}, {0.1, 0.1}}}
wall.servo{id = 1, stress = 1e3, area = 0.2, vmax = 1e-3, axis = {0, 1}}
model.timestep{fix = 1e-5}
model.cycle(100001)
