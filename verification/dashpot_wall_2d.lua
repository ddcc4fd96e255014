-- Ball against a fixed wall in 2D (a segment): the same case as dashpot_wall_3d.lua, whose header
-- gives the closed forms, tolerances and observed errors.
DASHPOT_DIM = 2
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "dashpot_wall_3d.lua")
