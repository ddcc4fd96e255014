-- A timestep that changes between steps, in 2D: the same case as timestep_change_3d.lua, whose
-- header gives the checks and tolerances.
TS_DIM = 2
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "timestep_change_3d.lua")
