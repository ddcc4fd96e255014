-- ctest: full
-- A drained (conventional) triaxial compression test of a granular soil in 3D, with six
-- servo-controlled plane walls: a polydisperse specimen of spheres (radii uniform in
-- [1, 1.6] mm; the default small size: in [1.6, 2.6] mm) in a box 30 x 30 x 60 mm, consolidated
-- isotropically to 100 kPa by the six walls' servos, then sheared by the top and bottom walls
-- closing at a constant axial strain rate of 0.5 /s while the four lateral walls' servos hold
-- 100 kPa (lab.lua has the steps). Writes triaxial_3d/triaxial_3d.csv and .png as biaxial_2d.lua
-- does, and prints the same results.
-- Run: cairn run examples/labtests/triaxial_3d.lua  (LAB_SIZE=full for the full size)
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local lab = dofile(here .. "lab.lua")
local k = lab.size == "full" and 0.8 or 1.3
lab.drained{name = "triaxial_3d", title = "drained triaxial test", dim = 3,
            L = {0.03, 0.03, 0.06}, rmin = 1.25e-3 * k, rmax = 2e-3 * k, kn = 1e7, p0 = 100e3,
            rate = 0.5, strain_end = lab.size == "full" and 0.15 or 0.10, porosity0 = 0.72,
            seed = 7}
