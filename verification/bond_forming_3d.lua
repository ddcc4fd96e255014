-- A bond that forms between moving balls forms stress-free (3D; bond_forming_2d.lua runs the
-- same in 2D). Two balls (radius r = 0.01 m) touching with an overlap of 1e-6 m move relative
-- to each other at a constant velocity and spin (held: velocities and spins fixed) under the
-- linear model for K = 100 steps; contact.bond then bonds them, and the bond forms at the next
-- update, the forming step j = 1. The bond is stress-free at the configuration where it forms,
-- so on the forming step it carries nothing, and j steps later it carries exactly the j - 1
-- increments of the motion since: the increment of the forming step is the motion of the step
-- before it, before the bond existed (the force pass at step j sees the positions reached by
-- j - 1 steps of motion since the forming step's). Each motion keeps the contact normal fixed
-- (no turning), so the closed forms are exact:
--  1. linearpbond, pulled apart along the normal at v = 0.013 m/s:
--     pb_fn = -pb_kn A v dt (j - 1); breaks in tension (pb_ten = 1e5 Pa) in the first step
--     where -pb_fn / A > pb_ten;
--  2. sheared by spinning both balls at w = 9 rad/s about z (their contact points then slide
--     past each other at (a1 + a2) w = (2r - ov) w with the centres held, a1 = a2 = r - ov/2
--     the arms): |pb_fs| = pb_ks A (2r - ov) w dt (j - 1); breaks in shear (pb_coh = 2e5 Pa);
--  3. bent by spinning them at -w and +w (w = 3 rad/s; the contact points do not slide):
--     |pb_mb| = pb_kn I 2w dt (j - 1); breaks in tension where |pb_mb| R / I > pb_ten;
--  4. twisted (3D) by spinning ball 2 at w = 7 rad/s about the normal:
--     |pb_mt| = pb_ks J w dt (j - 1); breaks in shear where |pb_mt| R / J > pb_coh;
--  5. linearcbond, sheared as in 2 (w = 9 rad/s, kn = 1e6 N/m, ks = 5e5 N/m, overlap 1e-5 m):
--     the shear spring forms at zero, |F_s| = ks (2r - ov) w dt (j - 1), and the bond breaks in
--     the first step where |F_s| > cb_shearf = 3 N. (The normal spring follows the overlap, as
--     in linear: it is not incremental.)
-- Section: 3D a disk, A = pi R^2, I = pi R^4 / 4, J = 2I; 2D a rectangle of unit thickness,
-- A = 2R, I = (2R)^3 / 12; R = r. On the forming step the checks are exact (0 N, tolerance 0).
-- After it, each value is a sum of up to 7 700 equal increments, exact but for rounding, which
-- grows like sqrt(n) eps (2e-14 here) and cannot pass n eps (1.7e-12): tolerance 1e-12 of the
-- strength (of strength x A for forces, of strength x I / R or J / R for moments), as in
-- pbond_3d (observed 1.3e-14 to 1.2e-13). The strengths are chosen so that no closed-form stress lands within a tenth of
-- an increment of its strength, so the break steps are exact (tolerance 0).
local dim = BF_DIM or 3
local r, ov, dt, K = 0.01, 1e-6, 1e-7, 100
local pkn, pks, ten, coh = 1e10, 5e9, 1e5, 2e5
local R = r
local A = dim == 3 and math.pi * R * R or 2 * R
local I = dim == 3 and math.pi * R ^ 4 / 4 or (2 * R) ^ 3 / 12
local J = 2 * I
local function vec(x, y, z) return dim == 3 and {x, y, z} or {x, y} end
local function spin(x, z) return dim == 3 and {x, 0, z} or z end
local function mag(t) if type(t) == "number" then return math.abs(t) end
  return math.sqrt(t[1] ^ 2 + t[2] ^ 2 + (t[3] or 0) ^ 2) end

-- Two balls at overlap o, ball 2 moving at vel2, the spins s1 and s2, K steps under linear, then
-- bonded with the model and properties of bond.
local function setup(o, vel2, s1, s2, bond)
  model.new{dim = dim}
  contact.cmat_default{model = "linear", kn = bond.kn, ks = bond.ks, fric = 0.5}
  ball.create{id = 1, rad = r, pos = vec(0, 0, 0), spin = s1, density = 1000}
  ball.create{id = 2, rad = r, pos = vec(2 * r - o, 0, 0), vel = vel2, spin = s2,
              density = 1000}
  ball.fix{"velocity", "spin"}
  model.timestep{fix = dt}
  model.cycle(K)
  local breaks = 0
  callback.on("bond_break", function() breaks = breaks + 1 end)
  return contact.bond(bond), function() return breaks end
end

-- Runs the bonded pair step by step until the bond breaks. value(cp) reads the bond's force or
-- moment; rate is its closed-form growth per step, scale its value at the strength; stress(n)
-- the closed-form stress after n increments, limit the strength; state the state field and
-- broken its value after the break.
local function run(c)
  local nb, breaks = setup(c.ov or ov, c.vel, c.s1, c.s2, c.bond)
  verify.check{quantity = c.name .. ":bonded", sim = nb, ref = 1, tol = 0, kind = "abs"}
  local expect = 1 -- the first step whose closed-form stress exceeds the strength
  while c.stress(expect - 1) <= c.limit do expect = expect + 1 end
  local worst, broke_at = 0, nil
  for j = 1, 100000 do
    model.cycle(1)
    local cp = contact.find("ball-ball", 1, 2)
    if not cp then break end
    local n = j - 1 -- increments since the bond formed
    if contact.prop(cp, c.state) == 1 then
      local got = c.value(cp)
      if j == 1 then
        verify.check{quantity = c.name .. ":forming_step", sim = got, ref = 0, tol = 0,
                     kind = "abs"}
      end
      worst = math.max(worst, math.abs(got - c.rate * n) / c.scale)
    elseif not broke_at then
      broke_at = j
      verify.check{quantity = c.name .. ":state_after_break", sim = contact.prop(cp, c.state),
                   ref = c.broken, tol = 0, kind = "abs"}
    end
    if broke_at then break end
  end
  verify.check{quantity = c.name .. ":bond_force", sim = worst, ref = 0, tol = 1e-12,
               kind = "abs"}
  verify.check{quantity = c.name .. ":break_step", sim = broke_at or -1, ref = expect,
               tol = 0, kind = "abs"}
  verify.check{quantity = c.name .. ":one_break", sim = breaks(), ref = 1, tol = 0, kind = "abs"}
end

local pb = {model = "linearpbond", kn = 1e5, ks = 1e5, fric = 0.5, pb_kn = pkn, pb_ks = pks,
            pb_ten = ten, pb_coh = coh}
local none = spin(0, 0)

-- 1: pulled apart
local v = 0.013
run{name = "pbond_normal:fn", bond = pb, vel = vec(v, 0, 0), s1 = none, s2 = none,
    value = function(cp) return -contact.prop(cp, "pb_fn") end, rate = pkn * A * v * dt,
    scale = ten * A, stress = function(n) return pkn * v * dt * n end, limit = ten,
    state = "pb_state", broken = 2}

-- 2: sheared by equal spins
local ws = 9
run{name = "pbond_shear:fs", bond = pb, vel = vec(0, 0, 0), s1 = spin(0, ws), s2 = spin(0, ws),
    value = function(cp) return mag(contact.prop(cp, "pb_fs")) end,
    rate = pks * A * (2 * r - ov) * ws * dt, scale = coh * A,
    stress = function(n) return pks * (2 * r - ov) * ws * dt * n end, limit = coh,
    state = "pb_state", broken = 3}

-- 3: bent by opposite spins
local wb = 3
run{name = "pbond_bending:mb", bond = pb, vel = vec(0, 0, 0), s1 = spin(0, -wb),
    s2 = spin(0, wb), value = function(cp) return mag(contact.prop(cp, "pb_mb")) end,
    rate = pkn * I * 2 * wb * dt, scale = ten * I / R,
    stress = function(n) return pkn * 2 * wb * dt * n * R end, limit = ten, state = "pb_state",
    broken = 2}

-- 4: twisted (3D)
if dim == 3 then
  local wt = 7
  run{name = "pbond_twisting:mt", bond = pb, vel = vec(0, 0, 0), s1 = none, s2 = spin(wt, 0),
      value = function(cp) return math.abs(contact.prop(cp, "pb_mt")) end,
      rate = pks * J * wt * dt, scale = coh * J / R,
      stress = function(n) return pks * wt * dt * n * R end, limit = coh, state = "pb_state",
      broken = 3}
end

-- 5: the contact bond, sheared by equal spins
local cov, cks, shearf = 1e-5, 5e5, 3
local cb = {model = "linearcbond", kn = 1e6, ks = cks, fric = 0.5,
            cb_tenf = 2, cb_shearf = shearf}
run{name = "cbond_shear:fs", bond = cb, ov = cov, vel = vec(0, 0, 0), s1 = spin(0, ws),
    s2 = spin(0, ws), value = function(cp)
      local f = contact.force(cp)
      return math.sqrt(f[2] ^ 2 + (f[3] or 0) ^ 2)
    end, rate = cks * (2 * r - cov) * ws * dt, scale = shearf,
    stress = function(n) return cks * (2 * r - cov) * ws * dt * n end, limit = shearf,
    state = "cb_state", broken = 3}
