-- Chung & Ooi (2011), test 1: elastic head-on impact of two identical spheres (radius 0.010 m)
-- at 10 m/s each (relative 20 m/s), hertz model, no damping, in glass (E 48 GPa, nu 0.20,
-- 2800 kg/m3) and limestone (E 20 GPa, nu 0.25, 2500 kg/m3); friction plays no part.
-- Reference, Hertz's closed forms with E* = E / (2 (1 - nu^2)), R* = r/2, m* = m/2:
-- dmax = (15 m* v^2 / (16 E* sqrt(R*)))^(2/5), Fmax = (4/3) E* sqrt(R*) dmax^(3/2),
-- tc = 2.94329 dmax / v; restitution 1; the force history from the same law integrated with
-- Runge-Kutta (hertz_impact.lua). The paper's values: glass 274 um, 10.70 kN, 40.3 us.
-- In 2D the same law acts between disks of unit thickness (forces and masses per unit
-- thickness, m = rho pi r^2): the closed forms hold with that mass, and this case checks them.
-- Timestep dt = tc/100, onset phase 0.37 of a step.
-- Tolerance, derived: velocity Verlet's phase error for a local frequency w is (w dt)^2 / 24;
-- in scaled units (x'' = -x^1.5, x_max = 1.0934, tc = 3.218) w^2 = 1.5 sqrt(x) <= 1.57 at the
-- peak, so the duration and the peak err by at most 0.68 (dt/tc)^2; sampling the peak at step
-- points misses it by at most x''_max (dt/2)^2 / (2 x_max) = 1.35 (dt/tc)^2. Tolerance
-- 2 (dt/tc)^2 = 2e-4 for dmax, Fmax, tc and 1 - e, and for the force history against the
-- reference (as a fraction of Fmax). Order check: the duration error must fall by >= 2^1.8
-- when dt halves (the scheme is second order; the onset, where F ~ t^1.5, costs no order).
-- Observed (3D and 2D identical): dmax -3.2e-5, Fmax -4.7e-5, tc -5.0e-5, e -4.3e-6, order 1.99,
-- force history 1.1e-4 of Fmax (the phase error, largest where the force falls steeply).
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local H = dofile(here .. "lib/hertz_impact.lua")
local dim = HERTZ_DIM or 3
local materials = {
  {name = "glass", E = 4.8e10, nu = 0.20, rho = 2800, fric = 0.35},
  {name = "limestone", E = 2.0e10, nu = 0.25, rho = 2500, fric = 0.35},
}
for _, mat in ipairs(materials) do
  H.elastic_normal_case{test = 1, dim = dim, mat = mat, r = 0.010, v = 10}
end
