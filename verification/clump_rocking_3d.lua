-- A dumbbell clump (two equal pebbles of radius r, centres 2a apart) rocking on a frictionless
-- plane under gravity, against the closed form. With the linear model (normal stiffness k, no
-- dashpot, no shear) each pebble is pushed by k times its overlap at the point below its centre,
-- and the plane is frictionless, so for a tilt theta of the row:
--   vertical: M z'' = 2 k (r - z) - M g, free of theta (the tilts' overlaps cancel);
--   rocking about the centre of mass: I theta'' = -k a^2 sin(2 theta) (each force k(delta -+
--   a sin theta) at the arm a cos theta).
-- Started at the vertical equilibrium with a spin w0 about the horizontal axis across the row,
-- phi = 2 theta swings as a pendulum of frequency w = sqrt(2 k a^2 / I) and amplitude phi_m with
-- cos(phi_m) = 1 - I w0^2 / (k a^2), whose period is 4 K(m) / w with m = sin^2(phi_m / 2), K the
-- complete elliptic integral (arithmetic-geometric mean). The period is measured from the times
-- theta crosses zero upwards (linear interpolation, error of order dt^2) over 6 periods, with
-- dt = T / 2000. The stiffness is chosen so that the resting overlap is 0.02 r, and the spin so
-- that the tilt stays below a third of the one that would lift a pebble off (both pebbles touch
-- throughout, as the closed form needs). Tolerance 1e-4: the scheme's phase error is of order
-- (w dt)^2 / 24 = 4e-7, the start's half-step offset of the spin changes the amplitude by of
-- order w dt / 2 = 1.6e-3 of itself and the period by (phi_m / 4)^2 of that, and I has the
-- template's error (below 1e-4 of it, the reported estimate; it enters the period as its square
-- root, and the estimate is about ten times the true error).
local dim = CLUMP_DIM or 3
model.new{dim = dim}
local g, r, a, rho = 9.81, 0.05, 0.04, 2500
model.gravity(dim == 3 and {0, 0, -g} or {0, -g})
if dim == 3 then
  wall.create{kind = "plane", point = {0, 0, 0}, normal = {0, 0, 1}}
  clump.template{name = "bell", pebbles = {{-a, 0, 0, r}, {a, 0, 0, r}}}
else
  wall.create{kind = "segment", nodes = {{-1, 0}, {1, 0}}}
  clump.template{name = "bell", pebbles = {{-a, 0, r}, {a, 0, r}}}
end
local up = dim
-- the vertical equilibrium: 2 k (r - z) = M g
local probe = clump.create{template = "bell", pos = dim == 3 and {0, 0, 1} or {0, 1}, density = rho}
local M = clump.mass(probe)
local I = dim == 3 and clump.inertia(probe)[3] or clump.inertia(probe)
clump.delete(probe)
-- the stiffness that makes the resting overlap delta0 = 0.02 r, and a spin that tilts the row by
-- at most about a third of what would lift a pebble (a sin theta < delta0): both always touch
local delta0 = 0.02 * r
local k = M * g / (2 * delta0)
contact.cmat_default{model = "linear", kn = k, ks = 0, fric = 0}
local z0 = r - delta0
local w = math.sqrt(2 * k * a * a / I)
local T0 = 2 * math.pi / w
local dt = T0 / 2000
local w0 = w * delta0 / (3 * a) -- amplitude about delta0 / 3a
local cphi = 1 - I * w0 * w0 / (k * a * a)
local m = (1 - cphi) / 2 -- sin^2(phi_m / 2)
local x, y = 1, math.sqrt(1 - m)
for _ = 1, 40 do x, y = 0.5 * (x + y), math.sqrt(x * y) end
local T = 4 * (math.pi / (2 * x)) / w

local c = clump.create{template = "bell", pos = dim == 3 and {0, 0, z0} or {0, z0}, density = rho,
                       spin = dim == 3 and {0, w0, 0} or w0}
model.timestep{fix = dt}
local function tilt()
  if dim == 2 then return clump.orientation(c) end
  local ax = clump.axes(c)[1]
  if ax[1] < 0 then ax = {-ax[1], -ax[2], -ax[3]} end
  return math.atan(-ax[3], ax[1]) -- a positive spin about y lowers the +x end
end
local prev, ups, steps = tilt(), {}, math.floor(6.5 * T / dt)
for s = 1, steps do
  model.cycle(1)
  local th = tilt()
  if prev < 0 and th >= 0 then ups[#ups + 1] = (s - 1 + prev / (prev - th)) * dt end
  prev = th
end
local period = (ups[#ups] - ups[1]) / (#ups - 1)
verify.check{quantity = "crossings(at_least_6)", sim = math.min(#ups, 6), ref = 6, tol = 0,
             kind = "abs"}
verify.check{quantity = "rocking_period", sim = period, ref = T, tol = 1e-4}
-- the height is free of the tilt: it stays at rest, to the round-off of the overlaps (each of
-- order 1e-17 m a step, left undamped over 13 000 steps; observed 3e-9 r in 3D, 7e-10 r in 2D)
verify.check{quantity = "height_kept", sim = clump.pos(c)[up], ref = z0, tol = 1e-8 * r,
             kind = "abs"}
