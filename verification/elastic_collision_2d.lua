-- Head-on elastic collision of two free disks (2D, mass rho pi r^2 per unit thickness; no
-- gravity, no damping): linear model with kn = 1e6 N/m, ks = 0, fric = 0, dashpots 0. Two
-- sub-cases, each in its own model so each gets its own timestep: equal masses (r = 0.1 m, 1 m/s
-- towards each other, zero total momentum) and unequal masses (r = 0.1 m and 0.15 m, same
-- density, m2/m1 = 2.25, moving at +2 and -0.5 m/s, non-zero total momentum). The 3D twin is
-- elastic_collision_3d.lua; the derivations are the same.
--
-- Closed forms (1D elastic collision; a linear spring between two free masses is a harmonic
-- oscillator in the relative coordinate with the reduced mass m_eff = m1 m2 / (m1 + m2)):
--   contact duration   T_c = pi sqrt(m_eff / kn)  (half a period of omega = sqrt(kn / m_eff))
--   velocities after   v1' = ((m1 - m2) v1 + 2 m2 v2) / M,  v2' = ((m2 - m1) v2 + 2 m1 v1) / M
--   momentum and kinetic energy conserved.
-- Timestep dt = T_c / 100.5 (h = omega dt = pi / 100.5) in each sub-case. Not a whole number of
-- steps per contact on purpose: with T_c / dt a whole number, the exit phase mirrors the entry
-- phase and the energy errors of entry and exit cancel to O(h^3) (observed 1.1e-6 / 1.0e-6 at
-- T_c/100, 1.3e-7 / 1.2e-7 at T_c/201), which would hide the scheme's real O(h^2) error. The
-- first contact step falls 0.63 of a step into the overlap (initial gap = 10.37 steps of
-- closing).
--
-- Tolerances and why (observed errors, equal / unequal masses, in brackets):
--  * Momentum: a force step changes m1 v1 + m2 v2 only by rounding (the force pair is exactly
--    opposite; a zero force leaves v exactly unchanged), a few ulps of m|v| per ball per contact
--    step. Tolerance 4 eps (m1|v1| + m2|v2|) n_contact, abs, on the largest deviation over all
--    steps.  [0 / 8.5e-14 kg m/s, against 1.4e-11 / 2.7e-11]
--  * Kinetic energy: the centred scheme on a linear spring is the recurrence
--    d_{n+1} = (2 - h^2) d_n - d_{n-1} in the overlap d, which conserves
--    I = d_n^2 + d_{n-1}^2 - (2 - h^2) d_n d_{n-1} exactly. With u the closing speed, I =
--    (u dt)^2 + h^2 d_n d_{n-1} at entry (d_0 > 0 >= d_{-1}) and at exit, and
--    0 >= d_n d_{n-1} >= -(u dt)^2 / 4 there, so the relative-motion energy changes by at most
--    h^2 / 4 = 2.4e-4 of itself: second order in dt, not first (the onset falling between steps
--    shifts the phase of the discrete oscillation; its amplitude only at O(h^2)). Tolerance
--    h^2/4 x KE_rel/KE (the centre-of-mass energy is exact), rel.  [1.14e-4 / 1.08e-4; the
--    phases here predict -0.12 h^2 KE_rel/KE] Privately rerun at T_c/200.5 (same phases):
--    [2.91e-5 / 2.76e-5], 3.9x smaller, as (200.5/100.5)^2 = 4.0 says.
--  * Post-collision velocities: from the bound above the relative speed changes by at most
--    h^2/8 of itself, and each ball gets m_other/M of that change. Tolerance
--    1.02 (h^2 / 8) u (m_other / M), abs (2 % for the O(h^4) rest).
--    [v1 5.7e-5 / 9.9e-5, v2 5.7e-5 / 4.4e-5 m/s]
--  * Contact duration (steps with a non-zero contact force, times dt): the discrete overlap is a
--    sampled half sine of length pi / omega' with omega' = omega (1 + h^2/24 + ...), so the number
--    of positive samples is within one of T_c/dt: error at most one step (1/100.5 relative)
--    plus h^2/24 = 4e-5. Tolerance 2 dt / T_c = 0.02 rel (a couple of steps).
--    [4.98e-3 / 4.98e-3: 100 samples for 100.5 steps]
--  * Motion off the line of centres (y velocity and spin): exactly 0 (head-on, ks = 0).
--    [0 / 0]
-- elastic_collision_3d.lua runs this file with ELASTIC_DIM = 3 (spheres; its header gives the
-- 3D figures).
local dim = ELASTIC_DIM or 2
local kn, rho, r1 = 1e6, 2500.0, 0.1
-- Mass of a ball: a disk of unit thickness in 2D, a sphere in 3D.
local function mass(r) return dim == 2 and rho * math.pi * r ^ 2 or rho * 4 / 3 * math.pi * r ^ 3 end
-- A vector along x (the line of centres).
local function along_x(x) return dim == 2 and {x, 0} or {x, 0, 0} end
local steps_per_contact = 100.5 -- dt = T_c / 100.5; see the header for why not a whole number
local eps = 2.220446049250313e-16

local function collide(name, r2, v1, v2)
  model.new{dim = dim}
  contact.cmat_default{model = "linear", kn = kn, ks = 0, fric = 0}
  local m1, m2 = mass(r1), mass(r2)
  local M, meff = m1 + m2, m1 * m2 / (m1 + m2)
  local omega = math.sqrt(kn / meff)
  local Tc = math.pi / omega
  local dt = Tc / steps_per_contact
  local h = omega * dt
  local u = v1 - v2 -- closing speed
  local gap0 = u * dt * 10.37
  ball.create{id = 1, rad = r1, pos = along_x(-r1 - gap0 / 2), vel = along_x(v1), density = rho}
  ball.create{id = 2, rad = r2, pos = along_x(r2 + gap0 / 2), vel = along_x(v2), density = rho}
  model.timestep{fix = dt}

  local p0 = m1 * v1 + m2 * v2
  local ke0 = 0.5 * m1 * v1 ^ 2 + 0.5 * m2 * v2 ^ 2
  local pscale = m1 * math.abs(v1) + m2 * math.abs(v2)
  local n_contact, dp_max, after = 0, 0, 0
  for _ = 1, 1000 do -- ends 10 steps after the contact has opened
    model.cycle(1)
    if ball.force(2)[1] ~= 0 then n_contact = n_contact + 1 elseif n_contact > 0 then
      after = after + 1
    end
    local p = m1 * ball.vel(1)[1] + m2 * ball.vel(2)[1]
    dp_max = math.max(dp_max, math.abs(p - p0))
    pscale = math.max(pscale, m1 * math.abs(ball.vel(1)[1]) + m2 * math.abs(ball.vel(2)[1]))
    if after >= 10 then break end
  end
  local w1, w2 = ball.vel(1), ball.vel(2)
  local function sq(v) local q = 0; for k = 1, #v do q = q + v[k] ^ 2 end; return q end
  local ke1 = 0.5 * m1 * sq(w1) + 0.5 * m2 * sq(w2)
  local ke_rel = 0.5 * meff * u ^ 2

  verify.check{quantity = name .. ": separated", sim = after, ref = 10, tol = 0, kind = "abs"}
  verify.check{quantity = name .. ": momentum drift", sim = dp_max, ref = 0,
               tol = 4 * eps * pscale * n_contact, kind = "abs"}
  verify.check{quantity = name .. ": KE after", sim = ke1, ref = ke0,
               tol = h ^ 2 / 4 * ke_rel / ke0}
  local v1c = ((m1 - m2) * v1 + 2 * m2 * v2) / M
  local v2c = ((m2 - m1) * v2 + 2 * m1 * v1) / M
  verify.check{quantity = name .. ": v1 after", sim = w1[1], ref = v1c,
               tol = 1.02 * h ^ 2 / 8 * u * m2 / M, kind = "abs"}
  verify.check{quantity = name .. ": v2 after", sim = w2[1], ref = v2c,
               tol = 1.02 * h ^ 2 / 8 * u * m1 / M, kind = "abs"}
  verify.check{quantity = name .. ": contact duration", sim = n_contact * dt, ref = Tc,
               tol = 2 * dt / Tc}
  local off = 0 -- every component off the line of centres, and every spin component
  for k = 2, dim do off = math.max(off, math.abs(w1[k]), math.abs(w2[k])) end
  for _, id in ipairs{1, 2} do
    local sp = ball.spin(id)
    for _, c in ipairs(type(sp) == "table" and sp or {sp}) do off = math.max(off, math.abs(c)) end
  end
  verify.check{quantity = name .. ": off-axis velocity and spin", sim = off, ref = 0, tol = 0,
               kind = "abs"}
end

collide("equal", 0.1, 1.0, -1.0)
collide("unequal", 0.15, 2.0, -0.5)
