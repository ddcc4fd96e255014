-- The 2D form of clump_rocking_3d.lua: a dumbbell of two disks rocking on a frictionless
-- segment, against the pendulum's closed-form period.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
CLUMP_DIM = 2
dofile(here .. "clump_rocking_3d.lua")
CLUMP_DIM = nil
