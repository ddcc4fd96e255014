-- Burger's model, shear relaxation in 3D: burger_shear_relax_2d.lua's set-up with two spheres
-- along z, the upper one spun about x for the first step (a shear displacement us = 1e-3 along
-- y), dt = 1e-3 s (the seed's 3D step), 10 s; the script is burger_shear_relax_2d.lua's.
-- Closed form: F_s . e = -us (A1 e^{z1 t} + A2 e^{z2 t}) with the shear parameters (seed 001,
-- Eqs. 2, 7, 8; lower signs of seed 002, Eq. 19).
-- Tolerances: Fs(t) 1.5 Kms (1/Cks + 1/Cms) dt / 2 = 7.5e-4, fn(t) 1.5e-3, Fs(t-dt/2) 1e-5,
-- frames 1e-12 (reasoning in burger_shear_relax_2d.lua).
-- Observed: Fs(t) 5.0e-4, Fs(t-dt/2) 1.6e-7, fn(t) 1.0e-3, frames 0.
BURGER_CASE = {dim = 3, name = "burger_shear_relax_3d", dt = 1e-3}
dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "burger_shear_relax_2d.lua")
