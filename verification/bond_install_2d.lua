-- Bonding a specimen in 2D: the same case as bond_install_3d.lua, whose header gives the
-- closed forms and tolerances.
BI_DIM = 2
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "bond_install_3d.lua")
