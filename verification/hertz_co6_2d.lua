-- Chung & Ooi test 6 in 2D (disks of unit thickness): the same case as hertz_co6_3d.lua, whose
-- header gives the closed forms, tolerances and observed errors.
HERTZ_DIM = 2
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "hertz_co6_3d.lua")
