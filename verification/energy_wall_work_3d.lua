-- Work of a moving wall, 3D: the same case and checks as energy_wall_work_2d.lua (derivation and
-- tolerances there), with a plane wall and a sphere.
ENERGY_DIM = 3
dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "energy_wall_work_2d.lua")
