-- The lab module's rock tests (lab.ucs, lab.brazilian, lab.rock_triaxial; lab.lua gives them
-- their options) and the steps they share, which scripts reach as lab.rock: the micro
-- properties, the specimen genesis, bonding, the loading by platens and the reading of the
-- curves. docs/rock.md describes the procedure and the results.
--
-- The axial direction is y in 2D and z in 3D. Stresses and strains are positive in compression,
-- as in cairn's measurements.
local lab = ...
local rock = lab.rock

-- Micro properties (PFC's linear parallel-bond material, after Potyondy & Cundall's bonded-
-- particle model): contact and bond moduli E* = E-bar, stiffness ratios k* = kn/ks = 2.5, both
-- turned into stiffnesses with the mean ball radius r (a contact between two mean balls: area
-- 2r x 1 in 2D, pi r^2 in 3D, length 2r). Strengths are drawn per bond from normal
-- distributions (a tenth of the mean as standard deviation).
-- material: "pbond" (the default) or "flatjoint"; over: values that replace the defaults
-- (moduli and ratios before the stiffnesses are derived from them).
function rock.micro(dim, rmean, material, over)
  local m = {emod = 30e9, kratio = 2.5, fric = 0.5, density = 2650, damp = 0.7,
             pb_emod = 30e9, pb_kratio = 2.5, pb_ten = 50e6, pb_coh = 50e6, pb_sd = 0.1,
             pb_fa = 0, pb_rmul = 1, sigma0 = 0.5e6, material = material or "pbond"}
  if m.material == "flatjoint" then -- the flat-jointed material (rock.flatjoint_micro)
    for k, v in pairs(rock.flatjoint_micro()) do m[k] = v end
  end
  for k, v in pairs(over or {}) do m[k] = v end
  local area = dim == 2 and 2 * rmean or math.pi * rmean * rmean
  m.kn = m.emod * area / (2 * rmean)
  m.ks = m.kn / m.kratio
  m.pb_kn = m.pb_emod / (2 * rmean)
  m.pb_ks = m.pb_kn / m.pb_kratio
  if m.material == "flatjoint" then
    m.fj_kn = m.fj_emod / (2 * rmean)
    m.fj_ks = m.fj_kn / m.fj_kratio
    m.fj_igap = m.fj_igap_ratio * rmean
  end
  return m
end

-- The flat-jointed material's micro properties (Potyondy 2012; docs/rock.md): interfaces of
-- fj_nr elements (3D: fj_nr x fj_na) installed between balls within fj_igap_ratio of the mean
-- radius, a share fj_slit of them slits; moduli turned into stiffnesses per area with the mean
-- radius as for the parallel bonds (rock.micro); element strengths drawn per interface.
-- The values are the 2D calibration to Lac du Bonnet granite on the mean of twelve specimens at
-- the small size (docs/rock.md).
function rock.flatjoint_micro()
  return {fj_emod = 118e9, fj_kratio = 3.6, fj_ten = 27e6, fj_coh = 330e6, fj_sd = 0.1,
          fj_fa = 0, fj_fric = 0.7, fj_rmul = 1, fj_nr = 2, fj_na = 4, fj_slit = 0.0,
          fj_igap_ratio = 0.1}
end

local function vec(dim, x, y, z)
  if dim == 2 then return {x, y} end
  return {x, y, z}
end

-- The walls of a box [0, W] x [0, H] (x [0, D] in 3D), axial along y (2D) or z (3D).
-- Returns their ids: bottom, top, then the lateral ones.
local function box_walls(dim, W, H, D)
  local ids = {}
  if dim == 2 then
    local e = W -- segments reach beyond the corners, so no ball slips past an end
    ids.bottom = wall.create{nodes = {{-e, 0}, {W + e, 0}}}
    ids.top = wall.create{nodes = {{-e, H}, {W + e, H}}}
    ids.lateral = {wall.create{nodes = {{0, -H}, {0, 2 * H}}},
                   wall.create{nodes = {{W, -H}, {W, 2 * H}}}}
  else
    ids.bottom = wall.create{kind = "plane", point = {0, 0, 0}, normal = {0, 0, 1}}
    ids.top = wall.create{kind = "plane", point = {0, 0, H}, normal = {0, 0, -1}}
    ids.lateral = {wall.create{kind = "plane", point = {0, 0, 0}, normal = {1, 0, 0}},
                   wall.create{kind = "plane", point = {W, 0, 0}, normal = {-1, 0, 0}},
                   wall.create{kind = "plane", point = {0, 0, 0}, normal = {0, 1, 0}},
                   wall.create{kind = "plane", point = {0, D, 0}, normal = {0, -1, 0}}}
  end
  return ids
end

-- The mean stress the contacts would carry if every radius were multiplied by s with the centres
-- held, relative to now: sum over contacts of k * overlap * branch length (the linear law; the
-- genesis contacts are all alike). Used to install the seating stress in one move.
local function overlap_moment(contacts, s)
  local sum = 0
  for _, c in ipairs(contacts) do
    local ov = c.rsum * s - c.dist
    if ov > 0 then sum = sum + ov * c.dist end
  end
  return sum
end

local function contact_geometry()
  local out = {}
  for _, cp in ipairs(contact.list()) do
    local kind, id1, id2 = contact.ends(cp)
    local gap = contact.gap(cp)
    if gap < 0.5 * ball.rad(id1) then
      local rsum = ball.rad(id1) + (kind == "ball-ball" and ball.rad(id2) or 0)
      out[#out + 1] = {rsum = rsum, dist = rsum + gap}
    end
  end
  return out
end

-- Cycle in chunks of 100 steps until the mean unbalanced-force ratio is at most ratio (or
-- max_steps have been taken); quiet, unlike model.solve's ratio criterion.
function rock.settle(ratio, max_steps)
  local n = 0
  repeat
    model.cycle(100)
    n = n + 100
  until (model.ratio()) <= ratio or n >= max_steps
  return n
end

local function scale_radii(s)
  for _, id in ipairs(ball.list()) do ball.rad(id, ball.rad(id) * s) end
end

-- Specimen genesis (PFC's procedure, without its floater elimination): balls placed at random,
-- loose, with radii a factor smaller than asked; the radii grown in steps of 0.5 % with the
-- walls fixed and friction off (for a dense packing) until the packing is jammed; then the
-- radii scaled once more, in one move computed from the contacts' overlaps, so that the mean
-- stress is the seating stress sigma0 (repeated until within 25 %); finally friction on.
-- o: dim, W, H, D (3D), rmin, rmax, seed, micro (from rock.micro).
-- Returns {walls = ..., count, porosity, sigma0 = the mean stress reached, box = measure region}.
function rock.specimen(o)
  local dim, W, H, D, mi = o.dim, o.W, o.H, o.D, o.micro
  model.new{dim = dim}
  contact.cmat_default{model = "linear", kn = mi.kn, ks = mi.ks, fric = 0}
  local walls = box_walls(dim, W, H, D)
  local p0 = dim == 2 and 0.5 or 0.7          -- reachable by random placement
  local pjam = dim == 2 and 0.17 or 0.42      -- about where frictionless packings jam (in 3D,
                                              -- with the walls' loosening)
  local f = ((1 - pjam) / (1 - p0)) ^ (1 / dim)
  local gen = specimen.generate{shape = "box", min = vec(dim, 0, 0, 0),
                                max = dim == 2 and {W, H} or {W, D, H}, porosity = p0,
                                size = {kind = "uniform", rmin = o.rmin / f, rmax = o.rmax / f},
                                seed = o.seed, density = mi.density, damp = mi.damp}
  local e = 1e-3 * W
  local box = measure.create{shape = "box", min = vec(dim, -e, -e, -e),
                             max = dim == 2 and {W + e, H + e} or {W + e, D + e, H + e}}
  -- quasi-static: the stability bound alone (no impact's restitution matters here)
  model.timestep{auto = true, impact = 0}
  -- grow until the packing carries load: more than the seating stress, with most balls held
  -- (a mean coordination of 3 in 2D, 4 in 3D; a few overlaps between balls placed close carry
  -- the first stresses while the packing is still loose)
  local function porosity()
    local solid = 0
    for _, id in ipairs(ball.list()) do
      local r = ball.rad(id)
      solid = solid + (dim == 2 and math.pi * r * r or 4 / 3 * math.pi * r ^ 3)
    end
    return 1 - solid / (dim == 2 and W * H or W * D * H)
  end
  -- one move to a little looser than jamming, then steps of 0.5 % until jammed
  scale_radii(((1 - pjam - 0.03) / (1 - porosity())) ^ (1 / dim))
  local zjam = dim == 2 and 3 or 4
  for i = 1, 100 do
    rock.settle(1e-3, 5000)
    if box:stress("mean") >= mi.sigma0 and (box:coordination()) >= zjam then break end
    if i == 100 then error("rock.specimen: the packing did not jam; check the walls") end
    scale_radii(1.005)
  end
  -- install the seating stress: unload in stages that halve the stress at most (a packing near
  -- jamming, frictionless, comes apart if its overlaps are taken away at once); should it come
  -- apart all the same, grow it back by 0.1 % steps
  for i = 1, 40 do
    local now = box:stress("mean")
    if math.abs(now / mi.sigma0 - 1) < 0.25 then break end
    if i == 40 then error("rock.specimen: the seating stress could not be installed") end
    if now < 0.5 * mi.sigma0 then
      scale_radii(1.001)
    else
      local cs = contact_geometry()
      local want = overlap_moment(cs, 1) * math.max(mi.sigma0 / now, 0.5)
      local lo, hi = 0.9, 1.1
      for _ = 1, 60 do -- bisection: the moment grows with s
        local mid = 0.5 * (lo + hi)
        if overlap_moment(cs, mid) < want then lo = mid else hi = mid end
      end
      scale_radii(0.5 * (lo + hi))
    end
    rock.settle(1e-4, 20000)
  end
  -- friction on, for the bonded material's contacts
  contact.cmat_default{model = "linear", kn = mi.kn, ks = mi.ks, fric = mi.fric}
  contact.apply{fric = mi.fric}
  return {walls = walls, count = gen.count, porosity = porosity(), sigma0 = box:stress("mean"),
          box = box}
end

-- Bond every ball-ball contact of the specimen with linearpbond (strengths drawn per bond).
function rock.bond(mi, seed)
  if mi.material == "flatjoint" then
    local function normal(mean, s) return {dist = "normal", mean = mean, sd = mi.fj_sd * mean,
                                           seed = s} end
    -- the interfaces reach across gaps up to fj_igap: contacts must exist that far first
    contact.cmat_default{model = "linear", kn = mi.kn, ks = mi.ks, fric = mi.fric,
                         proximity = mi.fj_igap}
    model.clean()
    return contact.bond{model = "flatjoint", kind = "ball-ball", gap = mi.fj_igap,
                        fj_kn = mi.fj_kn, fj_ks = mi.fj_ks, fj_rmul = mi.fj_rmul,
                        fj_nr = mi.fj_nr, fj_na = mi.fj_na, fj_slit = mi.fj_slit,
                        fj_seed = seed, fj_fa = mi.fj_fa, fj_fric = mi.fj_fric,
                        fj_ten = normal(mi.fj_ten, 2 * seed + 1),
                        fj_coh = normal(mi.fj_coh, 2 * seed + 2)}
  end
  local function normal(mean, s) return {dist = "normal", mean = mean, sd = mi.pb_sd * mean,
                                         seed = s} end
  return contact.bond{model = "linearpbond", kind = "ball-ball", kn = mi.kn, ks = mi.ks,
                      fric = mi.fric, pb_kn = mi.pb_kn, pb_ks = mi.pb_ks, pb_rmul = mi.pb_rmul,
                      pb_fa = mi.pb_fa, pb_ten = normal(mi.pb_ten, 2 * seed + 1),
                      pb_coh = normal(mi.pb_coh, 2 * seed + 2)}
end

-- Delete the balls left without a bond (held only by friction, or by nothing: the unbonded
-- loose grains a platen would push into the specimen before loading it) after the bonds have
-- formed in a step. Returns the number of bonds and the number of balls deleted.
function rock.remove_unbonded()
  model.cycle(1)
  local bonded, nb = {}, 0
  for _, cp in ipairs(contact.list("ball-ball")) do
    local model = contact.model(cp)
    if (model == "linearpbond" and contact.prop(cp, "pb_state") == 1) or
       (model == "flatjoint" and contact.prop(cp, "fj_nbond") > 0) then
      local _, a, b = contact.ends(cp)
      bonded[a], bonded[b] = true, true
      nb = nb + 1
    end
  end
  local gone = 0
  for _, id in ipairs(ball.list()) do
    if not bonded[id] then
      ball.delete(id)
      gone = gone + 1
    end
  end
  return nb, gone
end

-- The position of a wall along the axis (y in 2D, z in 3D).
function rock.wall_level(dim, id)
  if dim == 2 then return wall.nodes(id)[1][2] end
  return wall.point(id)[3]
end

-- Least-squares slope of ys against xs over the indices i0..i1.
function rock.slope(xs, ys, i0, i1)
  local n, sx, sy, sxx, sxy = 0, 0, 0, 0, 0
  for i = i0, i1 do
    n, sx, sy = n + 1, sx + xs[i], sy + ys[i]
    sxx, sxy = sxx + xs[i] * xs[i], sxy + xs[i] * ys[i]
  end
  if n < 2 then return 0 / 0 end
  return (n * sxy - sx * sy) / (n * sxx - sx * sx)
end

-- The balls whose centres lie within band of the lateral faces, in the middle half of the height:
-- the gauges of the lateral strain. Returns a function giving the mean width across them.
function rock.lateral_gauge(dim, band)
  local lo, hi = {}, {}
  local axis = dim == 2 and 2 or 3
  local zmin, zmax, xmin, xmax = math.huge, -math.huge, {}, {}
  for _, id in ipairs(ball.list()) do
    local p = ball.pos(id)
    zmin, zmax = math.min(zmin, p[axis]), math.max(zmax, p[axis])
    for a = 1, dim - 1 do
      xmin[a] = math.min(xmin[a] or math.huge, p[a])
      xmax[a] = math.max(xmax[a] or -math.huge, p[a])
    end
  end
  local z0, z1 = zmin + 0.25 * (zmax - zmin), zmax - 0.25 * (zmax - zmin)
  for a = 1, dim - 1 do lo[a], hi[a] = {}, {} end
  for _, id in ipairs(ball.list()) do
    local p = ball.pos(id)
    if p[axis] > z0 and p[axis] < z1 then
      for a = 1, dim - 1 do
        if p[a] < xmin[a] + band then table.insert(lo[a], id) end
        if p[a] > xmax[a] - band then table.insert(hi[a], id) end
      end
    end
  end
  return function()
    local width = 0
    for a = 1, dim - 1 do
      local s = 0
      for _, id in ipairs(hi[a]) do s = s + ball.pos(id)[a] end
      local w = s / #hi[a]
      s = 0
      for _, id in ipairs(lo[a]) do s = s + ball.pos(id)[a] end
      width = width + w - s / #lo[a]
    end
    return width / (dim - 1)
  end
end

-- A flexible membrane for a 2D specimen between platens (ids bottom and top), at the confining
-- stress s3 (Pa): at each update() the height between the platens is cut into bands about
-- `band` high, and the ball reaching furthest out of each band on each side gets the force s3
-- times the band's height (per unit thickness) pushing it in (ball.force_app); the balls loaded
-- before and no longer outermost lose their loads. So the confinement follows the specimen's
-- surface as it bulges or as a block slides out along a joint, instead of a rigid wall that moves
-- as one.
-- Returns update(), which sets the loads now, width(), the mean width across the bands at the
-- last update, and stop(), which takes the loads off.
function rock.membrane(bottom, top, s3, band)
  local loaded, width = {}, 0 / 0
  local function update()
    local y0, y1 = rock.wall_level(2, bottom), rock.wall_level(2, top)
    local nb = math.max(1, math.floor((y1 - y0) / band + 0.5))
    local h = (y1 - y0) / nb
    local left, right = {}, {}
    for _, id in ipairs(ball.list()) do
      local p, r = ball.pos(id), ball.rad(id)
      local k = math.min(nb, math.max(1, math.floor((p[2] - y0) / h) + 1))
      if not left[k] or p[1] - r < left[k].edge then left[k] = {id = id, edge = p[1] - r} end
      if not right[k] or p[1] + r > right[k].edge then right[k] = {id = id, edge = p[1] + r} end
    end
    local push, sum, n = {}, 0, 0
    for k = 1, nb do
      if left[k] then
        push[left[k].id] = (push[left[k].id] or 0) + s3 * h
        push[right[k].id] = (push[right[k].id] or 0) - s3 * h
        sum, n = sum + right[k].edge - left[k].edge, n + 1
      end
    end
    for id in pairs(loaded) do
      if not push[id] and ball.exists(id) then ball.force_app(id, {0, 0}) end
    end
    for id, f in pairs(push) do ball.force_app(id, {f, 0}) end
    loaded, width = push, sum / n
  end
  local function stop()
    for id in pairs(loaded) do if ball.exists(id) then ball.force_app(id, {0, 0}) end end
    loaded = {}
  end
  return update, function() return width end, stop
end

-- The bonds that must break for a fall of the load to count as the specimen's failure: at least
-- 0.5 % of them (a ball crushed under a platen drops the load, and breaks a bond or two, long
-- before the specimen fails).
local function failure_cracks(bonds) return math.max(5, 0.005 * bonds) end

-- Drive the platens (ids bottom and top) towards each other at v each, sampling every `every`
-- steps, until the load has fallen below `drop` of its peak after the peak with bonds broken
-- since (or the strain reaches
-- max_strain). sample() returns the row to store; load_of(row) the load to watch; cycle(n), if
-- given, runs n steps (model.cycle otherwise). Returns the rows (an array of tables) and the
-- index of the peak.
function rock.load(o)
  local dim = o.dim
  local up = dim == 2 and {0, o.v} or {0, 0, o.v}
  local down = dim == 2 and {0, -o.v} or {0, 0, -o.v}
  local function each(ids, v) -- a platen is a wall, or an array of walls (a curved jaw)
    for _, id in ipairs(type(ids) == "table" and ids or {ids}) do wall.vel(id, v) end
  end
  each(o.bottom, up)
  each(o.top, down)
  local rows, peak, ipeak = {}, -math.huge, 0
  local cycle = o.cycle or model.cycle
  while true do
    cycle(o.every)
    local row = o.sample()
    rows[#rows + 1] = row
    local load = o.load_of(row)
    if load > peak then peak, ipeak = load, #rows end
    -- failed: past the peak, the load down to drop of it, and bonds broken since the peak
    if (#rows > ipeak + 2 and load < o.drop * peak and
        row.cracks - rows[ipeak].cracks >= failure_cracks(o.bonds)) or
        o.strain_of(row) > o.max_strain then break end
  end
  each(o.bottom, vec(dim, 0, 0, 0))
  each(o.top, vec(dim, 0, 0, 0))
  return rows, ipeak
end

-- Write rows (arrays of tables with the same keys) as CSV with the given column order.
-- rock.write_csv(path, cols, rows): in C (src/lua/lua_lab.c), a collective call whose file rank
-- 0 writes whole.

-- The specimen sizes: a 2:1 prism, 25 mm wide (and deep in 3D); ball radii uniform in
-- [rmin, rmax] (ratio 1.67); the small size has balls twice (2D) or 1.5 times (3D) as large as
-- the full size's. scale multiplies the radii (scale < 1: finer).
function rock.sizes(dim, size, scale)
  local k = (size == "full" and 1 or (dim == 2 and 2 or 1.5)) * (scale or 1)
  if dim == 2 then return {W = 0.025, H = 0.05, rmin = 0.3e-3 * k, rmax = 0.5e-3 * k} end
  return {W = 0.025, D = 0.025, H = 0.05, rmin = 0.9e-3 * k, rmax = 1.5e-3 * k}
end

-- The prism of the UCS and triaxial tests, packed, bonded and rid of unbonded balls. o: dim,
-- seed, scale, size, material, props. Returns the sizes, the micro properties, the specimen
-- (rock.specimen's), the bonds and the balls removed, and the CPU clock at the start.
function rock.bonded_prism(o)
  local sz = rock.sizes(o.dim, o.size or "small", o.scale)
  local mi = rock.micro(o.dim, 0.5 * (sz.rmin + sz.rmax), o.material, o.props)
  local t0 = os.clock()
  local sp = rock.specimen{dim = o.dim, W = sz.W, H = sz.H, D = sz.D, rmin = sz.rmin,
                           rmax = sz.rmax, seed = o.seed, micro = mi}
  rock.bond(mi, o.seed)
  local nbond, unbonded = rock.remove_unbonded()
  return sz, mi, sp, nbond, unbonded, t0
end

-- An unconfined compression test. o: dim, seed, scale (see rock.sizes), size, out (a path
-- prefix for the curve's CSV, the PNG, the cracks and VTK frames; none: no files), rate (the
-- axial strain rate, 1/s), material and props (rock.micro's). Returns the measured macro
-- properties and run facts.
function rock.ucs(o)
  local dim = o.dim
  local sz, _, sp, nbond, unbonded, t0 = rock.bonded_prism(o)
  for _, id in ipairs(sp.walls.lateral) do wall.delete(id) end
  rock.settle(1e-4, 20000) -- the bonds form; the specimen relaxes off its sides
  local gauge = rock.lateral_gauge(dim, 2 * sz.rmax)
  local h0 = rock.wall_level(dim, sp.walls.top) - rock.wall_level(dim, sp.walls.bottom)
  local w0 = gauge()
  local area = dim == 2 and sz.W or sz.W * sz.D
  local axis = dim == 2 and 2 or 3
  local c0 = contact.cracks()
  local rate = o.rate or 1
  if o.out then vtk.every{steps = math.max(1, math.floor(2e-4 / rate / model.timestep())),
                          prefix = o.out} end
  local rows, ipeak = rock.load{
    dim = dim, bottom = sp.walls.bottom, top = sp.walls.top, v = 0.5 * rate * h0,
    bonds = nbond, drop = 0.7,
    every = math.max(1, math.floor(2e-5 / rate / model.timestep())),
    max_strain = 0.02,
    sample = function()
      local h = rock.wall_level(dim, sp.walls.top) - rock.wall_level(dim, sp.walls.bottom)
      local f = 0.5 * (wall.force(sp.walls.top)[axis] - wall.force(sp.walls.bottom)[axis])
      return {step = model.step(), time = model.time(), axial_strain = (h0 - h) / h0,
              lateral_strain = (w0 - gauge()) / w0, stress_MPa = f / area / 1e6,
              cracks = contact.cracks() - c0}
    end,
    load_of = function(r) return r.stress_MPa end,
    strain_of = function(r) return r.axial_strain end}
  if o.out then -- and the state at the end, past the failure
    vtk.stop()
    vtk.write(o.out)
  end
  -- Young's modulus and Poisson's ratio: least-squares slopes over the part of the rising curve
  -- between 5 % and 25 % of the peak, where the specimen is still elastic. (Over the usual 10 to
  -- 50 % the bonded specimens are cracking: the flat-jointed granite has a few per cent of its
  -- peak's cracks at a quarter of the peak and about half of them at half the peak, and the
  -- opening cracks' dilation made its Poisson's ratio over that range 0.12 to 2.5 from seed to
  -- seed, docs/rock.md.)
  local peak = rows[ipeak].stress_MPa
  local i0, i1 = nil, 1
  for i = 1, ipeak do
    if not i0 and rows[i].stress_MPa >= 0.05 * peak then i0 = i end
    if rows[i].stress_MPa <= 0.25 * peak then i1 = i end
  end
  local ea, el, sg = {}, {}, {}
  for i, r in ipairs(rows) do
    ea[i], el[i], sg[i] = r.axial_strain, r.lateral_strain, r.stress_MPa
  end
  local res = {dim = dim, seed = o.seed, balls = ball.count(), bonds = nbond, unbonded = unbonded,
               porosity = sp.porosity, sigma0 = sp.sigma0, peak_MPa = peak,
               peak_strain = rows[ipeak].axial_strain,
               E_GPa = rock.slope(ea, sg, i0, i1) / 1e3,
               nu = -rock.slope(ea, el, i0, i1), cracks = contact.cracks() - c0,
               cracks_at_peak = rows[ipeak].cracks, steps = model.step(), dt = model.timestep(),
               cpu_s = os.clock() - t0, rows = rows}
  rock.outputs(o.out, rows, {"step", "time", "axial_strain", "lateral_strain", "stress_MPa",
                              "cracks"}, "axial_strain", "stress_MPa", "axial stress",
               string.format("unconfined compression, %dD, %d balls", dim, res.balls),
               "axial strain [-]", "axial stress [MPa]")
  return res
end

-- A triaxial test (2D: biaxial): the UCS test's specimen with its lateral walls kept and
-- servo-controlled at the confining stress o.confinement (Pa), first with the platens servo-
-- controlled at it too (an isotropic start), then the platens closing at the axial strain rate
-- o.rate (1/s, default 1) while the lateral walls hold it. o: dim, seed, scale, size,
-- confinement, rate, material, props, and joint = {angle = A, fric = MU} (optional: one smooth
-- joint through the specimen's centre, its plane at A degrees from the platens, unbonded, with
-- friction MU and no dilation, the walls then frictionless, as the single-plane-of-weakness
-- theory assumes; later = false: only the contacts there when it is installed take it), and
-- membrane = true (2D: after the isotropic start the lateral walls give way to rock.membrane at
-- the confinement, set again every 10 steps). Returns the peak axial stress
-- (the strength at that confinement) with the run's facts; the stresses are the walls' forces
-- over the current width (2D: per unit thickness; with the membrane its mean width) and the
-- current section (3D).
function rock.triaxial(o)
  local dim = o.dim
  local sz, mi, sp, nbond, unbonded, t0 = rock.bonded_prism(o)
  local w, axis = sp.walls, dim == 2 and 2 or 3
  local lat = w.lateral
  if o.joint then
    local a = math.rad(o.joint.angle)
    local c = dim == 2 and {0.5 * sz.W, 0.5 * sz.H} or {0.5 * sz.W, 0.5 * sz.D, 0.5 * sz.H}
    local n = dim == 2 and {-math.sin(a), math.cos(a)} or {-math.sin(a), 0, math.cos(a)}
    local ks = mi.material == "flatjoint" and mi.fj_ks or mi.pb_ks
    contact.joint{point = c, normal = n, sj_kn = mi.material == "flatjoint" and mi.fj_kn or
                  mi.pb_kn, sj_ks = ks, sj_fric = o.joint.fric, sj_large = 1,
                  gap = mi.material == "flatjoint" and mi.fj_igap or 0, later = o.joint.later}
    contact.cmat_default{kind = "ball-wall", fric = 0}
    contact.apply{kind = "ball-wall", fric = 0}
  end
  local membrane_width
  local function width(a) -- between the lateral walls across axis a (1: x, 2: y in 3D)
    if membrane_width then return membrane_width() end
    local i, j = lat[2 * a - 1], lat[2 * a]
    if dim == 2 then return wall.nodes(j)[1][1] - wall.nodes(i)[1][1] end
    return wall.point(j)[a] - wall.point(i)[a]
  end
  local function height()
    return rock.wall_level(dim, w.top) - rock.wall_level(dim, w.bottom)
  end
  local function area() return dim == 2 and width(1) or width(1) * width(2) end
  local s3 = o.confinement
  local vmax = 1 -- (the lateral walls follow the specimen's bulging as it fails)
  for a = 1, dim - 1 do
    for k = 1, 2 do
      local id = lat[2 * a - 1 + k - 1]
      if dim == 2 then
        wall.servo{id = id, stress = s3, width = {w.bottom, w.top}, vmax = vmax}
      else
        local other = a == 1 and {lat[3], lat[4]} or {lat[1], lat[2]}
        wall.servo{id = id, stress = s3, width = {w.bottom, w.top}, depth = other, vmax = vmax}
      end
    end
  end
  local depth = dim == 3 and {lat[1], lat[2]} or nil
  local across = dim == 3 and {lat[3], lat[4]} or nil
  for _, id in ipairs{w.bottom, w.top} do
    if dim == 2 then
      wall.servo{id = id, stress = s3, width = {lat[1], lat[2]}, vmax = vmax}
    else
      wall.servo{id = id, stress = s3, width = depth, depth = across, vmax = vmax}
    end
  end
  local function s1() return 0.5 * (wall.force(w.top)[axis] - wall.force(w.bottom)[axis]) /
                             area() end
  -- the isotropic start: every wall at the confinement, settled
  local n = 0
  repeat
    model.cycle(500)
    n = n + 500
  until (math.abs(s1() / s3 - 1) < 0.01 and (model.ratio()) < 1e-4) or n > 200000
  wall.servo{id = w.bottom, off = true}
  wall.servo{id = w.top, off = true}
  local stop_membrane, cycle
  if o.membrane then -- the lateral walls give way to a membrane at the same stress
    local update
    update, membrane_width, stop_membrane = rock.membrane(w.bottom, w.top, s3,
                                                          sz.rmin + sz.rmax) -- a mean diameter
    for _, id in ipairs(lat) do wall.delete(id) end
    update()
    cycle = function(n) -- in runs of 10 steps, the membrane set again after each
      for _ = 1, n // 10 do model.cycle(10); update() end
      if n % 10 > 0 then model.cycle(n % 10); update() end
    end
    cycle(2000) -- (the specimen takes the membrane's load before the platens move)
  end
  local h0, w0 = height(), width(1)
  local c0 = contact.cracks()
  local rate = o.rate or 1
  if o.out then vtk.every{steps = math.max(1, math.floor(2e-4 / rate / model.timestep())),
                          prefix = o.out} end
  local rows, ipeak = rock.load{
    dim = dim, bottom = w.bottom, top = w.top, v = 0.5 * rate * h0, bonds = nbond, drop = 0.8,
    cycle = cycle,
    every = math.max(1, math.floor(2e-5 / rate / model.timestep())), max_strain = 0.03,
    sample = function()
      return {step = model.step(), time = model.time(), axial_strain = (h0 - height()) / h0,
              lateral_strain = (w0 - width(1)) / w0, stress_MPa = s1() / 1e6,
              cracks = contact.cracks() - c0}
    end,
    load_of = function(r) return r.stress_MPa end,
    strain_of = function(r) return r.axial_strain end}
  if stop_membrane then stop_membrane() end
  if o.out then -- and the state at the end, past the failure
    vtk.stop()
    vtk.write(o.out)
  end
  local res = {dim = dim, seed = o.seed, confinement_MPa = s3 / 1e6, balls = ball.count(),
               bonds = nbond, unbonded = unbonded, porosity = sp.porosity,
               peak_MPa = rows[ipeak].stress_MPa, peak_strain = rows[ipeak].axial_strain,
               cracks = contact.cracks() - c0, cracks_at_peak = rows[ipeak].cracks,
               steps = model.step(), cpu_s = os.clock() - t0, rows = rows}
  rock.outputs(o.out, rows, {"step", "time", "axial_strain", "lateral_strain", "stress_MPa",
                              "cracks"}, "axial_strain", "stress_MPa", "axial stress",
               string.format("confined compression at %g MPa, %dD, %d balls", s3 / 1e6, dim,
                             res.balls),
               "axial strain [-]", "axial stress [MPa]")
  return res
end

-- Hoek and Brown's criterion for intact rock, sigma1 = sigma3 + sigma_c sqrt(m sigma3 /
-- sigma_c + 1), fitted to (sigma3, sigma1) pairs with sigma_c given (the UCS): the m that
-- minimises the squared error of (sigma1 - sigma3)^2 - sigma_c^2 = m sigma_c sigma3, which is
-- linear in m. Returns m.
function rock.hoek_brown_m(sigma_c, s3, s1)
  local num, den = 0, 0
  for i = 1, #s3 do
    num = num + s3[i] * ((s1[i] - s3[i]) ^ 2 - sigma_c ^ 2)
    den = den + sigma_c * s3[i] ^ 2
  end
  return num / den
end

-- A test's files under the path prefix out (none without one): its curve as CSV (columns
-- cols) and as a PNG of column y, labelled y_word, and the crack count against column x,
-- and the cracks as CSV.
-- A picture of the last snapshot of the VTK series PREFIX.pvd in OUT (vtk.render with opts);
-- where VTK's Python modules or an X server are missing (Debian: python3-vtk9, xvfb), a note on
-- stderr instead, and the test goes on.
function rock.picture(prefix, out, opts)
  local o = {series = prefix .. ".pvd", out = out}
  for k, v in pairs(opts or {}) do o[k] = v end
  local ok, msg = pcall(vtk.render, o)
  if not ok then io.stderr:write("note: no picture " .. out .. ": " .. tostring(msg) .. "\n") end
end

function rock.outputs(out, rows, cols, x, y, y_word, title, xlabel, ylabel)
  if not out then return end
  rock.write_csv(out .. "_curve.csv", cols, rows)
  contact.cracks{export = out .. "_cracks.csv"}
  plot.history{csv = out .. "_curve.csv", out = out .. "_curve.png", x = x, y = {y},
               y2 = {"cracks"}, labels = {y_word, "cracks (broken bonds)"}, title = title,
               xlabel = xlabel, ylabel = ylabel, y2label = "cracks"}
  -- the cracks at the end, by mode (from the test's VTK frames)
  local pvd = io.open(out .. ".pvd")
  if pvd then
    pvd:close()
    rock.picture(out, out .. "_cracks.png", {color = "none", contacts = false})
  end
end

-- What is wrong with a test's results r for a rock test (nil if nothing): a peak followed by
-- failure with bonds broken, and (for a UCS) a modulus and a Poisson's ratio in (0, 0.5).
function rock.problem(r)
  if not (r.cracks and r.cracks > 0) then return "no bond broke" end
  if r.E_GPa and not (r.E_GPa > 0) then return "Young's modulus is not positive" end
  if r.nu and not (r.nu > 0 and r.nu < 0.5) then return "Poisson's ratio is outside (0, 0.5)" end
end

-- Stop with a message unless the test produced what a rock test should (rock.problem).
function rock.check(name, r)
  local bad = rock.problem(r)
  if bad then error(name .. ": the test did not come out as a rock test should: " .. bad, 2) end
end

-- One line of the results, as the examples print them.
function rock.report(name, r)
  print(string.format("%s: %d balls, porosity %.3f, seating stress %.2f MPa, %d bonds (%d " ..
                      "unbonded balls removed)", name, r.balls, r.porosity, r.sigma0 / 1e6,
                      r.bonds, r.unbonded))
  print(string.format("%s: peak strength %.2f MPa at axial strain %.3g; Young's modulus %.2f GPa, "
                      .. "Poisson's ratio %.3f; %d cracks (%d at the peak)", name, r.peak_MPa,
                      r.peak_strain, r.E_GPa, r.nu, r.cracks, r.cracks_at_peak))
  print(string.format("%s: %d steps of %.3g s, %.1f s of CPU", name, r.steps, r.dt, r.cpu_s))
end

-- A Brazilian test (2D): a disk of diameter 40 mm cut from a bonded square specimen and
-- squeezed between two curved jaws. o: seed, scale, size, out, rate (the platens' closing speed
-- over the diameter, 1/s), material, props. The tensile strength is 2 F / (pi D t), t = 1 (unit
-- thickness).
function rock.brazilian(o)
  local dim, Dm = 2, 0.04
  local sz = rock.sizes(2, o.size or "small", o.scale)
  local mi = rock.micro(2, 0.5 * (sz.rmin + sz.rmax), o.material, o.props)
  local t0 = os.clock()
  local sp = rock.specimen{dim = 2, W = Dm, H = Dm, rmin = sz.rmin, rmax = sz.rmax,
                           seed = o.seed, micro = mi}
  rock.bond(mi, o.seed)
  -- cut the disk: keep the balls wholly inside the circle
  local R = 0.5 * Dm
  for _, id in ipairs(ball.list()) do
    local p = ball.pos(id)
    if math.sqrt((p[1] - R) ^ 2 + (p[2] - R) ^ 2) + ball.rad(id) > R then ball.delete(id) end
  end
  for _, id in ipairs(wall.list()) do wall.delete(id) end
  local nbond, unbonded = rock.remove_unbonded()
  -- the loading jaws of ISRM's method: arcs of radius 1.5 R, each of 12 segments over 40
  -- degrees, touching the disk's circle at its top and bottom (flat platens bear on one or two
  -- balls each, and the disk turns and slips off them)
  local function jaw(side) -- side 1: top, -1: bottom
    local ids, n, half = {}, 12, math.rad(20)
    local cy = R + side * (R - 1.5 * R) -- the arc's centre, on the far side of the disk's
    local function node(k)
      local th = -half + 2 * half * k / n
      return {R + 1.5 * R * math.sin(th), cy + side * 1.5 * R * math.cos(th)}
    end
    for k = 0, n - 1 do ids[#ids + 1] = wall.create{nodes = {node(k), node(k + 1)}} end
    return ids
  end
  local top, bottom = jaw(1), jaw(-1)
  local function load_on(ids) -- the force of the balls on a jaw, along y
    local f = 0
    for _, id in ipairs(ids) do f = f + wall.force(id)[2] end
    return f
  end
  rock.settle(1e-4, 20000)
  -- seat the jaws: close them until both carry a nominal stress of 0.01 MPa, then let the disk
  -- settle between them, so that the curve starts where the disk is held
  local seat_v = 0.1
  for _, id in ipairs(top) do wall.vel(id, {0, -seat_v}) end
  for _, id in ipairs(bottom) do wall.vel(id, {0, seat_v}) end
  local seat = 0.01e6 * math.pi * Dm / 2
  while math.min(load_on(top), -load_on(bottom)) < seat do model.cycle(10) end
  for _, id in ipairs(wall.list()) do wall.vel(id, {0, 0}) end
  rock.settle(1e-4, 20000)
  local h0 = rock.wall_level(2, top[1]) - rock.wall_level(2, bottom[1])
  local c0 = contact.cracks()
  local rate = o.rate or 1
  if o.out then vtk.every{steps = math.max(1, math.floor(1e-4 / rate / model.timestep())),
                          prefix = o.out} end
  local rows, ipeak = rock.load{
    dim = 2, bottom = bottom, top = top, v = 0.5 * rate * h0,
    bonds = nbond, drop = 0.7,
    every = math.max(1, math.floor(1e-5 / rate / model.timestep())),
    max_strain = 0.02,
    sample = function()
      local h = rock.wall_level(2, top[1]) - rock.wall_level(2, bottom[1])
      local f = 0.5 * (load_on(top) - load_on(bottom))
      return {step = model.step(), time = model.time(), displacement_mm = (h0 - h) * 1e3,
              force_kN = f / 1e3, tensile_stress_MPa = 2 * f / (math.pi * Dm) / 1e6,
              cracks = contact.cracks() - c0}
    end,
    load_of = function(r) return r.force_kN end,
    strain_of = function(r) return r.displacement_mm / 1e3 / h0 end}
  if o.out then -- and the state at the end, past the failure
    vtk.stop()
    vtk.write(o.out)
  end
  -- The strength is the load at which the disk first splits: the highest load before the load
  -- first falls by 5 % of it with bonds breaking (failure_cracks). A split disk's halves can
  -- go on carrying load as the jaws close on them, and crushing them can take several times the
  -- splitting load: one small flat-jointed disk split at 8.7 MPa and then reached 33.
  local top, itop = -math.huge, 1
  for i, r in ipairs(rows) do
    if r.force_kN > top then
      top, itop = r.force_kN, i
    elseif r.force_kN < 0.95 * top and
           r.cracks - rows[itop].cracks >= failure_cracks(nbond) then
      ipeak = itop
      break
    end
  end
  local res = {balls = ball.count(), bonds = nbond, unbonded = unbonded, porosity = sp.porosity,
               sigma0 = sp.sigma0,
               peak_kN = rows[ipeak].force_kN, tensile_MPa = rows[ipeak].tensile_stress_MPa,
               peak_displacement_mm = rows[ipeak].displacement_mm,
               cracks = contact.cracks() - c0, cracks_at_peak = rows[ipeak].cracks,
               steps = model.step(), dt = model.timestep(), cpu_s = os.clock() - t0, rows = rows}
  rock.outputs(o.out, rows, {"step", "time", "displacement_mm", "force_kN",
                              "tensile_stress_MPa", "cracks"}, "displacement_mm",
               "tensile_stress_MPa", "2F / (pi D t)",
               string.format("Brazilian test, 2D, %d disks", res.balls),
               "jaw displacement [mm]", "tensile stress [MPa]")
  return res
end

