-- The rolling and twisting add-on of the bonded models (linearcbond, linearpbond), which acts
-- while a contact has no intact bond (docs/contact-models.md, "Rolling and twisting
-- resistance"), against closed forms (3D; rolling_bonded_2d.lua runs it in 2D).
--  1. A ball rolling on a level floor from v0 = 0.5 m/s (the case of rolling_resistance_3d.lua:
--     radius 0.01 m, 2500 kg/m3, kn = ks with a static overlap of 1e-5 r, fric 0.5,
--     dp_nratio 0.3, rr_fric = mu_r = 0.1, dt = 0.1 sqrt(m / kn)) with each bonded model and its
--     bond off (cb_bond = 0, pb_bond = 0: never bonded, as after a break): it decelerates at
--     a = mu_r g / (1 + kappa) (kappa = I / (m r^2)) with the moment at its limit mu_r R* F_n.
--     Tolerances as there: 2e-4 on the deceleration (least-squares slope between 10 % and 90 %
--     of the stopping time; the lever differs from the rigid body's by the overlap, 1e-5 r), 1e-12
--     on the moment (it is capped to its limit).
--  2. Two balls (radius 0.01 m) bonded by linearpbond at an overlap of 1e-5 m (pb_kn = 1e10,
--     pb_ks = 5e9 Pa/m, strong), held in place, one spinning at 10 rad/s, with rr_fric and
--     tw_fric set: while the bond is intact the add-on holds no moment (the bond carries the
--     bending and twisting): rr_moment and tw_moment stay exactly 0 while pb_mb grows.
-- Observed: see docs/contact-models.md, "Rolling and twisting resistance".
local dim = ROLL_DIM or 3
local r, rho, g, mu_r, v0 = 0.01, 2500, 9.81, 0.1, 0.5
local kappa = dim == 3 and 0.4 or 0.5
local mass = (dim == 3 and 4 / 3 * math.pi * r ^ 3 or math.pi * r * r) * rho
local kn = mass * g / (1e-5 * r)
local dt = 0.1 * math.sqrt(mass / kn)
local function vec(x, y) return dim == 3 and {x, y, 0} or {x, y} end
local function spinz(w) return dim == 3 and {0, 0, w} or w end

for _, props in ipairs{{model = "linearcbond", cb_bond = 0}, {model = "linearpbond", pb_bond = 0}} do
  props.kn, props.ks, props.fric, props.dp_nratio, props.rr_fric = kn, kn, 0.5, 0.3, mu_r
  model.new{dim = dim}
  contact.cmat_default(props)
  if dim == 2 then
    wall.create{id = 1, nodes = {{-10, 0}, {10, 0}}}
  else
    wall.create{id = 1, kind = "plane", point = {0, 0, 0}, normal = {0, 1, 0}}
  end
  ball.create{id = 1, rad = r, density = rho, pos = vec(0, r - mass * g / kn), vel = vec(v0, 0),
              spin = spinz(-v0 / r)}
  model.gravity(vec(0, -g))
  model.timestep{fix = dt}
  local a = mu_r * g / (1 + kappa)
  local ts = v0 / a
  local n, st, sv, stt, stv, worst = 0, 0, 0, 0, 0, 0
  local cp
  for i = 1, math.floor(0.9 * ts / dt) do
    model.cycle(1)
    cp = cp or contact.find("ball-wall", 1, 1)
    local t, v = model.time(), ball.vel(1)[1]
    if t >= 0.1 * ts then
      n, st, sv, stt, stv = n + 1, st + t, sv + v, stt + t * t, stv + t * v
    end
    if contact.prop(cp, "rr_slip") == 1 then
      local mr, fn = contact.prop(cp, "rr_moment"), contact.prop(cp, "lin_force")[1]
      local mag = math.sqrt(mr[1] ^ 2 + mr[2] ^ 2 + mr[3] ^ 2)
      worst = math.max(worst, math.abs(mag / (mu_r * r * fn) - 1))
    end
  end
  local a_sim = -(n * stv - st * sv) / (n * stt - st * st)
  verify.check{quantity = props.model .. "_unbonded_deceleration", sim = a_sim, ref = a,
               tol = 2e-4}
  verify.check{quantity = props.model .. "_unbonded_moment_at_limit", sim = worst, ref = 0,
               tol = 1e-12, kind = "abs"}
end

-- 2: a bonded pair: the add-on holds nothing while the bond is intact.
model.new{dim = dim}
contact.cmat_default{model = "linearpbond", kn = 1e6, ks = 5e5, fric = 0.5, pb_kn = 1e10,
                     pb_ks = 5e9, pb_ten = 1e12, pb_coh = 1e12, rr_fric = 0.1, tw_fric = 0.1}
local ov = 1e-5
ball.create{id = 1, rad = r, density = rho, pos = vec(0, 0)}
ball.create{id = 2, rad = r, density = rho, pos = vec(2 * r - ov, 0),
            spin = dim == 3 and {10, 0, 10} or 10}
ball.fix{"velocity", id = 1}
ball.fix{"velocity", id = 2}
model.timestep{fix = 1e-7}
local held, mb = 0, 0
for i = 1, 200 do
  model.cycle(1)
  local cp = contact.find("ball-ball", 1, 2)
  local mr = contact.prop(cp, "rr_moment")
  held = math.max(held, math.abs(mr[1]) + math.abs(mr[2]) + math.abs(mr[3]),
                  math.abs(contact.prop(cp, "tw_moment")))
  local b = contact.prop(cp, "pb_mb")
  mb = math.sqrt(b[1] ^ 2 + b[2] ^ 2 + b[3] ^ 2)
end
verify.check{quantity = "bonded_pair_addon_moment", sim = held, ref = 0, tol = 0, kind = "abs"}
verify.check{quantity = "bonded_pair_bond_bends(|pb_mb|>0)", sim = mb > 0 and 1 or 0, ref = 1,
             tol = 0, kind = "abs"}
