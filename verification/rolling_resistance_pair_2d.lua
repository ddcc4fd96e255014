-- Rolling resistance between two disks (2D): the same case as rolling_resistance_pair_3d.lua,
-- whose header gives the closed forms and tolerances.
ROLL_DIM = 2
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "rolling_resistance_pair_3d.lua")
