-- Porosity of simple cubic and face-centred cubic lattices of touching spheres (radius r) in
-- regions that cut spheres. Closed forms:
--  * a box spanning a whole number of periods (any offset), by periodicity: simple cubic
--    1 - pi/6, FCC 1 - pi/(3 sqrt 2);
--  * a sphere of radius R = a (the spacing) centred on a ball of the cubic lattice: the centre
--    ball whole, 6 face neighbours (distance a) and 12 edge neighbours (a sqrt 2 < R + r) cut as
--    lenses, the 8 corners (a sqrt 3 > R + r) outside:
--    n = 1 - (4/3 pi r^3 + 6 V(a) + 12 V(a sqrt 2)) / (4/3 pi R^3), with the lens volume
--    V(d) = pi (R + r - d)^2 (d^2 + 2dr - 3r^2 + 2dR + 6rR - 3R^2) / (12 d)
--    (Weisstein, "Sphere-Sphere Intersection", MathWorld, Eq. 16), written out here again.
-- Tolerance 1e-9 (the issue's): sphere-sphere volumes are exact; sphere-box volumes integrate
-- exact slice areas to ~1e-15 (tests/world/test_measure.c), so only round-off remains.
local r = 0.5
local a = 2 * r
model.new{dim = 3}
specimen.lattice{kind = "cubic", rad = r, n = {12, 12, 12}}
local o = {1.37, 2.11, 0.93}
local box = measure.create{shape = "box", min = o, max = {o[1] + 8 * a, o[2] + 8 * a, o[3] + 8 * a}}
verify.check{quantity = "porosity cubic box", sim = box:porosity(), ref = 1 - math.pi / 6, tol = 1e-9}
local function lens(R, rr, d)
  return math.pi * (R + rr - d) ^ 2 * (d * d + 2 * d * rr - 3 * rr * rr + 2 * d * R + 6 * rr * R
         - 3 * R * R) / (12 * d)
end
local R = a
local sph = measure.create{shape = "sphere", centre = {6 * a, 6 * a, 6 * a}, radius = R}
local solid = 4 / 3 * math.pi * r ^ 3 + 6 * lens(R, r, a) + 12 * lens(R, r, a * math.sqrt(2))
verify.check{quantity = "porosity sphere R=a", sim = sph:porosity(),
             ref = 1 - solid / (4 / 3 * math.pi * R ^ 3), tol = 1e-9}

model.new{dim = 3}
specimen.lattice{kind = "fcc", rad = r, n = {8, 8, 8}}
local c = a * math.sqrt(2) -- cubic cell of the FCC lattice
local fb = measure.create{shape = "box", min = {2.17, 1.91, 2.53},
                          max = {2.17 + 4 * c, 1.91 + 4 * c, 2.53 + 4 * c}}
verify.check{quantity = "porosity fcc box", sim = fb:porosity(),
             ref = 1 - math.pi / (3 * math.sqrt(2)), tol = 1e-9}
