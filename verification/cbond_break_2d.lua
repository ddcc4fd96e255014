-- The contact bond in 2D: the same case as cbond_break_3d.lua, whose header gives the
-- closed forms and tolerances.
CB_DIM = 2
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "cbond_break_3d.lua")
