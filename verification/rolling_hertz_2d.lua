-- Rolling resistance added to the hertz model in 2D (a disk on a segment): the same case as
-- rolling_hertz_3d.lua, whose header gives the closed forms (kappa = 1/2: deceleration
-- 2/3 mu_r g) and tolerances; a 2D model has no twisting (the spins are about z, normal to every
-- contact normal).
ROLL_DIM = 2
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "rolling_hertz_3d.lua")
