-- The periodic cell in 2D: the same cases as periodic_3d.lua, whose header gives the closed
-- forms and tolerances.
PER_DIM = 2
dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "periodic_3d.lua")
