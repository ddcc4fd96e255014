-- The smoothjoint model: a block sliding on one inclined joint, against the closed forms (3D;
-- smoothjoint_2d.lua runs the same in 2D). Two rigid blocks (clumps) of one layer of pebbles
-- each, of random radii (0.8 to 1.2 mm) at jittered places, face each other across a joint
-- plane through the origin inclined at 30 degrees (normal n_j = (-sin 30, 0, cos 30), 2D
-- (-sin 30, cos 30); along-joint direction t_j). contact.joint gives every contact whose centres
-- the plane parts the smoothjoint model (sj_kn = 1e12 Pa/m, sj_ks = 5e11 Pa/m, sj_fric = 0.5,
-- sj_da = 10 degrees, sj_large = 1: a contact whose pebbles' surfaces part along their line of
-- centres as the block slides is kept while they face each other across the joint): their lines
-- of centres point every way, the joint's normal is the same.
-- The lower block is fixed; the upper one is free to translate (its spin held, local damping
-- 0.7) under a force N = 50 N pressing it on the joint and a force T along t_j, raised over
-- 20 000 steps and then held.
--  1. unbonded joint: Patton's law for asperities inclined at psi, T_c = N tan(phi + psi), with
--     tan(phi) = sj_fric, whatever the pebbles: held at 0.99 T_c the block comes to rest (its
--     speed below 1e-9 m/s after 20 000 steps held; tolerance: the 1 % margin covers the ramp's
--     dynamic overshoot, which local damping keeps below 0.1 %), held at 1.01 T_c it slides on
--     (at least 10 times its elastic displacement). While it slides every joint contact is on
--     its face's limit, so the contacts' shear and normal forces, summed in the joint's frame,
--     are in the ratio tan(phi + psi) (to rounding, 1e-9), and the block rides up the joint by
--     tan(psi) per unit slid plastically: its displacement over the 20 000 steps held, along n_j
--     and t_j, less the elastic parts (the changes of the summed contact forces over the joint's
--     summed stiffnesses), are in the ratio tan(psi), within 1e-4: the contact forces are those
--     of the last force pass, a step's motion (|v| dt, below 1e-9 m) behind the block's
--     position, at both ends of about 1.4e-5 m slid;
--     The energy books close while it slides, to the trapezoidal books' second order (tolerance
--     1e-3 of the applied forces' work, as for parallel bonds), the slip losses positive;
--  2. the same for a second set of pebbles (another seed), the upper layer shifted by half a
--     spacing and both half a radius across the joint, so that each pebble meets those about
--     the one facing it (lines of centres more than 40 degrees off the joint's normal): the same
--     closed forms, within the same tolerances (sliding does not depend on the pebbles' sizes or
--     places);
--  3. bonded joint (sj_bond = 1, sj_coh = 1 MPa, sj_fa = 20 degrees): the bonds form stress-free
--     and the blocks translate, so every joint contact carries the same stresses and all break
--     together at T_b = c sum(A) + N tan(sj_fa), A = pi R^2 per contact (2D: 2R), R the smaller
--     pebble's radius: held at 0.99 T_b nothing breaks; at 1.01 T_b every bond breaks in shear
--     and, T_b being above N tan(phi + psi), the block slides on.
local dim = SJ_DIM or 3
local alpha = math.rad(30)
local nj = dim == 3 and {-math.sin(alpha), 0, math.cos(alpha)} or {-math.sin(alpha),
                                                                    math.cos(alpha), 0}
local tj = dim == 3 and {math.cos(alpha), 0, math.sin(alpha)} or {math.cos(alpha),
                                                                   math.sin(alpha), 0}
local fric, da = 0.5, 10
local N = 50
local Tc = N * math.tan(math.atan(fric) + math.rad(da))
local function dot(a, b) return a[1] * b[1] + a[2] * b[2] + (a[3] or 0) * (b[3] or 0) end
local function vec(v) return dim == 3 and v or {v[1], v[2]} end

-- the pebbles of the two blocks, global coordinates (the clumps keep them where they are)
local function layer(seed, side)
  local s = seed * 2 + side
  local function rnd() -- a small deterministic generator (the same pebbles on every machine)
    s = (s * 1103515245 + 12345) % 2147483648
    return s / 2147483648
  end
  local pebbles, volume = {}, 0
  local nu, nv = 10, dim == 3 and 5 or 1
  for i = 1, nu do
    for j = 1, nv do
      local r = 1e-3 * (0.8 + 0.4 * rnd())
      -- seed 1: the layers face each other pebble for pebble, each a little across the joint;
      -- seed 2: the upper layer shifted by half a spacing and both layers half a radius deep
      -- across it, so that each pebble meets those about the one facing it, lines of centres
      -- up to 50 degrees off the joint's normal
      local shift = (seed == 2 and side == 1) and 1e-3 or 0
      local u = (i - 0.5 - nu / 2) * 2e-3 + shift + 0.4e-3 * (rnd() - 0.5)
      local v = dim == 3 and (j - 0.5 - nv / 2) * 2e-3 + shift + 0.4e-3 * (rnd() - 0.5) or 0
      local across = seed == 2 and 0.5 * r or 0.1e-3 * (0.5 + rnd())
      local w = (side == 0 and -1 or 1) * (r - across)
      local p = {}
      for k = 1, 3 do p[k] = u * tj[k] + w * nj[k] end
      if dim == 3 then p[2] = v end
      pebbles[#pebbles + 1] = dim == 3 and {p[1], p[2], p[3], r} or {p[1], p[2], r}
      volume = volume + (dim == 3 and 4 / 3 * math.pi * r ^ 3 or math.pi * r * r)
    end
  end
  return pebbles, volume
end

-- the blocks, joined; returns the upper block's id, a pebble to load and the joint contacts
local function blocks(seed, props)
  model.new{dim = dim}
  contact.cmat_default{model = "linear", kn = 1e6, ks = 1e6}
  local ids = {}
  for side = 0, 1 do
    local pebbles, volume = layer(seed, side)
    local r2 = 1e-6 -- any sane inertia: the spins are held
    clump.template{name = "block" .. side, pebbles = pebbles,
                   mass = {volume = volume, centroid = {0, 0, 0},
                           inertia = dim == 3 and {{volume * r2, 0, 0}, {0, volume * r2, 0},
                                                   {0, 0, volume * r2}} or volume * r2}}
    ids[side] = clump.create{template = "block" .. side, pos = vec{0, 0, 0}, density = 2650,
                             damp = 0.7}
  end
  clump.fix{"velocity", "spin", id = ids[0]}
  clump.fix{"spin", id = ids[1]}
  model.clean()
  local joint = {point = vec{0, 0, 0}, normal = vec(nj), sj_kn = 1e12, sj_ks = 5e11,
                 sj_fric = fric, sj_da = da, sj_large = 1}
  for k, v in pairs(props or {}) do joint[k] = v end
  local n = contact.joint(joint)
  model.timestep{fix = 2e-8}
  energy.track(true)
  -- the joint's summed areas (A = pi R^2, 2D 2R, R the smaller pebble's radius)
  -- and the largest angle between a joint contact's line of centres and the joint's normal
  local area, widest = 0, 0
  for _, cp in ipairs(contact.list("ball-ball")) do
    if contact.model(cp) == "smoothjoint" then
      local _, a, b = contact.ends(cp)
      local R = math.min(ball.rad(a), ball.rad(b))
      area = area + (dim == 3 and math.pi * R * R or 2 * R)
      widest = math.max(widest, math.deg(math.acos(math.min(1, math.abs(dot(contact.normal(cp),
                                                                            nj))))))
    end
  end
  return ids[1], clump.pebbles(ids[1])[1], n, area, widest
end

-- the joint contacts' forces on the upper block, summed along n_j and t_j, and how many slip
local function joint_sums()
  local sn, st, slipping, joints = 0, 0, 0, 0
  for _, cp in ipairs(contact.list("ball-ball")) do
    if contact.model(cp) == "smoothjoint" then
      local f = contact.force_global(cp)
      local f3 = {f[1], f[2], f[3] or 0}
      -- the force on the upper pebble: side 2 is the higher id, which the upper block's pebbles
      -- have (created second)
      sn, st = sn + dot(f3, nj), st + dot(f3, tj)
      joints = joints + 1
      if contact.prop(cp, "sj_slip") == 1 then slipping = slipping + 1 end
    end
  end
  return {sn = sn, st = st, slipping = slipping, joints = joints}
end

-- hold the upper block under N and a shear force ramped to T, then held; returns its speed
-- along the joint at the end, how far it slid while held, and the joint contacts' force sums
local function load(block, pebble, T, ramp, hold)
  local function apply(t)
    local f = {}
    for k = 1, 3 do f[k] = -N * nj[k] + t * tj[k] end
    ball.force_app(pebble, vec(f))
  end
  for i = 1, ramp, 100 do
    apply(T * math.min(1, i / ramp))
    model.cycle(100)
  end
  apply(T)
  local p0, s0 = clump.pos(block), joint_sums()
  model.cycle(hold)
  local p1 = clump.pos(block)
  local d = {}
  for k = 1, dim do d[k] = p1[k] - p0[k] end
  if dim == 2 then d[3] = 0 end
  return math.abs(dot(clump.vel(block), tj)), dot(d, tj), dot(d, nj), joint_sums(), s0
end

for _, seed in ipairs{1, 2} do
  local tag = "seed" .. seed .. ":"
  local block, pebble, n, area, widest = blocks(seed)
  verify.check{quantity = tag .. "joint_contacts_found",
               sim = n >= (dim == 3 and 20 or 5) and 1 or 0, ref = 1, tol = 0, kind = "abs"}
  if seed == 2 then
    verify.check{quantity = tag .. "lines_of_centres_over_40_degrees_off_the_normal",
                 sim = widest > 40 and 1 or 0, ref = 1, tol = 0, kind = "abs"}
  end
  local speed = load(block, pebble, 0.99 * Tc, 20000, 20000)
  verify.check{quantity = tag .. "at_0.99_Tc:speed_at_rest", sim = speed, ref = 0, tol = 1e-9,
               kind = "abs"}
  block, pebble = blocks(seed)
  local _, along, across, sums, s0 = load(block, pebble, 1.01 * Tc, 20000, 20000)
  local elastic = Tc / (5e11 * area) -- the joint's elastic shear displacement at T_c
  verify.check{quantity = tag .. "at_1.01_Tc:slides_on", sim = along > 10 * elastic and 1 or 0,
               ref = 1, tol = 0, kind = "abs"}
  local e = energy.get()
  verify.check{quantity = tag .. "sliding:|energy_balance|/applied_work",
               sim = math.abs(e.balance) / e.applied_work, ref = 0, tol = 1e-3, kind = "abs"}
  verify.check{quantity = tag .. "sliding:slip_dissipates", sim = e.slip > 0 and 1 or 0, ref = 1,
               tol = 0, kind = "abs"}
  -- the plastic part of the motion: less the elastic changes of the summed forces over the
  -- joint's stiffnesses (more compression: the block sank into the joint)
  along = along + (sums.st - s0.st) / (5e11 * area)
  across = across + (sums.sn - s0.sn) / (1e12 * area)
  verify.check{quantity = tag .. "sliding:every_joint_contact_slips", sim = sums.slipping,
               ref = sums.joints, tol = 0, kind = "abs"}
  verify.check{quantity = tag .. "sliding:contact_shear_over_normal", sim = -sums.st / sums.sn,
               ref = math.tan(math.atan(fric) + math.rad(da)), tol = 1e-9}
  verify.check{quantity = tag .. "sliding:dilation_rate", sim = across / along,
               ref = math.tan(math.rad(da)), tol = 1e-4}
end

-- 3: a bonded joint
local coh, fa = 1e6, 20
local function bonded(T)
  local block, pebble, _, area = blocks(1, {sj_bond = 1, sj_coh = coh, sj_fa = fa, sj_ten = 1e9})
  model.cycle(1) -- the bonds form
  local Tb = coh * area + N * math.tan(math.rad(fa))
  local speed, along, _, sums = load(block, pebble, T * Tb, 20000, 20000)
  local intact = 0
  for _, cp in ipairs(contact.list("ball-ball")) do
    if contact.model(cp) == "smoothjoint" and contact.prop(cp, "sj_state") == 1 then
      intact = intact + 1
    end
  end
  return intact, sums.joints, speed, along, Tb
end
local intact, joints, speed, _, Tb = bonded(0.99)
verify.check{quantity = "bonded:Tb_above_the_sliding_load", sim = Tb > Tc and 1 or 0, ref = 1,
             tol = 0, kind = "abs"}
verify.check{quantity = "bonded:at_0.99_Tb:bonds_intact", sim = intact, ref = joints, tol = 0,
             kind = "abs"}
verify.check{quantity = "bonded:at_0.99_Tb:speed_at_rest", sim = speed, ref = 0, tol = 1e-9,
             kind = "abs"}
local along
intact, joints, _, along = bonded(1.01)
verify.check{quantity = "bonded:at_1.01_Tb:bonds_broken", sim = intact, ref = 0, tol = 0,
             kind = "abs"}
verify.check{quantity = "bonded:at_1.01_Tb:slides_on", sim = along > 1e-5 and 1 or 0, ref = 1,
             tol = 0, kind = "abs"}
