-- The cost of a mesh wall against a plane (docs/meshes.md): a layer of n x n balls (radius 1 mm)
-- resting on the floor z = 0 under gravity, every ball in contact with it, once on the analytic
-- plane and once on a mesh tessellating it with about as many triangles as balls
-- (CAIRN_BENCH_FLOOR=mesh). Prints the ball-steps per second; the mesh's cost per ball-step over
-- the plane's is the ratio of the two.
--   CAIRN_BENCH_N (default 316: 99 856 balls, 2 x 223^2 = 99 458 triangles), CAIRN_BENCH_WARM
--   (200), CAIRN_BENCH_TIMED (500)
local floor = os.getenv("CAIRN_BENCH_FLOOR") or "plane"
assert(floor == "plane" or floor == "mesh", "CAIRN_BENCH_FLOOR is plane or mesh")
local n = math.tointeger(tonumber(os.getenv("CAIRN_BENCH_N") or "316"))
local warm = tonumber(os.getenv("CAIRN_BENCH_WARM") or "200")
local timed = tonumber(os.getenv("CAIRN_BENCH_TIMED") or "500")
local r, s = 1e-3, 2.2e-3
local L = n * s
model.new{dim = 3}
model.gravity{0, 0, -9.81}
contact.cmat_default{model = "linear", kn = 1e3, ks = 1e3 * 2 / 7, fric = 0.5, dp_nratio = 0.3}
if floor == "plane" then
  wall.create{kind = "plane", point = {0, 0, 0}, normal = {0, 0, 1}}
else
  local m = math.floor(math.sqrt(n * n / 2) + 0.5) -- m x m cells, two triangles each
  local path = os.tmpname()
  local f = assert(io.open(path, "w"))
  f:write("solid floor\n")
  local function v(i, j) return string.format("vertex %.17g %.17g 0\n", L * i / m, L * j / m) end
  for j = 0, m - 1 do
    for i = 0, m - 1 do
      f:write("facet normal 0 0 1\nouter loop\n", v(i, j), v(i + 1, j), v(i + 1, j + 1),
              "endloop\nendfacet\nfacet normal 0 0 1\nouter loop\n", v(i, j), v(i + 1, j + 1),
              v(i, j + 1), "endloop\nendfacet\n")
    end
  end
  f:write("endsolid floor\n")
  f:close()
  wall.mesh{file = path}
  os.remove(path)
end
for j = 0, n - 1 do
  for i = 0, n - 1 do
    ball.create{rad = r, pos = {(i + 0.5) * s, (j + 0.5) * s, r * 0.999}, density = 2500}
  end
end
model.timestep{fix = 1e-5}
model.cycle(warm)
local t0 = model.wallclock()
model.cycle(timed)
local sec = model.wallclock() - t0
print(string.format("%-5s balls %7d threads %d steps %d wall %.2f s ball-steps/s %.4e contacts %d",
                    floor, ball.count(), model.threads(), timed, sec, ball.count() * timed / sec,
                    contact.count()))
