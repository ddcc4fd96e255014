-- The 2D form of clump_one_pebble_3d.lua (a one-pebble clump is bit for bit a disk).
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
CLUMP_DIM = 2
dofile(here .. "clump_one_pebble_3d.lua")
CLUMP_DIM = nil
