-- Burger's model, Coulomb slider in 3D: burger_shear_slip_2d.lua's set-up with two spheres along
-- z, the upper one spun about x (contact point moving along y), dt = 1e-3 s; same script.
-- Checks and tolerances as there: two slip_change events (0 then 1, the second at the first
-- backward step), bur_slip true exactly between them, |Fs| = bur_fric Fn while sliding to 1e-12.
-- Observed: slip from step 217 to 401, |Fs| = 0.1 Fn exactly (error 0).
BURGER_CASE = {dim = 3, name = "burger_shear_slip_3d", dt = 1e-3}
dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "burger_shear_slip_2d.lua")
