-- The energy balance with a dragging wall, in 2D: the same case as energy_drag_wall_3d.lua, whose
-- header gives the checks and tolerances.
DRAG_DIM = 2
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "energy_drag_wall_3d.lua")
