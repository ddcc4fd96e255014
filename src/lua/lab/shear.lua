-- The lab module's simple shear test (lab.simple_shear; lab.lua gives it its options): a
-- granular soil in a fully periodic cell at constant normal stress, no walls at all. A
-- polydisperse specimen of spheres fills a cubic cell; the cell's stress control consolidates it
-- isotropically to p0; then the cell shears at a constant rate (cell.rate{xz = ...}: x moving
-- with z) while the control holds sigma_zz at p0 and the cell's x and y sides stay fixed. The
-- stress ratio tau / sigma_n rises to a peak as the dense packing dilates, then falls towards a
-- steady value as the void ratio levels off: the critical state. docs/labtests.md walks through
-- it.
local lab = ...

-- o: name, L (the cell's side before consolidation), rmin, rmax, p0, kn, rate (the shear rate,
-- 1/s), gamma_end, porosity0, seed. Writes NAME/NAME.csv and .png, prints the results and
-- returns them.
function lab.soil.simple_shear(o)
  local name, L, rmin, rmax = o.name, o.L, o.rmin, o.rmax
  local p0, kn, rate, gamma_end = o.p0, o.kn, o.rate, o.gamma_end
  local t0 = os.clock()

  model.new{dim = 3}
  cell.create{min = {0, 0, 0}, max = {L, L, L}}
  -- consolidated without friction for a dense specimen, sheared with friction 0.5
  contact.cmat_default{model = "linear", kn = kn, ks = kn / 2, fric = 0}
  local gen = specimen.generate{shape = "box", min = {0, 0, 0}, max = {L, L, L},
                                porosity = o.porosity0,
                                size = {kind = "uniform", rmin = rmin, rmax = rmax},
                                seed = o.seed, density = 2650, damp = 0.7}
  -- quasi-static: the stability bound alone (no impact's restitution matters here)
  model.timestep{auto = true, impact = 0}
  local solid = 0
  for _, id in ipairs(ball.list()) do solid = solid + 4 / 3 * math.pi * ball.rad(id) ^ 3 end

  -- 1. Isotropic consolidation by the cell's stress control on every axis.
  cell.servo{axis = "xyz", stress = p0, rate_max = 2.0}
  local function off_target()
    local s, worst = cell.stress(), 0
    for a = 1, 3 do worst = math.max(worst, math.abs(s[a][a] / p0 - 1)) end
    return worst
  end
  repeat model.cycle(500) until (off_target() < 0.01 and (model.ratio()) < 1e-3) or model.time() > 2
  contact.apply{fric = 0.5}
  contact.cmat_default{model = "linear", kn = kn, ks = kn / 2, fric = 0.5}
  repeat model.cycle(500) until (off_target() < 0.002 and (model.ratio()) < 1e-5) or
                                 model.time() > 3
  local e0 = cell.volume() / solid - 1
  print(string.format("%s: %d balls consolidated to %.1f kPa: void ratio %.4f, cell %.2f mm across",
                      name, gen.count, p0 / 1e3, e0, 1e3 * cell.volume() ^ (1 / 3)))

  -- 2. Simple shear at constant normal stress: z held at p0, x and y fixed, x moving with z.
  cell.servo{axis = "xy", off = true}
  cell.rate{xx = 0, yy = 0, xz = rate}
  -- the shear strain since the shear began, the integral of the velocity gradient's xz (cell.strain
  -- measures from the cell's creation, before consolidation shrank it)
  local t_shear = model.time()
  local function gamma() return rate * (model.time() - t_shear) end
  local dmean = rmin + rmax
  history.interval(math.max(1, math.floor(2e-3 / rate / model.timestep())))
  history.add("shear_strain", gamma)
  -- the shear stress the soil carries: sigma_xz is compression-positive, and the shear resisting
  -- x moving with z is negative in that convention
  history.add("stress_ratio", function() return -cell.stress("xz") / cell.stress("zz") end)
  history.add("void_ratio", function() return cell.volume() / solid - 1 end)
  history.add("sigma_zz_kPa", function() return cell.stress("zz") / 1e3 end)
  history.add("tau_kPa", function() return -cell.stress("xz") / 1e3 end)
  -- the inertial number: shear rate x mean diameter x sqrt(density / normal stress)
  history.add("inertial", function()
    return rate * dmean * math.sqrt(2650 / math.max(cell.stress("zz"), 1))
  end)
  repeat model.cycle(1000) until gamma() >= gamma_end

  local g, ratio = history.get("shear_strain"), history.get("stress_ratio")
  local void = history.get("void_ratio")
  local peak, ipeak = -math.huge, 1
  for i = 1, #ratio do if ratio[i] > peak then peak, ipeak = ratio[i], i end end
  local cs, ecs, n = 0, 0, 0 -- the critical state: the mean over the last third of the strain
  for i = 1, #ratio do
    if g[i] >= 2 / 3 * gamma_end then cs, ecs, n = cs + ratio[i], ecs + void[i], n + 1 end
  end
  cs, ecs = cs / n, ecs / n
  local inertial = 0
  for _, x in ipairs(history.get("inertial")) do inertial = math.max(inertial, x) end

  os.execute("mkdir -p " .. name)
  history.export(name .. "/" .. name .. ".csv")
  plot.history{csv = name .. "/" .. name .. ".csv", out = name .. "/" .. name .. ".png",
               x = "shear_strain", y = {"stress_ratio"}, y2 = {"void_ratio"},
               labels = {"stress ratio tau / sigma_n", "void ratio e"},
               title = string.format("periodic simple shear at %g kPa, %d spheres, no walls",
                                     p0 / 1e3, gen.count),
               xlabel = "shear strain gamma [-]", ylabel = "tau / sigma_n [-]",
               y2label = "void ratio [-]"}
  -- the cell at the end, with its force chains
  vtk.write(name .. "/" .. name)
  lab.rock.picture(name .. "/" .. name, name .. "/" .. name .. "_specimen.png", {color = "none"})
  print(string.format("%s: peak stress ratio %.3f (friction angle %.1f deg) at shear strain %.3f",
                      name, peak, math.deg(math.atan(peak)), g[ipeak]))
  print(string.format("%s: critical state (mean over the last third): stress ratio %.3f " ..
                      "(%.1f deg), "
                      .. "void ratio %.4f (from %.4f)", name, cs, math.deg(math.atan(cs)), ecs, e0))
  print(string.format("%s: largest inertial number %.2g (quasi-static below 1e-3)", name, inertial))
  print(string.format("%s: %d steps, %.1f s of CPU", name, model.step(), os.clock() - t0))
  return {balls = gen.count, peak = peak, peak_strain = g[ipeak], critical = cs,
          critical_void = ecs, void0 = e0, inertial = inertial, steps = model.step(),
          cpu_s = os.clock() - t0}
end

-- What is wrong with a simple shear test's results (nil if nothing), for lab.check: not
-- quasi-static, or not a dense soil's peak and critical state.
function lab.soil.shear_problem(name, r)
  if not (r.inertial < 1e-3) then
    return name .. ": the test was not quasi-static (inertial number " .. r.inertial .. ")"
  end
  if not (r.peak > r.critical and r.critical > 0.2 and r.peak < 1.0 and
          r.critical_void > r.void0) then
    return string.format("%s: peak %.3f and critical-state %.3f stress ratios, void ratio %.4f " ..
                         "from %.4f: not a dense granular soil's", name, r.peak, r.critical,
                         r.critical_void, r.void0)
  end
end
