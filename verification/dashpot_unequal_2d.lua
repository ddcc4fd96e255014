-- Unequal masses (seed 004, case study 3's pair) in 2D: the same case as
-- dashpot_unequal_3d.lua, whose header gives the closed forms, tolerances and observed errors.
DASHPOT_DIM = 2
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "dashpot_unequal_3d.lua")
