-- Burger's model, shear relaxation in 2D. Two disks (radius 0.05, density 2600) held fixed with
-- an overlap u0 = 0.01 (normal: Kk = Ck = Km = Cm = 1e8, as seed 001); in the first step the
-- upper disk also spins at the rate that moves its contact point by us = 1e-3 along the contact
-- plane in that one step, then stops: a shear displacement step applied with no change of
-- geometry (cairn keeps no ball orientation, so nothing else moves). Shear parameters differ
-- from the normal ones: Kks = 4e7, Cks = 1e8, Kms = 6e7, Cms = 1.5e8; bur_fric = 10, far above the
-- ratio of shear to normal force reached (< 0.7), so the slider never acts.
-- dt = 2.840299219037086e-4 s, 10 s.
--
-- Closed form: the relaxation solution of seed 001 (Eqs. 2, 7, 8) with the shear parameters and
-- the lower signs (seed 002, Eq. 19): the shear force on the upper disk opposes its displacement,
-- F_s . e = -us (A1 e^{z1 t} + A2 e^{z2 t}), e the unit direction of the displacement. The
-- normal force keeps following its own relaxation solution.
--
-- Checks and tolerances (the reasoning of burger_relax_2d.lua, with each direction's own
-- parameters): Fs(t) and fn(t) every step within 1.5 |f'(0)/f(0)| dt / 2, that is
-- 1.5 Km (1/Ck + 1/Cm) dt / 2 = 2.13e-4 (shear) and 4.26e-4 (normal); Fs(t-dt/2) within 1e-5.
-- The reported shear force (bur_force, t slot in 2D) must have the magnitude of the global force
-- along e (1e-12: the same vector in two frames); bur_slip stays false; contact_activated once.
-- Observed: Fs(t) 1.42e-4, Fs(t-dt/2) 1.3e-8, fn(t) 2.84e-4, frames 2.2e-16.
--
-- burger_shear_relax_3d.lua runs this script with dim = 3 and dt = 1e-3.
local case = BURGER_CASE or {}
BURGER_CASE = nil
local dim = case.dim or 2
local name = case.name or "burger_shear_relax_2d"
local dt = case.dt or 2.840299219037086e-4
local rad, u0, us, T = 0.05, 0.01, 1e-3, 10.0
local N = {kk = 1e8, ck = 1e8, km = 1e8, cm = 1e8}
local S = {kk = 4e7, ck = 1e8, km = 6e7, cm = 1.5e8}

local function relaxation(p)
  local a1 = p.ck / p.kk + p.cm * (1 / p.kk + 1 / p.km)
  local a2 = p.ck * p.cm / (p.kk * p.km)
  local b1, b2 = p.cm, p.ck * p.cm / p.kk
  local disc = math.sqrt(a1 * a1 - 4 * a2)
  local z1, z2 = (-a1 + disc) / (2 * a2), (-a1 - disc) / (2 * a2)
  local A1 = (b2 * z1 + b1) / (a2 * (z1 - z2))
  local A2 = (b2 * z2 + b1) / (a2 * (z2 - z1))
  return function(t) return A1 * math.exp(z1 * t) + A2 * math.exp(z2 * t) end
end
local Rn, Rs = relaxation(N), relaxation(S)

local function vec(x, y, z) return dim == 2 and {x, y} or {x, y, z} end
local function cross(a, b)
  return {a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1]}
end

model.new{dim = dim}
contact.cmat_default{model = "burger", bur_knk = N.kk, bur_cnk = N.ck, bur_knm = N.km,
                     bur_cnm = N.cm, bur_ksk = S.kk, bur_csk = S.ck, bur_ksm = S.km,
                     bur_csm = S.cm, bur_fric = 10}
-- The normal is along y (2D) or z (3D); the spin axis is z (2D) or x (3D), normal to it.
ball.create{id = 1, rad = rad, pos = vec(0, 0, 0)}
ball.create{id = 2, rad = rad, pos = dim == 2 and {0, 2 * rad - u0} or {0, 0, 2 * rad - u0}}
ball.attribute{density = 2600}
ball.fix{"velocity", "spin"}
model.clean()
local cp = contact.find("ball-ball", 1, 2)

-- Spin that moves the contact point of ball 2 by us in one step: |w x r| dt = us.
local pt, c2 = contact.point(cp), ball.pos(2)
local r = {pt[1] - c2[1], pt[2] - c2[2], (pt[3] or 0) - (c2[3] or 0)}
local rho = math.sqrt(r[1] ^ 2 + r[2] ^ 2 + r[3] ^ 2)
local w = us / (rho * dt)
local axis = dim == 2 and {0, 0, 1} or {1, 0, 0}
local e = cross(axis, r) -- direction of the contact point's motion
local el = math.sqrt(e[1] ^ 2 + e[2] ^ 2 + e[3] ^ 2)
for k = 1, 3 do e[k] = e[k] / el end

local sim_s, ref_s, ref_sh, sim_n, ref_n = {}, {}, {}, {}, {}
local frame_err, slipped, activated = 0, 0, 0
callback.on("contact_activated", function() activated = activated + 1 end)
callback.on("after_force", function()
  local n = model.step() + 1
  local F = contact.prop(cp, "bur_force")
  local g = contact.force_global(cp)
  local along = -(g[1] * e[1] + g[2] * e[2] + (g[3] or 0) * e[3])
  sim_s[n], ref_s[n], ref_sh[n] = along, us * Rs(n * dt), us * Rs((n - 0.5) * dt)
  sim_n[n], ref_n[n] = F[1], u0 * Rn(n * dt)
  frame_err = math.max(frame_err, math.abs(math.sqrt(F[2] ^ 2 + F[3] ^ 2) - along) / along)
  if contact.prop(cp, "bur_slip") ~= 0 then slipped = slipped + 1 end
end)
history.add("fs", function() return sim_s[model.step()] end)
history.add("fs_exact", function() return us * Rs(model.time()) end)
model.timestep{fix = dt}
ball.spin(2, dim == 2 and w or {w, 0, 0})
model.cycle(1)
ball.spin(2, dim == 2 and 0 or {0, 0, 0})
model.solve{time = T, history_interval = 1000}

local bs = S.km * (1 / S.ck + 1 / S.cm) * dt / 2
local bn = N.km * (1 / N.ck + 1 / N.cm) * dt / 2
verify.curve{quantity = "Fs(t)", sim = sim_s, ref = ref_s, tol = 1.5 * bs}
verify.curve{quantity = "Fs(t-dt/2)", sim = sim_s, ref = ref_sh, tol = 1e-5}
verify.curve{quantity = "fn(t)", sim = sim_n, ref = ref_n, tol = 1.5 * bn}
verify.check{quantity = "|bur_force shear| vs global", sim = frame_err, ref = 0, tol = 1e-12,
             kind = "abs"}
verify.check{quantity = "steps slipping", sim = slipped, ref = 0, tol = 0, kind = "abs"}
verify.check{quantity = "contact_activated", sim = activated, ref = 1, tol = 0, kind = "abs"}
history.export(verify.path(name .. ".csv"))
-- The figure draws about 1000 of the every-step values from step 1 on (the samples every 1000
-- steps above would miss the fast early decay), on a logarithmic axis: two exponentials.
local CSV = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "lib/csv.lua")
local every = math.max(1, math.ceil(#sim_s / 1000))
local pt, psim, pref = {}, {}, {}
for n = 1, #sim_s, every do
  pt[#pt + 1], psim[#psim + 1], pref[#pref + 1] = n * dt, sim_s[n], ref_s[n]
end
CSV.write(verify.path(name .. "_steps.csv"), pt, {psim, pref}, {"fs", "fs_exact"})
plot.history{csv = verify.path(name .. "_steps.csv"), out = verify.path(name .. ".png"),
             y = {"fs", "fs_exact"}, labels = {"cairn", "closed form"}, logy = true,
             title = string.format("Burger's model: shear relaxation after a shear displacement " ..
                                   "us = %g m, %dD", us, dim),
             xlabel = "t [s]", ylabel = "shear force opposing the displacement [N]"}
