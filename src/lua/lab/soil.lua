-- The lab module's drained compression test (lab.biaxial in 2D, four walls; lab.triaxial in 3D,
-- six walls; lab.lua gives them their options): a box of walls, a loose polydisperse specimen,
-- isotropic consolidation by the walls' servos, then shear by the axial walls at a constant
-- strain rate while the lateral walls' servos hold the confining stress. docs/labtests.md walks
-- through it.
--
-- The axial direction is y in 2D and z in 3D. Walls: 1 bottom, 2 top, 3 and 4 across x, and in
-- 3D 5 and 6 across y. Stresses and strains are positive in compression.
local lab = ...

-- A wall's position along axis a (a segment's first node, a plane's point).
local function level(dim, id, a)
  if dim == 2 then return wall.nodes(id)[1][a] end
  return wall.point(id)[a]
end

-- The walls of the box [0, L1] x [0, L2] (x [0, L3]).
local function box_walls(dim, L)
  if dim == 2 then
    local W, H = L[1], L[2]
    wall.create{id = 1, nodes = {{-W, 0}, {2 * W, 0}}}
    wall.create{id = 2, nodes = {{-W, H}, {2 * W, H}}}
    wall.create{id = 3, nodes = {{0, -H}, {0, 2 * H}}}
    wall.create{id = 4, nodes = {{W, -H}, {W, 2 * H}}}
    return
  end
  wall.create{id = 1, kind = "plane", point = {0, 0, 0}, normal = {0, 0, 1}}
  wall.create{id = 2, kind = "plane", point = {0, 0, L[3]}, normal = {0, 0, -1}}
  wall.create{id = 3, kind = "plane", point = {0, 0, 0}, normal = {1, 0, 0}}
  wall.create{id = 4, kind = "plane", point = {L[1], 0, 0}, normal = {-1, 0, 0}}
  wall.create{id = 5, kind = "plane", point = {0, 0, 0}, normal = {0, 1, 0}}
  wall.create{id = 6, kind = "plane", point = {0, L[2], 0}, normal = {0, -1, 0}}
end

-- o: name, dim, L (the box's sizes, axial last), rmin, rmax, kn, p0, rate, strain_end, seed;
-- optional: grain, the grains' contact model and its properties other than fric (default: linear,
-- kn, ks = kn / 2); test, properties the grains' contacts get once consolidated, for the shear
-- (e.g. {rr_fric = 0.1}: rolling resistance); consolidated, a save file: restored if it exists
-- (a specimen consolidated by an earlier call with the same o), else written once consolidated
-- (triaxial_hertz_3d.lua shears one specimen twice that way); clump, a template's pebbles (as
-- clump.template takes them): every generated ball is replaced by a clump of its volume, turned
-- at random (clump.replace_balls). Writes NAME/NAME.csv and
-- NAME/NAME.png and prints the results; returns them. With o.verify, stops after consolidation
-- with the stress check as a verify.check row.
function lab.soil.drained(o)
  local dim, p0, rate = o.dim, o.p0, o.rate
  local ax = dim -- the axial direction
  local t0 = os.clock()
  -- The extent of the box along axis a, between walls 2a+1 and 2a+2 (axial: 1 and 2).
  local pair = dim == 2 and {{3, 4}, {1, 2}} or {{3, 4}, {5, 6}, {1, 2}}
  local function extent(a) return level(dim, pair[a][2], a) - level(dim, pair[a][1], a) end
  local function volume()
    local v = 1
    for a = 1, dim do v = v * extent(a) end
    return v
  end
  local nwalls = 2 * dim
  local function off_target(from)
    local worst = 0
    for id = from or 1, nwalls do worst = math.max(worst, math.abs(wall.stress(id) / p0 - 1)) end
    return worst
  end
  -- the grains' contact properties with friction fric (and the test's, with test)
  local function grains(fric, test)
    local p = {kind = "ball-ball", model = "linear", kn = o.kn, ks = o.kn / 2, fric = fric}
    if o.grain then
      p = {kind = "ball-ball", fric = fric}
      for key, x in pairs(o.grain) do p[key] = x end
    end
    for key, x in pairs(test and o.test or {}) do p[key] = x end
    return p
  end
  -- 1. The specimen, consolidated: built here, or restored from o.consolidated.
  local function consolidate()
    model.new{dim = dim}
    box_walls(dim, o.L)
    -- frictionless walls (no shear stiffness); grains with ks = kn / 2, consolidated with friction
    -- 0.1 for a dense specimen, tested with 0.5
    contact.cmat_default{kind = "ball-wall", model = "linear", kn = o.kn, ks = 0, fric = 0}
    contact.cmat_default(grains(0.1))
    specimen.generate{shape = "box", min = dim == 2 and {0, 0} or {0, 0, 0}, max = o.L,
                      porosity = o.porosity0,
                      size = {kind = "uniform", rmin = o.rmin, rmax = o.rmax}, seed = o.seed,
                      density = 2650, damp = 0.7}
    if o.clump then
      clump.template{name = "grain", pebbles = o.clump}
      clump.replace_balls{template = "grain", seed = o.seed}
    end
    -- quasi-static: the stability bound alone (no impact's restitution matters here)
    model.timestep{auto = true, impact = 0}

    -- Isotropic consolidation: each wall's servo holds p0 over the area the walls across it
    -- span (2D: per unit thickness).
    local vmax = 0.2
    for a = 1, dim do
      local others = {}
      for b = 1, dim do if b ~= a then others[#others + 1] = pair[b] end end
      for _, id in ipairs(pair[a]) do
        wall.servo{id = id, stress = p0, width = others[1], depth = others[2], vmax = vmax}
      end
    end
    repeat model.cycle(500) until (off_target() < 0.01 and (model.ratio()) < 1e-3) or
                                   model.time() > 2
    contact.apply{fric = 0.5}
    contact.cmat_default(grains(0.5))
    repeat model.cycle(500) until (off_target() < 0.005 and (model.ratio()) < 1e-5) or
                                   model.time() > 3
  end
  local saved = o.consolidated and io.open(o.consolidated, "rb")
  if saved then
    saved:close()
    model.restore(o.consolidated)
  else
    consolidate()
    if o.consolidated then model.save(o.consolidated) end
  end
  if o.test then -- the test's properties, given to the specimen as consolidated
    local p = {kind = "ball-ball"}
    for key, x in pairs(o.test) do p[key] = x end
    contact.apply(p)
    contact.cmat_default(grains(0.5, true))
  end
  local grains = clump.count() > 0 and "clumps" or (dim == 2 and "disks" or "spheres")
  local gen = {count = clump.count() > 0 and clump.count() or ball.count()}
  local L0, lo = {}, {}
  for a = 1, dim do L0[a], lo[a] = extent(a), level(dim, pair[a][1], a) end
  local V0, solid = volume(), 0
  for _, id in ipairs(ball.list()) do
    local r = ball.rad(id)
    if not clump.of(id) then
      solid = solid + (dim == 2 and math.pi * r * r or 4 / 3 * math.pi * r ^ 3)
    end
  end
  for _, id in ipairs(clump.list()) do solid = solid + clump.volume(id) end
  print(string.format("%s: %d %s consolidated to %.1f kPa: porosity %.4f", o.name, gen.count,
                      grains, p0 / 1e3, 1 - solid / V0))

  -- The Love-Weber average over every contact of the specimen (a region just wider than the
  -- walls' box, taking in the wall contacts' points, its volume scaled back to the box's) equals
  -- the walls' stresses in equilibrium: the identity sum f (x) l = sum of tractions (x) x.
  local m = 0.5 * o.rmin
  local bmin, bmax, imin, imax = {}, {}, {}, {}
  for a = 1, dim do
    bmin[a], bmax[a] = lo[a] - m, lo[a] + L0[a] + m
    imin[a], imax[a] = lo[a] + 0.1 * L0[a], lo[a] + 0.9 * L0[a] -- 10 % in from the walls
  end
  local whole = measure.create{shape = "box", min = bmin, max = bmax}
  local sw = whole:stress()
  local love = 0
  for a = 1, dim do
    local walls = 0.5 * (wall.stress(pair[a][1]) + wall.stress(pair[a][2]))
    love = math.max(love, math.abs(sw[a][a] * whole:volume() / V0 / walls - 1))
  end
  print(string.format("%s: consolidated: the Love-Weber average over the whole specimen and the " ..
                      "walls' stresses differ by %.2g (the identity, to the residual " ..
                      "unbalanced force; checked below 1e-3)", o.name, love))
  if o.verify then -- a verification case's row (verification/labtest_*.lua)
    verify.check{quantity = "Love-Weber average against the walls' stresses", sim = love, ref = 0,
                 tol = 1e-3, kind = "abs"}
    return
  end
  if not (love < 1e-3) then error(o.name .. ": the specimen's stress and the walls' disagree") end
  local region = measure.create{shape = "box", min = imin, max = imax}

  -- 2. Shear: the axial walls close at the strain rate; the lateral walls' servos hold p0.
  wall.servo{id = 1, off = true}
  wall.servo{id = 2, off = true}
  local v = 0.5 * rate * L0[ax]
  local up, down = {0, 0, 0}, {0, 0, 0}
  up[ax], down[ax] = v, -v
  if dim == 2 then up[3], down[3] = nil, nil end
  wall.vel(1, up)
  wall.vel(2, down)
  local dmean = o.rmin + o.rmax
  local function s1() -- the axial walls' force over the current section
    return 0.5 * (wall.force(2)[ax] - wall.force(1)[ax]) / (volume() / extent(ax))
  end
  local function s3() -- the lateral servos'
    local s = 0
    for id = 3, nwalls do s = s + wall.stress(id) end
    return s / (nwalls - 2)
  end
  history.interval(math.max(1, math.floor(1e-3 / rate / model.timestep())))
  history.add("axial_strain", function() return 1 - extent(ax) / L0[ax] end)
  history.add("volumetric_strain", function() return 1 - volume() / V0 end)
  history.add("sigma1_kPa", function() return s1() / 1e3 end)
  history.add("sigma3_kPa", function() return s3() / 1e3 end)
  history.add("deviator_kPa", function() return (s1() - s3()) / 1e3 end)
  history.add("phi_deg", function() return math.deg(math.asin((s1() - s3()) / (s1() + s3()))) end)
  history.add("region_axial_kPa", function() return region:stress()[ax][ax] / 1e3 end)
  history.add("region_lateral_kPa", function()
    local st, sum = region:stress(), 0
    for a = 1, dim - 1 do sum = sum + st[a][a] end
    return sum / (dim - 1) / 1e3
  end)
  -- the inertial number: strain rate x mean diameter x sqrt(density / mean stress)
  history.add("inertial", function()
    return rate * dmean * math.sqrt(2650 / ((s1() + (dim - 1) * s3()) / dim))
  end)
  repeat model.cycle(1000) until 1 - extent(ax) / L0[ax] >= o.strain_end

  local ea, phi = history.get("axial_strain"), history.get("phi_deg")
  local s1h, s3h = history.get("sigma1_kPa"), history.get("sigma3_kPa")
  local ra, rl = history.get("region_axial_kPa"), history.get("region_lateral_kPa")
  -- peak, and residual (the mean over the last fifth of the strain) friction angles
  local r = {balls = gen.count, peak = -math.huge, ipeak = 1}
  for i = 1, #phi do if phi[i] > r.peak then r.peak, r.ipeak = phi[i], i end end
  local res, nres = 0, 0
  for i = 1, #phi do
    if ea[i] >= 0.8 * o.strain_end then res, nres = res + phi[i], nres + 1 end
  end
  r.residual = res / nres
  -- the walls' stresses against the inner region's (Love-Weber average) over the test
  r.region_dev, r.inertial = 0, 0
  for i, x in ipairs(history.get("inertial")) do
    r.inertial = math.max(r.inertial, x)
    r.region_dev = math.max(r.region_dev, math.abs(ra[i] / s1h[i] - 1),
                            math.abs(rl[i] / s3h[i] - 1))
  end
  r.ev_end = history.get("volumetric_strain")[#ea]

  os.execute("mkdir -p " .. o.name)
  history.export(o.name .. "/" .. o.name .. ".csv")
  plot.history{csv = o.name .. "/" .. o.name .. ".csv", out = o.name .. "/" .. o.name .. ".png",
               x = "axial_strain", y = {"deviator_kPa"}, y2 = {"volumetric_strain"},
               labels = {"deviator stress q = s1 - s3", "volumetric strain (compression > 0)"},
               title = string.format("%s at %g kPa, %d %s", o.title, p0 / 1e3, gen.count,
                                     grains),
               xlabel = "axial strain [-]", ylabel = "q [kPa]",
               y2label = "volumetric strain [-]"}
  -- the specimen at the end, with its force chains (3D: from the front, z up)
  local prefix = o.name .. "/" .. o.name
  vtk.write(prefix)
  lab.rock.picture(prefix, prefix .. "_specimen.png", {color = "none", view = dim == 3 and
                                                       "front" or nil})

  print(string.format("%s: peak friction angle %.1f deg at axial strain %.3f; residual %.1f deg " ..
                      "(mean over the last fifth)", o.name, r.peak, ea[r.ipeak], r.residual))
  print(string.format("%s: volumetric strain at the end %.4f (negative: dilation)", o.name,
                      r.ev_end))
  print(string.format("%s: largest inertial number %.2g (quasi-static below 1e-3)", o.name,
                      r.inertial))
  print(string.format("%s: the inner measurement region's stresses against the walls': %.1f %% " ..
                      "apart at most (the band along the walls carries more)", o.name,
                      100 * r.region_dev))
  print(string.format("%s: %d steps, %.1f s of CPU", o.name, model.step(), os.clock() - t0))
  r.steps, r.cpu_s = model.step(), os.clock() - t0
  return r
end

-- What is wrong with a drained test's results (nil if nothing), for lab.check: not quasi-static,
-- or not a dense soil's friction angles.
function lab.soil.problem(name, r)
  if not (r.inertial < 1e-3) then
    return name .. ": the test was not quasi-static (inertial number " .. r.inertial .. ")"
  end
  if not (r.peak > r.residual and r.peak > 15 and r.peak < 50) then
    return string.format("%s: the friction angles (peak %.1f, residual %.1f) are not a dense " ..
                         "granular soil's", name, r.peak, r.residual)
  end
end
