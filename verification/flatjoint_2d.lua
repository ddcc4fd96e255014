-- The flat joint in 2D: the same case as flatjoint_3d.lua, whose header gives the closed forms
-- and tolerances.
FJ_DIM = 2
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "flatjoint_3d.lua")
