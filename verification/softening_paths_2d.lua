-- Pure tension and pure shear paths of the softening model (seed 003 §4.4.4), in 2D and 3D, and
-- a contact with sof_broken = 1. sof_knt = 1e6, sof_knc = 2e6, sof_ks = 5e5, sof_ftmax = 100,
-- sof_fsmax = 50, sof_uplim = 1.0005e-3 (between samples, so the break step is unambiguous),
-- sof_fric 0.5, sof_rfric 0.2; fixed balls, 1e-6 of motion per step (dt 1e-3, v 1e-3).
--  * Tension: two touching balls (the bond forms at zero force) pulled apart along the line of
--    centres. The force is elastic, knt u, up to ftmax; then plastic flow along the force (here
--    the normal) keeps it on the softened strength T = ftmax (1 - Up / uplim) with the plastic
--    opening Up = u - T / knt, so T(u) = ftmax (1 - u / uplim) / (1 - ftmax / (knt uplim)),
--    zero (broken) at u = uplim.
--  * Shear: a ball touching a wall, moved parallel to it (3D: along (0.6, 0.8)); the normal
--    force stays zero, the force angle is pi/2, so the strength is fsmax and likewise
--    S(u) = fsmax (1 - u / uplim) / (1 - fsmax / (ks uplim)), zero at u = uplim.
-- Both branches (peak and softening) are hand-derived from Eqs. 4.10-4.12 and the consistency
-- condition; the model solves that condition exactly each step (the quadratic of its code), so
-- the discrete force lies on the closed form to round-off. Tolerance 1e-9 of the strength at
-- every step (the opening is a sum of 1e-6 increments, relative round-off ~1e-13); observed:
-- tension 1.8e-12 N (2D), 1.7e-12 N (3D); shear 8.2e-13 N, 7.9e-13 N. The opening at the n-th
-- update is n * 1e-6: the force integrates the relative velocity, which the update of a step
-- reads before that step's move.
-- bond_break events: mode 1 at the first step past the peak, mode 0 at the break.
--  * sof_broken = 1 (a contact that must not bond): proximity 1e-3, approach from a gap of
--    5.005e-4, then separate: no force before touching, compression while overlapping, never
--    tension, and the contact is deleted once the gap passes the proximity.
local knt, knc, ks, ftmax, fsmax, uplim = 1e6, 2e6, 5e5, 100, 50, 1.0005e-3
local du, dt, r = 1e-6, 1e-3, 0.05
local props = {sof_knt = knt, sof_knc = knc, sof_ks = ks, sof_ftmax = ftmax, sof_fsmax = fsmax,
               sof_uplim = uplim, sof_fric = 0.5, sof_rfric = 0.2}

local function closed(u, k, fmax) -- elastic up to the peak, then the softening line
  if k * u <= fmax then return k * u end
  local t = fmax * (1 - u / uplim) / (1 - fmax / (k * uplim))
  return t > 0 and t or 0
end

local function cmat(extra)
  local t = {model = "softening", proximity = 1e-5}
  for k, v in pairs(props) do t[k] = v end
  for k, v in pairs(extra or {}) do t[k] = v end
  contact.cmat_default(t)
end

-- Drive one path: returns the worst error against the closed form and the events.
local function path(dim, kind, dir, k, fmax, steps)
  local worst, n, events, want, peak_seen = 0, 0, {}, {}, false
  callback.on("bond_break", function(_, mode) events[#events + 1] = {mode, model.step()} end)
  callback.on("after_force", function()
    n = n + 1
    local cp = kind == "tension" and contact.find("ball-ball", 1, 2)
               or contact.find("ball-wall", 1, 1)
    local u = n * du
    local ref = closed(u, k, fmax)
    if not peak_seen and k * u > fmax then
      peak_seen = true
      want[#want + 1] = {1, model.step()}
    end
    if #want == 1 and u >= uplim then want[#want + 1] = {0, model.step()} end
    local sim = 0
    if cp then
      local f = contact.force(cp)
      sim = kind == "tension" and -f[1] or math.sqrt(f[2] ^ 2 + f[3] ^ 2)
      -- The normal force must stay 0 (to round-off: the normal's direction is exact to ~1e-16).
      if kind == "shear" and math.abs(f[1]) > 1e-9 * fmax then sim = 1 / 0 end
    end
    worst = math.max(worst, math.abs(sim - ref))
  end)
  local vel = {}
  for i = 1, dim do vel[i] = du / dt * dir[i] end
  ball.vel(kind == "tension" and 2 or 1, vel)
  model.cycle(steps)
  return worst, events, want
end

local function run(dim)
  local tag = "(" .. dim .. "d)"
  local zero = dim == 2 and {0, 0} or {0, 0, 0}
  local function check_events(name, events, want)
    verify.check{quantity = name .. "_events" .. tag, sim = #events, ref = 2, tol = 0, kind = "abs"}
    for i = 1, 2 do
      local e, w = events[i] or {-1, -1}, want[i] or {-2, -2}
      verify.check{quantity = name .. "_event" .. i .. "(mode " .. w[1] .. ")_step" .. tag,
                   sim = e[1] == w[1] and e[2] or -1, ref = w[2], tol = 0, kind = "abs"}
    end
  end

  -- Pure tension.
  model.new{dim = dim}
  cmat()
  local dir = dim == 2 and {0.6, 0.8} or {1 / 3, 2 / 3, 2 / 3}
  local p2 = {}
  for i = 1, dim do p2[i] = 2 * r * dir[i] end
  ball.create{id = 1, rad = r, pos = zero}
  ball.create{id = 2, rad = r, pos = p2}
  ball.fix{"velocity", "spin"}
  model.timestep{fix = dt}
  local w, ev, want = path(dim, "tension", dir, knt, ftmax, 1100)
  verify.check{quantity = "tension_path" .. tag, sim = w, ref = 0, tol = 1e-9 * ftmax,
               kind = "abs"}
  check_events("tension", ev, want)
  verify.check{quantity = "tension_deleted_after_break" .. tag, sim = contact.count(), ref = 0,
               tol = 0, kind = "abs"}

  -- Pure shear.
  model.new{dim = dim}
  cmat()
  if dim == 2 then
    wall.create{id = 1, nodes = {{-1, 0}, {1, 0}}}
    ball.create{id = 1, rad = r, pos = {0, r}}
    dir = {1, 0}
  else
    wall.create{id = 1, kind = "plane", point = {0, 0, 0}, normal = {0, 0, 1}}
    ball.create{id = 1, rad = r, pos = {0, 0, r}}
    dir = {0.6, 0.8, 0}
  end
  ball.fix{"velocity", "spin"}
  model.timestep{fix = dt}
  w, ev, want = path(dim, "shear", dir, ks, fsmax, 1100)
  verify.check{quantity = "shear_path" .. tag, sim = w, ref = 0, tol = 1e-9 * fsmax, kind = "abs"}
  check_events("shear", ev, want)

  -- sof_broken = 1: approach, touch, press, separate.
  model.new{dim = dim}
  cmat{sof_broken = true, proximity = 1e-3}
  ball.create{id = 1, rad = r, pos = zero}
  dir = dim == 2 and {0.6, 0.8} or {1 / 3, 2 / 3, 2 / 3}
  for i = 1, dim do p2[i] = (2 * r + 5.005e-4) * dir[i] end
  ball.create{id = 2, rad = r, pos = p2}
  ball.fix{"velocity", "spin"}
  model.timestep{fix = dt}
  local early, tension, peak, bond_events = 0, 0, 0, 0
  callback.on("bond_break", function() bond_events = bond_events + 1 end)
  callback.on("after_force", function()
    local cp = contact.find("ball-ball", 1, 2)
    if not cp then return end
    local fn, gap = contact.force(cp)[1], contact.gap(cp)
    if gap >= 0 then early = math.max(early, math.abs(fn)) end
    tension = math.min(tension, fn)
    peak = math.max(peak, fn)
  end)
  local vel = {}
  for i = 1, dim do vel[i] = -du / dt * dir[i] end
  ball.vel(2, vel)
  -- The update of step k sees the gap after k - 1 moves: the first overlap (-0.5e-6) comes at
  -- update 502, so 99 updates of compression follow.
  model.cycle(600)
  for i = 1, dim do vel[i] = -vel[i] end
  ball.vel(2, vel)
  model.cycle(1700) -- back out past the proximity
  -- First overlapping step: the force was zero, so the code's rule takes knt for it; then knc.
  verify.check{quantity = "broken:no_force_before_touch" .. tag, sim = early, ref = 0, tol = 0,
               kind = "abs"}
  -- Each update adds k v dt; the one of step 600 is the last before the ball turns back.
  verify.check{quantity = "broken:peak_compression" .. tag, sim = peak, ref = (knt + 98 * knc) * du,
               tol = 1e-9}
  verify.check{quantity = "broken:never_tension" .. tag, sim = tension, ref = 0, tol = 0,
               kind = "abs"}
  verify.check{quantity = "broken:no_bond_events" .. tag, sim = bond_events, ref = 0, tol = 0,
               kind = "abs"}
  verify.check{quantity = "broken:deleted_when_apart" .. tag, sim = contact.count(), ref = 0,
               tol = 0, kind = "abs"}
end

-- This file is the 2D case; softening_paths_3d.lua runs it with CASE_DIM = 3.
run(CASE_DIM or 2)
