-- The 2D form of energy_clump_pour_3d.lua: 80 clumps of three disks poured into a box of three
-- segments, the energy balance closing as the balls' does.
-- ctest: heavy
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
CLUMP_DIM = 2
dofile(here .. "energy_clump_pour_3d.lua")
CLUMP_DIM = nil
