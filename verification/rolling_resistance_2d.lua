-- Rolling resistance in 2D (a disk on a segment): the same case as rolling_resistance_3d.lua,
-- whose header gives the closed forms (kappa = 1/2: deceleration 2/3 mu_r g) and tolerances.
ROLL_DIM = 2
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "rolling_resistance_3d.lua")
