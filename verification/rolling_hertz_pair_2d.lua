-- The rolling add-on of the hertz model between two disks (2D): the same case as
-- rolling_hertz_pair_3d.lua, whose header gives the closed forms and tolerances (no twisting in
-- 2D).
ROLL_DIM = 2
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "rolling_hertz_pair_3d.lua")
