-- expect: hertz_loose_auto_timestep.lua:13: the automatic timestep has no stiffness to work from (no contact is active, and the assigned contact models are stiff only when they overlap); give model.timestep{fix = 5.7e-05}, the automatic estimate at an overlap of 1 % of each ball's radius
-- A loose hertz specimen (every ball apart) under the automatic timestep: no stiffness yet, and
-- the message suggests a fixed timestep. By hand, for the smaller ball (r = 0.01, density 2650,
-- m = 1.110e-2 kg, G = 1e8, nu = 0.25: E* = 1.333e8 ball-ball and 2.667e8 against a rigid wall)
-- at an overlap of 1e-4: k_n = 2 E* sqrt(R* overlap) = 1.886e5 (ball-ball, R* = r/2) and 5.333e5
-- (wall, m_eff = m); its impact bound (pi / 8) sqrt(m_eff / k_n) = 5.67e-5 is below the stability bound
-- 0.8 sqrt(m / k_tran) = 6.8e-5.
model.new{dim = 3}
contact.cmat_default{model = "hertz", hz_shear = 1e8, hz_poiss = 0.25}
ball.create{id = 1, rad = 0.01, pos = {0, 0, 0}}
ball.create{id = 2, rad = 0.02, pos = {0.1, 0, 0}}
ball.attribute{density = 2650}
model.cycle(10)
