-- Axial vibration of a bonded chain in 2D: the same case as pbond_chain_3d.lua, whose header
-- gives the closed forms and tolerances.
CH_DIM = 2
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "pbond_chain_3d.lua")
