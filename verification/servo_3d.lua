-- A servo-controlled wall pressing an elastic lattice (3D; servo_2d.lua runs the same in 2D).
-- Balls of radius r = 0.01 m on a cubic lattice, N x N columns of M = 5 balls (2D: N = 10
-- columns of a square lattice), touching (spacing 2r); a fixed floor under the bottom row and a
-- servo wall on the top row, pressing it by delta0 = 1e-9 r at the start; linear contacts,
-- kn = 1e6 N/m, no friction. The servo holds the stress sigma over the area A = (2 r N)^2
-- (2D: 2 r N, per unit thickness), with alpha = 0.5.
--  1. The balls held still: the top row's N^2 contacts (2D: N) carry K = N^2 kn, and a servo
--     step moves the wall by alpha (sigma_n - target) A / K, which changes the stress by exactly
--     alpha (sigma_n - target): the error falls as (1 - alpha)^n, without overshoot. Checked
--     over 40 steps to 1e-6 Pa, then a step change of the target to 2 sigma (followed the same
--     way), then a ramp of the target given as a table (the response against the same recursion,
--     sigma_n+1 = sigma_n - alpha (sigma_n - target(t_n)), computed here; it lags the ramp by
--     its rise per step over alpha). Tolerance: 1e-9 of the target, round-off.
--  2. The balls free (local damping 0.7; their motion across the axis held, so the columns stay
--     straight), solved to a mean unbalanced-force ratio of 1e-7: the wall stress is the target
--     within 1e-5, and the wall has moved by what the columns' springs in series need, M + 1
--     contacts a column each carrying sigma A / N^2: d = (M + 1) sigma A / (N^2 kn) - delta0,
--     within 1e-4 (the ratio's residual).
--  3. The wall's servo state and the bad inputs: no stress or force, no vmax, an alpha outside
--     (0, 1], a negative target, width walls that do not exist: each refused.
local dim = SV_DIM or 3
local r, kn, M = 0.01, 1e6, 5
local N = dim == 3 and 4 or 10
local nc = dim == 3 and N * N or N -- columns
local A = dim == 3 and (2 * r * N) ^ 2 or 2 * r * N
local ax = dim -- the axis: y in 2D, z in 3D
local sigma = 1e4
local d0 = 1e-9 * r
local function vec(z) if dim == 3 then return {0, 0, z} end return {0, z} end

local function build()
  model.new{dim = dim}
  contact.cmat_default{model = "linear", kn = kn, ks = 0, fric = 0}
  local n = dim == 3 and {N, N, M} or {N, M}
  specimen.lattice{kind = dim == 3 and "cubic" or "square", rad = r, n = n, density = 2500,
                   damp = 0.7}
  local top = 2 * r * (M - 1) + r - d0
  local floor, lid
  if dim == 3 then
    floor = wall.create{kind = "plane", point = {0, 0, -r}, normal = {0, 0, 1}}
    lid = wall.create{kind = "plane", point = {0, 0, top}, normal = {0, 0, -1}}
  else
    floor = wall.create{nodes = {{-r, -r}, {2 * r * N, -r}}}
    lid = wall.create{nodes = {{-r, top}, {2 * r * N, top}}}
  end
  model.timestep{fix = 1e-5}
  return floor, lid
end

-- 1: the balls held still
local _, lid = build()
ball.fix{"velocity", "spin"}
wall.servo{id = lid, stress = sigma, area = A, vmax = 100, alpha = 0.5}
local K = nc * kn
local s0 = K * d0 / A -- the stress of the starting overlap
local worst, overshoot, steps = 0, 0, 0
local function follow(target_of, n, start)
  local ref = start
  for _ = 1, n do
    local target = target_of(model.time())
    model.cycle(1)
    steps = steps + 1
    local s = wall.stress(lid) -- the stress of this step's force pass, before the wall moved
    worst = math.max(worst, math.abs(s - ref) / sigma)
    overshoot = math.max(overshoot, s - math.max(target, start))
    ref = ref - 0.5 * (ref - target) -- the recursion the servo is designed to follow
  end
  return ref
end
-- a step's servo acts on the stress of its own force pass (what wall.stress reads after it),
-- and the wall's move shows in the next step's pass; vmax is far above the speeds it needs
local ref = follow(function() return sigma end, 40, s0)
verify.check{quantity = "held:error_after_40_steps", sim = math.abs(wall.stress(lid) - sigma),
             ref = 0, tol = 1e-6, kind = "abs"}
wall.servo{id = lid, stress = 2 * sigma, area = A, vmax = 100, alpha = 0.5}
ref = follow(function() return 2 * sigma end, 40, ref)
verify.check{quantity = "held:step_change_followed", sim = wall.stress(lid), ref = 2 * sigma,
             tol = 1e-9, kind = "rel"}
verify.check{quantity = "held:no_overshoot", sim = math.max(overshoot, 0), ref = 0,
             tol = 1e-9 * sigma, kind = "abs"}
local t0 = model.time()
local ramp = {time = {t0, t0 + 100 * 1e-5}, value = {2 * sigma, 3 * sigma}}
wall.servo{id = lid, stress = ramp, area = A, vmax = 100, alpha = 0.5}
follow(function(t)
  if t <= t0 then return 2 * sigma end
  return 2 * sigma + sigma * math.min(1, (t - t0) / (100 * 1e-5))
end, 60, ref)
verify.check{quantity = "held:response_vs_recursion", sim = worst, ref = 0, tol = 1e-9,
             kind = "abs"}
-- the last pass read the stress at step 59 of the ramp, against the target of step 59
local lag = (2 * sigma + sigma * 59 / 100) - wall.stress(lid)
verify.check{quantity = "held:ramp_lag_is_rise_per_step_over_alpha", sim = lag,
             ref = sigma / 100 / 0.5, tol = 1e-6, kind = "rel"}

-- 2: the balls free
build()
if dim == 3 then ball.fix{"xvelocity", "yvelocity", "spin"} else ball.fix{"xvelocity", "spin"} end
wall.servo{id = lid, stress = sigma, area = A, vmax = 1, alpha = 0.5}
local res = model.solve{ratio = 1e-7, time = 10}
verify.check{quantity = "free:solved_to_the_ratio", sim = res.reason == "ratio" and 1 or 0,
             ref = 1, tol = 0, kind = "abs"}
verify.check{quantity = "free:wall_stress", sim = wall.stress(lid), ref = sigma, tol = 1e-5}
local dexact = (M + 1) * sigma * A / (nc * kn) - d0
verify.check{quantity = "free:wall_displacement", sim = -wall.disp(lid)[ax], ref = dexact,
             tol = 1e-4}
local info = wall.servo(lid)
verify.check{quantity = "free:servo_state", sim = (info.mode == "stress" and info.target == sigma
             and info.area == A) and 1 or 0, ref = 1, tol = 0, kind = "abs"}

-- 3: bad input, each refused
local bad = 0
for _, t in ipairs{{id = lid, vmax = 1},
                   {id = lid, stress = sigma, area = A},
                   {id = lid, stress = sigma, area = A, vmax = 1, alpha = 1.5},
                   {id = lid, stress = -1, area = A, vmax = 1},
                   {id = lid, stress = sigma, width = {98, 99}, vmax = 1},
                   {id = lid, stress = sigma, vmax = 1}} do
  if not pcall(wall.servo, t) then bad = bad + 1 end
end
verify.check{quantity = "bad_input_refused", sim = bad, ref = 6, tol = 0, kind = "abs"}
