-- The energy of deleted balls, in 2D: the same case as energy_removed_3d.lua, whose header gives
-- the closed forms and tolerances.
ER_DIM = 2
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "energy_removed_3d.lua")
