-- Porosity of a square lattice of touching disks (radius r, spacing a = 2r) in regions that cut
-- disks. Closed forms:
--  * a box spanning a whole number of lattice periods (any offset): n = 1 - pi/4, since the
--    lattice is periodic and the box holds exactly m^2 unit cells of solid area pi r^2 each;
--  * a circle of radius R = a centred on a disk: the centre disk whole, 4 neighbours at distance
--    a and 4 at a*sqrt(2) cut as lenses, n = 1 - (pi r^2 + 4 L(a) + 4 L(a sqrt 2)) / (pi R^2)
--    with the lens area L(d) of circles R and r (Weisstein, "Circle-Circle Intersection",
--    MathWorld, Eq. 14), written out again here independently of the C code.
-- Tolerance 1e-9 (the issue's): the areas are exact formulas, so only round-off remains.
local r = 0.5
local a = 2 * r
model.new{dim = 2}
specimen.lattice{kind = "square", rad = r, n = {30, 30}}
for _, off in ipairs{{3.3, 2.7}, {5.0, 5.0}, {4.123, 7.77}} do
  local m = 12
  local box = measure.create{shape = "box", min = off, max = {off[1] + m * a, off[2] + m * a}}
  verify.check{quantity = string.format("porosity box at (%g, %g)", off[1], off[2]),
               sim = box:porosity(), ref = 1 - math.pi / 4, tol = 1e-9}
end
local function lens(R, rr, d)
  local k = (-d + rr + R) * (d + rr - R) * (d - rr + R) * (d + rr + R)
  return rr * rr * math.acos((d * d + rr * rr - R * R) / (2 * d * rr)) +
         R * R * math.acos((d * d + R * R - rr * rr) / (2 * d * R)) - 0.5 * math.sqrt(k)
end
local R = a
local c = {15 * a, 15 * a}
local circle = measure.create{shape = "circle", centre = c, radius = R}
local solid = math.pi * r * r + 4 * lens(R, r, a) + 4 * lens(R, r, a * math.sqrt(2))
verify.check{quantity = "porosity circle R=a", sim = circle:porosity(),
             ref = 1 - solid / (math.pi * R * R), tol = 1e-9}
-- The hexagonal lattice: a box of m x m periods (a by a*sqrt(3), 2 disks each): 1 - pi/(2 sqrt 3).
model.new{dim = 2}
specimen.lattice{kind = "hex", rad = r, n = {30, 30}}
local h = a * math.sqrt(3)
local hb = measure.create{shape = "box", min = {4.31, 3.9}, max = {4.31 + 10 * a, 3.9 + 6 * h}}
verify.check{quantity = "porosity hex box", sim = hb:porosity(),
             ref = 1 - math.pi / (2 * math.sqrt(3)), tol = 1e-9}
