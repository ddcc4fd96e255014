-- Average stress in a square lattice of disks (radius r) under a known uniform compression: the
-- spacing is a = 2r - delta, so every contact of the linear model (kn) carries f = kn delta
-- along its branch vector of length a. A box of m x m periods, placed so no contact point lies
-- on its edge, holds m^2 horizontal and m^2 vertical contacts, hence by hand
--   sigma_xx = sigma_yy = m^2 kn delta a / (m a)^2 = kn delta / a (per unit thickness),
--   sigma_xy = sigma_yx = 0, positive in compression (cairn's convention).
-- Tolerance 1e-9 relative: the overlap delta = 1e-3 r is a difference of positions near 10, so
-- it carries a relative round-off of ~1e-12; shear components are checked against 1e-9 sigma.
local r, kn, delta = 0.5, 1e6, 5e-4
local a = 2 * r - delta
model.new{dim = 2}
contact.cmat_default{model = "linear", kn = kn, ks = kn, fric = 0}
specimen.lattice{kind = "square", rad = r, spacing = a, n = {24, 24}}
ball.fix{"velocity", "spin"}
model.timestep{fix = 1e-6}
model.cycle(1)
local m, x0 = 10, 6.25 * a
local box = measure.create{shape = "box", min = {x0, x0}, max = {x0 + m * a, x0 + m * a}}
local s = box:stress()
local ref = kn * delta / a
verify.check{quantity = "sigma_xx", sim = s[1][1], ref = ref, tol = 1e-9}
verify.check{quantity = "sigma_yy", sim = box:stress("yy"), ref = ref, tol = 1e-9}
verify.check{quantity = "sigma_xy/sigma", sim = s[1][2] / ref, ref = 0, tol = 1e-9, kind = "abs"}
verify.check{quantity = "sigma_yx/sigma", sim = s[2][1] / ref, ref = 0, tol = 1e-9, kind = "abs"}
verify.check{quantity = "mean stress", sim = box:stress("mean"), ref = ref, tol = 1e-9}
