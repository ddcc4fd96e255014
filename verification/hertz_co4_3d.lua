-- Chung & Ooi (2011), test 4: oblique impact of a sphere (radius 2.5 mm) on a rigid plane at
-- 3.9 m/s, incident angle 5-85 degrees from the normal in steps of 5, no spin, friction 0.092,
-- restitution 0.98 (hz_res, dp_mode 0), in aluminium oxide (E 380 GPa, nu 0.23, 4000 kg/m3) and
-- aluminium alloy (E 70 GPa, nu 0.33, 2700 kg/m3). Tests 4-8 share this header's method
-- (verification/lib/hertz_oblique.lua):
-- 1. Reference: the same contact law integrated to rtol 1e-12 by scipy
--    (verification/reference/hertz_oblique.py, whose inputs and results are
--    reference/hertz_oblique.csv); cairn runs each row's inputs at dt = tc/100 (tc: Hertz's
--    elastic duration) and its velocities and spins after the impact are compared, as errors
--    over the incoming speed scale (and that over the radius for spins).
--    Tolerance 2 (dt/tc)^1.5 = 2e-3, derived: the shear spring's onset (k_t grows as
--    sqrt(overlap)) and the switches between sticking and sliding fall inside steps, which
--    leaves an order of 1.5 (observed: halving dt divides the worst errors by 2.8-3.1); the arm
--    of the contact point is taken at the step's end while the velocities are those of the half
--    step, a first-order term in proportion to overlap/radius, visible only in 2D test 5.
-- 2. The paper's trends (rigid-body theory, see M.trend): with tan(theta_c) =
--    (1 + 1/kappa) mu (1 + e) the sliding threshold, every impact beyond it slides throughout:
--    tangential impulse = mu x normal impulse to 1e-3 (it is exact: with dp_mode 0 the
--    dashpot's impulse over a contact is zero, so the spring carries the whole normal impulse on
--    which friction acts), and the spin changes by the impulse times an arm between r - dmax/2
--    and r; every impact below 0.75 tan(theta_c) sticks during the contact (impulse below 0.99 of
--    the sliding one). The figure draws the normalised impulse of cairn, the reference and rigid
--    bodies against tan(theta) / tan(theta_c).
-- Observed (3D; 2D): velocity 5.9e-5; 6.4e-5, spin 1.5e-4; 1.2e-4 (aluminium oxide, the
-- worse of the two); sliding impulse exact to 1e-12; the compliant contact already slides
-- throughout at 0.91 tan(theta_c).
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local O = dofile(here .. "lib/hertz_oblique.lua")
O.case(4)
