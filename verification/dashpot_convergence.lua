-- Linear model, normal dashpot: timestep-halving study, and the helpers every dashpot_* case
-- shares (a case loads this file with DASHPOT_LIB = true and gets the helper table back).
--
-- As a case: restitution of seed 004's case study 1 (m1 = m2 = 5, kn = 5e3, alpha = 0.5) and
-- of the unequal-mass case (m1 = 5, m2 = 15, kn = 1e5 * 1e6 / 1.1e6, alpha = 0.4) at
-- dt = tc/25, tc/50, ..., tc/400, each the worst over 20 contact-onset phases, against the
-- closed form e = exp(-alpha pi / sqrt(1 - alpha^2)) (seed 004, Eq. 10). The observed order
-- p = log2(err(dt) / err(dt/2)) must be >= 1.8 at every halving (second order; the scheme of
-- docs/models/linear-dashpot.md has no first-order term left), and the worst error at tc/50
-- within 0.5 %. Observed (3D and 2D identical), worst over the phases at tc/25 ... tc/400:
-- case 1: 1.19e-3, 2.51e-4, 3.12e-5, 2.07e-6, 4.86e-7 (orders 2.24, 3.01, 3.91, 2.09);
-- unequal masses: 1.83e-3, 2.04e-4, 4.99e-5, 8.59e-6, 2.13e-6 (orders 3.16, 2.03, 2.54, 2.01).
local M = {}
local CSV = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "lib/csv.lua")
local pi = math.pi

-- Mass -> density of a ball of radius r: 3D sphere m = 4/3 rho pi r^3, 2D disk m = rho pi r^2.
function M.density(dim, m, r)
  return dim == 3 and m / (4 / 3 * pi * r ^ 3) or m / (pi * r * r)
end

-- Closed forms of the linear spring-dashpot (seed 004, Eqs. 6a-6d, 9, 10).
function M.closed(m, k, alpha)
  local w0 = math.sqrt(k / m)
  local beta = alpha * w0
  local t = {w0 = w0, beta = beta, c = 2 * alpha * math.sqrt(m * k), m = m, k = k}
  if alpha < 1 then
    t.w = w0 * math.sqrt(1 - alpha * alpha)
    t.tc = pi / t.w
    t.e = math.exp(-alpha * pi / math.sqrt(1 - alpha * alpha))
  else
    t.Om = w0 * math.sqrt(alpha * alpha - 1)
  end
  return t
end

-- Overlap (> 0 in compression) and normal force (> 0 in compression) at time t after first
-- touch, for approach speed v (the paper's v0 = -v): seed 004 Eqs. 7a / 7b and 14a / 14b,
-- whose xi is minus the overlap.
function M.overlap(cf, v, t)
  if cf.w then return v / cf.w * math.exp(-cf.beta * t) * math.sin(cf.w * t) end
  return v / cf.Om * math.exp(-cf.beta * t) * (math.exp(cf.Om * t) - math.exp(-cf.Om * t)) / 2
end
function M.force(cf, v, t)
  local b, x = cf.beta, math.exp(-cf.beta * t)
  if cf.w then
    local w = cf.w
    return -cf.m * v / w * (b * b * x * math.sin(w * t) - w * w * x * math.sin(w * t) -
                            2 * w * b * x * math.cos(w * t))
  end
  local O = cf.Om
  local sh, ch = (math.exp(O * t) - math.exp(-O * t)) / 2, (math.exp(O * t) + math.exp(-O * t)) / 2
  return -cf.m * v / O * (b * b * x * sh + O * O * x * sh - 2 * O * b * x * ch)
end

-- Time s in [lo, hi] where a free-flight parabola g0 + w s + a s^2 / 2 (gap g0 at s = 0,
-- gap rate w, acceleration a) reaches zero; the root nearest 'near'.
local function flight_root(g0, w, a, near)
  if a == 0 then return -g0 / w end
  local disc = math.sqrt(w * w - 2 * a * g0)
  local r1, r2 = (-w - disc) / a, (-w + disc) / a
  return math.abs(r1 - near) < math.abs(r2 - near) and r1 or r2
end

-- One collision, run step by step. o: dim, m1, m2 (nil: ball 2 against a fixed wall), kn,
-- ratio, mode, dt, gap0 (initial surface gap), v (approach speed; the ball(s) start with it
-- unless drop = true: released from rest under gravity g), g (gravity, towards the wall),
-- fix1 (ball 1 held still by fixing its velocity), steps (limit), window (see below).
-- Returns a record with the samples of the active steps (time since first touch, overlap, force),
-- the measured restitution, the contact duration by step count and by the free-flight lines or
-- parabolas before and after (exact for the discrete motion: positions follow them exactly
-- between forces), the impact and rebound speeds, the separation speed, and the m_eff check.
function M.collide(o)
  local dim, r = o.dim, 0.1
  local g = o.g or 0
  model.new{dim = dim}
  local ax = o.m1 == nil and dim or 1 -- the wall case runs along y (2D) or z (3D)
  local function vec(a)
    local t = {0, 0, 0}
    t[ax] = a
    if dim == 2 then t[3] = nil end
    return t
  end
  if g ~= 0 then model.gravity(vec(-g)) end
  contact.cmat_default{model = "linear", kn = o.kn, dp_nratio = o.ratio, dp_mode = o.mode or 0}
  local v0 = o.drop and 0 or o.v
  if o.m1 then -- ball 1 at the origin moving +x, ball 2 to its right moving -x
    ball.create{id = 1, rad = r, pos = vec(0), vel = vec(o.fix1 and 0 or v0 / 2),
                density = M.density(dim, o.m1, r)}
    ball.create{id = 2, rad = r, pos = vec(2 * r + o.gap0), vel = vec(o.fix1 and -v0 or -v0 / 2),
                density = M.density(dim, o.m2, r)}
    if o.fix1 then ball.fix{"velocity", id = 1} end
  else -- a wall through the origin, ball 2 above it falling towards it
    if dim == 2 then
      wall.create{id = 1, nodes = {{-10, 0}, {10, 0}}}
    else
      wall.create{id = 1, kind = "plane", point = {0, 0, 0}, normal = {0, 0, 1}}
    end
    ball.create{id = 2, rad = r, pos = vec(r + o.gap0), vel = vec(-v0),
                density = M.density(dim, o.m2, r)}
  end
  model.timestep{fix = o.dt}
  -- Gap and approach speed (the relative velocity of the previous half step) at each step's
  -- force computation.
  local function gap()
    if o.m1 then return ball.pos(2)[ax] - ball.pos(1)[ax] - 2 * r end
    return ball.pos(2)[ax] - r
  end
  local function approach()
    if o.m1 then return ball.vel(1)[ax] - ball.vel(2)[ax] end
    return -ball.vel(2)[ax]
  end
  local rec = {t = {}, overlap = {}, force = {}, gaps = {}, speeds = {}, times = {}}
  local first, last
  callback.on("after_force", function()
    local n = #rec.gaps + 1
    rec.gaps[n], rec.speeds[n], rec.times[n] = gap(), approach(), model.time()
    local cp = o.m1 and contact.find("ball-ball", 1, 2) or contact.find("ball-wall", 2, 1)
    if cp and contact.active(cp) then
      first = first or n
      last = n
      rec.force[#rec.force + 1] = contact.force(cp)[1]
      rec.overlap[#rec.overlap + 1] = -contact.gap(cp)
      rec.t[#rec.t + 1] = model.time()
    end
  end)
  -- With 'window', run exactly that many steps and skip the free-flight analysis (a contact
  -- that need not open, as the over-damped one).
  if o.window then
    model.cycle(o.window)
    rec.first_step = first
    return rec
  end
  for _ = 1, o.steps or 100000 do
    model.cycle(1)
    if last and #rec.gaps >= last + 3 then break end
  end
  assert(first and last and #rec.gaps >= last + 3, "the contact did not open within the run")
  rec.n_active = last - first + 1
  rec.count_duration = rec.n_active * o.dt
  -- Touch and separation from the free flight on either side of the contact. Between forces a
  -- position follows a parabola (a line without gravity) exactly, with the half-step velocity
  -- as its rate at mid-step: so the gap rate at step n is minus the approach speed of the half
  -- step after it, minus acc dt/2 (acc: the gap's acceleration in flight).
  local dt, acc = o.dt, -g
  local function rate(n) return -rec.speeds[n + 1] - acc * dt / 2 end
  local n0, n1 = first - 1, last + 1 -- the last free step before, the first free step after
  local s0 = flight_root(rec.gaps[n0], rate(n0), acc, dt / 2)
  rec.t_touch = rec.times[n0] + s0
  rec.v_in = -(rate(n0) + acc * s0)
  local s1 = flight_root(rec.gaps[n1], rate(n1), acc, -dt / 2)
  rec.t_sep = rec.times[n1] + s1
  rec.v_out = rate(n1) + acc * s1
  rec.e = rec.v_out / rec.v_in
  rec.duration = rec.t_sep - rec.t_touch
  for i = 1, #rec.t do rec.t[i] = rec.t[i] - rec.t_touch end
  rec.final_speed = -rec.speeds[#rec.speeds]
  return rec
end

-- Write columns as a CSV that plot.history reads (lib/csv.lua).
M.write_csv = CSV.write

-- Worst relative restitution error over 'phases' onset phases at dt = tc / div, and each one.
function M.sweep(dim, p, div, phases)
  local cf = M.closed(p.m1 and p.m1 * p.m2 / (p.m1 + p.m2) or p.m2, p.kn, p.ratio)
  local dt = cf.tc / div
  local errs, worst = {}, 0
  for j = 0, phases - 1 do
    local rec = M.collide{dim = dim, m1 = p.m1, m2 = p.m2, kn = p.kn, ratio = p.ratio, dt = dt,
                          v = 2, gap0 = 2 * dt * (1 + j / phases)}
    errs[j + 1] = rec.e / cf.e - 1
    if math.abs(errs[j + 1]) > math.abs(worst) then worst = errs[j + 1] end
  end
  return worst, errs, cf, dt
end

M.case1 = {m1 = 5, m2 = 5, kn = 1e4 * 1e4 / 2e4, ratio = 0.5}
M.unequal = {m1 = 5, m2 = 15, kn = 1e5 * 1e6 / 1.1e6, ratio = 0.4}
M.wall = {m2 = 5, kn = 1e5, ratio = 0.3}

if DASHPOT_LIB then return M end

-- The case itself: timestep halving.
for _, dim in ipairs{3, 2} do
  for _, name in ipairs{"case1", "unequal"} do
    local prev
    for _, div in ipairs{25, 50, 100, 200, 400} do
      local worst = M.sweep(dim, M[name], div, 20)
      local q = string.format("%s_%dd_worst_e_err(tc/%d)", name, dim, div)
      if div == 50 then
        verify.check{quantity = q, sim = math.abs(worst), ref = 0, tol = 5e-3, kind = "abs"}
      else
        io.stderr:write(string.format("dashpot_convergence: %s = %.3e\n", q, math.abs(worst)))
      end
      if prev then
        -- One-sided: the row's simulated value is how far the order falls short of 1.8 (0 when
        -- it reaches it); the order itself is in the quantity's name.
        local order = math.log(math.abs(prev) / math.abs(worst), 2)
        verify.check{quantity = string.format("%s_%dd_order(tc/%d->tc/%d)=%.2f_shortfall_below_1.8",
                                              name, dim, div // 2, div, order),
                     sim = math.max(0, 1.8 - order), ref = 0, tol = 0, kind = "abs"}
      end
      prev = worst
    end
  end
end
