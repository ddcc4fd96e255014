-- Burger's model, tensile mode in 3D: burger_mode_2d.lua's set-up with two spheres along z,
-- dt = 1e-3 s; same script. Closed form with bur_mode = 0:
-- f(t) = u0 R(t) - (u0/2) R(t - t1) (seed 001, Eq. 8, superposed), errors relative to u0 Km,
-- tolerances 1.5 |R'(0)/R(0)| dt / 2 = 1.5e-3 and 1e-5 (reasoning in burger_relax_2d.lua).
-- With bur_mode = 1 (through bur_notension): equal to mode 0 before t1, 0 at the unloading step,
-- never negative. A contact in tension carries no shear and reports slipping.
-- Observed: fn(t) 1.0e-3, fn(t-dt/2) 6.2e-7, min fn off by 394 N (tolerance 1500 N).
BURGER_CASE = {dim = 3, name = "burger_mode_3d", dt = 1e-3}
dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "burger_mode_2d.lua")
