-- ctest: full
-- A drained biaxial test of a granular soil in 2D, with servo-controlled walls: a polydisperse
-- specimen of disks (radii uniform in [0.5, 0.8] mm; the default small size: in [1, 1.6] mm) in
-- a box of four walls, 50 mm wide and 100 mm high, consolidated isotropically to 100 kPa by the
-- four walls' servos, then sheared by the top and bottom walls closing at a constant axial strain
-- rate while the side walls' servos hold 100 kPa. Writes biaxial_2d/biaxial_2d.csv (axial strain,
-- volumetric strain, the wall stresses, the deviator stress, the mobilised friction angle, the
-- stress of a measurement region) and biaxial_2d/biaxial_2d.png (deviator stress and volumetric
-- strain against axial strain), and prints the peak and residual friction angles, the inertial
-- number (the quasi-static check: below 1e-3) and the walls' against the region's stress.
-- Run: cairn run examples/labtests/biaxial_2d.lua  (LAB_SIZE=full for the full size, ~3 000 disks)
local size = os.getenv("LAB_SIZE") or "small"
if size ~= "small" and size ~= "full" then
  error("LAB_SIZE must be 'small' or 'full' (got '" .. size .. "')")
end
local W, H = 0.05, 0.1
local k = size == "full" and 1 or 2
local rmin, rmax = 0.5e-3 * k, 0.8e-3 * k
local p0 = 100e3     -- the confining stress
local rate = 0.5     -- axial strain rate, 1/s
local strain_end = size == "full" and 0.15 or 0.10
local kn, fric = 1e8, 0.5
local t0 = os.clock()

model.new{dim = 2}
-- Walls: bottom 1, top 2, left 3, right 4, long enough that the specimen never leaves them;
-- frictionless (a wall's contacts have no shear stiffness).
local e = W
wall.create{id = 1, nodes = {{-e, 0}, {W + e, 0}}}
wall.create{id = 2, nodes = {{-e, H}, {W + e, H}}}
wall.create{id = 3, nodes = {{0, -e}, {0, H + e}}}
wall.create{id = 4, nodes = {{W, -e}, {W, H + e}}}
contact.cmat_default{kind = "ball-wall", model = "linear", kn = kn, ks = 0, fric = 0}
-- Grains: linear contacts, ks = kn / 2; consolidated with friction 0.1 for a dense specimen.
contact.cmat_default{kind = "ball-ball", model = "linear", kn = kn, ks = kn / 2, fric = 0.1}
local gen = specimen.generate{shape = "box", min = {0, 0}, max = {W, H}, porosity = 0.5,
                              size = {kind = "uniform", rmin = rmin, rmax = rmax}, seed = 7,
                              density = 2650, damp = 0.7}
model.timestep{auto = true}

-- 1. Isotropic consolidation: each wall's servo holds p0 over the length the walls across it
-- span (per unit thickness).
local vmax = 0.2
wall.servo{id = 1, stress = p0, width = {3, 4}, vmax = vmax}
wall.servo{id = 2, stress = p0, width = {3, 4}, vmax = vmax}
wall.servo{id = 3, stress = p0, width = {1, 2}, vmax = vmax}
wall.servo{id = 4, stress = p0, width = {1, 2}, vmax = vmax}
local function off_target()
  local worst = 0
  for id = 1, 4 do worst = math.max(worst, math.abs(wall.stress(id) / p0 - 1)) end
  return worst
end
repeat
  model.cycle(500)
until (off_target() < 0.01 and (model.ratio()) < 1e-3) or model.time() > 2
contact.apply{fric = fric} -- the grains' friction for the test
contact.cmat_default{kind = "ball-ball", model = "linear", kn = kn, ks = kn / 2, fric = fric}
repeat model.cycle(500) until (off_target() < 0.005 and (model.ratio()) < 1e-5) or
                               model.time() > 3
local function width() return wall.nodes(4)[1][1] - wall.nodes(3)[1][1] end
local function height() return wall.nodes(2)[1][2] - wall.nodes(1)[1][2] end
local W0, H0 = width(), height()
-- a measurement region inside the specimen, its sides 10 % in from the walls' (the axial ones
-- close by 15 % at most, so it stays inside)
local x0, y0 = wall.nodes(3)[1][1], wall.nodes(1)[1][2]
local region = measure.create{shape = "box", min = {x0 + 0.1 * W0, y0 + 0.1 * H0},
                              max = {x0 + 0.9 * W0, y0 + 0.9 * H0}}
local solid = 0
for _, id in ipairs(ball.list()) do solid = solid + math.pi * ball.rad(id) ^ 2 end
print(string.format("biaxial_2d: %d disks consolidated to %.1f kPa: %.1f x %.1f mm, porosity " ..
                    "%.4f, coordination %.2f", gen.count, p0 / 1e3, W0 * 1e3, H0 * 1e3,
                    1 - solid / (W0 * H0), (region:coordination())))

-- The Love-Weber average over every contact of the specimen (a region just wider than the walls'
-- box, taking in the wall contacts' points, its volume scaled back to the box's) equals the
-- walls' stress in equilibrium: the identity sum f (x) l = sum of boundary tractions (x) x.
local m = 0.5 * rmin
local whole = measure.create{shape = "box", min = {x0 - m, y0 - m},
                             max = {x0 + W0 + m, y0 + H0 + m}}
local sw = whole:stress()
local scale = whole:volume() / (W0 * H0)
local love = math.max(math.abs(sw[1][1] * scale / (0.5 * (wall.stress(3) + wall.stress(4))) - 1),
                      math.abs(sw[2][2] * scale / (0.5 * (wall.stress(1) + wall.stress(2))) - 1))
print(string.format("biaxial_2d: consolidated: the Love-Weber average over the whole specimen " ..
                    "and the walls' stresses differ by %.2g (the identity, to the residual " ..
                    "unbalanced force; checked below 1e-3)", love))
if not (love < 1e-3) then error("biaxial_2d: the specimen's stress and the walls' disagree") end

-- 2. Shear: the top and bottom walls close at the axial strain rate; the side walls' servos go
-- on holding p0.
wall.servo{id = 1, off = true}
wall.servo{id = 2, off = true}
local v = 0.5 * rate * H0
wall.vel(1, {0, v})
wall.vel(2, {0, -v})
-- What is recorded, as histories sampled every 1e-3 of axial strain.
local dmean = rmin + rmax -- the mean diameter
local function s1() return 0.5 * (wall.force(2)[2] - wall.force(1)[2]) / width() end -- axial
local function s3() return 0.5 * (wall.stress(3) + wall.stress(4)) end -- the side servos'
history.interval(math.max(1, math.floor(1e-3 / rate / model.timestep())))
history.add("axial_strain", function() return 1 - height() / H0 end)
history.add("volumetric_strain", function() return 1 - width() * height() / (W0 * H0) end)
history.add("sigma1_kPa", function() return s1() / 1e3 end)
history.add("sigma3_kPa", function() return s3() / 1e3 end)
history.add("deviator_kPa", function() return (s1() - s3()) / 1e3 end)
history.add("phi_deg", function() return math.deg(math.asin((s1() - s3()) / (s1() + s3()))) end)
history.add("region_yy_kPa", function() return region:stress("yy") / 1e3 end)
history.add("region_xx_kPa", function() return region:stress("xx") / 1e3 end)
-- the inertial number: strain rate x mean diameter x sqrt(density / mean stress)
history.add("inertial", function()
  return rate * dmean * math.sqrt(2650 / (0.5 * (s1() + s3())))
end)
repeat model.cycle(1000) until 1 - height() / H0 >= strain_end

local ea, phi = history.get("axial_strain"), history.get("phi_deg")
local s1h, s3h = history.get("sigma1_kPa"), history.get("sigma3_kPa")
local ryy, rxx = history.get("region_yy_kPa"), history.get("region_xx_kPa")
-- Peak and residual (the mean over the last fifth of the strain) friction angles.
local peak, ipeak = -math.huge, 1
for i = 1, #phi do if phi[i] > peak then peak, ipeak = phi[i], i end end
local res, nres = 0, 0
for i = 1, #phi do
  if ea[i] >= 0.8 * strain_end then res, nres = res + phi[i], nres + 1 end
end
res = res / nres
-- The walls' stresses against the measurement region's (Love-Weber average), over the test.
local dev, imax = 0, 0
for i, v in ipairs(history.get("inertial")) do
  imax = math.max(imax, v)
  dev = math.max(dev, math.abs(ryy[i] / s1h[i] - 1), math.abs(rxx[i] / s3h[i] - 1))
end

os.execute("mkdir -p biaxial_2d")
history.export("biaxial_2d/biaxial_2d.csv")
plot.history{csv = "biaxial_2d/biaxial_2d.csv", out = "biaxial_2d/biaxial_2d.png",
             x = "axial_strain", y = {"deviator_kPa"}, y2 = {"volumetric_strain"},
             labels = {"deviator stress q = s1 - s3", "volumetric strain (compression > 0)"},
             title = string.format("drained biaxial test at %g kPa, %d disks", p0 / 1e3,
                                   gen.count),
             xlabel = "axial strain [-]", ylabel = "q [kPa]", y2label = "volumetric strain [-]"}

print(string.format("biaxial_2d: peak friction angle %.1f deg at axial strain %.3f; residual " ..
                    "%.1f deg (mean over the last fifth)", peak, ea[ipeak], res))
print(string.format("biaxial_2d: volumetric strain at the end %.4f (negative: dilation)",
                    history.get("volumetric_strain")[#ea]))
print(string.format("biaxial_2d: largest inertial number %.2g (quasi-static below 1e-3)", imax))
print(string.format("biaxial_2d: the inner measurement region's stresses against the walls': " ..
                    "%.1f %% apart at most (the band along the walls carries more)",
                    100 * dev))
print(string.format("biaxial_2d: %d steps, %.1f s of CPU", model.step(), os.clock() - t0))
if not (imax < 1e-3) then error("biaxial_2d: the test was not quasi-static (inertial number " ..
                                imax .. ")") end
if not (peak > res and peak > 15 and peak < 45) then
  error(string.format("biaxial_2d: the friction angles (peak %.1f, residual %.1f) are not a " ..
                      "dense granular soil's", peak, res))
end
