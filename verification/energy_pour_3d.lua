-- Energy balance of a damped pour, 3D: the same case and checks as energy_pour_2d.lua (read the
-- derivation and tolerances there), with 200 spheres of radius 3 to 5 mm in a box of five planes.
ENERGY_DIM = 3
dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "energy_pour_2d.lua")
