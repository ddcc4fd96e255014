-- A ball bouncing off a convex edge and off a vertex of a cube mesh (12 triangles, side 1),
-- against the closed form. Frictionless and undamped, the contact force is central: it acts
-- along the line from the edge (or vertex) point to the ball's centre, so the ball rebounds as off
-- a hard sphere of zero radius there: v' = v - 2 (v . n0) n0, with n0 the unit vector from that
-- point to the centre at first touch, its speed kept (elastic). The edge runs along y: the
-- velocity along it is untouched, exactly. A contact of finite stiffness lasts
-- t_c = pi sqrt(m / kn), over which the centre slides by v_t t_c across the normal, turning it:
-- the rebound direction is the hard sphere's to within about pi (v_t / v_n) delta / R, with
-- delta = v_n sqrt(m / kn) the largest overlap (here 3.6e-5 m on R = 0.05 m; v_t / v_n below
-- 0.9 in both cases): tolerance 4 delta / R. The speed holds to 1e-5 (a linear spring without
-- dashpot returns its energy up to the onset and parting steps, of order (omega dt)^2 with
-- 1 000 steps per contact).
model.new{dim = 3}
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local stl = dofile(here .. "lib/stl.lua")
local h = 0.5
local V = {{-h, -h, -h}, {h, -h, -h}, {h, h, -h}, {-h, h, -h}, {-h, -h, h}, {h, -h, h},
           {h, h, h}, {-h, h, h}}
local F = {{1, 3, 2}, {1, 4, 3}, {5, 6, 7}, {5, 7, 8}, {1, 2, 6}, {1, 6, 5}, {2, 3, 7}, {2, 7, 6},
           {3, 4, 8}, {3, 8, 7}, {4, 1, 5}, {4, 5, 8}}
local tris = {}
for k, f in ipairs(F) do tris[k] = {V[f[1]], V[f[2]], V[f[3]]} end
local path = os.tmpname()
stl.write(path, tris)

local R, rho, kn = 0.05, 2500, 1e9
local function norm(v) return math.sqrt(v[1] ^ 2 + v[2] ^ 2 + v[3] ^ 2) end
local function bounce(point, n0, v)
  model.new{dim = 3}
  contact.cmat_default{model = "linear", kn = kn, ks = 0, fric = 0}
  wall.mesh{file = path}
  local c0 = {}
  for k = 1, 3 do c0[k] = point[k] + R * n0[k] - v[k] * 0.01 end -- 0.01 s before first touch
  ball.create{id = 1, rad = R, pos = c0, vel = v, density = rho}
  model.timestep{fix = 1e-7}
  model.cycle(300000)
  local vn = v[1] * n0[1] + v[2] * n0[2] + v[3] * n0[3]
  local ref = {v[1] - 2 * vn * n0[1], v[2] - 2 * vn * n0[2], v[3] - 2 * vn * n0[3]}
  return ball.vel(1), ref
end
local m = rho * 4 / 3 * math.pi * R ^ 3
local function check(tag, point, n0, v)
  local out, ref = bounce(point, n0, v)
  local dot = (out[1] * ref[1] + out[2] * ref[2] + out[3] * ref[3]) / (norm(out) * norm(ref))
  local angle = math.acos(math.min(1, dot))
  local delta = norm(v) * math.sqrt(m / kn)
  verify.check{quantity = tag .. ":direction", sim = angle, ref = 0, tol = 4 * delta / R,
               kind = "abs"}
  verify.check{quantity = tag .. ":speed", sim = norm(out), ref = norm(v), tol = 1e-5}
  return out
end
-- the edge x = z = 0.5 (along y), hit 30 degrees above its horizontal normal, sliding along it
local c30, s30 = math.cos(math.rad(30)), math.sin(math.rad(30))
local out = check("edge", {h, 0, h}, {c30, 0, s30}, {-1, 0.3, 0})
verify.check{quantity = "edge:velocity_along_it", sim = out[2], ref = 0.3, tol = 1e-12}
-- the vertex (0.5, 0.5, 0.5)
local n = {1, 0.8, 0.6}
local ln = norm(n)
check("vertex", {h, h, h}, {n[1] / ln, n[2] / ln, n[3] / ln}, {-1, -0.2, 0})
os.remove(path)
