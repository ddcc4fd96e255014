-- Chung & Ooi (2011), test 2: elastic normal impact of a sphere (radius 0.10 m) on a rigid plane
-- at 0.2 m/s, hertz model without damping or friction, in aluminium alloy (E 70 GPa, nu 0.30,
-- 2699 kg/m3) and magnesium alloy (E 40 GPa, nu 0.35, 1800 kg/m3). The wall has no material
-- (hz_shear2 = 0), so it is rigid: E* = E / (1 - nu^2), R* = r, m* = m (the ball's).
-- Reference: Hertz's closed forms and the force history integrated with Runge-Kutta, as in
-- hertz_co1_3d.lua, whose header derives the tolerance 2 (dt/tc)^2 = 2e-4 at dt = tc/100.
-- The paper's values: aluminium alloy 49.7 um, 11.37 kN, 732 us. In 2D a disk of unit
-- thickness on a segment.
-- Observed (3D and 2D identical): the same relative errors as test 1 (the scaled problem is the
-- same): dmax -3.2e-5, Fmax -4.7e-5, tc -5.0e-5, e -4.3e-6, order 1.99, force history 1.1e-4.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local H = dofile(here .. "lib/hertz_impact.lua")
local dim = HERTZ_DIM or 3
local materials = {
  {name = "aluminium_alloy", E = 7.0e10, nu = 0.30, rho = 2699},
  {name = "magnesium_alloy", E = 4.0e10, nu = 0.35, rho = 1800},
}
for _, mat in ipairs(materials) do
  H.elastic_normal_case{test = 2, dim = dim, mat = mat, r = 0.10, v = 0.2}
end
