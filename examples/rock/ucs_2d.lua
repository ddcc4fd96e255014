-- ctest: full
-- An unconfined compression test (UCS) of a bonded-particle rock in 2D: a specimen of about
-- 2 000 disks (ROCK_SIZE=full; the default, small, about 500) generated, packed to a seating
-- stress, bonded with linearpbond (balls left without a bond removed), freed from its side walls
-- and crushed between two platens at
-- a constant axial strain rate. Writes ucs_2d/ucs_2d_curve.csv and .png (stress and crack count
-- against axial strain), ucs_2d/ucs_2d_cracks.csv and VTK frames (ucs_2d/ucs_2d.pvd, cracks
-- coloured by mode with the 'tension' array), and prints the peak strength, Young's modulus and
-- Poisson's ratio. docs/rock.md gives the procedure and the results.
-- Run: cairn run examples/rock/ucs_2d.lua  (ROCK_SIZE=full cairn run ... for the full size)
local r = lab.ucs{dim = 2, seed = 1, size = os.getenv("ROCK_SIZE"), out = "ucs_2d/ucs_2d"}
lab.report("ucs_2d", r)
lab.check("ucs_2d", r)
