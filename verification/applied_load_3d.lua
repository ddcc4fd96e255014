-- Applied loads (ball.force_app, ball.moment_app) against closed forms (3D; applied_load_2d.lua
-- runs the same in 2D). A ball (radius 0.01 m, 2500 kg/m3) without gravity or contacts gets a
-- constant force F = (0.3, -0.2, 0.1) N and moment M = (0, 0, 2e-5) N m (2D: F = (0.3, -0.2),
-- M = 2e-5 about z) from rest, dt = 1e-4. The centred scheme integrates a constant acceleration
-- exactly, starting from the velocity it is given at the half step t = -dt/2:
--   x(t) = x0 + a ((t + dt/2)^2 - (dt/2)^2) / 2,  a = F/m;   w(t + dt/2) = (M / I) (t + dt)
-- so positions and spins match to rounding (1e-12 relative). Energy, tracked from the start: the
-- loads' work (energy.get().applied_work) is booked as gravity's is, force times each step's
-- displacement, so it equals F . (x - x0) + M (theta - theta0) exactly; the kinetic energy is
-- that of the last half-step velocities, which lags the work by half a step's:
-- balance = (F . v + M w) dt / 2 exactly (the work to rounding, 1e-12; the balance, a difference
-- of sums of 1000 terms about 1000 times larger than it, to 1e-9). Setting zero removes the
-- load: the ball then coasts.
local dim = LOAD_DIM or 3
local r, rho, dt, n = 0.01, 2500, 1e-4, 1000
model.new{dim = dim}
ball.create{id = 1, rad = r, density = rho, pos = dim == 3 and {0, 0, 0} or {0, 0}}
local F = dim == 3 and {0.3, -0.2, 0.1} or {0.3, -0.2}
local Mz = 2e-5
ball.force_app(1, F)
ball.moment_app(1, dim == 3 and {0, 0, Mz} or Mz)
model.timestep{fix = dt}
energy.track(true)
model.cycle(n)
local m, I = ball.mass(1), ball.inertia(1)
local t = model.time()
local p = ball.pos(1)
local worst = 0
for k = 1, dim do
  local a = F[k] / m
  local x = a * ((t + dt / 2) ^ 2 - (dt / 2) ^ 2) / 2
  worst = math.max(worst, math.abs(p[k] - x) / math.abs(x))
end
verify.check{quantity = "position_under_constant_force", sim = worst, ref = 0, tol = 1e-12,
             kind = "abs"}
local s = ball.spin(1)
local wz = type(s) == "table" and s[3] or s
verify.check{quantity = "spin_under_constant_moment", sim = wz, ref = Mz / I * t, tol = 1e-12}
local e = energy.get()
local v, work, half = ball.vel(1), 0, Mz * wz * dt / 2
for k = 1, dim do
  work = work + F[k] * p[k]
  half = half + F[k] * v[k] * dt / 2
end
local turn = 0 -- the rotation: the sum of w dt over the steps, w growing by M dt / I a step
for j = 1, n do turn = turn + Mz / I * j * dt * dt end
verify.check{quantity = "applied_work=F.dx+M.dtheta", sim = e.applied_work, ref = work + Mz * turn,
             tol = 1e-12}
verify.check{quantity = "balance=half_a_step's_work", sim = e.balance, ref = half, tol = 1e-9}
-- removing the load: the velocity stays
ball.force_app(1, dim == 3 and {0, 0, 0} or {0, 0})
ball.moment_app(1, dim == 3 and {0, 0, 0} or 0)
local v0 = ball.vel(1)[1]
model.cycle(10)
verify.check{quantity = "coasts_after_removal", sim = ball.vel(1)[1], ref = v0, tol = 0}
