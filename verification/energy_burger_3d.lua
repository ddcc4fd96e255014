-- Energy balance of the burger model, 3D: the same case and checks as energy_burger_2d.lua
-- (derivation and tolerances there), with a sphere on a plane.
ENERGY_DIM = 3
dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "energy_burger_2d.lua")
