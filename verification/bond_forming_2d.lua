-- A bond that forms between moving balls forms stress-free, in 2D: the same case as
-- bond_forming_3d.lua, whose header gives the closed forms and tolerances.
BF_DIM = 2
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "bond_forming_3d.lua")
