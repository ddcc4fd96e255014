-- A servo-controlled wall pressing an elastic lattice in 2D: the same case as servo_3d.lua,
-- whose header gives the closed forms and tolerances.
SV_DIM = 2
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "servo_3d.lua")
