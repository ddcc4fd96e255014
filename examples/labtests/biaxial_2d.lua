-- ctest: full
-- A drained biaxial test of a granular soil in 2D, with servo-controlled walls: a polydisperse
-- specimen of disks (radii uniform in [0.5, 0.8] mm; the default small size: in [1, 1.6] mm) in
-- a box of four walls, 50 mm wide and 100 mm high, consolidated isotropically to 100 kPa by the
-- four walls' servos, then sheared by the top and bottom walls closing at a constant axial strain
-- rate of 0.5 /s while the side walls' servos hold 100 kPa: the lab module's lab.biaxial, with
-- its defaults. Writes
-- biaxial_2d/biaxial_2d.csv (axial and volumetric strain, the wall stresses, the deviator
-- stress, the mobilised friction angle, an inner region's stresses, the inertial number) and
-- biaxial_2d/biaxial_2d.png (deviator stress and volumetric strain against axial strain), and
-- prints the peak and residual friction angles, the inertial number (the quasi-static check:
-- below 1e-3) and the walls' against the region's stress.
-- Run: cairn run examples/labtests/biaxial_2d.lua  (LAB_SIZE=full for the full size, ~1 850 disks)
local r = lab.biaxial{name = "biaxial_2d", size = os.getenv("LAB_SIZE")}
lab.check("biaxial_2d", r)
