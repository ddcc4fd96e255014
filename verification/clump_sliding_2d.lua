-- The 2D form of clump_sliding_3d.lua: a dumbbell of two disks sliding to rest on a segment
-- with friction, against the closed form.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
CLUMP_DIM = 2
dofile(here .. "clump_sliding_3d.lua")
CLUMP_DIM = nil
