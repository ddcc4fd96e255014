-- Seed 004, case study 1 in 2D (disks of unit thickness): the same case as dashpot_case1_3d.lua,
-- whose header gives the closed forms, tolerances and observed errors.
DASHPOT_DIM = 2
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "dashpot_case1_3d.lua")
