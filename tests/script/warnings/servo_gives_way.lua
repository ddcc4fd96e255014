-- A servo that holds its target on a specimen, which then gives way (its stiffness drops by 30 %,
-- so the stress falls to 75 % of the target): the wall follows at vmax, nearing its target by
-- less than a tenth of the error each 1000 steps, and reaches it again. An ordinary
-- consolidation: no warning (it warned once, after 1000 steps, before the rule asked for an error
-- of more than half the target).
model.new{dim = 2}
contact.cmat_default{model = "linear", kn = 1e6, ks = 0}
specimen.lattice{kind = "square", rad = 0.01, n = {10, 5}}
ball.fix{"velocity", "spin"}
wall.create{id = 1, nodes = {{-0.01, -0.01}, {0.2, -0.01}}}
wall.create{id = 2, nodes = {{-0.01, 0.0899}, {0.2, 0.0899}}}
wall.servo{id = 2, stress = 1e4, area = 0.2, vmax = 5e-4}
model.timestep{fix = 1e-5}
model.cycle(30000)
assert(math.abs(wall.stress(2) / 1e4 - 1) < 1e-6, "the servo holds its target")
contact.apply{kn = 0.7e6}
model.cycle(3000)
assert(wall.servo(2).at_vmax and wall.stress(2) < 0.8e4, "the wall follows at vmax")
model.cycle(30000)
if math.abs(wall.stress(2) / 1e4 - 1) < 1e-6 then print("the servo reached its target again") end
