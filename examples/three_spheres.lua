-- The 3-disk test (seed 003, Example 4.1) in 3D: the same three balls as spheres at z = 0.5 in a
-- box of six infinite planes, compressed by the top plane (y = 2.0) moving down, then left to
-- settle. The z planes sit 0.05 from the spheres, so they never touch: ball x, y and the contact
-- forces follow the 2D run closely, but a sphere's mass (4/3 rho pi r^3 = 0.524) is not a unit-
-- thickness disk's (rho pi r^2 = 0.785), so the path to equilibrium differs a little.
-- Run: cairn run examples/three_spheres.lua
model.new{dim = 3}
contact.cmat_default{model = "linear", kn = 1.0, ks = 1.0, fric = 0.1}

ball.create{id = 1, rad = 0.5, pos = {0.5, 0.5, 0.5}}
ball.create{id = 2, rad = 0.5, pos = {1.5, 0.5, 0.5}}
ball.create{id = 3, rad = 0.5, pos = {1.0, 1.3660254, 0.5}}
ball.attribute{density = 1.0, damp = 0.7} -- as in three_disks.lua

-- Planes are one-sided; each normal points into the box.
wall.create{id = 1, kind = "plane", point = {0.0, 0.0, 0.0}, normal = {0, 1, 0}}   -- floor
wall.create{id = 2, kind = "plane", point = {0.0, 0.0, 0.0}, normal = {1, 0, 0}}   -- left
wall.create{id = 3, kind = "plane", point = {2.1, 0.0, 0.0}, normal = {-1, 0, 0}}  -- right
wall.create{id = 4, kind = "plane", point = {0.0, 2.0, 0.0}, normal = {0, -1, 0}}  -- top
wall.create{id = 5, kind = "plane", point = {0.0, 0.0, -0.05}, normal = {0, 0, 1}} -- back
wall.create{id = 6, kind = "plane", point = {0.0, 0.0, 1.05}, normal = {0, 0, -1}} -- front

model.timestep{fix = 0.25} -- as in three_disks.lua

wall.vel(4, {0.0, -0.001, 0.0}) -- compress the three spheres
model.cycle(700)
wall.vel(4, {0.0, 0.0, 0.0})    -- and let them reach equilibrium
model.cycle(500)

print(string.format("%-28s %12s %12s %12s %12s", "contact", "normal", "shear-s", "shear-t",
                    "slip"))
for _, cp in ipairs(contact.list()) do
  local f = contact.force(cp)
  print(string.format("%-28s %12.5e %12.5e %12.5e %12d", tostring(cp), f[1], f[2], f[3],
                      contact.prop(cp, "lin_slip")))
end
for _, id in ipairs(ball.list()) do
  local p = ball.pos(id)
  print(string.format("ball %d at (%.6f, %.6f, %.6f)", id, p[1], p[2], p[3]))
end

-- What must hold for the 3D run to match the 2D one: no contact with the z planes (walls 5 and
-- 6) and no motion out of z = 0.5 (no force has a z component).
for _, cp in ipairs(contact.list("ball-wall")) do
  local _, b, wid = contact.ends(cp)
  assert(wid ~= 5 and wid ~= 6, string.format("ball %d touches z plane %d", b, wid))
end
for _, id in ipairs(ball.list()) do
  local z = ball.pos(id)[3]
  assert(math.abs(z - 0.5) < 1e-12, string.format("ball %d left z = 0.5 (z = %.17g)", id, z))
end
