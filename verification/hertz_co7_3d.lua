-- Chung & Ooi (2011), test 7: two identical spheres (radius 0.1 m) meeting head-on at 0.2 m/s
-- each, both spinning at w in the same sense, so that their surfaces slide against each other
-- at 2 R w, with R w / Vn = tan(theta), theta 5-85 degrees in steps of 5; friction 0.4,
-- restitution 0.5 (hz_res, dp_mode 0), in aluminium alloy (E 70 GPa, nu 0.33, 2700 kg/m3) and
-- copper (E 120 GPa, nu 0.35, 8900 kg/m3). (With opposite spins, as some codes set the test
-- up, the surfaces do not slide and nothing tangential happens; we chose the sense that loads
-- the tangential law.) Method, reference, tolerances: hertz_co4_3d.lua.
-- Observed (3D; 2D): velocity 1.2e-4; 1.4e-4, spin 3.1e-4; 2.7e-4.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local O = dofile(here .. "lib/hertz_oblique.lua")
O.case(7)
