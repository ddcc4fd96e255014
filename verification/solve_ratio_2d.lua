-- Solving to an unbalanced-force ratio in 2D: the same case as solve_ratio_3d.lua, whose header
-- gives the closed forms and tolerances.
SOLVE_DIM = 2
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "solve_ratio_3d.lua")
