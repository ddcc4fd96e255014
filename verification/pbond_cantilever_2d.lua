-- A bonded cantilever in 2D: the same case as pbond_cantilever_3d.lua, whose header gives the
-- closed forms and tolerances.
CL_DIM = 2
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "pbond_cantilever_3d.lua")
