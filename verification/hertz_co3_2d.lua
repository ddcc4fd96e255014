-- Chung & Ooi test 3 in 2D (disks of unit thickness): the same case as hertz_co3_3d.lua, whose
-- header gives the closed forms, tolerances and observed errors.
HERTZ_DIM = 2
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "hertz_co3_3d.lua")
