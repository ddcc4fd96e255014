-- ctest: long (about 80 s in Release; left out of the sanitizer run)
-- A 3D specimen of 20 000 spheres with a sieve-curve size distribution (percent passing by
-- mass), generated loose in a box by random placement, then settled under gravity against
-- planar walls; prints porosity, coordination and stress in a measurement sphere and in a box,
-- and writes a VTK snapshot (out/specimen_sieve_3d.pvd). Run: cairn run specimen_sieve_3d.lua
-- (see docs/scripting.md, sections specimen and measure).
local L, H = 0.4, 0.4 -- box width and generation height [m]
model.new{dim = 3}
model.gravity{0, 0, -9.81}
contact.cmat_default{model = "linear", kn = 1e4, ks = 5e3, fric = 0.5}
wall.create{kind = "plane", point = {0, 0, 0}, normal = {0, 0, 1}}
wall.create{kind = "plane", point = {0, 0, 0}, normal = {1, 0, 0}}
wall.create{kind = "plane", point = {L, 0, 0}, normal = {-1, 0, 0}}
wall.create{kind = "plane", point = {0, 0, 0}, normal = {0, 1, 0}}
wall.create{kind = "plane", point = {0, L, 0}, normal = {0, -1, 0}}

-- Sieve data: diameters [m] and percent passing by mass.
local info = specimen.generate{shape = "box", min = {0, 0, 0}, max = {L, L, H}, count = 20000,
                               size = {kind = "curve", diameter = {0.008, 0.012, 0.016, 0.024},
                                       passing = {0, 20, 60, 100}},
                               seed = 1, density = 2650, damp = 0.3}
print(string.format("generated %d balls, porosity %.3f", info.count, info.porosity))

local mid = measure.create{shape = "sphere", centre = {L / 2, L / 2, 0.12}, radius = 0.08}
local low = measure.create{shape = "box", min = {0.05, 0.05, 0.02}, max = {L - 0.05, L - 0.05, 0.2}}
history.add("porosity", function() return mid:porosity() end)
history.add("szz", function() return mid:stress("zz") end)

-- Settle. Local damping 0.3 rather than PFC's classic 0.7: damping also opposes gravity on a
-- falling ball (F - alpha |F| sign v), so 0.7 would let the pack fall at 0.3 g. By t = 0.5 s
-- the porosity in the sphere changes by < 1e-3 per 0.1 s and its vertical stress by < 1 %.
-- The stiffness is soft (overlaps stay below 1 % of the smallest diameter) to keep the
-- automatic timestep large: the whole run takes about a minute on one core (Release).
model.solve{time = 0.5, history_interval = 500}

local z, nb = mid:coordination()
local s = mid:stress()
print(string.format("measurement sphere: porosity %.4f, coordination %.3f (%d balls)",
                    mid:porosity(), z, nb))
print(string.format("  stress [Pa, compression > 0]: xx %.1f  yy %.1f  zz %.1f  xz %.2f",
                    s[1][1], s[2][2], s[3][3], s[1][3]))
print(string.format("measurement box: porosity %.4f, coordination %.3f, mean stress %.1f Pa",
                    low:porosity(), (low:coordination()), low:stress("mean")))
-- Vertical stress from the weight above the sphere's centre, for comparison (Janssen's wall
-- friction makes the measured value smaller): rho g (1 - n) (h - z).
local top = 0
for _, id in ipairs(ball.list()) do top = math.max(top, ball.pos(id)[3] + ball.rad(id)) end
print(string.format("  top of the pack %.3f m; geostatic estimate of szz at z = 0.12: %.1f Pa", top,
                    2650 * 9.81 * (1 - mid:porosity()) * (top - 0.12)))
os.execute("mkdir -p out")
vtk.write("out/specimen_sieve_3d")
