-- ctest: full
-- An unconfined compression test (UCS) of a bonded-particle rock in 3D: the procedure of
-- ucs_2d.lua with spheres in a 25 x 25 x 50 mm prism (axis z), six walls for the genesis, the four
-- lateral ones removed after bonding. About 700 spheres (ROCK_SIZE=full: about 2 400). Writes
-- ucs_3d/ucs_3d_curve.csv and .png, the cracks as CSV and VTK frames, and prints the peak
-- strength, Young's modulus and Poisson's ratio (lateral strain averaged over x and y).
-- Run: cairn run examples/rock/ucs_3d.lua  (ROCK_SIZE=full cairn run ... for the full size)
local r = lab.ucs{dim = 3, seed = 1, size = os.getenv("ROCK_SIZE"), out = "ucs_3d/ucs_3d"}
lab.report("ucs_3d", r)
lab.check("ucs_3d", r)
