-- The automatic timestep with a nonlinear plugin in 2D: the same case as timestep_nonlinear_3d.lua,
-- whose header gives the checks and tolerances.
TS_DIM = 2
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "timestep_nonlinear_3d.lua")
