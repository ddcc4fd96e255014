-- ctest: full
-- Simple shear of a granular soil in a periodic cell at constant normal stress: no walls at
-- all. A polydisperse specimen of spheres (radii uniform in [1.25, 2] mm; the default small
-- size: in [1.6, 2.6] mm) fills a fully periodic cubic cell; the cell's stress control
-- consolidates it isotropically to 100 kPa; then the cell shears at a constant rate
-- (cell.rate{xz = ...}: x moving with z) while the control holds the normal stress sigma_zz at
-- 100 kPa and the cell's x and y sides stay fixed. The stress ratio tau / sigma_n rises to a
-- peak as the dense packing dilates, then falls towards a steady value as the void ratio levels
-- off: the critical state.
-- Writes periodic_shear_3d/periodic_shear_3d.csv and .png (stress ratio and void ratio against
-- shear strain) and prints the peak and critical-state friction angles.
-- Run: cairn run examples/labtests/periodic_shear_3d.lua  (LAB_SIZE=full for the full size)
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local lab = dofile(here .. "lab.lua")
local full = lab.size == "full"
local k = full and 1.0 or 1.3
local rmin, rmax = 1.25e-3 * k, 2e-3 * k
local L = full and 0.04 or 0.034          -- cell side before consolidation (m)
-- normal stress (Pa), contact stiffness (kn / (d p0) = 5000: stiff grains), shear rate (1/s)
local p0, kn, rate = 100e3, 2e6, 1.0
local gamma_end = full and 0.6 or 0.25
local name = "periodic_shear_3d"
local t0 = os.clock()

model.new{dim = 3}
cell.create{min = {0, 0, 0}, max = {L, L, L}}
-- consolidated without friction for a dense specimen, sheared with friction 0.5
contact.cmat_default{model = "linear", kn = kn, ks = kn / 2, fric = 0}
local gen = specimen.generate{shape = "box", min = {0, 0, 0}, max = {L, L, L}, porosity = 0.72,
                              size = {kind = "uniform", rmin = rmin, rmax = rmax}, seed = 11,
                              density = 2650, damp = 0.7}
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
repeat model.cycle(500) until (off_target() < 0.002 and (model.ratio()) < 1e-5) or model.time() > 3
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
print(string.format("%s: peak stress ratio %.3f (friction angle %.1f deg) at shear strain %.3f",
                    name, peak, math.deg(math.atan(peak)), g[ipeak]))
print(string.format("%s: critical state (mean over the last third): stress ratio %.3f (%.1f deg), "
                    .. "void ratio %.4f (from %.4f)", name, cs, math.deg(math.atan(cs)), ecs, e0))
print(string.format("%s: largest inertial number %.2g (quasi-static below 1e-3)", name, inertial))
print(string.format("%s: %d steps, %.1f s of CPU", name, model.step(), os.clock() - t0))
if not (inertial < 1e-3) then
  error(name .. ": the test was not quasi-static (inertial number " .. inertial .. ")")
end
if not (peak > cs and cs > 0.2 and peak < 1.0 and ecs > e0) then
  error(string.format("%s: peak %.3f and critical-state %.3f stress ratios, void ratio %.4f from " ..
                      "%.4f: not a dense granular soil's", name, peak, cs, ecs, e0))
end
