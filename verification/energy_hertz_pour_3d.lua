-- Energy balance of a damped pour with the hertz model, 3D: energy_hertz_pour_2d.lua's contacts
-- in energy_pour_3d.lua's box (read the derivation and tolerances in energy_pour_2d.lua).
ENERGY_DIM = 3
dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "energy_hertz_pour_2d.lua")
