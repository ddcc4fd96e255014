-- The parallel bond in 2D: the same case as pbond_3d.lua, whose header gives the
-- closed forms and tolerances.
PB_DIM = 2
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "pbond_3d.lua")
