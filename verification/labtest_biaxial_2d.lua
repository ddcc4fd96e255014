-- ctest: heavy
-- The biaxial test of examples/labtests/biaxial_2d.lua at its small size (about 460 disks in a
-- box of four servo walls), consolidated to 100 kPa: the stress the walls apply and the
-- Love-Weber average over the whole specimen (a measurement region just wider than the walls'
-- box, its volume scaled back to the box's) must agree. In equilibrium they are the same sum:
-- sum_c f (x) l over the contacts equals sum over the walls of traction (x) position, each
-- ball's forces balancing; what is left is the residual unbalanced force, which the
-- consolidation brings to a mean ratio of 1e-5. Tolerance 1e-3 abs on the largest relative
-- difference over the axes (observed 1.5e-4; 2.3e-5 in 3D).
lab.biaxial{name = "biaxial_2d", verify = true}
