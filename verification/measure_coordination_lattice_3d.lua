-- Coordination number of simple cubic and face-centred cubic lattices of slightly overlapping
-- spheres: every interior sphere touches 6 (cubic) or 12 (FCC) neighbours, so a region holding
-- only interior centres measures exactly 6 or 12. The spheres overlap by 1e-6 of the spacing
-- (linear contacts active after one step) and are fixed. Tolerance 0: a ratio of whole numbers.
local r = 0.5
for _, case in ipairs{{kind = "cubic", z = 6, n = 10}, {kind = "fcc", z = 12, n = 6}} do
  model.new{dim = 3}
  contact.cmat_default{model = "linear", kn = 1e6, ks = 1e6, fric = 0}
  local a = 2 * r * (1 - 1e-6)
  specimen.lattice{kind = case.kind, rad = r, spacing = a, n = {case.n, case.n, case.n}}
  ball.fix{"velocity", "spin"}
  model.timestep{fix = 1e-6}
  model.cycle(1)
  local sph = measure.create{shape = "sphere", centre = {4.3, 4.1, 4.2}, radius = 2.9}
  local z, n = sph:coordination()
  verify.check{quantity = case.kind .. " sphere (" .. n .. " balls)", sim = z, ref = case.z,
               tol = 0}
  local box = measure.create{shape = "box", min = {1.6, 1.6, 1.6}, max = {6.4, 6.2, 6.3}}
  verify.check{quantity = case.kind .. " box", sim = box:coordination(), ref = case.z, tol = 0}
end
