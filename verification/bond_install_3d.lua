-- Bonding a specimen (contact.bond), 3D (bond_install_2d.lua runs the same in 2D): a lattice of
-- equal balls (cubic 8 x 8 x 8 in 3D, square 20 x 20 in 2D) with an overlap of 1e-3 of the
-- radius, so that every nearest-neighbour pair touches: 3 x 7 x 64 = 1344 contacts in 3D,
-- 2 x 19 x 20 = 760 in 2D.
--  1. contact.bond{model = "linearcbond", ...} bonds every touching contact: the count it returns
--     is the closed form, and after one step every contact is bonded (cb_state 1).
--  2. Strengths drawn per bond from seeded distributions: cb_tenf from a normal distribution
--     (mean 1000 N, sd 100 N), cb_shearf from a Weibull one (scale 2000 N, shape 2, whose mean is
--     scale Gamma(3/2) = 1772.45 N): the sample means of n draws lie within 4 standard errors
--     (sd / sqrt(n); for the Weibull, sd = scale sqrt(1 - pi/4) = 927 N) of the means asked for,
--     and the same seed gives the same draws again (exact).
--  3. in_group bonds only the contacts with a ball in the group (one layer of balls: its
--     contacts within the layer and with its neighbours, counted in closed form).
--  4. kind: a wall touching the first layer; kind = "ball-ball" leaves its contacts unbonded,
--     kind = "ball-wall" bonds only them (one per ball of the layer), none given bonds both.
--  5. gap: the lattice spread so that neighbours are 1e-4 r apart (contacts kept up to a
--     proximity of 2e-4 r): contact.bond{model = "linearpbond", gap = 2e-4 r} bonds every
--     nearest-neighbour pair (the closed-form count), all are bonded after a step (pb_state 1)
--     with no force (the bond forms stress-free and the linear part is open), and the diagonal
--     pairs (0.83 r apart) are not in range; linearcbond, which has no gap property,
--     refuses a gap.
local dim = BI_DIM or 3
local r = 0.01
local n_side = dim == 3 and 8 or 20
local function build(group_layer)
  model.new{dim = dim}
  contact.cmat_default{model = "linear", kn = 1e6, ks = 5e5}
  specimen.lattice{kind = dim == 3 and "cubic" or "square", rad = r, spacing = 2 * r * (1 - 5e-4),
                   n = dim == 3 and {n_side, n_side, n_side} or {n_side, n_side}, density = 2500}
  if group_layer then -- the balls of the first layer (lowest x) into a group
    for _, id in ipairs(ball.list()) do
      if ball.pos(id)[1] < r then ball.attribute{ids = {id}, group = "layer"} end
    end
  end
  model.clean()
end
local tenf = {dist = "normal", mean = 1000, sd = 100, seed = 7}
local shearf = {dist = "weibull", scale = 2000, shape = 2, seed = 11}

-- 1 and 2
build(false)
local expect = dim == 3 and 3 * (n_side - 1) * n_side * n_side or 2 * (n_side - 1) * n_side
local nb = contact.bond{model = "linearcbond", kn = 1e6, ks = 5e5, cb_tenf = tenf,
                        cb_shearf = shearf}
verify.check{quantity = "bonds_installed", sim = nb, ref = expect, tol = 0, kind = "abs"}
model.timestep{fix = 1e-6}
model.cycle(1)
local bonded, st, ss, draws = 0, 0, 0, {}
for i, cp in ipairs(contact.list()) do
  if contact.prop(cp, "cb_state") == 1 then bonded = bonded + 1 end
  local a = contact.prop(cp, "cb_tenf")
  st, ss = st + a, ss + contact.prop(cp, "cb_shearf")
  draws[i] = a
end
verify.check{quantity = "bonded_after_a_step", sim = bonded, ref = expect, tol = 0, kind = "abs"}
local weib_mean, weib_sd = 2000 * math.sqrt(math.pi) / 2, 2000 * math.sqrt(1 - math.pi / 4)
verify.check{quantity = "normal_draws:mean", sim = st / nb, ref = 1000,
             tol = 4 * 100 / math.sqrt(nb), kind = "abs"}
verify.check{quantity = "weibull_draws:mean", sim = ss / nb, ref = weib_mean,
             tol = 4 * weib_sd / math.sqrt(nb), kind = "abs"}
build(false)
contact.bond{model = "linearcbond", kn = 1e6, ks = 5e5, cb_tenf = tenf, cb_shearf = shearf}
local same = 0
for i, cp in ipairs(contact.list()) do
  if contact.prop(cp, "cb_tenf") == draws[i] then same = same + 1 end
end
verify.check{quantity = "same_seed_same_draws", sim = same, ref = nb, tol = 0, kind = "abs"}

-- 3
build(true)
local layer = dim == 3 and n_side * n_side or n_side -- balls in the layer
local within = dim == 3 and 2 * (n_side - 1) * n_side or (n_side - 1)
nb = contact.bond{model = "linearcbond", in_group = "layer", kn = 1e6, ks = 5e5, cb_tenf = 1e3,
                  cb_shearf = 1e3}
verify.check{quantity = "bonds_in_group", sim = nb, ref = within + layer, tol = 0, kind = "abs"}

-- 4
local function with_wall()
  build(false)
  local x = -r + 1e-6 -- the first layer (centres at x = 0) overlaps the wall by 1e-6
  if dim == 3 then
    wall.create{kind = "plane", point = {x, 0, 0}, normal = {1, 0, 0}}
  else
    wall.create{nodes = {{x, -1}, {x, 1}}}
  end
  model.clean()
end
local bb = {model = "linearcbond", kn = 1e6, ks = 5e5, cb_tenf = 1e3, cb_shearf = 1e3}
with_wall()
verify.check{quantity = "kind:both", sim = contact.bond(bb), ref = expect + layer, tol = 0,
             kind = "abs"}
with_wall()
bb.kind = "ball-ball"
verify.check{quantity = "kind:ball-ball", sim = contact.bond(bb), ref = expect, tol = 0,
             kind = "abs"}
with_wall()
bb.kind = "ball-wall"
verify.check{quantity = "kind:ball-wall", sim = contact.bond(bb), ref = layer, tol = 0,
             kind = "abs"}

-- 5
model.new{dim = dim}
local pg = 1e-4 * r
contact.cmat_default{model = "linear", kn = 1e6, ks = 5e5, proximity = 2 * pg}
specimen.lattice{kind = dim == 3 and "cubic" or "square", rad = r, spacing = 2 * r + pg,
                 n = dim == 3 and {n_side, n_side, n_side} or {n_side, n_side}, density = 2500}
model.clean()
nb = contact.bond{model = "linearpbond", gap = 2 * pg, kn = 1e6, ks = 5e5, pb_kn = 1e10,
                  pb_ks = 5e9, pb_ten = 1e6, pb_coh = 1e6}
verify.check{quantity = "gap:bonds_installed", sim = nb, ref = expect, tol = 0, kind = "abs"}
model.timestep{fix = 1e-6}
model.cycle(1)
local gb, fmax = 0, 0
for _, cp in ipairs(contact.list()) do
  if contact.prop(cp, "pb_state") == 1 then gb = gb + 1 end
  local f = contact.force_global(cp)
  fmax = math.max(fmax, math.abs(f[1]), math.abs(f[2]), math.abs(f[3] or 0))
end
verify.check{quantity = "gap:bonded_after_a_step", sim = gb, ref = expect, tol = 0, kind = "abs"}
verify.check{quantity = "gap:stress_free", sim = fmax, ref = 0, tol = 0, kind = "abs"}
local ok = pcall(contact.bond, {model = "linearcbond", gap = 2 * pg, cb_tenf = 1, cb_shearf = 1})
verify.check{quantity = "gap:linearcbond_refuses", sim = ok and 0 or 1, ref = 1, tol = 0,
             kind = "abs"}
