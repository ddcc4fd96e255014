-- A disk on an inclined segment, spin fixed so it slides like a block (2D twin of
-- incline_slip_3d.lua; the derivations are the same). The incline is a real wall (chosen over
-- tilted gravity on a level wall, so the segment geometry is exercised too): a segment of length
-- 10 m through the origin along (cos th, sin th), th = 30 deg, unit normal on the ball's side
-- n = (-sin th, cos th), gravity (0, -g); down-slope is d = (-cos th, -sin th). Disk r = 0.1 m,
-- density 2500 (m = rho pi r^2 = 78.54 kg per unit thickness), linear model kn = ks = 1e7 N/m, no
-- dashpots. The disk starts at rest at the static overlap m g cos th / kn = 6.7e-5 m, so the
-- normal spring is in equilibrium from the first step and no normal oscillation is excited.
-- Timestep dt = T/100 with T = 2 pi sqrt(m / kn) the period of the disk on its contact spring
-- (ks = kn, so the shear spring has the same period); h = omega dt = 2 pi / 100.
--
-- Case "slide", fric = 0.3 < tan th = 0.577. Closed form (block on a rough incline, Coulomb
-- friction mu m g cos th once sliding): a = g (sin th - mu cos th) = 2.3565 m/s^2.
-- The disk first sticks on the shear spring until its force reaches mu m g cos th (about
-- 3e-3 s, 17 steps), then slides with the shear force held at the cap by every step, so the
-- discrete acceleration is the closed form exactly, up to rounding. Measured as
-- (v(t2) - v(t1)) / (t2 - t1) from the down-slope half-step velocities, t1 = 0.1 s (well past the
-- transient), t2 = 1 s. Rounding of the position (ulp of ~1 m coordinates, 2e-16 m, against the
-- 6.7e-5 m overlap) perturbs the normal and friction force by ~3e-12 relative per step; summed
-- over 5 100 steps as a random walk, well below 1e-9 of the friction force. Tolerance 1e-8 rel
-- (as in 3D).  [observed 8.1e-14]
-- The normal contact force stays m g cos th (static equilibrium, no normal oscillation), same
-- rounding argument: tolerance 1e-8 rel.  [observed 7.9e-12]
--
-- Case "stick", fric = 0.7 > tan th. The disk starts on an unstretched shear spring under the
-- down-slope force F = m g sin th: an undamped oscillator starting at rest, whose largest speed
-- is F / sqrt(m ks) = g sin th sqrt(m / ks) = 1.37e-2 m/s (at x = F / ks). The undamped swing
-- would reach 2F > mu m g cos th, so the slider does slip once, but only past the point of
-- largest speed and while decelerating; after the disk stops the spring force stays within
-- [2F - mu m g cos th, mu m g cos th] and it never slips again. So:
--  * largest down-slope speed over 1 s at most g sin th sqrt(m / ks) / sqrt(1 - h^2/4) (1 + 1e-9),
--    abs: the discrete maximum of the centred scheme on the stick spring (derivation in
--    incline_slip_3d.lua), 1e-9 for rounding.  [observed 1.37530290e-2 m/s against the bound
--    1.37530295e-2; the sliding case reaches 2.4 m/s]
--  * largest down-slope displacement against the closed form of the first swing,
--    x_max = (mu Fn)^2 / (2 ks (mu Fn - F)) (work balance, see incline_slip_3d.lua); the slip onset
--    between steps and the scheme's amplitude err at O(h^2) (about 0.65 h^2 + h^2/8); tolerance
--    h^2 = 3.9e-3 rel.  [observed 2.6e-4; privately at dt/2, /4, /8: 1.4e-4,
--    2.0e-5, 7.7e-6]
--  * down-slope displacement after 1 s at most x_max (1 + h^2), abs: the disk has not slid.
--    [observed 1.27e-4 m against 1.33e-4 m]
local g, th, rad, rho, kn = 9.81, math.rad(30), 0.1, 2500.0, 1e7
local L = 5.0 -- half-length of the incline segment; the ball slides 1.2 m
local s, c = math.sin(th), math.cos(th)
local m = rho * math.pi * rad ^ 2
local omega = math.sqrt(kn / m)
local dt = 2 * math.pi / omega / 100
local h = omega * dt
local n1, n2 = math.floor(0.1 / dt + 0.5), math.floor(1.0 / dt + 0.5)

local function setup(fric)
  model.new{dim = 2}
  model.gravity{0, -g}
  contact.cmat_default{model = "linear", kn = kn, ks = kn, fric = fric}
  wall.create{id = 1, nodes = {{L * c, L * s}, {-L * c, -L * s}}}
  local d0 = m * g * c / kn
  ball.create{id = 1, rad = rad, pos = {-s * (rad - d0), c * (rad - d0)}, density = rho}
  ball.fix{"spin"}
  model.timestep{fix = dt}
end

-- Down-slope components of the ball's velocity and displacement from its start.
local function down(v) return -c * v[1] - s * v[2] end

do
  local mu = 0.3
  setup(mu)
  model.cycle(n1)
  local v1 = down(ball.vel(1))
  model.cycle(n2 - n1)
  local v2 = down(ball.vel(1))
  local cp = contact.find("ball-wall", 1, 1)
  verify.check{quantity = "slide: acceleration", sim = (v2 - v1) / ((n2 - n1) * dt),
               ref = g * (s - mu * c), tol = 1e-8}
  verify.check{quantity = "slide: normal force", sim = contact.force(cp)[1], ref = m * g * c,
               tol = 1e-8}
  verify.check{quantity = "slide: slipping", sim = contact.prop(cp, "lin_slip"), ref = 1,
               tol = 0, kind = "abs"}
end

do
  local mu = 0.7
  setup(mu)
  local p0 = ball.pos(1)
  local vmax, xmax, x = 0, 0, 0
  for _ = 1, n2 do
    model.cycle(1)
    local p = ball.pos(1)
    x = down{p[1] - p0[1], p[2] - p0[2]}
    vmax = math.max(vmax, math.abs(down(ball.vel(1))))
    xmax = math.max(xmax, x)
  end
  local F, muFn = m * g * s, mu * m * g * c
  local xmax_ref = muFn ^ 2 / (2 * kn * (muFn - F))
  verify.check{quantity = "stick: max down-slope speed", sim = vmax, ref = 0,
               tol = g * s * math.sqrt(m / kn) / math.sqrt(1 - h ^ 2 / 4) * (1 + 1e-9),
               kind = "abs"}
  verify.check{quantity = "stick: max down-slope displacement", sim = xmax, ref = xmax_ref,
               tol = h ^ 2}
  verify.check{quantity = "stick: displacement at 1 s", sim = x, ref = 0,
               tol = xmax_ref * (1 + h ^ 2), kind = "abs"}
end
