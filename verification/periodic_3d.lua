-- The periodic cell (3D; periodic_2d.lua runs the same in 2D). Four parts, each against a
-- closed form or an independent count:
--
--  1. Crossing faces and corners. A bonded pair (linearpbond, bonded at its first touch)
--     flies across the cell along each axis, each way, and along a diagonal through a corner.
--     Radii, positions, velocities and the timestep are binary fractions (r = 1/16 m, dt =
--     2^-10 s, v_k in eighths of m/s), so every position is exact and the pair's separation
--     stays exactly 2r: nothing acts on it. Each ball's velocity must stay exactly what it was
--     (abs 0), its position must be the start plus v t brought back into the cell (abs 0), and
--     the pair keeps its one contact all the way: one contact_created event, no
--     contact_deleted, the contact found at the end with zero force (abs 0).
--
--  2. A lattice under a prescribed strain. Equal balls (r = 0.05 m) on a rectangular lattice
--     of n_x x n_y x n_z in a periodic cell that holds them exactly, spacings a_x, a_y, a_z below
--     2r, linear contacts (kn = 1e6 N/m, ks = 0): every bond along k carries kn (2r - a_k) over
--     a branch a_k, so sigma_kk = kn (2r - a_k) / (product of the other spacings) (2D: over
--     the other spacing), off-diagonals 0. cell.stress and a measure box over the whole cell
--     (Love-Weber average with contact points brought into the cell) must give it to round-off
--     (rel 1e-12); the porosity of that box, with the balls' images across the faces, is
--     1 - (solid) / (cell volume) to 1e-12 abs.
--
--  3. Simple shear of the lattice. The cell shears at gamma_dot (cell.rate{xz = ...}; 2D
--     xy), which gives every ball the affine velocity gamma_dot z (remap); the balls' velocities
--     are then fixed, so they follow the cell exactly (a compressed square lattice without
--     shear springs would buckle), and the check is on the images across the sheared faces:
--     their offset and their velocity L shift. With ks = 0 each column bond turns and
--     stretches: its branch is a_z (gamma, 1) (2D a_y), its length l = a_z sqrt(1 + gamma^2),
--     its force kn (2r - l) along the branch. Closed
--     forms: sigma_xz = sigma_zx = N kn (2r - l) gamma a_z / (sqrt(1 + gamma^2) V), sigma_zz =
--     N kn (2r - l) a_z / (sqrt(1 + gamma^2) V), with N the number of column bonds and gamma =
--     gamma_dot t of the last force pass (one step behind the positions). rel 1e-12: the
--     positions carry the round-off of 2000 steps of x += v dt, a few ulps of the cell, which
--     the bond force (2r - l ~ 5e-4 m against 0.1 m spacings) magnifies ~200 times (observed
--     about 4e-14).
--
--  4. An elastic gas. 120 balls (3D; 2D: 60 disks) with random velocities in a fully periodic
--     cell, linear contacts, no damping, no friction (ks = 0). Over 3000 steps: momentum stays
--     at its start (abs 1e-13 kg m/s: forces come in exactly opposite pairs; the
--     rounding of the sums); at a moment with no contact active, the kinetic energy equals the
--     start to the scheme's bound: each collision changes its relative-motion energy by at most
--     h^2/4 of it (h = omega dt; elastic_collision_3d.lua derives it), so the tolerance is the
--     sum over the collisions of h^2/4 x (1/2 m_eff u_n^2), u_n the closing speed at contact;
--     and the broad phase found every contact: each pair whose nearest images overlap (brute
--     force over all pairs, in Lua) has a contact, and no contact has a gap above zero.
--
--  5. Stress control. A loose random packing (150 balls; 2D: 150 disks) in a fully periodic
--     cell, frictional linear contacts, local damping 0.7, is compressed by cell.servo on every
--     axis to 1e4 Pa. The control closes half the error a step through the contacts' stiffness,
--     so once the packing is jammed each diagonal stress reaches the target geometrically: after
--     6000 steps it must hold it to 1e-6 rel on every axis, with the cell's volume settled
--     (its change over the last 1000 steps below 1e-6 of it).
--
--  6. Shear past a flip. The packing of part 5 is sheared to gamma = 1.6 (x moving with the last
--     axis; the stress control off, the cell's other rates zero), so its tilted edge is moved
--     back by a whole x edge twice (a flip: the same images). Then every pair whose nearest image overlaps, found
--     by brute force over the images of 5 (2D) or 5^2 x 3 (3D) cells around, has a contact, with
--     the gap of that nearest image (abs 1e-12 m), and the deformation gradient's shear
--     component grew by gamma_dot t times its (fixed) height component (rel 1e-12).
PER_DIM = PER_DIM or 3
local dim = PER_DIM
local tag = "_" .. dim .. "d"
local X, Y, Z = 1, 2, 3

-- ---- 1. crossing faces and corners --------------------------------------------------------
local function crossing(dir, label)
  model.new{dim = dim}
  contact.cmat_default{model = "linearpbond", kn = 1e4, ks = 1e4, pb_kn = 1e6, pb_ks = 1e6,
                       pb_ten = 1e9, pb_coh = 1e9, proximity = 1e-3}
  local lo = dim == 3 and {0, 0, 0} or {0, 0}
  local hi = dim == 3 and {1, 1, 1} or {1, 1}
  cell.create{min = lo, max = hi}
  local created, deleted = 0, 0
  callback.on("contact_created", function() created = created + 1 end)
  callback.on("contact_deleted", function() deleted = deleted + 1 end)
  local r = 1 / 16
  local p1 = dim == 3 and {0.5, 0.5, 0.5} or {0.5, 0.5}
  local p2 = dim == 3 and {0.5 + 2 * r, 0.5, 0.5} or {0.5 + 2 * r, 0.5}
  ball.create{id = 1, rad = r, pos = p1, vel = dir, density = 1000}
  ball.create{id = 2, rad = r, pos = p2, vel = dir, density = 1000}
  local dt = 2 ^ -10
  model.timestep{fix = dt}
  local steps = 900 -- 0.88 s at |v_k| >= 0.75 m/s: every ball crosses the faces it heads for
  model.cycle(steps)
  local t = steps * dt
  local worst_v, worst_x = 0, 0
  for id, p0 in ipairs({p1, p2}) do
    local v, x = ball.vel(id), ball.pos(id)
    for k = 1, dim do
      worst_v = math.max(worst_v, math.abs(v[k] - dir[k]))
      local want = (p0[k] + dir[k] * t) % 1.0
      local e = math.abs(x[k] - want)
      worst_x = math.max(worst_x, math.min(e, 1 - e))
    end
  end
  verify.check{quantity = "velocity kept, " .. label, sim = worst_v, ref = 0, tol = 0,
               kind = "abs"}
  verify.check{quantity = "position through faces, " .. label, sim = worst_x, ref = 0,
               tol = 0, kind = "abs"}
  local cp = contact.find("ball-ball", 1, 2)
  verify.check{quantity = "contact kept, " .. label, sim = (cp and 1 or 0) + created - 1 +
                 deleted, ref = 1, tol = 0, kind = "abs"}
  local f = cp and contact.force(cp) or {1, 1, 1}
  verify.check{quantity = "bond force zero, " .. label, sim = math.abs(f[1]) + math.abs(f[3]),
               ref = 0, tol = 0, kind = "abs"}
end
crossing(dim == 3 and {1, 0, 0} or {1, 0}, "+x")
crossing(dim == 3 and {-1, 0, 0} or {-1, 0}, "-x")
crossing(dim == 3 and {0, 1, 0} or {0, 1}, "+y")
crossing(dim == 3 and {0, -1, 0} or {0, -1}, "-y")
if dim == 3 then
  crossing({0, 0, 1}, "+z")
  crossing({0, 0, -1}, "-z")
  crossing({0.75, -0.875, 1.125}, "corner")
else
  crossing({0.75, -1.125}, "corner")
end

-- ---- 2. a lattice under a prescribed strain ------------------------------------------------
local r, kn = 0.05, 1e6
local n = dim == 3 and {4, 5, 6} or {6, 5}
local a = dim == 3 and {0.0990, 0.0995, 0.0992} or {0.0990, 0.0995}

local function lattice(ks)
  model.new{dim = dim}
  contact.cmat_default{model = "linear", kn = kn, ks = ks}
  local lo, hi = {}, {}
  for k = 1, dim do lo[k], hi[k] = 0, n[k] * a[k] end
  cell.create{min = lo, max = hi}
  local id = 0
  for i = 0, n[X] - 1 do
    for j = 0, n[Y] - 1 do
      for l = 0, (dim == 3 and n[Z] - 1 or 0) do
        id = id + 1
        local p = {(i + 0.5) * a[X], (j + 0.5) * a[Y]}
        if dim == 3 then p[3] = (l + 0.5) * a[Z] end
        ball.create{id = id, rad = r, pos = p, density = 1000}
      end
    end
  end
  model.timestep{fix = 1e-5}
  return lo, hi, id
end

local lo, hi, nballs = lattice(0)
model.cycle(1)
local V = 1
for k = 1, dim do V = V * n[k] * a[k] end
local worst = 0
local names = {"x", "y", "z"}
local region = measure.create{shape = "box", min = lo, max = hi}
local ms = measure.stress(region)
for k = 1, dim do
  local others = 1
  for q = 1, dim do if q ~= k then others = others * a[q] end end
  local want = kn * (2 * r - a[k]) / others
  verify.check{quantity = "strained lattice sigma_" .. names[k] .. names[k], sim = cell.stress()[k][k],
               ref = want, tol = 1e-12}
  verify.check{quantity = "measure box sigma_" .. names[k] .. names[k], sim = ms[k][k], ref = want,
               tol = 1e-12}
  for q = 1, dim do
    if q ~= k then worst = math.max(worst, math.abs(cell.stress()[k][q]), math.abs(ms[k][q])) end
  end
end
verify.check{quantity = "strained lattice off-diagonal stress", sim = worst, ref = 0,
             tol = 1e-12 * kn * (2 * r - a[X]) / a[Y], kind = "abs"}
local solid = nballs * (dim == 3 and 4 / 3 * math.pi * r ^ 3 or math.pi * r ^ 2)
verify.check{quantity = "porosity through the faces", sim = measure.porosity(region),
             ref = 1 - solid / V, tol = 1e-12, kind = "abs"}
verify.check{quantity = "cell volume", sim = cell.volume(), ref = V, tol = 1e-14}

-- ---- 3. simple shear of the lattice --------------------------------------------------------
lattice(0)
local gd, dt, steps = 0.5, 1e-5, 2000
local sh = dim == 3 and "xz" or "xy" -- x moves with the last axis
model.cycle(1)
model.timestep{fix = dt}
cell.rate{[sh] = gd}
ball.fix{"velocity", "spin"}
model.cycle(steps)
local gamma = gd * dt * (steps - 1) -- the last force pass's shear (positions lead by a step)
local az = a[dim]
local l = az * math.sqrt(1 + gamma * gamma)
local nb = nballs -- one column bond per ball
local f = kn * (2 * r - l)
local s_shear = nb * f * gamma * az / (math.sqrt(1 + gamma * gamma) * V)
local s_norm = nb * f * az / (math.sqrt(1 + gamma * gamma) * V)
local S = cell.stress()
verify.check{quantity = "simple shear sigma_x" .. names[dim], sim = S[X][dim], ref = s_shear,
             tol = 1e-12}
verify.check{quantity = "simple shear sigma_" .. names[dim] .. "x", sim = S[dim][X],
             ref = s_shear, tol = 1e-9}
verify.check{quantity = "simple shear sigma_" .. names[dim] .. names[dim], sim = S[dim][dim],
             ref = s_norm, tol = 1e-9}
verify.check{quantity = "cell strain gamma", sim = cell.strain()[X][dim], ref = gd * dt * steps,
             tol = 1e-12}

-- ---- 4. an elastic gas ---------------------------------------------------------------------
model.new{dim = dim}
local L = 1.0
local kg = 1e5
contact.cmat_default{model = "linear", kn = kg, ks = 0}
cell.create{min = dim == 3 and {0, 0, 0} or {0, 0}, max = dim == 3 and {L, L, L} or {L, L}}
local count = dim == 3 and 120 or 60
local rg = dim == 3 and 0.045 or 0.04
specimen.generate{shape = "box", min = dim == 3 and {0, 0, 0} or {0, 0},
                  max = dim == 3 and {L, L, L} or {L, L}, count = count, seed = 5,
                  size = {kind = "uniform", rmin = rg, rmax = rg}, density = 1000}
-- velocities from a fixed linear congruential sequence, total momentum removed
local seed = 7
local function rnd()
  seed = (1103515245 * seed + 12345) % 2147483648
  return seed / 2147483648 - 0.5
end
local ids = ball.list()
local mean = {0, 0, 0}
local vs = {}
for _, id in ipairs(ids) do
  local v = {rnd(), rnd(), dim == 3 and rnd() or 0}
  vs[id] = v
  for k = 1, 3 do mean[k] = mean[k] + v[k] / #ids end
end
for _, id in ipairs(ids) do
  local v = vs[id]
  ball.vel(id, dim == 3 and {v[1] - mean[1], v[2] - mean[2], v[3] - mean[3]} or
                 {v[1] - mean[1], v[2] - mean[2]})
end
local m = ball.mass(ids[1])
local meff = m / 2
local omega = math.sqrt(kg / meff)
local dtg = 0.02 / omega -- h = 0.02
model.timestep{fix = dtg}
local h = omega * dtg
local budget = 0
callback.on("contact_created", function(cp)
  local _, i1, i2 = contact.ends(cp)
  local v1, v2, nrm = ball.vel(i1), ball.vel(i2), contact.normal(cp)
  local un = 0
  for k = 1, dim do un = un + (v2[k] - v1[k]) * nrm[k] end
  budget = budget + h * h / 4 * 0.5 * meff * un * un
end)
local function kinetic()
  local e = 0
  for _, id in ipairs(ball.list()) do
    local v = ball.vel(id)
    for k = 1, dim do e = e + 0.5 * m * v[k] * v[k] end
  end
  return e
end
local function momentum()
  local p = {0, 0, 0}
  for _, id in ipairs(ball.list()) do
    local v = ball.vel(id)
    for k = 1, dim do p[k] = p[k] + m * v[k] end
  end
  return math.sqrt(p[1] ^ 2 + p[2] ^ 2 + p[3] ^ 2)
end
local e0, p0 = kinetic(), momentum()
model.cycle(3000)
local function active()
  local c = 0
  for _, cp in ipairs(contact.list()) do if contact.active(cp) then c = c + 1 end end
  return c
end
local extra = 0
while active() > 0 and extra < 20000 do model.cycle(1); extra = extra + 1 end
verify.check{quantity = "gas momentum", sim = math.abs(momentum() - p0), ref = 0, tol = 1e-13,
             kind = "abs"}
verify.check{quantity = "gas kinetic energy (scheme bound)", sim = math.abs(kinetic() - e0),
             ref = 0, tol = budget, kind = "abs"}
-- every overlapping nearest-image pair has a contact (brute force) at a detection of the
-- current positions, and no contact is left with a gap above zero
model.clean()
local missing, open = 0, 0
for i = 1, #ids do
  for j = i + 1, #ids do
    local p, q = ball.pos(ids[i]), ball.pos(ids[j])
    local d2 = 0
    for k = 1, dim do
      local e = q[k] - p[k]
      e = e - L * math.floor(e / L + 0.5)
      d2 = d2 + e * e
    end
    if d2 < (2 * rg) ^ 2 and not contact.find("ball-ball", ids[i], ids[j]) then missing = missing + 1 end
  end
end
for _, cp in ipairs(contact.list()) do if contact.gap(cp) > 0 then open = open + 1 end end
verify.check{quantity = "gas contacts found by the periodic grid", sim = missing + open, ref = 0,
             tol = 0, kind = "abs"}
print(string.format("periodic%s: gas of %d balls, %d extra steps to a moment without contact, "
                    .. "energy budget %.3g J", tag, #ids, extra, budget))

-- ---- 5. stress control ---------------------------------------------------------------------
model.new{dim = dim}
contact.cmat_default{model = "linear", kn = 1e5, ks = 5e4, fric = 0.5}
local box = dim == 3 and {1, 1, 1} or {1, 1}
local origin = dim == 3 and {0, 0, 0} or {0, 0}
cell.create{min = origin, max = box}
specimen.generate{shape = "box", min = origin, max = box, count = 150, seed = 2, density = 2650,
                  size = {kind = "uniform", rmin = dim == 3 and 0.06 or 0.02,
                          rmax = dim == 3 and 0.09 or 0.03}}
ball.attribute{damp = 0.7}
model.timestep{auto = true}
cell.servo{axis = dim == 3 and "xyz" or "xy", stress = 1e4, rate_max = 0.5}
model.cycle(5000)
local v5000 = cell.volume()
model.cycle(1000)
for k = 1, dim do
  verify.check{quantity = "stress control sigma_" .. names[k] .. names[k],
               sim = cell.stress()[k][k], ref = 1e4, tol = 1e-6}
end
verify.check{quantity = "stress control volume settled", sim = math.abs(cell.volume() - v5000) /
               v5000, ref = 0, tol = 1e-6, kind = "abs"}

-- ---- 6. shear past a flip ------------------------------------------------------------------
cell.servo{axis = dim == 3 and "xyz" or "xy", off = true}
local rates = dim == 3 and {xx = 0, yy = 0, zz = 0} or {xx = 0, yy = 0}
rates[dim == 3 and "xz" or "xy"] = 20.0
local g_start, f_height = cell.strain()[1][dim], 1 + cell.strain()[dim][dim]
cell.rate(rates)
local t_start = model.time()
repeat model.cycle(100) until cell.strain()[1][dim] - g_start >= 1.6 * f_height
-- F_x,last grows by gamma_dot dt F_last,last a step, F_last,last fixed now (its rate is zero)
verify.check{quantity = "sheared past flips: strain", sim = cell.strain()[1][dim],
             ref = g_start + 20.0 * (model.time() - t_start) * f_height, tol = 1e-12}
model.clean()
local E = cell.edges()
local ids6 = ball.list()
local missing6, wrong_gap = 0, 0
local range = {}
for k = 1, dim do range[k] = (k == dim or dim == 2) and 2 or 1 end
for i = 1, #ids6 do
  local p, ri = ball.pos(ids6[i]), ball.rad(ids6[i])
  for j = i + 1, #ids6 do
    local q, rj = ball.pos(ids6[j]), ball.rad(ids6[j])
    local best = math.huge
    for k1 = -2, 2 do
      for k2 = -2, 2 do
        for k3 = (dim == 3 and -1 or 0), (dim == 3 and 1 or 0) do
          local d2 = 0
          for c = 1, dim do
            local e = q[c] - p[c] + k1 * E[1][c] + k2 * E[2][c] + (dim == 3 and k3 * E[3][c] or 0)
            d2 = d2 + e * e
          end
          if d2 < best then best = d2 end
        end
      end
    end
    local gap = math.sqrt(best) - ri - rj
    local cp = contact.find("ball-ball", ids6[i], ids6[j])
    if gap < 0 and not cp then missing6 = missing6 + 1 end
    if cp and math.abs(contact.gap(cp) - gap) > 1e-12 then wrong_gap = wrong_gap + 1 end
  end
end
verify.check{quantity = "sheared past flips: contacts through the nearest images",
             sim = missing6 + wrong_gap, ref = 0, tol = 0, kind = "abs"}
