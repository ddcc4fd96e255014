-- Torque-free rotation of rigid clumps against closed forms (Landau & Lifshitz, Mechanics,
-- paragraphs 33 and 37), no contacts, no gravity.
--
-- 1. A symmetric top: three equal spheres in a row (principal moments I_a about the row and
--    I_t twice across it). Its axis e turns about the fixed angular momentum L at the rate
--    |L| / I_t: e(t) is e(0) turned about L / |L| by |L| t / I_t. Checked after 1 s (about one
--    turn) at dt = 1e-3 to 1e-4 rad: the splitting's phase error is of order
--    (omega dt)^2 omega t / 12, 2e-5 rad with omega = 6 rad/s (observed: 2e-7).
--    The order: an asymmetric body's principal axes after 1 s at dt = 1e-3 and 5e-4, each
--    against a run at dt / 16; the scheme is of second order, so the error falls by 4 when dt
--    halves (observed order within 0.1 of 2).
-- 2. The intermediate-axis flip (Dzhanibekov effect): an asymmetric body spun about its middle
--    axis with a small disturbance reverses that spin periodically. With I1 < I2 < I3, energy E
--    and |L|^2 = M2 > 2 E I2, the middle spin is sn(tau, k) with
--    tau = t sqrt((I3 - I2)(M2 - 2 E I1) / (I1 I2 I3)) and
--    k^2 = (I2 - I1)(2 E I3 - M2) / ((I3 - I2)(M2 - 2 E I1)) (for M2 < 2 E I2, I1 and I3
--    trade places): it changes sign every 2 K(k) in tau, K the complete elliptic integral (here
--    by the arithmetic-geometric mean). The mean time between sign changes over the run is
--    checked to 1e-4 (the sign changes are found to within dt^2 by linear interpolation; the
--    scheme's energy error, of order (omega dt)^2 = 1e-5, moves K by about as much).
-- 3. L is kept to round-off by every step (each part of the splitting is a turn): the angular
--    momentum formed from the body's spin and orientation, R I R^T omega, stays within 1e-12 of
--    its start.
model.new{dim = 3}
model.timestep{fix = 1e-3}

local function dot(a, b) return a[1] * b[1] + a[2] * b[2] + a[3] * b[3] end
local function norm(a) return math.sqrt(dot(a, a)) end
local function turn(v, axis, ang) -- Rodrigues: v turned about the unit axis by ang
  local c, s = math.cos(ang), math.sin(ang)
  local k = axis
  local kxv = {k[2] * v[3] - k[3] * v[2], k[3] * v[1] - k[1] * v[3], k[1] * v[2] - k[2] * v[1]}
  local kv = dot(k, v)
  local o = {}
  for i = 1, 3 do o[i] = v[i] * c + kxv[i] * s + k[i] * kv * (1 - c) end
  return o
end

-- 1. symmetric top
clump.template{name = "rod", pebbles = {{-0.15, 0, 0, 0.1}, {0, 0, 0, 0.1}, {0.15, 0, 0, 0.1}}}
local function top_error(dt)
  model.timestep{fix = dt}
  local c = clump.create{template = "rod", pos = {0, 0, 0}, density = 2500, spin = {5, 3, 1}}
  local e0 = clump.axes(c)[1]
  local L = clump.angular_momentum(c)
  local It = clump.inertia(c)[3]
  local n = math.floor(1.0 / dt + 0.5)
  model.cycle(n)
  local t = n * dt
  local ref = turn(e0, {L[1] / norm(L), L[2] / norm(L), L[3] / norm(L)}, norm(L) / It * t)
  local e = clump.axes(c)[1]
  if dot(e, ref) < 0 then e = {-e[1], -e[2], -e[3]} end
  local diff = {e[1] - ref[1], e[2] - ref[2], e[3] - ref[3]}
  clump.delete(c)
  return norm(diff)
end
verify.check{quantity = "top_axis_error(dt=1e-3)", sim = top_error(1e-3), ref = 0, tol = 1e-4,
             kind = "abs"}

-- the order: an asymmetric body's axes after 1 s at dt and dt/2 against dt/16
clump.template{name = "tee", pebbles = {{0, 0, 0, 0.1}, {0.16, 0, 0, 0.07}, {0, 0.11, 0.03, 0.05}}}
local function axes_after(dt)
  model.timestep{fix = dt}
  local c = clump.create{template = "tee", pos = {0, 0, 0}, density = 1000, spin = {3, 8, -4}}
  model.cycle(math.floor(1.0 / dt + 0.5))
  local ax = clump.axes(c)
  clump.delete(c)
  return ax
end
local function apart(a, b)
  local m = 0
  for i = 1, 3 do
    m = math.max(m, norm({a[i][1] - b[i][1], a[i][2] - b[i][2], a[i][3] - b[i][3]}))
  end
  return m
end
local fine = axes_after(1e-3 / 16)
local e1, e2 = apart(axes_after(1e-3), fine), apart(axes_after(5e-4), fine)
verify.check{quantity = "observed_order", sim = math.log(e1 / e2, 2), ref = 2, tol = 0.1,
             kind = "abs"}

-- 2. the intermediate-axis flip
model.timestep{fix = 1e-4}
local c = clump.create{template = "tee", pos = {0, 0, 0}, density = 1000}
local ax = clump.axes(c)
local w0 = {}
for i = 1, 3 do w0[i] = 30 * ax[2][i] + 0.3 * ax[1][i] + 0.3 * ax[3][i] end
clump.spin(c, w0)
local I = clump.inertia(c)
local L0 = clump.angular_momentum(c)
local M2, E = dot(L0, L0), 0.5 * dot(clump.spin(c), L0)
local I1, I3 = I[1], I[3]
if M2 < 2 * E * I[2] then I1, I3 = I[3], I[1] end
local I2 = I[2]
local lambda = math.sqrt((I3 - I2) * (M2 - 2 * E * I1) / (I1 * I2 * I3))
local k2 = (I2 - I1) * (2 * E * I3 - M2) / ((I3 - I2) * (M2 - 2 * E * I1))
local a, b = 1, math.sqrt(1 - k2)
for _ = 1, 40 do a, b = 0.5 * (a + b), math.sqrt(a * b) end
local K = math.pi / (2 * a)
local half = 2 * K / lambda

local dt, steps = 1e-4, 40000
local prev, crossings = nil, {}
local worst = 0
for s = 1, steps do
  model.cycle(1)
  local w2 = dot(clump.spin(c), clump.axes(c)[2])
  if prev and (prev < 0) ~= (w2 < 0) then
    crossings[#crossings + 1] = (s - 1 + prev / (prev - w2)) * dt
  end
  prev = w2
  if s % 1000 == 0 then -- L from the body's state: R I R^T omega
    local ax2, sp = clump.axes(c), clump.spin(c)
    local Lb = {0, 0, 0}
    for i = 1, 3 do
      local wb = dot(sp, ax2[i]) * I[i]
      for j = 1, 3 do Lb[j] = Lb[j] + wb * ax2[i][j] end
    end
    local d = {Lb[1] - L0[1], Lb[2] - L0[2], Lb[3] - L0[3]}
    worst = math.max(worst, norm(d) / norm(L0))
  end
end
verify.check{quantity = "flips_seen(at_least_3)", sim = math.min(#crossings, 3), ref = 3, tol = 0,
             kind = "abs"}
local mean = (crossings[#crossings] - crossings[1]) / (#crossings - 1)
verify.check{quantity = "flip_half_period", sim = mean, ref = half, tol = 1e-4}
verify.check{quantity = "angular_momentum_drift", sim = worst, ref = 0, tol = 1e-12, kind = "abs"}
