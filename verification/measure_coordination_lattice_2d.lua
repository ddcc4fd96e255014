-- Coordination number of square and hexagonal lattices of slightly overlapping disks: every
-- disk away from the edges touches 4 (square) or 6 (hexagonal) neighbours, so a region holding
-- only interior centres (some of the regions cut disks) measures exactly 4 or 6.
-- The disks overlap by 1e-6 of the spacing so the linear contacts are active after one step;
-- they are fixed so nothing moves. Tolerance 0: a ratio of whole numbers.
local r = 0.5
for _, case in ipairs{{kind = "square", z = 4}, {kind = "hex", z = 6}} do
  model.new{dim = 2}
  contact.cmat_default{model = "linear", kn = 1e6, ks = 1e6, fric = 0}
  local a = 2 * r * (1 - 1e-6)
  specimen.lattice{kind = case.kind, rad = r, spacing = a, n = {20, 20}}
  ball.fix{"velocity", "spin"}
  model.timestep{fix = 1e-6}
  model.cycle(1)
  local circle = measure.create{shape = "circle", centre = {9.3, 8.1}, radius = 4.2}
  local z, n = circle:coordination()
  verify.check{quantity = case.kind .. " circle (" .. n .. " disks)", sim = z, ref = case.z,
               tol = 0}
  local box = measure.create{shape = "box", min = {2.5, 2.5}, max = {15.5, 14.5}}
  verify.check{quantity = case.kind .. " box", sim = box:coordination(), ref = case.z, tol = 0}
  -- Counting every contact (active or not) gives the same on this lattice.
  verify.check{quantity = case.kind .. " box (all)", sim = box:coordination{all = true},
               ref = case.z, tol = 0}
end
