-- ctest: heavy
-- The triaxial test of examples/labtests/triaxial_3d.lua at its small size (about 370 spheres in
-- a box of six servo walls), consolidated to 100 kPa: the walls' stresses and the Love-Weber
-- average over the whole specimen must agree, as labtest_biaxial_2d.lua explains. Tolerance
-- 1e-3 abs on the largest relative difference over the axes.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local lab = dofile(here .. "../examples/labtests/lab.lua")
lab.drained{name = "triaxial_3d", title = "drained triaxial test", dim = 3,
            L = {0.03, 0.03, 0.06}, rmin = 1.25e-3 * 1.3, rmax = 2e-3 * 1.3, kn = 1e7, p0 = 100e3,
            rate = 0.5, strain_end = 0.10, porosity0 = 0.72, seed = 7, verify = true}
