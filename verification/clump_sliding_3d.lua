-- A dumbbell clump (two equal pebbles, centres 2a apart) sliding along its axis on a plane with
-- Coulomb friction mu, against the closed form. Started at rest vertically on the plane (its
-- weight carried, 2 k delta0 = M g) with a speed v0 along the row: the shear springs stretch
-- until each contact slides, and from then on each carries mu times its normal force; the two
-- normal forces differ (the friction pitches the body forward) but their sum stays M g (the
-- height is free of the tilt, clump_rocking_3d), so the body slows at exactly mu g until it
-- stops at v0 / (mu g), having slid v0^2 / (2 mu g).
-- Checks: the slope of the velocity against time, fitted over the middle half of the slide, is
-- mu g to 1e-8 (round-off: the overlaps sum to 2 delta0 only to their last bits, and the
-- least-squares fit over 8 500 samples loses a few digits more; observed 2e-10 and 1.3e-9); the stop distance is v0^2 / (2 mu g) to within the shear springs'
-- stretch at the start and at the stop (each mu M g / (2 k_s): 2 mu M g / (2 k_s) in all) plus
-- one step's travel v0 dt (the shear springs, undamped, ring about that stretch once it stops).
-- No dashpots: a contact that starts overlapping gets the normal dashpot's onset impulse on its
-- first step (docs/contact-models.md), which would shake the start.
local dim = CLUMP_DIM or 3
model.new{dim = dim}
local g, r, a, rho, mu, v0 = 9.81, 0.01, 0.008, 2500, 0.3, 0.5
local up = dim
model.gravity(dim == 3 and {0, 0, -g} or {0, -g})
if dim == 3 then
  wall.create{kind = "plane", point = {0, 0, 0}, normal = {0, 0, 1}}
  clump.template{name = "bell", pebbles = {{-a, 0, 0, r}, {a, 0, 0, r}}}
else
  wall.create{kind = "segment", nodes = {{-1, 0}, {5, 0}}}
  clump.template{name = "bell", pebbles = {{-a, 0, r}, {a, 0, r}}}
end
local probe = clump.create{template = "bell", pos = dim == 3 and {0, 0, 1} or {0, 1}, density = rho}
local M = clump.mass(probe)
clump.delete(probe)
local delta0 = 0.01 * r
local kn = M * g / (2 * delta0)
local ks = kn / 2
contact.cmat_default{model = "linear", kn = kn, ks = ks, fric = mu}
local c = clump.create{template = "bell", pos = dim == 3 and {0, 0, r - delta0} or {0, r - delta0},
                       density = rho, vel = dim == 3 and {v0, 0, 0} or {v0, 0}}
local T = v0 / (mu * g)
local dt = 1e-5
model.timestep{fix = dt}
local ts, vs = {}, {}
local steps = math.floor(1.3 * T / dt)
for s = 1, steps do
  model.cycle(1)
  local t = s * dt
  if t > 0.25 * T and t < 0.75 * T then ts[#ts + 1], vs[#vs + 1] = t, clump.vel(c)[1] end
end
-- least-squares slope of v(t)
local n, st, sv, stt, stv = #ts, 0, 0, 0, 0
for i = 1, n do
  st, sv = st + ts[i], sv + vs[i]
  stt, stv = stt + ts[i] * ts[i], stv + ts[i] * vs[i]
end
local slope = (n * stv - st * sv) / (n * stt - st * st)
verify.check{quantity = "deceleration", sim = -slope, ref = mu * g, tol = 1e-8}
local travel = clump.pos(c)[1]
verify.check{quantity = "stop_distance", sim = travel, ref = v0 * v0 / (2 * mu * g),
             tol = 2 * mu * M * g / (2 * ks) + v0 * dt, kind = "abs"}
