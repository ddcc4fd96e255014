-- Burger's model, stress relaxation in 3D: the seeds' verification problem (seed 001, PFC3D data
-- file): two spheres (radius 0.05, density 2600) held fixed with an overlap u0 = 0.01,
-- Kk = Ck = Km = Cm = 1e8, bur_fric = 0, fixed timestep 1e-3 s, 10 s.
-- Closed form f(t) = u0 (A1 e^{z1 t} + A2 e^{z2 t}) (seed 001, Eq. 8), as in burger_relax_2d.lua,
-- whose script this case runs with dim = 3 and dt = 1e-3.
-- Tolerances (reasoning in burger_relax_2d.lua): fn(t) every step and every 1000 steps,
-- 1.5 |f'(0)/f(0)| dt / 2 = 1.5e-3 (the issue's 0.15 %; one step late errs by 3.0e-3);
-- fn(t-dt/2) 1e-5. Observed: fn(t) 1.001e-3 (first step), every 1000 steps 4.35e-4,
-- fn(t-dt/2) 6.2e-7.
BURGER_CASE = {dim = 3, name = "burger_relax_3d", dt = 1e-3}
dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "burger_relax_2d.lua")
