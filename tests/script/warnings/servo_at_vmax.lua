-- A servo that holds its first target, then is asked to follow a rise far faster than its vmax
-- allows: it moves at vmax without nearing the target and says so once, after 1000 steps.
model.new{dim = 2}
contact.cmat_default{model = "linear", kn = 1e6, ks = 0}
specimen.lattice{kind = "square", rad = 0.01, n = {10, 5}}
ball.fix{"velocity", "spin"}
wall.create{id = 1, nodes = {{-0.01, -0.01}, {0.2, -0.01}}}
wall.create{id = 2, nodes = {{-0.01, 0.0899}, {0.2, 0.0899}}}
wall.servo{id = 2, stress = {time = {0, 0.002, 0.012}, value = {1e4, 1e4, 1e9}}, area = 0.2,
           vmax = 0.1}
model.timestep{fix = 1e-5}
model.cycle(3000)
