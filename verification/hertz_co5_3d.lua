-- Chung & Ooi (2011), test 5: oblique impact of a sphere (radius 10 um) on a rigid plane at a
-- normal speed of 5 m/s and tangential speeds 0.15-21 m/s (our choice of 16 values spanning the
-- paper's range of Vt / (mu Vn) up to 14), no spin, friction 0.3, elastic, in steel (E 208 GPa,
-- nu 0.30, 7850 kg/m3) and polyethylene (E 1 GPa, nu 0.40, 1400 kg/m3). In 2D steel only: a
-- disk of radius 10 um and unit thickness is 75 000 times heavier than the sphere for the same
-- contact law, and polyethylene's peak overlap would exceed its radius.
-- Method, reference, tolerances: hertz_co4_3d.lua.
-- Observed (3D; 2D): velocity 2.2e-4; 6.8e-4, spin 5.4e-4; 1.1e-3 (2D steel's peak overlap is
-- 0.58 of the radius, which lets the arm's first-order term show).
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local O = dofile(here .. "lib/hertz_oblique.lua")
O.case(5)
