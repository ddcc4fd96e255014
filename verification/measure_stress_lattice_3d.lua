-- Average stress in a simple cubic lattice of spheres (radius r) under a known uniform
-- compression: spacing a = 2r - delta, every linear contact carries f = kn delta along a branch
-- of length a. A box of m^3 periods (no contact point on its faces) holds m^3 contacts per
-- axis, hence by hand sigma_xx = sigma_yy = sigma_zz = m^3 kn delta a / (m a)^3 = kn delta / a^2
-- and zero shear, positive in compression.
-- Tolerance 1e-9 relative: the overlap is a difference of positions (round-off ~1e-12 of it).
local r, kn, delta = 0.5, 1e6, 5e-4
local a = 2 * r - delta
model.new{dim = 3}
contact.cmat_default{model = "linear", kn = kn, ks = kn, fric = 0}
specimen.lattice{kind = "cubic", rad = r, spacing = a, n = {12, 12, 12}}
ball.fix{"velocity", "spin"}
model.timestep{fix = 1e-6}
model.cycle(1)
local m, x0 = 6, 2.25 * a
local box = measure.create{shape = "box", min = {x0, x0, x0}, max = {x0 + m * a, x0 + m * a, x0 + m * a}}
local s = box:stress()
local ref = kn * delta / (a * a)
for i, ax in ipairs{"x", "y", "z"} do
  verify.check{quantity = "sigma_" .. ax .. ax, sim = s[i][i], ref = ref, tol = 1e-9}
end
local worst = 0
for i = 1, 3 do
  for j = 1, 3 do
    if i ~= j then worst = math.max(worst, math.abs(s[i][j]) / ref) end
  end
end
verify.check{quantity = "max |shear|/sigma", sim = worst, ref = 0, tol = 1e-9, kind = "abs"}
