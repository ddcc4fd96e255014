-- The linearcbond model's contact bond, against closed forms (3D; cbond_break_2d.lua runs the
-- same in 2D). Two balls (radius 0.01 m) touching with an overlap of 1e-5 m, kn = 1e6 N/m,
-- ks = 5e5 N/m, fric = 0.2, cb_tenf = 2 N, cb_shearf = 3 N; velocities fixed, dt = 1e-6.
--  1. Pulled apart along the normal at a relative speed of 0.01 m/s: the bond carries
--     F_n = kn (overlap0 - v t) (tension once the surfaces part) and breaks in the first step whose
--     tension exceeds cb_tenf: from the gap of each step's force pass, the step is known exactly;
--     the force up to it matches to rounding (1e-12 of cb_tenf), cb_state becomes 2, bond_break is
--     raised once, and from then on the contact carries nothing (it is open, and deleted as a
--     linear contact is once it parts).
--  2. Sheared along the contact plane at 0.01 m/s with the overlap held: the shear force grows by
--     ks v dt a step and the bond breaks in the first step where it would exceed cb_shearf
--     (cb_state 3); that step is the linear model's, so the shear force is then capped at
--     fric kn overlap = 2 N (to rounding) and the contact slides.
--  3. Cracks: each break is recorded (contact.cracks) with its step (the world's step count
--     before that step), the two balls and its mode, tension (the contact carries no compression
--     after it) or shear, and exported as CSV.
local dim = CB_DIM or 3
local r, ov, kn, ks, tenf, shearf, v, dt = 0.01, 1e-5, 1e6, 5e5, 2, 3, 0.01, 1e-6
local function vec(x, y) return dim == 3 and {x, y, 0} or {x, y} end
local function setup(vx, vy)
  model.new{dim = dim}
  contact.cmat_default{model = "linearcbond", kn = kn, ks = ks, fric = 0.2, cb_tenf = tenf,
                       cb_shearf = shearf}
  ball.create{id = 1, rad = r, pos = vec(0, 0), density = 1000}
  ball.create{id = 2, rad = r, pos = vec(2 * r - ov, 0), vel = vec(vx, vy), density = 1000}
  ball.fix{"velocity", "spin"}
  model.timestep{fix = dt}
  local breaks = 0
  callback.on("bond_break", function() breaks = breaks + 1 end)
  return function() return breaks end
end

-- 1: tension
local breaks = setup(v, 0)
local expect_step, worst, broke_at = nil, 0, nil
for n = 1, 100000 do
  model.cycle(1)
  local cp = contact.find("ball-ball", 1, 2)
  if not cp then break end -- open after the break: deleted once beyond its proximity
  local gap = contact.gap(cp) -- of this step's force pass
  local fn = contact.force(cp)[1]
  if not expect_step and -kn * gap < -tenf then expect_step = n end
  if contact.prop(cp, "cb_state") == 1 then
    worst = math.max(worst, math.abs(fn - kn * -gap) / tenf)
  elseif not broke_at then
    broke_at = n
    verify.check{quantity = "tension:state_after_break", sim = contact.prop(cp, "cb_state"),
                 ref = 2, tol = 0, kind = "abs"}
    verify.check{quantity = "tension:force_after_break", sim = fn, ref = 0, tol = 0, kind = "abs"}
  end
  if broke_at and n > broke_at + 10 then break end
end
verify.check{quantity = "tension:break_step", sim = broke_at or -1, ref = expect_step or -2,
             tol = 0, kind = "abs"}
verify.check{quantity = "tension:bonded_force", sim = worst, ref = 0, tol = 1e-12, kind = "abs"}
verify.check{quantity = "tension:bond_break_events", sim = breaks(), ref = 1, tol = 0, kind = "abs"}
-- the crack recorded: one, in tension, between balls 1 and 2, at the break step, at the contact
-- point (the middle of the gap on the line of centres: x = r + gap/2, gap that step's)
local cr = contact.cracks{list = true}
verify.check{quantity = "tension:cracks_recorded", sim = contact.cracks(), ref = 1, tol = 0,
             kind = "abs"}
verify.check{quantity = "tension:crack_mode_is_tension", sim = cr[1].mode == "tension" and 1 or 0,
             ref = 1, tol = 0, kind = "abs"}
verify.check{quantity = "tension:crack_step", sim = cr[1].step, ref = broke_at - 1, tol = 0,
             kind = "abs"}
verify.check{quantity = "tension:crack_balls", sim = cr[1].id1 * 10 + cr[1].id2, ref = 12, tol = 0,
             kind = "abs"}

-- 2: shear (ball 2 moves along y; the normal stays along x to first order in the slide)
breaks = setup(0, v)
expect_step, broke_at = nil, nil
local fs_prev = 0
for n = 1, 100000 do
  model.cycle(1)
  local cp = contact.find("ball-ball", 1, 2)
  local f = contact.force(cp)
  local fs = math.sqrt(f[2] ^ 2 + f[3] ^ 2)
  if not expect_step and fs_prev + ks * v * dt > shearf then expect_step = n end
  if contact.prop(cp, "cb_state") ~= 1 and not broke_at then
    broke_at = n
    verify.check{quantity = "shear:state_after_break", sim = contact.prop(cp, "cb_state"),
                 ref = 3, tol = 0, kind = "abs"}
    verify.check{quantity = "shear:force_capped_by_friction", sim = fs, ref = 0.2 * f[1],
                 tol = 1e-12}
  end
  fs_prev = fs
  if broke_at then break end
end
verify.check{quantity = "shear:break_step", sim = broke_at or -1, ref = expect_step or -2, tol = 0,
             kind = "abs"}
verify.check{quantity = "shear:bond_break_events", sim = breaks(), ref = 1, tol = 0, kind = "abs"}
cr = contact.cracks{list = true}
verify.check{quantity = "shear:crack_mode_is_shear", sim = cr[1].mode == "shear" and 1 or 0,
             ref = 1, tol = 0, kind = "abs"}
-- exported as CSV: a header and one row
local path = verify.path(string.format("cbond_cracks_%dd.csv", dim))
contact.cracks{export = path}
local rows = 0
for _ in io.lines(path) do rows = rows + 1 end
verify.check{quantity = "shear:crack_csv_rows", sim = rows, ref = 2, tol = 0, kind = "abs"}
