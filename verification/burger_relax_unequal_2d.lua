-- Burger's model, stress relaxation in 2D with unequal parameters: Kk = 5e7, Ck = 3e8,
-- Km = 1.5e8, Cm = 2e8 (so Kk != Km, Ck != Cm; the roots z1 = -0.0945 /s, z2 = -1.32 /s stay
-- well apart), otherwise the seeds' set-up (seed 001): disks of radius 0.05, overlap 0.01 held,
-- dt = 2.840299219037086e-4 s, 10 s. Runs burger_relax_2d.lua's script with these settings.
-- Closed form f(t) = u0 (A1 e^{z1 t} + A2 e^{z2 t}) (seed 001, Eqs. 2, 7, 8).
-- Tolerances (reasoning in burger_relax_2d.lua): fn(t) 1.5 |f'(0)/f(0)| dt / 2 with
-- |f'(0)/f(0)| = Km (1/Ck + 1/Cm) = 1.25 /s, i.e. 2.66e-4; fn(t-dt/2) 1e-5.
-- Observed: fn(t) 1.78e-4, every 1000 steps 1.74e-4, fn(t-dt/2) 1.7e-8.
-- Timestep study: the same 10 s with dt/2 and dt/4. The error against f(n dt) must fall at least
-- linearly (first order from the half-step shift; expected order 1, tolerance 0.05), the error
-- against f((n - 1/2) dt) as dt^2 (the trapezoidal rule; expected order 2, tolerance 0.05).
-- Observed: errors 1.775e-4, 8.88e-5, 4.44e-5 (orders 1.000, 1.000); fn(t-dt/2) errors
-- 1.66e-8, 4.15e-9, 1.04e-9 (orders 2.000, 2.000).
BURGER_CASE = {dim = 2, name = "burger_relax_unequal_2d", study = 10.0,
               params = {knk = 5e7, cnk = 3e8, knm = 1.5e8, cnm = 2e8}}
dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "burger_relax_2d.lua")
