-- ctest: full
-- A rotating drum half full of spheres, and its dynamic angle of repose (docs/meshes.md). The
-- drum's shell is a mesh wall (a cylinder of triangles written to an STL file here) turning at
-- a constant spin about its axis (y); its ends are two frictionless planes, so that the shell
-- alone drives the bed. Glass-like spheres (d = 4 mm +- 5 %, 2 500 kg/m^3, friction 0.5) fill
-- it about half; once the bed rolls steadily its free surface stands at the dynamic angle of
-- repose, measured here from the bed's centre of mass: a bed with a flat surface fills a
-- segment of the drum's section, symmetric about the perpendicular from the axis to its chord,
-- so the line from the axis to the bed's centre of mass is perpendicular to the surface and its
-- angle from the vertical is the surface's angle from the horizontal. It is averaged
-- over the last part of the run. Experiments with glass beads at these Froude numbers
-- (omega^2 R / g about 0.01, the rolling regime) report 22 to 30 degrees (for example Yang et
-- al., Powder Technology 130, 2003, and Dury and Ristow, J. Phys. I France 7, 1997); the run
-- stops with an error outside 15 to 40 degrees, or if the bed does not turn with the drum.
-- Writes rotating_drum/rotating_drum.csv and .png (the angle against time) in the current folder.
-- Sizes: MESH_SIZE=small (default: R = 30 mm, about 410 spheres, 1.5 s) or full (R = 45 mm,
-- about 950 spheres, 3 s).
-- Run: cairn run examples/meshes/rotating_drum.lua
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local shapes = dofile(here .. "shapes.lua")
local full = os.getenv("MESH_SIZE") == "full"
local d = 0.004
local rmin, rmax = 0.95 * d / 2, 1.05 * d / 2
local R = full and 0.045 or 0.03   -- the drum's inner radius (m)
local W = 5 * d                    -- its length along the axis (m)
local g = 9.81
local Fr = 0.01                    -- Froude number omega^2 R / g
local omega = math.sqrt(Fr * g / R)
local T = full and 3.0 or 1.5      -- run time (s)
local T_avg = full and 1.5 or 0.75 -- the angle is averaged over t >= T_avg

local seed = 7 -- deterministic jitter and radii (a 32-bit linear congruential generator)
local function rand()
  seed = (1664525 * seed + 1013904223) % 4294967296
  return seed / 4294967296
end

os.execute("mkdir -p rotating_drum")
model.new{dim = 3}
model.gravity{0, 0, -g}
contact.cmat_default{model = "linear", kn = 2e4, ks = 1e4, fric = 0.5, dp_nratio = 0.3}
contact.cmat_add{kind = "ball-wall", group = "ends", model = "linear", kn = 2e4, ks = 1e4, fric = 0,
                 dp_nratio = 0.3}
-- the shell: 96 sectors around, 4 rows along y, a little longer than the drum between its end
-- walls
shapes.shell("rotating_drum/shell.stl", R, -W / 2 - 0.002, W + 0.004, 96, 4)
local shell = wall.mesh{file = "rotating_drum/shell.stl", id = 1, centre = {0, 0, 0}}
os.remove("rotating_drum/shell.stl")
wall.create{id = 2, kind = "plane", point = {0, -W / 2, 0}, normal = {0, 1, 0}, group = "ends"}
wall.create{id = 3, kind = "plane", point = {0, W / 2, 0}, normal = {0, -1, 0}, group = "ends"}
model.domain{min = {-R, -W / 2, -R}, max = {R, W / 2, R}}
model.timestep{auto = true}

-- Half the drum's section filled at a loose packing: the spheres on a lattice in the lower
-- part of the drum, each nudged, then settled.
local pitch = 2 * rmax + 0.0004
local n = 0
for k = 0, 60 do
  for i = -30, 30 do
    for j = 0, 10 do
      local x, z, y = i * pitch, -R + rmax + 0.0008 + k * pitch, -W / 2 + rmax + 0.0004 + j * pitch
      if y <= W / 2 - rmax - 0.0004 and x * x + z * z <= (R - rmax - 0.0008) ^ 2 and z <= 0.7 * R then
        n = n + 1
        ball.create{id = n, rad = rmin + (rmax - rmin) * rand(), density = 2500,
                    pos = {x + (rand() - 0.5) * 2e-4, y, z + (rand() - 0.5) * 2e-4}}
      end
    end
  end
end
model.solve{time = 0.4}

-- The bed's angle: the line from the axis to its centre of mass, from the vertical.
local function angle()
  local sx, sz, sm = 0, 0, 0
  for _, id in ipairs(ball.list()) do
    local p, m = ball.pos(id), ball.mass(id)
    sx, sz, sm = sx + m * p[1], sz + m * p[3], sm + m
  end
  return math.deg(math.atan(sx / sm, -sz / sm))
end
local fill = 0
for _, id in ipairs(ball.list()) do fill = fill + 4 / 3 * math.pi * ball.rad(id) ^ 3 end
fill = fill / 0.6 / (math.pi * R * R * W) -- the share of the drum a packing of 0.6 would fill
print(string.format("rotating_drum: %d spheres, about %.0f %% of the drum; spin %.3f rad/s (%.1f rpm), Fr = %.3f",
                    ball.count(), 100 * fill, omega, omega * 30 / math.pi, Fr))
local a0 = angle()

-- Turning about -y: the shell's bottom moves towards +x, so the bed rises on that side and
-- its centre of mass moves towards +x.
wall.spin(shell, {0, -omega, 0})
local t0 = model.time()
history.add("angle_deg", function() return angle() end)
history.interval{by = function() return model.time() end, every = 0.01}  -- a row each 0.01 s
local sum, count = 0, 0
while model.time() - t0 < T do
  model.solve{time = model.time() + 0.01}
  if model.time() - t0 >= T_avg then
    sum, count = sum + angle(), count + 1
  end
end
local theta = sum / count
print(string.format("rotating_drum: dynamic angle of repose %.1f deg (mean over %.2f s to %.2f s; %.1f deg at rest before)",
                    theta, T_avg, T, a0))
history.export("rotating_drum/rotating_drum.csv")
plot.history{csv = "rotating_drum/rotating_drum.csv", out = "rotating_drum/rotating_drum.png",
             y = {"angle_deg"}, labels = {"angle of the bed"}, styles = {"line"},
             title = string.format("rotating drum, R = %.0f mm, %d spheres, Fr = %.2f: dynamic angle %.1f deg",
                                   R * 1000, ball.count(), Fr, theta),
             xlabel = "t [s] (the drum turns from the end of settling)", ylabel = "angle from the horizontal [deg]"}
if not (theta > 15 and theta < 40) then
  error(string.format("rotating_drum: the dynamic angle of repose %.1f deg is outside 15 to 40 deg", theta))
end
