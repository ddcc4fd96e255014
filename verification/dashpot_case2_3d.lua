-- Seed 004, case study 2: over-damped contact, alpha = 2, otherwise as case study 1 (two free
-- balls, m_eff = 2.5, kn = 5e3, relative speed 2, no gravity), dt = (pi/omega0)/50.
-- 1. dp_mode 0 (the total normal force may become tensile, as the closed form assumes): the
--    overlap over 8 pi/omega0 (400 steps) against Eq. 7b,
--    xi(t) = v/Omega exp(-beta t) sinh(Omega t), Omega = omega0 sqrt(alpha^2 - 1).
--    The balls never separate in the closed form (Eq. 7b has no root but t = 0), nor here.
--    The first sample still lies on the ballistic approach: no force has acted on it yet, while
--    the closed form has already been decelerated by the dashpot (xi'' = -2 beta v at touch),
--    so it overshoots by up to beta v theta^2 dt^2 (theta: the part of a step since touch), here
--    1.43 % of the peak overlap. That offset is second order in dt and is not corrected later:
--    the over-damped slow mode carries it and it decays at the rate beta - Omega (~60 steps).
--    Tolerances: every sample within that bound; from 2 pi/omega0 (step 100) on, 0.5 % of the
--    peak. Observed (3D and 2D identical): 1.37 % at the first sample, 0.04 % after step 100.
-- 2. dp_mode 1 (no tension in the total normal force): the force reaches zero at t* where
--    k xi + c xi' = 0, tanh(Omega t*) = 2 beta Omega / (2 beta^2 - omega0^2), and from then on
--    the balls drift apart, free, at the slow separation speed v_s = k xi(t*) / c (from Eq. 7b).
--    Here v_s = 0.0955 (4.8 % of the approach speed). Tolerance 0.5 %; observed +0.14 %.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
DASHPOT_LIB = true
local D = dofile(here .. "dashpot_convergence.lua")
DASHPOT_LIB = nil
local dim = DASHPOT_DIM or 3
local tag = "dashpot_case2_" .. dim .. "d"

local m1, m2, kn, alpha = 5, 5, 5e3, 2.0
local cf = D.closed(m1 * m2 / (m1 + m2), kn, alpha)
local dt = math.pi / cf.w0 / 50
local rec = D.collide{dim = dim, m1 = m1, m2 = m2, kn = kn, ratio = alpha, dt = dt, v = 2,
                      gap0 = 2 * dt * 1.37, window = 402}
-- Time since touch: the approach is ballistic, so touch was overlap / 2 before the first sample.
local t0 = rec.t[1] - rec.overlap[1] / 2
local ref, late, late_ref, peak = {}, {}, {}, 0
for i = 1, #rec.t do
  ref[i] = D.overlap(cf, 2, rec.t[i] - t0)
  peak = math.max(peak, ref[i])
  if i > 100 then late[#late + 1], late_ref[#late_ref + 1] = rec.overlap[i], ref[i] end
end
local th = (rec.t[1] - t0) / dt
verify.check{quantity = "active_steps", sim = #rec.t, ref = 400, tol = 0, kind = "abs"}
verify.curve{quantity = "overlap(t)", sim = rec.overlap, ref = ref,
             tol = cf.beta * 2 * th * th * dt * dt / peak, scale = peak}
verify.curve{quantity = "overlap(t>2pi/w0)", sim = late, ref = late_ref, tol = 5e-3, scale = peak}
local tt, xs, xr = {}, {}, {}
for i = 1, #rec.t do
  tt[i], xs[i], xr[i] = rec.t[i] - t0, rec.overlap[i], D.overlap(cf, 2, rec.t[i] - t0)
end
local csv = verify.path(tag .. ".csv")
D.write_csv(csv, tt, {xs, xr}, {"overlap", "overlap_exact"})
-- Logarithmic overlap: the over-damped slow mode decays over three decades, a straight line.
plot.history{csv = csv, out = verify.path(tag .. "_overlap.png"), y = {"overlap", "overlap_exact"},
             labels = {"cairn", "closed form"}, logy = true,
             title = string.format("Linear contact with normal dashpot, case study 2 " ..
                                   "(over-damped, damping ratio 2), %dD: overlap", dim),
             xlabel = "t since first touch [s]", ylabel = "overlap [m]"}

-- No tension: the slow separation.
local b, O, w0, c = cf.beta, cf.Om, cf.w0, cf.c
local x = 2 * b * O / (2 * b * b - w0 * w0)
local ts = 0.5 * math.log((1 + x) / (1 - x)) / O
local vs = kn * D.overlap(cf, 2, ts) / c
local nt = D.collide{dim = dim, m1 = m1, m2 = m2, kn = kn, ratio = alpha, dt = dt, v = 2,
                     gap0 = 2 * dt * 1.37, mode = 1}
verify.check{quantity = "no_tension_separation_speed", sim = nt.v_out, ref = vs, tol = 5e-3}
