-- ctest: long (about 20 s in Release; left out of the sanitizer run)
-- A 2D biaxial-box specimen ready for a creep test with the burger model: about 2 000 disks
-- generated loose (porosity 0.3 is out of reach of random placement in 2D, so it starts at
-- 0.5) between four walls, compacted by moving the walls inward until the mean stress in a
-- measurement box reaches 20 kPa, then held. The contacts are burger contacts throughout; during
-- compaction the Maxwell dashpots are made stiff (bur_cnm, bur_csm huge) so the specimen
-- behaves as Kelvin and Maxwell springs in series; the creep test then sets the real
-- viscosities with contact.apply (properties only: the contact forces and state are kept).
-- Run: cairn run specimen_biaxial_2d.lua (about 20 s on one core); it writes specimen_biaxial_2d.sav.
local W, H = 0.2, 0.4
local k = 1e6
local stiff = {bur_knk = 2 * k, bur_cnk = 1e2, bur_knm = 2 * k, bur_cnm = 1e12,
               bur_ksk = 2 * k, bur_csk = 1e2, bur_ksm = 2 * k, bur_csm = 1e12, bur_fric = 0.3}
model.new{dim = 2}
stiff.model = "burger"
contact.cmat_default(stiff)
wall.create{id = 1, nodes = {{-0.1, 0}, {W + 0.1, 0}}} -- bottom
wall.create{id = 2, nodes = {{-0.1, H}, {W + 0.1, H}}} -- top
wall.create{id = 3, nodes = {{0, -0.1}, {0, H + 0.1}}} -- left
wall.create{id = 4, nodes = {{W, -0.1}, {W, H + 0.1}}} -- right

local info = specimen.generate{shape = "box", min = {0, 0}, max = {W, H}, porosity = 0.5,
                               size = {kind = "uniform", rmin = 0.002, rmax = 0.003},
                               seed = 11, density = 2650, damp = 0.7}
print(string.format("generated %d disks, porosity %.3f", info.count, info.porosity))

local m = measure.create{shape = "box", min = {0.02, 0.04}, max = {W - 0.02, H - 0.04}}
history.add("mean_stress", function() return m:stress("mean") end)
history.add("porosity", function() return m:porosity() end)

-- Compact: the walls move inward at the same strain rate in x and y (top and bottom at v, the
-- sides at v W / H) until the target mean stress.
local v, target = 0.05, 2e4
local vx = v * W / H
wall.vel(1, {0, v}); wall.vel(2, {0, -v}); wall.vel(3, {vx, 0}); wall.vel(4, {-vx, 0})
model.timestep{auto = true, safety = 0.5}
while m:stress("mean") < target and model.time() < 3.0 do model.cycle{steps = 200, history_interval = 200} end
for id = 1, 4 do wall.vel(id, {0, 0}) end
model.cycle(2000) -- hold: the disks come to rest under the stress reached

local s = m:stress()
local z = m:coordination()
print(string.format("after compaction (t = %.3f s): porosity %.4f, coordination %.3f", model.time(),
                    m:porosity(), z))
print(string.format("  stress [Pa, compression > 0]: xx %.0f  yy %.0f  xy %.1f", s[1][1], s[2][2],
                    s[1][2]))
-- Ready for creep: give the dashpots their viscosities and load the top wall (see the burger
-- verification cases for the contact-level closed forms).
contact.apply{bur_cnm = 1e6, bur_csm = 1e6, bur_cnk = 1e5, bur_csk = 1e5}
model.save("specimen_biaxial_2d.sav")
print("saved specimen_biaxial_2d.sav")
