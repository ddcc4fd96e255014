-- Ball dropped on a wall under gravity, in 2D: the same case as dashpot_wall_gravity_3d.lua,
-- whose header gives the reference, tolerances and observed errors.
DASHPOT_DIM = 2
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "dashpot_wall_gravity_3d.lua")
