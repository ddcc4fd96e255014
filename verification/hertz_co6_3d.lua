-- Chung & Ooi (2011), test 6: a spinning sphere (radius 0.1 m) dropped on a rigid plane at a
-- normal speed of 0.2 m/s, no tangential speed, spin with R w / Vn = tan(theta), theta 5-85
-- degrees in steps of 5 (0.175-22.9 rad/s), friction 0.4, restitution 0.5 (hz_res, dp_mode 0),
-- in aluminium alloy (E 70 GPa, nu 0.33, 2700 kg/m3) and nylon (E 2.5 GPa, nu 0.40,
-- 1000 kg/m3). Method, reference, tolerances: hertz_co4_3d.lua.
-- Observed (3D; 2D): velocity 3.1e-4; 3.3e-4, spin 7.9e-4; 6.6e-4.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local O = dofile(here .. "lib/hertz_oblique.lua")
O.case(6)
