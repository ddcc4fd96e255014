-- A mesh wall that tessellates a plane acts exactly as the plane (issue: a tessellated surface
-- must give no jump and no double force at its triangles' edges and vertices). Three runs on a
-- square of side 2 tessellated finely (9 x 9 cells, corners moved at random by up to 30 % of a
-- cell: triangles of very different sizes and shapes) and coarsely (2 triangles), each against
-- the same run on the analytic plane z = 0: a ball resting on it, a ball sliding and spinning
-- across it (it crosses dozens of edges and vertices), and a ball dropped onto a vertex where
-- eight triangles meet. The nearest point of a flat tessellated region to a ball's centre is the
-- same point whichever triangle holds it, so the ball feels one contact with the plane's normal
-- and gap, to the rounding of that point (a few ulps of the coordinates); the runs must agree to
-- 1e-12 m in position and 1e-11 in velocity and spin after 100 000 steps of 1e-5 s (observed:
-- on a face the contact takes the triangle's normal and plane distance, as the plane does, so
-- every run gives the plane's bits but the slide across the fine mesh, where a ball over an edge
-- meets it as an edge: 3.4e-15 m, 1.7e-14 and 2.2e-13).
-- ctest: heavy
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local stl = dofile(here .. "lib/stl.lua")

-- the square [-1, 1]^2 at z = 0: n x n cells, inner corners moved by up to 'jitter' of a cell
local function square(n, jitter)
  local P, seed = {}, 1
  local function rnd()
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed / 2147483648
  end
  for j = 0, n do
    P[j] = {}
    for i = 0, n do
      local x, y = -1 + 2 * i / n, -1 + 2 * j / n
      if i > 0 and i < n and j > 0 and j < n then
        x, y = x + jitter * (rnd() - 0.5) * 2 / n, y + jitter * (rnd() - 0.5) * 2 / n
      end
      P[j][i] = {x, y, 0}
    end
  end
  local tris = {}
  for j = 0, n - 1 do
    for i = 0, n - 1 do
      if (i + j) % 2 == 0 then
        tris[#tris + 1] = {P[j][i], P[j][i + 1], P[j + 1][i + 1]}
        tris[#tris + 1] = {P[j][i], P[j + 1][i + 1], P[j + 1][i]}
      else
        tris[#tris + 1] = {P[j][i], P[j][i + 1], P[j + 1][i]}
        tris[#tris + 1] = {P[j][i + 1], P[j + 1][i + 1], P[j + 1][i]}
      end
    end
  end
  return tris
end

local path = os.tmpname()
local function run(mesh, ball_spec)
  model.new{dim = 3}
  model.gravity{0, 0, -9.81}
  contact.cmat_default{model = "linear", kn = 1e5, ks = 5e4, fric = 0.3, dp_nratio = 0.2}
  if mesh then
    wall.mesh{file = path}
  else
    wall.create{kind = "plane", point = {0, 0, 0}, normal = {0, 0, 1}}
  end
  ball.create(ball_spec)
  model.timestep{fix = 1e-5}
  model.cycle(100000)
  return {ball.pos(1), ball.vel(1), ball.spin(1)}
end
local cases = {
  rest = {id = 1, rad = 0.05, pos = {0.13, -0.21, 0.0499}, density = 2500},
  slide = {id = 1, rad = 0.05, pos = {-0.7, -0.6, 0.1}, vel = {1.2, 0.9, 0}, spin = {3, -5, 2},
           density = 2500},
  vertex = {id = 1, rad = 0.05, pos = {0, 0, 0.2}, vel = {0, 0, -1}, density = 2500},
}
for _, mesh in ipairs{{"fine", 9, 0.3}, {"coarse", 1, 0}} do
  stl.write(path, square(mesh[2], mesh[3]))
  for _, name in ipairs{"rest", "slide", "vertex"} do
    local a, b = run(false, cases[name]), run(true, cases[name])
    local dp, dv, ds = 0, 0, 0
    for k = 1, 3 do
      dp = math.max(dp, math.abs(a[1][k] - b[1][k]))
      dv = math.max(dv, math.abs(a[2][k] - b[2][k]))
      ds = math.max(ds, math.abs(a[3][k] - b[3][k]))
    end
    local tag = mesh[1] .. "_" .. name
    verify.check{quantity = tag .. ":position", sim = dp, ref = 0, tol = 1e-12, kind = "abs"}
    verify.check{quantity = tag .. ":velocity", sim = dv, ref = 0, tol = 1e-11, kind = "abs"}
    verify.check{quantity = tag .. ":spin", sim = ds, ref = 0, tol = 1e-11, kind = "abs"}
  end
end
os.remove(path)
