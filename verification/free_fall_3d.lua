-- Free fall of one sphere under gravity for 1 s (10 000 steps of 1e-4 s), no contacts.
-- Closed form: z(t) = z0 - g t^2 / 2, v(t) = -g t.
-- The scheme keeps velocities at half steps and starts with v(-dt/2) = 0, so after n steps
-- z_n = z0 - g dt^2 n (n + 1) / 2: the distance fallen is off from the closed form by
-- g t dt / 2, a relative error of dt / t = 1e-4 (first order in dt, by design). Tolerance
-- 1.1e-4 of the distance fallen. The discrete solution itself is checked to 1e-12 (round-off
-- of 10 000 additions).
local g, dt, n, z0 = 9.81, 1e-4, 10000, 10.0
model.new{dim = 3}
model.gravity{0, 0, -g}
ball.create{id = 1, rad = 0.1, pos = {0, 0, z0}, density = 2500}
model.timestep{fix = dt}
model.cycle(n)

local t = model.time()
local z = ball.pos(1)[3]
local v = ball.vel(1)[3]
verify.check{quantity = "time", sim = t, ref = 1.0, tol = 1e-12}
verify.check{quantity = "fall(t=1)", sim = z0 - z, ref = g * t * t / 2, tol = 1.1e-4}
verify.check{quantity = "fall_discrete(t=1)", sim = z0 - z, ref = g * dt * dt * n * (n + 1) / 2,
             tol = 1e-12}
-- The stored velocity after n steps is -g n dt = -g t: the start takes v(-dt/2) = v0, so the
-- velocity sequence is the closed form's, shifted by half a step (hence the fall error above).
verify.check{quantity = "v(t)", sim = v, ref = -g * t, tol = 1e-12}
local x = ball.pos(1)
verify.check{quantity = "x_drift", sim = x[1], ref = 0, tol = 0, kind = "abs"}
