-- Turning walls in 2D (a segment): the same case as rotating_wall_3d.lua, whose header gives the
-- closed forms and tolerances.
ROT_DIM = 2
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "rotating_wall_3d.lua")
