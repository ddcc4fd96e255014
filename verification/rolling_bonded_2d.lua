-- The rolling add-on of the bonded models in 2D: the same case as rolling_bonded_3d.lua, whose
-- header gives the closed forms and tolerances.
ROLL_DIM = 2
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "rolling_bonded_3d.lua")
