-- ctest: heavy
-- The triaxial test of examples/labtests/triaxial_3d.lua at its small size (about 370 spheres in
-- a box of six servo walls), consolidated to 100 kPa: the walls' stresses and the Love-Weber
-- average over the whole specimen must agree, as labtest_biaxial_2d.lua explains. Tolerance
-- 1e-3 abs on the largest relative difference over the axes.
lab.triaxial{name = "triaxial_3d", verify = true}
