-- The rrlinear model's rolling resistance, against closed forms (3D; rolling_resistance_2d.lua
-- runs the same in 2D). A ball (radius 0.01 m, 2500 kg/m3) on a fixed floor under gravity
-- g = 9.81, with kn = ks chosen so that the static overlap m g / kn is 1e-5 r in both dimensions
-- (1.03e6 N/m for the sphere, 7.7e7 N/m per unit thickness for the disk, 75 times heavier),
-- fric = 0.5 (it never slides), rr_fric = mu_r = 0.1, rr_kr default (ks R*^2, R* = r on a
-- wall), dt = 0.1 sqrt(m / kn) (1e-5 s).
-- Rigid-body mechanics with a rolling moment M = mu_r r F_n opposing the rolling
-- (kappa = I / (m r^2): 2/5 sphere, 1/2 disk):
--  1. rolling on the level from v0 = 0.5 m/s (spin v0/r): the ball decelerates at
--     a = mu_r g / (1 + kappa) (5/7 mu_r g for a sphere, 2/3 for a disk) and stops after
--     t = v0 / a, having rolled v0^2 / (2 a); then it stays (the rolling spring holds it);
--  2. while it rolls, the moment sits exactly at its limit mu_r R* F_n;
--  3. on an incline of angle theta (gravity tilted), it stays at rest if tan(theta) < mu_r and
--     rolls down at a = g (sin(theta) - mu_r cos(theta)) / (1 + kappa) if above.
-- Tolerances, derived: the contact arm is r - overlap/2 and the overlap m g / kn is 1e-5 r,
-- so the moment's lever differs by that much from the rigid body's; the
-- rolling spring's elastic build-up lasts mu_r r m g / (kr v0 / r) ~ 1e-8 s; the stop is found to
-- a step, dt / t_stop = 1.4e-5. Deceleration (taken between 10 % and 90 % of the stopping time),
-- stopping time and distance, incline acceleration: 2e-4, several times those. Moment at the limit: 1e-12
-- relative (it is capped to it). At rest: the ball moves less than 1e-4 r (its elastic
-- displacement, m g sin(theta) (1/ks + r^2/kr), is 1.6e-6 r). Energy: the rolling slip loss
-- (in energy.get().slip) equals the kinetic energy lost, and the balance (second order in dt,
-- as energy_pour_2d.lua derives) is small against the initial kinetic energy: 1e-4 each.
-- Observed (3D; 2D): deceleration 1.5e-6; 7.8e-6, stopping time 3.4e-5; 6.9e-5, distance
-- 1.9e-5; 1.8e-5, moment at the limit to 2.2e-16, at rest after stopping 3.3e-6 r; 2.0e-6 r,
-- incline at rest 4.8e-6 r; 4.9e-6 r, incline acceleration 2.6e-5; 2.5e-5, slip loss 3.0e-8;
-- 2.6e-8, balance 2.8e-6; 2.6e-6.
local dim = ROLL_DIM or 3
local r, rho, g, mu_r, v0 = 0.01, 2500, 9.81, 0.1, 0.5
local kappa = dim == 3 and 0.4 or 0.5
local mass = (dim == 3 and 4 / 3 * math.pi * r ^ 3 or math.pi * r * r) * rho
local kn = mass * g / (1e-5 * r)
local dt = 0.1 * math.sqrt(mass / kn)
local props = {model = "rrlinear", kn = kn, ks = kn, fric = 0.5, rr_fric = mu_r, dp_nratio = 0.3}
local function vec(x, y) return dim == 3 and {x, y, 0} or {x, y} end
local function spinz(w) return dim == 3 and {0, 0, w} or w end
local function getspin() local s = ball.spin(1) return type(s) == "table" and s[3] or s end

-- A ball resting on the floor y = 0 (overlap m g / kn already), gravity tilted by theta.
local function setup(theta, v, track)
  model.new{dim = dim}
  contact.cmat_default(props)
  local m = mass
  if dim == 2 then
    wall.create{id = 1, nodes = {{-10, 0}, {10, 0}}}
  else
    wall.create{id = 1, kind = "plane", point = {0, 0, 0}, normal = {0, 1, 0}}
  end
  local gn = g * math.cos(theta)
  ball.create{id = 1, rad = r, density = rho, pos = vec(0, r - m * gn / kn), vel = vec(v, 0),
              spin = spinz(-v / r)}
  model.gravity(vec(g * math.sin(theta), -gn))
  model.timestep{fix = dt}
  if track then energy.track(true) end
  return m
end

-- 1 and 2: rolling on the level.
local m = setup(0, v0, true)
local a = mu_r * g / (1 + kappa)
local ts = v0 / a
local t, v, at_limit, stopped_at, x_stop = {}, {}, 0, nil, nil
local n_steps = math.floor(1.3 * ts / dt)
local cp
for i = 1, n_steps do
  model.cycle(1)
  cp = cp or contact.find("ball-wall", 1, 1)
  local vx = ball.vel(1)[1]
  t[#t + 1], v[#v + 1] = model.time(), vx
  if contact.prop(cp, "rr_slip") == 1 then
    local mr, fn = contact.prop(cp, "rr_moment"), contact.prop(cp, "lin_force")[1]
    local mag = math.sqrt(mr[1] ^ 2 + mr[2] ^ 2 + mr[3] ^ 2)
    at_limit = math.max(at_limit, math.abs(mag / (mu_r * r * fn) - 1))
  end
  if not stopped_at and vx <= 0 then stopped_at, x_stop = model.time(), ball.pos(1)[1] end
end
local function v_at(time) return v[math.floor(time / dt + 0.5)] end
local a_sim = (v_at(0.1 * ts) - v_at(0.9 * ts)) / (0.8 * ts)
verify.check{quantity = "deceleration", sim = a_sim, ref = a, tol = 2e-4}
verify.check{quantity = "stopping_time", sim = stopped_at, ref = ts, tol = 2e-4}
verify.check{quantity = "rolling_distance", sim = x_stop, ref = v0 * v0 / (2 * a), tol = 2e-4}
verify.check{quantity = "moment_at_limit_while_slipping", sim = at_limit, ref = 0, tol = 1e-12,
             kind = "abs"}
local x_end = ball.pos(1)[1]
verify.check{quantity = "stays_after_stopping(|dx|/r)", sim = math.abs(x_end - x_stop) / r,
             ref = 0, tol = 1e-4, kind = "abs"}
local e = energy.get()
local ek0 = 0.5 * m * v0 * v0 * (1 + kappa)
verify.check{quantity = "rolling_slip_loss/initial_kinetic", sim = e.slip / ek0, ref = 1,
             tol = 1e-4}
verify.check{quantity = "|balance|/initial_kinetic", sim = math.abs(e.balance) / ek0, ref = 0,
             tol = 1e-4, kind = "abs"}
local csv = verify.path(string.format("rolling_resistance_%dd.csv", dim))
local f = assert(io.open(csv, "w"))
f:write("step,time,v,v_closed_form\n")
for i = 1, #t, 100 do
  f:write(string.format("%d,%.10g,%.10g,%.10g\n", i, t[i], v[i], math.max(v0 - a * t[i], 0)))
end
f:close()
plot.history{csv = csv, out = verify.path(string.format("rolling_resistance_%dd.png", dim)),
             y = {"v", "v_closed_form"}, labels = {"cairn", "closed form"},
             title = string.format("Rolling resistance (rrlinear): ball rolling to rest on a " ..
                                   "level floor, mu_r = %g, %dD", mu_r, dim),
             xlabel = "t [s]", ylabel = "speed of the centre [m/s]"}

-- 3: the incline, below and above tan(theta) = mu_r, from rest.
for _, f_ in ipairs{0.8, 1.2} do
  local theta = math.atan(f_ * mu_r)
  setup(theta, 0, false)
  local x0 = ball.pos(1)[1]
  local T = 0.2
  local xs = {}
  local steps = math.floor(T / dt)
  for i = 1, steps do
    model.cycle(1)
    xs[i] = ball.pos(1)[1] - x0
  end
  local tag = string.format("incline_tan=%.1f_mu_r", f_)
  if f_ < 1 then
    local worst = 0
    for i = 1, steps do worst = math.max(worst, math.abs(xs[i])) end
    verify.check{quantity = tag .. "_at_rest(max|dx|/r)", sim = worst / r, ref = 0, tol = 1e-4,
                 kind = "abs"}
  else
    local acc = g * (math.sin(theta) - mu_r * math.cos(theta)) / (1 + kappa)
    local i1, i2 = math.floor(steps / 2), steps
    local t1, t2 = i1 * dt, i2 * dt
    -- x = x_s + a t^2 / 2 after the short elastic start: the acceleration from three points
    local i0 = math.floor(steps / 4)
    local t0 = i0 * dt
    local v1 = (xs[i1] - xs[i0]) / (t1 - t0)
    local v2 = (xs[i2] - xs[i1]) / (t2 - t1)
    local acc_sim = (v2 - v1) / ((t2 - t0) / 2)
    verify.check{quantity = tag .. "_acceleration", sim = acc_sim, ref = acc, tol = 2e-4}
  end
end
