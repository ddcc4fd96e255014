-- The seeds' 3-disk comparison in 3D (closed form, tolerance and observed error in
-- cm1_three_disks_2d.lua): spheres at z = 0.5 in a box of six planes, the built-in `linear` model
-- against the `cm1` plugin installed through the assignment table; observed difference 0.
CM1_DIM = 3
dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "cm1_three_disks_2d.lua")
