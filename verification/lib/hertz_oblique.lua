-- Chung & Ooi tests 4-8 (oblique and spinning impacts): runs the impacts whose inputs and
-- reference results verification/reference/hertz_oblique.py wrote to hertz_oblique.csv, and
-- checks cairn's velocities and spins after each impact against the reference.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local H = dofile(here .. "hertz_impact.lua")
local M = {H = H}

-- The reference rows of one test and dimension, numbers converted.
function M.rows(test, dim)
  local f = assert(io.open(here .. "../reference/hertz_oblique.csv"))
  local names, out = nil, {}
  for line in f:lines() do
    local cells = {}
    for cell in line:gmatch("[^,]+") do cells[#cells + 1] = cell end
    if not names then
      names = cells
    else
      local row = {}
      for i, k in ipairs(names) do row[k] = tonumber(cells[i]) or cells[i] end
      if row.test == test and row.dim == dim then out[#out + 1] = row end
    end
  end
  f:close()
  assert(#out > 0, "no reference rows for this test")
  return out
end

-- Run one reference row in cairn at dt = tc / div (tc: Hertz's elastic duration at the normal
-- approach speed). Returns the record of H.impact with the speed and spin scales of the row.
function M.run(row, div)
  local dim, wall = row.dim, row.r1 == 0
  local props = {fric = row.mu, dp_mode = row.dp_mode, hz_res = row.e}
  local m2 = H.mass(dim, row.rho2, row.r2)
  local mstar, rstar, Estar
  if wall then
    props.hz_shear, props.hz_poiss = row.E2 / (2 * (1 + row.nu2)), row.nu2
    mstar, rstar, Estar = m2, row.r2, H.effective(row.E2, row.nu2)
  else
    local m1 = H.mass(dim, row.rho1, row.r1)
    props.hz_shear, props.hz_poiss = row.E1 / (2 * (1 + row.nu1)), row.nu1
    props.hz_shear2, props.hz_poiss2 = row.E2 / (2 * (1 + row.nu2)), row.nu2
    mstar, rstar = m1 * m2 / (m1 + m2), row.r1 * row.r2 / (row.r1 + row.r2)
    Estar = H.effective(row.E1, row.nu1, row.E2, row.nu2)
  end
  local u = wall and -row.v2y or row.v1x - row.v2x -- normal approach speed
  local cf = H.hertz_closed(mstar, rstar, Estar, u)
  local dt = cf.tc / div
  local rec = H.impact{dim = dim, r1 = not wall and row.r1 or nil, r2 = row.r2,
                       rho1 = row.rho1, rho2 = row.rho2, props = props,
                       v1 = {row.v1x, row.v1y}, v2 = {row.v2x, row.v2y}, w1 = row.w1,
                       w2 = row.w2, dt = dt, gap0 = u * dt * 2.37}
  -- scales: the largest incoming speed (normal, or of a surface point), and that over the radius
  local vs = math.abs(row.v2x - row.v1x) + math.abs(row.w1) * row.r1 + math.abs(row.w2) * row.r2
  rec.vscale = math.max(u, vs)
  rec.dt, rec.tc = dt, cf.tc
  return rec
end

local function spin_z(w) return type(w) == "table" and w[3] or w end

-- Errors of a run against its row: the largest velocity error over vscale and spin error over
-- vscale / r, over both balls.
function M.errors(row, rec)
  local ev = math.max(math.abs(rec.vel2[1] - row.v2x_out), math.abs(rec.vel2[2] - row.v2y_out))
  local ew = math.abs(spin_z(rec.spin2) - row.w2_out) * row.r2
  if row.r1 > 0 then
    ev = math.max(ev, math.abs(rec.vel1[1] - row.v1x_out), math.abs(rec.vel1[2] - row.v1y_out))
    ew = math.max(ew, math.abs(spin_z(rec.spin1) - row.w1_out) * row.r1)
  end
  return ev / rec.vscale, ew / rec.vscale
end

-- Run every row of a test and dimension, check each against the reference within tol (of the
-- scale), and return the rows with cairn's results added (sim_v1x ... sim_w2).
function M.check_all(test, dim, div, tol)
  local rows = M.rows(test, dim)
  local worst = {}
  for _, row in ipairs(rows) do
    local rec = M.run(row, div)
    row.sim_v2x, row.sim_v2y, row.sim_w2 = rec.vel2[1], rec.vel2[2], spin_z(rec.spin2)
    if row.r1 > 0 then
      row.sim_v1x, row.sim_v1y, row.sim_w1 = rec.vel1[1], rec.vel1[2], spin_z(rec.spin1)
    end
    row.sim_dmax = rec.dmax
    local ev, ew = M.errors(row, rec)
    local w = worst[row.material] or {ev = 0, ew = 0}
    w.ev, w.ew = math.max(w.ev, ev), math.max(w.ew, ew)
    worst[row.material] = w
  end
  local names = {}
  for name in pairs(worst) do names[#names + 1] = name end
  table.sort(names)
  for _, name in ipairs(names) do
    verify.check{quantity = name .. "_velocity_after(worst)", sim = worst[name].ev, ref = 0,
                 tol = tol, kind = "abs"}
    verify.check{quantity = name .. "_spin_after(worst)", sim = worst[name].ew, ref = 0, tol = tol,
                 kind = "abs"}
  end
  return rows
end

-- The paper's trends, from rigid-body impact theory with Coulomb friction (Chung & Ooi's
-- analytical limits): the normal impulse is Jn = m* (1 + e) Vn; while the contact slides
-- throughout, the tangential impulse is Jt = mu Jn; the contact slides throughout when the
-- incoming slip speed Vs of the contact point reaches Vs_c = mu Jn S, S = sum over the free balls
-- of 1/m + r^2/I (the slip speed one unit of tangential impulse removes): tan(theta_c) =
-- Vs_c / Vn = (1 + 1/kappa) mu (1 + e) for a ball on a wall (kappa = I / (m r^2): 2/5 sphere,
-- 1/2 disk). Below it the slip stops during the impact and, for a rigid body, Jt = Vs / S.
-- So Jt / (mu Jn) = min(Vs / Vs_c, 1) whatever the test. Returns per row: x = Vs / Vs_c, the
-- normalised tangential impulse of cairn and of the reference, and the spin change of the
-- first free ball over its rigid-body value Jt r / I.
function M.trend(row)
  local dim = row.dim
  local wall = row.r1 == 0
  local balls = {}
  local function ball_of(k)
    local r, rho = row["r" .. k], row["rho" .. k]
    local m = H.mass(dim, rho, r)
    return {k = k, r = r, m = m, I = (dim == 3 and 0.4 or 0.5) * m * r * r}
  end
  if not wall then balls[#balls + 1] = ball_of(1) end
  balls[#balls + 1] = ball_of(2)
  local mstar = wall and balls[1].m or balls[1].m * balls[2].m / (balls[1].m + balls[2].m)
  -- S with the full arms r, and with the shortest, r - dmax/2 at the peak overlap (the slip
  -- speed one unit of impulse removes is smaller with a shorter arm, so the threshold is lower)
  local S, Smin, half = 0, 0, (row.sim_dmax or 0) / 2
  for _, b in ipairs(balls) do
    S = S + 1 / b.m + b.r * b.r / b.I
    Smin = Smin + 1 / b.m + (b.r - half) ^ 2 / b.I
  end
  -- incoming normal approach and slip speeds (normal +x between balls, +y off the floor)
  local vn = wall and -row.v2y or row.v1x - row.v2x
  local vs = wall and (row.v2x + row.w2 * row.r2) or
                 math.abs((row.v2y - row.v1y) - (row.r1 * row.w1 + row.r2 * row.w2))
  if wall then vs = math.abs(vs) end
  local jslide = row.mu * mstar * (1 + row.e) * vn
  local b = balls[1]
  local k = b.k
  local tan_axis = wall and "x" or "y"
  local jsim = b.m * math.abs(row["sim_v" .. k .. tan_axis] - row["v" .. k .. tan_axis])
  local jref = b.m * math.abs(row["v" .. k .. tan_axis .. "_out"] - row["v" .. k .. tan_axis])
  local wsim = math.abs(row["sim_w" .. k] - row["w" .. k]) * b.I / (math.max(jsim, 1e-300) * b.r)
  return {x = vs / (jslide * S), sim = jsim / jslide, ref = jref / jslide, spin = wsim,
          r = b.r, mstar = mstar, short = Smin / S}
end

-- What each test is, for the figures' titles.
M.what = {[4] = "oblique impact of a ball on a rigid wall",
          [5] = "oblique elastic impact of a ball on a rigid wall",
          [6] = "spinning ball dropped on a rigid wall",
          [7] = "two spinning balls meeting head-on",
          [8] = "spinning ball on a large ball at rest"}

-- Check the trends over the rows of one test and dimension (run by check_all): every row whose
-- slip reaches the threshold (x >= 1) slides throughout, Jt = mu Jn to tol; every row with
-- x <= 0.75 Smin / S sticks during the impact (Smin: S with the arms shortened by dmax/2) (Jt below 0.99 mu Jn); while sliding, the spin changes by
-- Jt a / I with the arm a between r - dmax/2 and r (the contact point lies in the middle of the
-- overlap). Writes the figure: Jt / (mu Jn) against x for cairn, the reference and rigid bodies.
function M.check_trends(test, dim, rows)
  local by = {}
  for _, row in ipairs(rows) do
    local t = M.trend(row)
    local g = by[row.material] or {xs = {}, sim = {}, ref = {}, rigid = {}, slide = 0, stick = 0,
                                   spin = 0, n_slide = 0, n_stick = 0, arm = 0}
    by[row.material] = g
    local i = #g.xs + 1
    g.xs[i], g.sim[i], g.ref[i], g.rigid[i] = t.x, t.sim, t.ref, math.min(t.x, 1)
    if t.x >= 1 then
      g.n_slide = g.n_slide + 1
      g.slide = math.max(g.slide, math.abs(t.sim - 1))
      g.arm = math.max(g.arm, row.sim_dmax / (2 * t.r))
      g.spin = math.max(g.spin, t.spin > 1 and t.spin - 1 or 0,
                        t.spin < 1 and (1 - t.spin) - row.sim_dmax / (2 * t.r) or 0)
    elseif t.x <= 0.75 * t.short then
      g.n_stick = g.n_stick + 1
      g.stick = math.max(g.stick, t.sim)
    end
  end
  local names = {}
  for name in pairs(by) do names[#names + 1] = name end
  table.sort(names)
  for _, name in ipairs(names) do
    local g = by[name]
    assert(g.n_slide > 0 and g.n_stick > 0, "the sweep must reach both regimes")
    verify.check{quantity = name .. "_sliding_Jt/(mu_Jn)-1(worst)", sim = g.slide, ref = 0,
                 tol = 1e-3, kind = "abs"}
    verify.check{quantity = name .. "_sliding_spin_beyond_arm_bound(worst)", sim = g.spin,
                 ref = 0, tol = 1e-3, kind = "abs"}
    verify.check{quantity = name .. "_sticking_Jt/(mu_Jn)_above_0.99", sim = math.max(g.stick - 0.99, 0),
                 ref = 0, tol = 0, kind = "abs"}
    local tag = string.format("hertz_co%d_%s_%dd", test, name, dim)
    local csv = verify.path(tag .. ".csv")
    H.write_csv(csv, g.xs, {g.xs, g.sim, g.ref, g.rigid},
                {"slip_over_threshold", "cairn", "reference_ode", "rigid_body"})
    -- Logarithmic x: the rows span tan(5 deg) to tan(85 deg), and the change from sticking to
    -- sliding near 1 would otherwise sit squeezed at the left edge.
    local material = name:gsub("_A$", " (A: large ball 1000 x stiffer)")
                         :gsub("_B$", " (B: both alike)"):gsub("_", " ")
    plot.history{csv = csv, out = verify.path(tag .. ".png"), x = "slip_over_threshold",
                 y = {"cairn", "reference_ode", "rigid_body"},
                 labels = {"cairn", "reference (same law, scipy)", "rigid-body theory"},
                 styles = {"points", "dashed", "line"}, logx = true,
                 title = string.format("Chung & Ooi test %d: %s, %s, %dD", test,
                                       M.what[test], material, dim),
                 xlabel = "incoming slip speed / sliding threshold, tan(theta) / tan(theta_c) [-]",
                 ylabel = "tangential impulse / (mu x normal impulse) [-]"}
  end
end

-- A whole case: every row of the test in the dimension HERTZ_DIM (3 unless set), checked against
-- the reference at dt = tc/100 within 2 (dt/tc)^1.5 (hertz_co4_3d.lua derives it), then the
-- trends.
function M.case(test)
  local dim, div = HERTZ_DIM or 3, 100
  local rows = M.check_all(test, dim, div, 2 * (1 / div) ^ 1.5)
  M.check_trends(test, dim, rows)
end

return M
