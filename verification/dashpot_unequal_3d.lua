-- Seed 004, case study 3's pair, without gravity: two free balls (radius 0.1) of masses m1 = 5
-- and m2 = 15, ball stiffnesses 1e5 and 1e6 in series (kn = 1e11 / 1.1e6 = 90909.09), alpha =
-- 0.4, approaching at relative speed 2, dt = tc/50, onset phase 0.37 of a step. For two free
-- bodies the relative motion obeys m_eff xi'' + c xi' + k xi = 0 with the reduced mass
-- m_eff = m1 m2 / (m1 + m2) = 3.75 exactly (seed 004, Eqs. 1 and 4); gravity would act on
-- both alike and cancel from it, so it is left out.
-- Closed forms: e = exp(-alpha pi / sqrt(1 - alpha^2)) = 0.25387 (Eq. 10), tc = pi/omega (Eq. 9)
-- with omega from m_eff. Tolerances (issue 6): e 0.5 %; duration 0.5 % from the free flight,
-- one dt + 0.5 % from the count of active steps.
-- For the documentation the test also computes, from its own closed form (nothing is switched
-- in the engine), what the arithmetic mean (m1 + m2)/2 = 10 that seed 004 found in PFC 3.0
-- (Eq. 12) would have produced: c = 2 alpha sqrt(10 k) acting on a pair whose relative motion
-- still has the reduced mass, i.e. an effective ratio alpha sqrt(10/3.75) = 0.653, so
-- e = 0.0665 instead of 0.2539 and a contact 1.21 times longer (printed on stderr, plotted in
-- dashpot_unequal_3d_arith_mean.png; docs/verification/linear-dashpot.md).
-- Observed (3D and 2D identical): e +1.0e-4, duration(flight) -4.9e-4, 0 by count (50 steps).
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
DASHPOT_LIB = true
local D = dofile(here .. "dashpot_convergence.lua")
DASHPOT_LIB = nil
local dim = DASHPOT_DIM or 3
local tag = "dashpot_unequal_" .. dim .. "d"

local p = D.unequal
local meff = p.m1 * p.m2 / (p.m1 + p.m2)
local cf = D.closed(meff, p.kn, p.ratio)
local dt = cf.tc / 50
local rec = D.collide{dim = dim, m1 = p.m1, m2 = p.m2, kn = p.kn, ratio = p.ratio, dt = dt,
                      v = 2, gap0 = 2 * dt * 1.37}
verify.check{quantity = "restitution", sim = rec.e, ref = cf.e, tol = 5e-3}
verify.check{quantity = "duration(flight)", sim = rec.duration, ref = cf.tc, tol = 5e-3}
verify.check{quantity = "duration(steps)", sim = rec.count_duration, ref = cf.tc,
             tol = dt + 5e-3 * cf.tc, kind = "abs"}

-- What the arithmetic mean would have produced: c = 2 alpha sqrt(m_am k) acting on the pair,
-- whose relative motion still has the reduced mass: an effective ratio c / (2 sqrt(m_eff k)).
local m_am = (p.m1 + p.m2) / 2
local am = D.closed(meff, p.kn, p.ratio * math.sqrt(m_am / meff))
io.stderr:write(string.format("%s: arithmetic mean would give ratio %.4f, e = %.5f, tc = %.6f; " ..
                              "reduced mass: e = %.5f, tc = %.6f; measured e = %.5f, tc = %.6f\n",
                              tag, p.ratio * math.sqrt(m_am / meff), am.e, am.tc, cf.e, cf.tc,
                              rec.e, rec.duration))
local xs, xr, xa, fs, fr, fa = {}, {}, {}, {}, {}, {}
for i = 1, #rec.t do
  xs[i], xr[i] = rec.overlap[i], D.overlap(cf, 2, rec.t[i])
  xa[i] = math.max(0, D.overlap(am, 2, rec.t[i]))
  fs[i], fr[i], fa[i] = rec.force[i], D.force(cf, 2, rec.t[i]), D.force(am, 2, rec.t[i])
end
-- Extend the arithmetic-mean curves to their own, longer, contact.
local tt = {}
for i = 1, #rec.t do tt[i] = rec.t[i] end
local n = #tt
while tt[n] < am.tc do
  n = n + 1
  tt[n] = tt[n - 1] + dt
  xs[n], xr[n], fs[n], fr[n] = 0, 0, 0, 0
  xa[n], fa[n] = math.max(0, D.overlap(am, 2, tt[n])), D.force(am, 2, tt[n])
end
local csv = verify.path(tag .. ".csv")
D.write_csv(csv, tt, {xs, xr, xa, fs, fr, fa},
            {"overlap", "overlap_exact", "overlap_arith_mean_ref", "force", "force_exact",
             "force_arith_mean_ref"})
plot.history{csv = csv, out = verify.path(tag .. "_arith_mean.png"),
             y = {"force", "force_exact", "force_arith_mean_ref"},
             labels = {"cairn (reduced mass; first, last step: a part step's impulse / dt)",
                       "closed form, reduced mass",
                       "closed form, arithmetic mean of the masses (PFC 3.0)"},
             styles = {"linespoints", "dashed", "line"},
             title = string.format("Linear contact with normal dashpot, unequal masses " ..
                                   "m1 = 5 kg, m2 = 15 kg, %dD: normal force", dim),
             xlabel = "t [s]", ylabel = "normal force [N], > 0 in compression"}
