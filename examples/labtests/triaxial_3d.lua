-- ctest: full
-- A drained (conventional) triaxial compression test of a granular soil in 3D, with six
-- servo-controlled plane walls: a polydisperse specimen of spheres (radii uniform in
-- [1, 1.6] mm; the default small size: in [1.6, 2.6] mm) in a box 30 x 30 x 60 mm, consolidated
-- isotropically to 100 kPa by the six walls' servos, then sheared by the top and bottom walls
-- closing at a constant axial strain rate of 0.5 /s while the four lateral walls' servos hold
-- 100 kPa: the lab module's lab.triaxial, with its defaults. Writes triaxial_3d/triaxial_3d.csv and .png as biaxial_2d.lua
-- does, and prints the same results.
-- Run: cairn run examples/labtests/triaxial_3d.lua  (LAB_SIZE=full for the full size)
local r = lab.triaxial{name = "triaxial_3d", size = os.getenv("LAB_SIZE")}
lab.check("triaxial_3d", r)
