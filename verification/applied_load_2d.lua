-- Applied loads in 2D: the same case as applied_load_3d.lua, whose header gives the closed forms
-- and tolerances.
LOAD_DIM = 2
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "applied_load_3d.lua")
