-- A servo whose vmax is far too low for its target: it moves at vmax with contacts and says so
-- once, after 1000 steps.
model.new{dim = 2}
contact.cmat_default{model = "linear", kn = 1e6, ks = 0}
specimen.lattice{kind = "square", rad = 0.01, n = {10, 5}}
ball.fix{"velocity", "spin"}
wall.create{id = 1, nodes = {{-0.01, -0.01}, {0.2, -0.01}}}
wall.create{id = 2, nodes = {{-0.01, 0.0899}, {0.2, 0.0899}}}
wall.servo{id = 2, stress = 1e9, area = 0.2, vmax = 1e-6}
model.timestep{fix = 1e-5}
model.cycle(2000)
