-- Rolling and twisting resistance added to the hertz model (the add-on of docs/contact-models.md,
-- "Rolling and twisting resistance"), against closed forms (3D; rolling_hertz_2d.lua runs the
-- rolling part in 2D, where there is no twisting). A ball (radius 0.01 m, 2500 kg/m3) on a fixed
-- rigid floor under g = 9.81, hz_poiss = 0.25 and hz_shear chosen so that the static Hertz
-- overlap (m g / ((4/3) E* sqrt(r)))^(2/3) is 1e-5 r in both dimensions, fric = 0.5 (it never
-- slides), dp_nratio = 0.3, rr_fric = mu_r = 0.1, rr_kr default (k_t R*^2, k_t = 8 G* sqrt(R* d)
-- the Mindlin stiffness, R* = r on a wall), dt = 0.1 sqrt(m / k_n), k_n = 1.5 m g / d the
-- static tangent stiffness (8e-6 s). F_n in the limits is the Hertz spring force, m g at rest.
-- Rigid-body mechanics with a rolling moment M = mu_r r F_n opposing the rolling
-- (kappa = I / (m r^2): 2/5 sphere, 1/2 disk), as for rrlinear (rolling_resistance_3d.lua):
--  1. rolling on the level from v0 = 0.5 m/s (spin v0/r): the ball decelerates at
--     a = mu_r g / (1 + kappa) and stops after t = v0 / a, having rolled v0^2 / (2 a); then it
--     stays (the rolling spring holds it);
--  2. while it rolls, the moment sits exactly at its limit mu_r R* F_n;
--  3. on an incline of angle theta (gravity tilted), it stays at rest if tan(theta) < mu_r and
--     rolls down at a = g (sin(theta) - mu_r cos(theta)) / (1 + kappa) if above.
--  4. (3D) twisting: the ball spinning about the floor's normal at w0 = 50 rad/s, with
--     tw_fric = mu_t = 0.1 and no rolling resistance: the twisting moment sits at its limit
--     M_t = mu_t R* F_n = mu_t r m g, so the spin falls at M_t / I = mu_t g / (kappa r) and
--     stops at t = w0 kappa r / (mu_t g); then the twisting spring holds it; the twisting slip
--     loss is the spin's kinetic energy I w0^2 / 2. The same runs with rrlinear (linear springs,
--     k_n = m g / d), which has the add-on too.
-- Tolerances, derived: the contact arm is r - overlap/2 and the overlap is 1e-5 r, so the
-- rolling moment's lever differs by that much from the rigid body's; the springs' elastic
-- build-up lasts mu r m g / (k_r w) < 1e-7 s; a stop is found to a step, dt / t_stop < 4e-5.
-- Deceleration (the least-squares slope between 10 % and 90 % of the stopping time), stopping
-- time and distance, incline acceleration, spin stop: 2e-4, several times those. Spin
-- deceleration: 1e-7: the twist involves no lever (the moment acts about the centre) and F_n is
-- m g at rest to rounding, so only the short build-up and the dashpot-damped start remain.
-- Moments at their limit: 1e-12 relative (they are capped to it). At rest: the ball moves less than 1e-4 r (its
-- elastic displacement, m g sin(theta) (1/k_t + r^2/k_r), is about 1e-6 r), and turns less than
-- 1e-4 rad after the twist stops. Energy: the rolling (twisting) slip loss equals the kinetic
-- energy lost, and the balance (second order in dt, as energy_pour_2d.lua derives) is small
-- against the initial kinetic energy: 1e-4 each.
-- Observed (3D; 2D): see docs/contact-models.md, "Rolling and twisting resistance".
local dim = ROLL_DIM or 3
local r, rho, g, mu_r, v0, nu = 0.01, 2500, 9.81, 0.1, 0.5, 0.25
local kappa = dim == 3 and 0.4 or 0.5
local mass = (dim == 3 and 4 / 3 * math.pi * r ^ 3 or math.pi * r * r) * rho
local d0 = 1e-5 * r -- the static overlap
-- Hertz on a rigid wall: E* = 2 G / (1 - nu), F = (4/3) E* sqrt(r) d^1.5 = m g at d0
local estar = mass * g / (4 / 3 * math.sqrt(r) * d0 ^ 1.5)
local shear = estar * (1 - nu) / 2
local dt = 0.1 * math.sqrt(mass / (1.5 * mass * g / d0))
local hertz = {model = "hertz", hz_shear = shear, hz_poiss = nu, fric = 0.5, dp_nratio = 0.3}
local function vec(x, y) return dim == 3 and {x, y, 0} or {x, y} end
local function spinz(w) return dim == 3 and {0, 0, w} or w end

-- A ball resting on the floor y = 0 (overlap d0 under g cos(theta) already), gravity tilted by
-- theta; props: the contact model's, with extra properties.
local function setup(props, theta, v, track, spin)
  model.new{dim = dim}
  contact.cmat_default(props)
  if dim == 2 then
    wall.create{id = 1, nodes = {{-10, 0}, {10, 0}}}
  else
    wall.create{id = 1, kind = "plane", point = {0, 0, 0}, normal = {0, 1, 0}}
  end
  local gn = g * math.cos(theta)
  local d = props.model == "hertz" and d0 * math.cos(theta) ^ (2 / 3) or d0 * math.cos(theta)
  ball.create{id = 1, rad = r, density = rho, pos = vec(0, r - d), vel = vec(v, 0),
              spin = spin or spinz(-v / r)}
  model.gravity(vec(g * math.sin(theta), -gn))
  model.timestep{fix = dt}
  if track then energy.track(true) end
end
-- The least-squares slope of y[i] against t[i] for t in [ta, tb]: a constant rate measured over
-- many steps, the sliders' small elastic oscillations averaging out.
local function slope(t, y, ta, tb)
  local n, st, sy, stt, sty = 0, 0, 0, 0, 0
  for i = 1, #t do
    if t[i] >= ta and t[i] <= tb then
      n, st, sy = n + 1, st + t[i], sy + y[i]
      stt, sty = stt + t[i] * t[i], sty + t[i] * y[i]
    end
  end
  return (n * sty - st * sy) / (n * stt - st * st)
end
local function with(extra)
  local p = {}
  for k, x in pairs(hertz) do p[k] = x end
  for k, x in pairs(extra) do p[k] = x end
  return p
end

-- 1 and 2: rolling on the level.
setup(with{rr_fric = mu_r}, 0, v0, true)
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
    local mr, fn = contact.prop(cp, "rr_moment"), contact.prop(cp, "hz_force")[1]
    local mag = math.sqrt(mr[1] ^ 2 + mr[2] ^ 2 + mr[3] ^ 2)
    at_limit = math.max(at_limit, math.abs(mag / (mu_r * r * fn) - 1))
  end
  if not stopped_at and vx <= 0 then stopped_at, x_stop = model.time(), ball.pos(1)[1] end
end
local a_sim = -slope(t, v, 0.1 * ts, 0.9 * ts)
verify.check{quantity = "deceleration", sim = a_sim, ref = a, tol = 2e-4}
verify.check{quantity = "stopping_time", sim = stopped_at, ref = ts, tol = 2e-4}
verify.check{quantity = "rolling_distance", sim = x_stop, ref = v0 * v0 / (2 * a), tol = 2e-4}
verify.check{quantity = "moment_at_limit_while_slipping", sim = at_limit, ref = 0, tol = 1e-12,
             kind = "abs"}
local x_end = ball.pos(1)[1]
verify.check{quantity = "stays_after_stopping(|dx|/r)", sim = math.abs(x_end - x_stop) / r,
             ref = 0, tol = 1e-4, kind = "abs"}
local e = energy.get()
local ek0 = 0.5 * mass * v0 * v0 * (1 + kappa)
verify.check{quantity = "rolling_slip_loss/initial_kinetic", sim = e.slip / ek0, ref = 1,
             tol = 1e-4}
verify.check{quantity = "|balance|/initial_kinetic", sim = math.abs(e.balance) / ek0, ref = 0,
             tol = 1e-4, kind = "abs"}
local csv = verify.path(string.format("rolling_hertz_%dd.csv", dim))
local f = assert(io.open(csv, "w"))
f:write("step,time,v,v_closed_form\n")
for i = 1, #t, 100 do
  f:write(string.format("%d,%.10g,%.10g,%.10g\n", i, t[i], v[i], math.max(v0 - a * t[i], 0)))
end
f:close()
plot.history{csv = csv, out = verify.path(string.format("rolling_hertz_%dd.png", dim)),
             y = {"v", "v_closed_form"}, labels = {"cairn", "closed form"},
             title = string.format("Rolling resistance with hertz: ball rolling to rest on a " ..
                                   "level floor, mu_r = %g, %dD", mu_r, dim),
             xlabel = "t [s]", ylabel = "speed of the centre [m/s]"}

-- 3: the incline, below and above tan(theta) = mu_r, from rest.
for _, f_ in ipairs{0.8, 1.2} do
  local theta = math.atan(f_ * mu_r)
  setup(with{rr_fric = mu_r}, theta, 0, false)
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
    -- x = x_s + a t^2 / 2 after the short elastic start: the acceleration from three points
    local i0, i1, i2 = math.floor(steps / 4), math.floor(steps / 2), steps
    local t0, t1, t2 = i0 * dt, i1 * dt, i2 * dt
    local v1 = (xs[i1] - xs[i0]) / (t1 - t0)
    local v2 = (xs[i2] - xs[i1]) / (t2 - t1)
    local acc_sim = (v2 - v1) / ((t2 - t0) / 2)
    verify.check{quantity = tag .. "_acceleration", sim = acc_sim, ref = acc, tol = 2e-4}
  end
end

-- 4: twisting (3D): the spin about the normal falls at mu_t g / (kappa r).
if dim == 3 then
  local mu_t, w0 = 0.1, 50
  local I = kappa * mass * r * r
  local rate = mu_t * g / (kappa * r)
  local t_stop = w0 / rate
  local linear = {model = "rrlinear", kn = mass * g / d0, ks = mass * g / d0, fric = 0.5,
                  dp_nratio = 0.3}
  for _, props in ipairs{with{tw_fric = mu_t}, linear} do
    if props.model == "rrlinear" then props.tw_fric = mu_t end
    setup(props, 0, 0, true, {0, w0, 0})
    local ts_, ws, worst, stopped, th_stop = {}, {}, 0, nil, nil
    local fname = props.model == "hertz" and "hz_force" or "lin_force"
    local theta = 0 -- the angle turned about y since the start (spins live at half steps)
    for i = 1, math.floor(1.3 * t_stop / dt) do
      model.cycle(1)
      local wy = ball.spin(1)[2]
      theta = theta + wy * dt
      ts_[i], ws[i] = model.time(), wy
      local cp_ = contact.find("ball-wall", 1, 1)
      if contact.prop(cp_, "tw_slip") == 1 then
        local mt, fn = contact.prop(cp_, "tw_moment"), contact.prop(cp_, fname)[1]
        worst = math.max(worst, math.abs(math.abs(mt) / (mu_t * r * fn) - 1))
      end
      if not stopped and wy <= 0 then stopped, th_stop = model.time(), theta end
    end
    local tag = props.model .. "_twist_"
    local rate_sim = -slope(ts_, ws, 0.1 * t_stop, 0.9 * t_stop)
    verify.check{quantity = tag .. "spin_deceleration", sim = rate_sim, ref = rate, tol = 1e-7}
    verify.check{quantity = tag .. "stopping_time", sim = stopped, ref = t_stop, tol = 2e-4}
    verify.check{quantity = tag .. "moment_at_limit_while_slipping", sim = worst, ref = 0,
                 tol = 1e-12, kind = "abs"}
    verify.check{quantity = tag .. "stays_after_stopping(|dtheta|_rad)",
                 sim = math.abs(theta - th_stop), ref = 0, tol = 1e-4, kind = "abs"}
    local en = energy.get()
    local ek = 0.5 * I * w0 * w0
    verify.check{quantity = tag .. "slip_loss/initial_kinetic", sim = en.slip / ek, ref = 1,
                 tol = 1e-4}
    verify.check{quantity = tag .. "|balance|/initial_kinetic", sim = math.abs(en.balance) / ek,
                 ref = 0, tol = 1e-4, kind = "abs"}
  end
end
