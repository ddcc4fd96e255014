-- Burger's model, creep under a constant normal force in 3D: burger_creep_2d.lua's set-up with a
-- sphere of the same mass (~2042 kg) resting on a fixed sphere along z; same script, closed form
-- u(t) = F0 [1/Km + t/Cm + (1 - e^{-Kk t/Ck}) / Kk] and tolerances as there (u(t) 1.18e-3,
-- u(t+dt/2) 1e-5, Fn = m g 1e-5). Observed: the 2D values, 7.9e-4, 2.1e-6 and 2.2e-6 (the motion
-- is along the normal only and the mass is the same, so the runs agree digit for digit).
BURGER_CASE = {dim = 3, name = "burger_creep_3d"}
dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "burger_creep_2d.lua")
