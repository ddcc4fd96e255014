-- Restitution and duration at 100 contact-onset phases, in 2D: the same case as
-- dashpot_onset_3d.lua, whose header gives the closed forms, tolerances and observed errors.
DASHPOT_DIM = 2
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "dashpot_onset_3d.lua")
