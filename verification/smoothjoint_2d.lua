-- The smooth joint in 2D: the same case as smoothjoint_3d.lua, whose header gives the closed
-- forms and tolerances.
SJ_DIM = 2
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "smoothjoint_3d.lua")
