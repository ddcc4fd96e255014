-- Chung & Ooi (2011), test 8: a sphere (radius 0.1 m) spinning as in test 6 (R w / Vn =
-- tan(theta), theta 5-85 degrees) hits a sphere of radius 0.5 m at rest, 1000 times as dense,
-- at 0.2 m/s; friction 0.4, restitution 0.5 (hz_res, dp_mode 0); aluminium alloy and nylon as in
-- test 6; case A: the large sphere 1000 times as stiff (hz_shear2 = 1000 hz_shear); case B: the
-- same material. Method, reference, tolerances: hertz_co4_3d.lua.
-- Observed (3D; 2D): velocity 2.5e-4; 2.6e-4, spin 6.2e-4; 5.3e-4.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local O = dofile(here .. "lib/hertz_oblique.lua")
O.case(8)
