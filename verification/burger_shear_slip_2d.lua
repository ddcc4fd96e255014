-- Burger's model, Coulomb slider in 2D (seed 002, Eqs. 21-23; Table 2's slip_change event).
-- Two disks (radius 0.05, density 2600) held fixed with an overlap u0 = 0.01 (normal: the seeds'
-- Kk = Ck = Km = Cm = 1e8); shear: Kks = Cks = Kms = 1e8, Cms = 2.5e7; bur_fric = 0.1.
-- The upper disk spins so that its contact point moves by 5e-6 per step along the contact plane:
-- 400 steps forward (the shear force reaches the strength 0.1 Fn after ~200 of them, then the
-- contact slides), 20 steps back (the shear force unloads below the strength: sliding ends at the
-- first of them), then it stops and the contact is held to 1 s. dt = 2.840299219037086e-4 s.
--
-- Checks (no closed form needed: the slider's rule is the reference):
--  * slip_change fires exactly twice: mode 0 (slip began) once, during the forward motion, and
--    mode 1 (slip ended) once, at the first backward step.
--  * bur_slip is true exactly in the steps from the first event to the one before the second.
--  * While sliding, |Fs| = bur_fric * Fn (Eq. 22) to 1e-12 relative: the slider scales the shear
--    force by Fs* / |Fs|, a few roundings. At no step does |Fs| exceed bur_fric * Fn by more.
--  * The shear force keeps its direction (opposite to the motion) while sliding.
-- Observed: slip began at step 206 and ended at step 401; |Fs| = 0.1 Fn exactly (error 0).
--
-- burger_shear_slip_3d.lua runs this script with dim = 3 and dt = 1e-3 s.
local case = BURGER_CASE or {}
BURGER_CASE = nil
local dim = case.dim or 2
local name = case.name or "burger_shear_slip_2d"
local dt = case.dt or 2.840299219037086e-4
local rad, u0, step_disp, fric = 0.05, 0.01, 5e-6, 0.1
local n_fwd, n_back, T = 400, 20, 1.0

model.new{dim = dim}
contact.cmat_default{model = "burger", bur_knk = 1e8, bur_cnk = 1e8, bur_knm = 1e8,
                     bur_cnm = 1e8, bur_ksk = 1e8, bur_csk = 1e8, bur_ksm = 1e8,
                     bur_csm = 2.5e7, bur_fric = fric}
ball.create{id = 1, rad = rad, pos = dim == 2 and {0, 0} or {0, 0, 0}}
ball.create{id = 2, rad = rad, pos = dim == 2 and {0, 2 * rad - u0} or {0, 0, 2 * rad - u0}}
ball.attribute{density = 2600}
ball.fix{"velocity", "spin"}
model.clean()
local cp = contact.find("ball-ball", 1, 2)
local pt, c2 = contact.point(cp), ball.pos(2)
local rho = math.abs((dim == 2 and pt[2] or pt[3]) - (dim == 2 and c2[2] or c2[3]))
local w = step_disp / (rho * dt)
local function spin(x) return dim == 2 and x or {x, 0, 0} end

local events = {} -- {step, mode}
callback.on("slip_change", function(c, mode)
  assert(c == cp)
  events[#events + 1] = {model.step() + 1, mode}
end)
local slip_steps, first_slip, last_slip, worst, over, sign_flip = 0, nil, nil, 0, 0, 0
local hist_fs, hist_cap = {}, {}
callback.on("after_force", function()
  local n = model.step() + 1
  local F = contact.prop(cp, "bur_force")
  local fs = math.sqrt(F[2] ^ 2 + F[3] ^ 2)
  local cap = fric * F[1]
  hist_fs[n], hist_cap[n] = fs, cap
  if fs > cap * (1 + 1e-12) then over = over + 1 end
  if contact.prop(cp, "bur_slip") ~= 0 then
    slip_steps = slip_steps + 1
    first_slip = first_slip or n
    last_slip = n
    worst = math.max(worst, math.abs(fs - cap) / cap)
    -- Forward spin moves the contact point along +x (2D: z x (-y)) or +y (3D: x x (-z)); the
    -- shear force on ball 2 must point back.
    local g = contact.force_global(cp)
    if (dim == 2 and g[1] or g[2]) >= 0 then sign_flip = sign_flip + 1 end
  end
end)
history.add("fs", function() return hist_fs[model.step()] end)
history.add("fric_fn_ref", function() return hist_cap[model.step()] end)
history.interval(5)
model.timestep{fix = dt}
ball.spin(2, spin(w))
model.cycle(n_fwd)
ball.spin(2, spin(-w))
model.cycle(n_back)
ball.spin(2, spin(0))
model.solve{time = T}

verify.check{quantity = "slip_change events", sim = #events, ref = 2, tol = 0, kind = "abs"}
local e1, e2 = events[1] or {-1, -1}, events[2] or {-1, -1}
verify.check{quantity = "event 1 mode (0: began)", sim = e1[2], ref = 0, tol = 0, kind = "abs"}
verify.check{quantity = "event 2 mode (1: ended)", sim = e2[2], ref = 1, tol = 0, kind = "abs"}
verify.check{quantity = "slip began in forward motion", sim = (e1[1] > 1 and e1[1] <= n_fwd)
             and 1 or 0, ref = 1, tol = 0, kind = "abs"}
verify.check{quantity = "slip ended at first back step", sim = e2[1], ref = n_fwd + 1, tol = 0,
             kind = "abs"}
verify.check{quantity = "bur_slip steps", sim = slip_steps, ref = e2[1] - e1[1], tol = 0,
             kind = "abs"}
verify.check{quantity = "first bur_slip step", sim = first_slip or -1, ref = e1[1], tol = 0,
             kind = "abs"}
verify.check{quantity = "|Fs|/(fric Fn)-1 sliding", sim = worst, ref = 0, tol = 1e-12,
             kind = "abs"}
verify.check{quantity = "steps |Fs| > fric Fn", sim = over, ref = 0, tol = 0, kind = "abs"}
verify.check{quantity = "Fs along the motion", sim = sign_flip, ref = 0, tol = 0, kind = "abs"}
io.stderr:write(string.format("%s: slip from step %d to %d\n", name, e1[1], e2[1]))
history.export(verify.path(name .. ".csv"))
plot.history{out = verify.path(name .. ".png"), y = {"fs", "fric_fn_ref"},
             labels = {"cairn: shear force", "friction limit: fric x normal force (cairn)"},
             title = string.format("Burger's model: shear loading to the friction limit " ..
                                   "(Coulomb slider), fric = %g, %dD", fric, dim),
             xlabel = "t [s]", ylabel = "force [N]"}
