-- The 3-disk test (seed 003, Example 4.1): three disks in a box of four walls, compressed by
-- the top wall moving down, then left to settle. Every contact is linear with kn = ks = 1 and
-- fric = 0.1 (the seed's ball and wall stiffnesses of 2 acting in series).
-- Run: cairn run examples/three_disks.lua
model.new{dim = 2}
contact.cmat_default{model = "linear", kn = 1.0, ks = 1.0, fric = 0.1}

ball.create{id = 1, rad = 0.5, pos = {0.5, 0.5}}
ball.create{id = 2, rad = 0.5, pos = {1.5, 0.5}}
ball.create{id = 3, rad = 0.5, pos = {1.0, 1.3660254}}
-- Local damping 0.7 on forces and moments: the default of the PFC version the seed used;
-- without it the disks do not settle in 500 cycles.
ball.attribute{density = 1.0, damp = 0.7}

wall.create{id = 1, nodes = {{0.0, 0.0}, {2.1, 0.0}}}
wall.create{id = 2, nodes = {{0.0, 2.0}, {0.0, 0.0}}}
wall.create{id = 3, nodes = {{2.1, 0.0}, {2.1, 2.0}}}
wall.create{id = 4, nodes = {{2.1, 2.0}, {0.0, 2.0}}}

-- dt = 0.25: the highest rotational mode has omega ~ 4, so dt = 0.5 would sit at the
-- stability limit of the centred scheme.
model.timestep{fix = 0.25}

wall.vel(4, {0.0, -0.001}) -- compress the three disks
model.cycle(700)
wall.vel(4, {0.0, 0.0})    -- and let them reach equilibrium
model.cycle(500)

print(string.format("%-28s %12s %12s %12s", "contact", "normal", "shear", "slip"))
for _, cp in ipairs(contact.list()) do
  local f = contact.force(cp)
  print(string.format("%-28s %12.5e %12.5e %12d", tostring(cp), f[1], f[3],
                      contact.prop(cp, "lin_slip")))
end
for _, id in ipairs(ball.list()) do
  local p = ball.pos(id)
  print(string.format("ball %d at (%.6f, %.6f)", id, p[1], p[2]))
end
