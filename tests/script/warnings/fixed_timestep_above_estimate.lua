-- A fixed timestep 1.5 times the stable estimate sqrt(m / (kn + ks)) (still stable for this one
-- contact: the normal spring alone allows 2 sqrt(m / kn)): one warning, and the run goes on.
model.new{dim = 2}
model.gravity{0, -9.81}
contact.cmat_default{model = "linear", kn = 1e6, ks = 5e5, fric = 0.5, dp_nratio = 0.5}
wall.create{id = 1, nodes = {{-1, 0}, {1, 0}}}
ball.create{id = 1, rad = 0.05, pos = {0, 0.05}, density = 2600}
model.timestep{fix = 1.5 * 0.00184483}
model.cycle(2000)
print(string.format("resting at y = %.4f", ball.pos(1)[2]))
