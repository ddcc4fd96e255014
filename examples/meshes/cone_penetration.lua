-- ctest: full
-- A cone penetration test in a calibration chamber (docs/meshes.md). A specimen of spheres
-- (d = 4 mm +- 10 %, 2 650 kg/m^3, friction 0.5) is made loose in a cylinder chamber and
-- consolidated by its top plate to a vertical stress of 50 kPa (with friction 0.1 meanwhile, so
-- that it packs densely); the top is then a mesh wall, an annular plate with a
-- hole for the cone, held at that stress by a servo. A 60-degree cone (apex angle; diameter
-- d_c = 3 d) on a shaft of the same diameter, a second mesh wall, is pushed down the chamber's
-- axis at a constant speed. The tip resistance q_c is the vertical force of the spheres on the
-- cone's face (its triangles' forces) over the cone's section, written against the depth of the
-- apex below the specimen's top, with the sleeve's vertical force (the shaft's).
-- The chamber's walls are frictionless (a calibration chamber's membrane and platens are
-- lubricated); the cone's and shaft's friction with the spheres is 0.3, their friction with each
-- other 0.5. No gravity: the self-weight of a 60 mm specimen is 1 kPa against 50 kPa applied.
-- The run stops with an error if q_c at the end is not between 5 and 500 times the vertical
-- stress (a cone must meet a resistance well above the stress around it: bearing capacity
-- factors for such packings are tens), or if the plate's servo lost its stress.
-- Writes cone_penetration/cone_penetration.csv and .png in the current folder.
-- Sizes: MESH_SIZE=small (default: chamber radius 27 mm, about 2 050 spheres) or full (45 mm,
-- about 8 350 spheres, deeper).
-- Run: cairn run examples/meshes/cone_penetration.lua
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local shapes = dofile(here .. "shapes.lua")
local full = os.getenv("MESH_SIZE") == "full"
local d = 0.004
local Rch = full and 0.045 or 0.027   -- chamber radius (m)
local H0 = full and 0.16 or 0.11      -- height of the loose specimen (m)
local dc = 3 * d                      -- cone diameter (m)
local rc = dc / 2
local sigma = 50e3                    -- vertical stress (Pa)
local v_push = 0.1                    -- cone speed (m/s)
local depth_end = full and 0.05 or 0.025

os.execute("mkdir -p cone_penetration")
model.new{dim = 3}
-- kn = 3e4 N/m: a contact carrying 50 kPa over d^2 (0.8 N) overlaps by 27 um, 0.7 % of d.
contact.cmat_default{model = "linear", kn = 3e4, ks = 1.5e4, fric = 0.5, dp_nratio = 0.3}
-- (the chamber's walls without a dashpot: a servo moving its wall at speed would feel the
-- dashpots' forces as a change of stress, and chatter)
contact.cmat_add{kind = "ball-wall", group = "cell", model = "linear", kn = 3e4, ks = 1.5e4, fric = 0}
contact.cmat_add{kind = "ball-wall", group = "cone", model = "linear", kn = 3e4, ks = 1.5e4, fric = 0.3,
                 dp_nratio = 0.3}
local cell = wall.cylinder_specimen{base = {0, 0, 0}, radius = Rch, height = H0, id = 1, group = "cell"}
local gen = specimen.generate{shape = "cylinder", centre = {0, 0, H0 / 2}, radius = Rch - 1e-4,
                              height = H0 - 2e-4, porosity = 0.72, seed = 3, density = 2650,
                              size = {kind = "uniform", rmin = 0.9 * d / 2, rmax = 1.1 * d / 2}}
model.timestep{auto = true}

-- Consolidation: the top plane down to 50 kPa, the spheres' local damping helping them settle,
-- their friction 0.1 meanwhile so that they pack densely (then 0.5: a dense specimen).
local area = math.pi * Rch * Rch
ball.attribute{damp = 0.7}
contact.cmat_default{kind = "ball-ball", fric = 0.1}
wall.servo{id = cell[2], stress = sigma, area = area, vmax = 0.5}
repeat
  model.solve{time = model.time() + 0.02}
until model.time() > 0.1 and math.abs(wall.force(cell[2])[3] / area / sigma - 1) < 0.02
model.solve{time = model.time() + 0.05}
contact.cmat_default{kind = "ball-ball", fric = 0.5}
contact.apply{kind = "ball-ball", fric = 0.5}
model.solve{time = model.time() + 0.02}
ball.attribute{damp = 0}
local top = wall.point(cell[2])[3]
print(string.format("cone_penetration: %d spheres consolidated to %.0f kPa, %.1f mm high, porosity %.3f",
                    ball.count(), wall.force(cell[2])[3] / area / 1e3, top * 1000,
                    1 - (function()
                      local v = 0
                      for _, id in ipairs(ball.list()) do v = v + 4 / 3 * math.pi * ball.rad(id) ^ 3 end
                      return v
                    end)() / (area * top)))

-- The top becomes an annular mesh plate with a hole of radius rc + d, in the plane's place,
-- held at the same stress (the area is its annulus').
local hole = rc + d
shapes.annulus("cone_penetration/plate.stl", hole, Rch + 0.003, top, 48, 6)
local plate = wall.mesh{file = "cone_penetration/plate.stl", id = 10, group = "cell"}
os.remove("cone_penetration/plate.stl")
wall.delete(cell[2])
local plate_area = math.pi * (Rch * Rch - hole * hole)
wall.servo{id = plate, stress = sigma, area = plate_area, vmax = 0.2, axis = {0, 0, -1}}

-- The cone: its face first in the file (the first 48 triangles), then the shaft, 48 sectors.
local n_face = shapes.cone("cone_penetration/cone.stl", rc, 30, top + 0.002, depth_end + 0.03, 48, 12)
local cone = wall.mesh{file = "cone_penetration/cone.stl", id = 11, group = "cone",
                       vel = {0, 0, -v_push}}
os.remove("cone_penetration/cone.stl")

local apex0, t_start = top + 0.002, model.time()
local function depth() return top - (apex0 - v_push * (model.time() - t_start)) end
local section = math.pi * rc * rc
local function tip_force()
  local tf, fz = wall.triangle_forces(cone), 0
  for k = 1, n_face do fz = fz + tf[k][3] end
  return fz
end
history.add("depth_mm", function() return 1000 * depth() end)
history.add("qc_kPa", function() return tip_force() / section / 1e3 end)
history.add("sleeve_N", function() return wall.force(cone)[3] - tip_force() end)
history.add("plate_kPa", function() return wall.force(plate)[3] / plate_area / 1e3 end)
history.interval{by = "depth_mm", every = 0.25}
model.solve{time = t_start + (depth_end + 0.002) / v_push}

history.export("cone_penetration/cone_penetration.csv")
plot.history{csv = "cone_penetration/cone_penetration.csv", out = "cone_penetration/cone_penetration.png",
             x = "depth_mm", y = {"qc_kPa"}, y2 = {"plate_kPa"}, styles = {"line", "dashed"},
             labels = {"tip resistance q_c", "stress on the top plate"},
             title = string.format("cone penetration, d_c = %.0f mm, %d spheres of d = 4 mm, 50 kPa",
                                   dc * 1000, ball.count()),
             xlabel = "depth of the apex below the top [mm]", ylabel = "q_c [kPa]",
             y2label = "top plate [kPa]"}
-- q_c at the end: the mean over the last fifth of the depth (the tip's force is noisy: a few
-- spheres carry it at a time)
local qs, n = 0, 0
local f = assert(io.open("cone_penetration/cone_penetration.csv"))
local head = f:read("l")
local cols = {}
for name in head:gmatch("[^,]+") do cols[#cols + 1] = name end
local ci, cd = 0, 0
for i, name in ipairs(cols) do
  if name == "qc_kPa" then ci = i elseif name == "depth_mm" then cd = i end
end
for line in f:lines() do
  local v = {}
  for x in line:gmatch("[^,]+") do v[#v + 1] = tonumber(x) end
  if v[cd] >= 0.8 * depth_end * 1000 then qs, n = qs + v[ci], n + 1 end
end
f:close()
local qc = qs / n * 1e3
local held = wall.force(plate)[3] / plate_area
print(string.format("cone_penetration: q_c = %.0f kPa at %.0f to %.0f mm (q_c / sigma_v = %.1f); top plate at %.1f kPa",
                    qc / 1e3, 800 * depth_end, 1000 * depth_end, qc / sigma, held / 1e3))
if not (qc / sigma > 5 and qc / sigma < 500) then
  error(string.format("cone_penetration: q_c / sigma_v = %.1f is outside 5 to 500", qc / sigma))
end
if not (math.abs(held / sigma - 1) < 0.2) then
  error(string.format("cone_penetration: the top plate's stress %.1f kPa is not within 20 %% of 50 kPa", held / 1e3))
end
