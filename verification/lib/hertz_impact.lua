-- One impact with the hertz model, run step by step, and the closed forms of Hertz's elastic
-- impact: what the Chung & Ooi (2011) cases share (hertz_*.lua load this file).
--
-- Geometry, in the x-y plane in 2D and 3D alike: ball 1 at the origin and ball 2 to its right
-- (normal +x, tangential +y), or a floor y = 0 (a segment in 2D, a plane in 3D) under ball 2
-- (normal +y, tangential +x). Spins are about z.
local M = {}
local CSV = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "csv.lua")
local pi = math.pi

-- Mass of a ball of density rho and radius r: sphere in 3D, disk of unit thickness in 2D.
function M.mass(dim, rho, r)
  return dim == 3 and rho * 4 / 3 * pi * r ^ 3 or rho * pi * r * r
end

-- E* and G* of two materials (G = E / (2 (1 + nu))); m2 nil: a rigid second body.
function M.effective(E1, nu1, E2, nu2)
  local G1 = E1 / (2 * (1 + nu1))
  local ie, ig = (1 - nu1 ^ 2) / E1, (2 - nu1) / G1
  if E2 then
    local G2 = E2 / (2 * (1 + nu2))
    ie, ig = ie + (1 - nu2 ^ 2) / E2, ig + (2 - nu2) / G2
  end
  return 1 / ie, 1 / ig
end

-- Hertz's elastic impact at relative approach speed v: maximum overlap, maximum force and
-- duration. Energy: m* v^2 / 2 = (2/5) K dmax^(5/2), K = (4/3) E* sqrt(R*); the duration is
-- 2 (dmax / v) int_0^1 dx / sqrt(1 - x^(5/2)) = (4/5) B(2/5, 1/2) dmax / v = 2.94329 dmax / v.
M.DURATION_FACTOR = 0.8 * 2.2181595437576882 * 1.7724538509055160 / 1.0686287021193193
function M.hertz_closed(mstar, Rstar, Estar, v)
  local K = 4 / 3 * Estar * math.sqrt(Rstar)
  local dmax = (15 * mstar * v * v / (16 * Estar * math.sqrt(Rstar))) ^ 0.4
  return {dmax = dmax, fmax = K * dmax ^ 1.5, tc = M.DURATION_FACTOR * dmax / v, K = K}
end

-- Overlap and force of Hertz's elastic impact at time t after first touch, from the scaled
-- equation x'' = -x^(3/2), x(0) = 0, x'(0) = 1 (overlap = L x, t = (L / v) s,
-- L = (m* v^2 / K)^(2/5)), integrated here with classical Runge-Kutta at 20 000 steps per
-- contact (an integrator independent of the engine's; its error, ~1e-12 of the peak, is far
-- below the tolerances).
function M.elastic_reference(cf, mstar, v)
  local L = (mstar * v * v / cf.K) ^ 0.4
  local T = L / v
  local n, smax = 20000, cf.tc / T * 1.02
  local h = smax / n
  local xs, x, u = {[0] = 0}, 0, 1
  local function acc(y) return y > 0 and -y ^ 1.5 or 0 end
  for i = 1, n do
    local k1x, k1u = u, acc(x)
    local k2x, k2u = u + h / 2 * k1u, acc(x + h / 2 * k1x)
    local k3x, k3u = u + h / 2 * k2u, acc(x + h / 2 * k2x)
    local k4x, k4u = u + h * k3u, acc(x + h * k3x)
    x = x + h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
    u = u + h / 6 * (k1u + 2 * k2u + 2 * k3u + k4u)
    xs[i] = x
  end
  return function(t) -- overlap and force at time t (>= 0), linear between the fine steps
    local s = t / T / h
    local i = math.floor(s)
    if i >= n then return 0, 0 end
    local xi = xs[i] + (xs[i + 1] - xs[i]) * (s - i)
    if xi <= 0 then return 0, 0 end
    return L * xi, cf.K * (L * xi) ^ 1.5
  end
end

-- Run one impact. o: dim, r1 (nil: ball 2 on the floor), r2, rho1, rho2, props (the hertz
-- properties), v1 = {vx, vy}, v2 = {vx, vy}, w1, w2 (spins about z), dt, gap0 (initial surface
-- gap), steps (limit). Returns the samples of the active steps (time, overlap, normal and
-- tangential force), the final velocities and spins, the contact duration from the free flight
-- before and after (exact for the discrete motion: without forces a position moves on a line),
-- and the largest overlap and force seen.
function M.impact(o)
  local dim = o.dim
  model.new{dim = dim}
  local props = {model = "hertz"}
  for k, v in pairs(o.props) do props[k] = v end
  contact.cmat_default(props)
  local function vec(x, y) return dim == 3 and {x, y, 0} or {x, y} end
  local function spin(w) return dim == 3 and {0, 0, w or 0} or w or 0 end
  local on_floor = o.r1 == nil
  if on_floor then
    if dim == 2 then
      wall.create{id = 1, nodes = {{-10, 0}, {10, 0}}}
    else
      wall.create{id = 1, kind = "plane", point = {0, 0, 0}, normal = {0, 1, 0}}
    end
    ball.create{id = 2, rad = o.r2, pos = vec(0, o.r2 + o.gap0), vel = vec(o.v2[1], o.v2[2]),
                spin = spin(o.w2), density = o.rho2}
  else
    ball.create{id = 1, rad = o.r1, pos = vec(0, 0), vel = vec(o.v1[1], o.v1[2]),
                spin = spin(o.w1), density = o.rho1}
    ball.create{id = 2, rad = o.r2, pos = vec(o.r1 + o.r2 + o.gap0, 0),
                vel = vec(o.v2[1], o.v2[2]), spin = spin(o.w2), density = o.rho2}
  end
  model.timestep{fix = o.dt}
  local na = on_floor and 2 or 1 -- the normal axis
  local function gap()
    if on_floor then return ball.pos(2)[2] - o.r2 end
    local p1, p2 = ball.pos(1), ball.pos(2)
    return math.sqrt((p2[1] - p1[1]) ^ 2 + (p2[2] - p1[2]) ^ 2) - o.r1 - o.r2
  end
  local rec = {t = {}, overlap = {}, fn = {}, fs = {}, gaps = {}, times = {}}
  local first, last
  callback.on("after_force", function()
    local n = #rec.gaps + 1
    rec.gaps[n], rec.times[n] = gap(), model.time()
    local cp = on_floor and contact.find("ball-wall", 2, 1) or contact.find("ball-ball", 1, 2)
    if cp and contact.active(cp) then
      first = first or n
      last = n
      local f = contact.force(cp) -- (normal, s, t)
      rec.t[#rec.t + 1] = model.time()
      rec.overlap[#rec.overlap + 1] = -contact.gap(cp)
      rec.fn[#rec.fn + 1] = f[1]
      rec.fs[#rec.fs + 1] = contact.force_global(cp)[on_floor and 1 or 2]
    end
  end)
  for _ = 1, o.steps or 1000000 do
    model.cycle(1)
    if last and #rec.gaps >= last + 3 then break end
  end
  assert(first and last and #rec.gaps >= last + 3, "the contact did not open within the run")
  -- The gap moves on a line between forces: the last free step before first touch and the
  -- first after separation, extrapolated to zero with the rates of their half steps.
  local dt = o.dt
  local function root(n, toward)
    local rate = (rec.gaps[n + toward] - rec.gaps[n]) / (toward * dt)
    return rec.times[n] - rec.gaps[n] / rate, rate
  end
  local n0, n1 = first - 1, last + 1
  assert(n0 >= 2, "start the balls further apart: no free step before the contact")
  local t_touch, rate_in = root(n0, -1)
  local t_sep, rate_out = root(n1, 1)
  rec.t_touch, rec.duration = t_touch, t_sep - t_touch
  rec.v_in, rec.v_out = -rate_in, rate_out
  for i = 1, #rec.t do rec.t[i] = rec.t[i] - t_touch end
  rec.dmax, rec.fmax = 0, 0
  for i = 1, #rec.t do
    rec.dmax = math.max(rec.dmax, rec.overlap[i])
    rec.fmax = math.max(rec.fmax, rec.fn[i])
  end
  rec.vel2, rec.spin2 = ball.vel(2), ball.spin(2)
  if not on_floor then rec.vel1, rec.spin1 = ball.vel(1), ball.spin(1) end
  rec.normal_axis = na
  return rec
end

-- An elastic normal impact checked against Hertz's closed forms (Chung & Ooi tests 1 and 2; the
-- tolerances are derived in hertz_co1_3d.lua). o: test (1: two identical balls, each at speed v
-- towards the other; 2: a ball at speed v onto a rigid floor), dim, mat = {name, E, nu, rho},
-- r, v. Checks the peak overlap and force, the duration, the restitution, the duration's order
-- of convergence and the force history at dt = tc/100, and draws the paper's two figures.
function M.elastic_normal_case(o)
  local dim, mat, r, v = o.dim, o.mat, o.r, o.v
  local pair = o.test == 1
  local tag = string.format("hertz_co%d_%s_%dd", o.test, mat.name, dim)
  local m = M.mass(dim, mat.rho, r)
  local mstar, rstar, vrel = pair and m / 2 or m, pair and r / 2 or r, pair and 2 * v or v
  local Estar = pair and M.effective(mat.E, mat.nu, mat.E, mat.nu) or M.effective(mat.E, mat.nu)
  local cf = M.hertz_closed(mstar, rstar, Estar, vrel)
  local props = {hz_shear = mat.E / (2 * (1 + mat.nu)), hz_poiss = mat.nu, fric = mat.fric or 0}
  local function run(div)
    local dt = cf.tc / div
    if pair then
      return M.impact{dim = dim, r1 = r, r2 = r, rho1 = mat.rho, rho2 = mat.rho, props = props,
                      v1 = {v, 0}, v2 = {-v, 0}, dt = dt, gap0 = vrel * dt * 2.37}, dt
    end
    return M.impact{dim = dim, r2 = r, rho2 = mat.rho, props = props, v2 = {0, -v}, dt = dt,
                    gap0 = vrel * dt * 2.37}, dt
  end
  local rec, dt = run(100)
  local tol = 2 * (dt / cf.tc) ^ 2
  verify.check{quantity = mat.name .. "_max_overlap", sim = rec.dmax, ref = cf.dmax, tol = tol}
  verify.check{quantity = mat.name .. "_max_force", sim = rec.fmax, ref = cf.fmax, tol = tol}
  verify.check{quantity = mat.name .. "_duration", sim = rec.duration, ref = cf.tc, tol = tol}
  verify.check{quantity = mat.name .. "_restitution", sim = rec.v_out / rec.v_in, ref = 1,
               tol = tol}
  local half = run(200)
  local order = math.log((rec.duration / cf.tc - 1) / (half.duration / cf.tc - 1), 2)
  verify.check{quantity = mat.name .. "_duration_order", sim = math.min(order, 2), ref = 2,
               tol = 0.2, kind = "abs"}
  local ref = M.elastic_reference(cf, mstar, vrel)
  local fr = {}
  for i = 1, #rec.t do fr[i] = select(2, ref(rec.t[i])) end
  verify.curve{quantity = mat.name .. "_force(t)", sim = rec.fn, ref = fr, tol = tol,
               scale = cf.fmax}
  -- the paper's units: microseconds, micrometres, kilonewtons
  local us, ov, kn, krf, khz = {}, {}, {}, {}, {}
  for i = 1, #rec.t do
    us[i], ov[i], kn[i] = rec.t[i] * 1e6, rec.overlap[i] * 1e6, rec.fn[i] / 1e3
    krf[i], khz[i] = fr[i] / 1e3, cf.K * rec.overlap[i] ^ 1.5 / 1e3
  end
  local csv = verify.path(tag .. ".csv")
  M.write_csv(csv, rec.t, {us, ov, kn, krf, khz},
              {"t_us", "overlap_um", "fn_kN", "fn_reference_kN", "fn_hertz_kN"})
  local unit = dim == 2 and "kN per m of thickness" or "kN"
  local title = string.format("Chung & Ooi test %d: elastic impact %s, %s, %dD", o.test,
                              pair and "of two equal balls" or "of a ball on a rigid wall",
                              mat.name:gsub("_", " "), dim)
  plot.history{csv = csv, out = verify.path(tag .. "_force_time.png"), x = "t_us",
               y = {"fn_kN", "fn_reference_kN"},
               labels = {"cairn", "Hertz law integrated (Runge-Kutta)"},
               title = title .. ": normal force",
               xlabel = "time since first touch [us]", ylabel = "normal force [" .. unit .. "]"}
  -- cairn's samples as markers on the closed form's line (the loading and unloading samples
  -- fall on the same curve)
  plot.history{csv = csv, out = verify.path(tag .. "_force_overlap.png"), x = "overlap_um",
               y = {"fn_kN", "fn_hertz_kN"}, labels = {"cairn", "Hertz closed form"},
               styles = {"points", "line"}, title = title .. ": force against overlap",
               xlabel = "overlap [um]", ylabel = "normal force [" .. unit .. "]"}
end

-- Write columns as a CSV that plot.history reads (lib/csv.lua).
M.write_csv = CSV.write

return M
