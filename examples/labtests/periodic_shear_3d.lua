-- ctest: full
-- Simple shear of a granular soil in a periodic cell at constant normal stress: no walls at
-- all. A polydisperse specimen of spheres (radii uniform in [1.25, 2] mm; the default small
-- size: in [1.6, 2.6] mm) fills a fully periodic cubic cell; the cell's stress control
-- consolidates it isotropically to 100 kPa; then the cell shears at a constant rate
-- (cell.rate{xz = ...}: x moving with z) while the control holds the normal stress sigma_zz at
-- 100 kPa and the cell's x and y sides stay fixed. The stress ratio tau / sigma_n rises to a
-- peak as the dense packing dilates, then falls towards a steady value as the void ratio levels
-- off: the critical state.
-- Writes periodic_shear_3d/periodic_shear_3d.csv and .png (stress ratio and void ratio against
-- shear strain) and prints the peak and critical-state friction angles.
-- Run: cairn run examples/labtests/periodic_shear_3d.lua  (LAB_SIZE=full for the full size)
lab.check("periodic_shear_3d",
          lab.simple_shear{name = "periodic_shear_3d", size = os.getenv("LAB_SIZE")})
