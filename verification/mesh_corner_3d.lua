-- A ball in the concave corners of one mesh feels every face it touches (issue: "concave edges
-- give the two contacts they should"), against closed forms and against the same corner built
-- from analytic planes. The mesh is the inside of a box corner: a floor z = 0 and two walls x = 0
-- and y = 0, each a unit square of two triangles, so the corner's edges are concave and each
-- face's own diagonal is a flat edge (one contact there, mesh_plane_3d).
--  * corner: a ball (R = 0.05 m) pressed into the corner by a load F = -(0.3, 0.5, 0.8) N and
--    placed where the three linear springs (kn = 1e5 N/m) balance it: centre R - F_i / kn from
--    each face. It must feel three contacts, each pushing with its F_i, and stay where it is: the
--    forces balance to rounding (1e-16 of F a step), so over 2 000 steps of 1e-5 s it moves less
--    than 1e-12 m and each force equals F_i to 1e-9 (relative: the overlap F_i / kn = 3e-6 m is
--    a difference of two numbers near R, which keeps 1e-16 / 3e-6 of it).
--  * edge: a ball thrown into the concave edge of the floor and the wall x = 0 (frictionless,
--    undamped). Each face pushes along its own normal, x and z, so the two bounces do not
--    interact: it leaves with both components reversed, v' = (1, 0.3, 0.7) from v = (-1, 0.3,
--    -0.7), its speed kept to 1e-5 (a linear spring without dashpot returns its energy up to the
--    onset and parting steps, of order (omega dt)^2 with 500 steps per contact), the velocity
--    along the edge untouched to 1e-12. A single-contact scheme would keep only the nearer face.
--  * groove: a V of two faces meeting at 30 degrees from flat (beyond the 20 degree crease
--    angle: two contacts), each face tessellated into 80 strips (0.025 m) across the groove's
--    length, with friction and damping: a ball thrown along the groove, spinning, with gravity
--    tilted along it, slides and rolls 0.385 m, across about 30 triangle edges on each face, and
--    settles into both faces (two contacts at the end), against the same groove made of two
--    analytic planes. Each of its two contacts keeps its shear history from triangle to
--    triangle, so the runs agree to rounding: 1e-12 m in position, 1e-11 in velocity and spin
--    after 60 000 steps.
--  * crease: a ball pressed into a V whose faces meet 10 degrees from flat (below the crease
--    angle) has one contact (the rule of docs/meshes.md: a shallow crease acts as one surface),
--    one at 30 degrees has two, each pushing F / (2 cos 15 degrees) up its face's normal.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local stl = dofile(here .. "lib/stl.lua")
local path = os.tmpname()
local R, kn = 0.05, 1e5
local function sq(a, b, c, d) return {{a, b, c}, {a, c, d}} end
local function write(faces)
  local tris = {}
  for _, f in ipairs(faces) do for _, t in ipairs(f) do tris[#tris + 1] = t end end
  stl.write(path, tris)
end
local function count(wid)
  local n = 0
  for _, cp in ipairs(contact.list("ball-wall")) do
    local _, _, w = contact.ends(cp)
    if w == wid and contact.gap(cp) < 0 then n = n + 1 end
  end
  return n
end

-- the box corner: floor, wall x = 0, wall y = 0
write{sq({0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}), sq({0, 0, 0}, {0, 1, 0}, {0, 1, 1}, {0, 0, 1}),
      sq({0, 0, 0}, {0, 0, 1}, {1, 0, 1}, {1, 0, 0})}

do -- corner
  model.new{dim = 3}
  contact.cmat_default{model = "linear", kn = kn, ks = 0.5 * kn, fric = 0.3}
  wall.mesh{file = path, id = 1}
  local F = {0.3, 0.5, 0.8}
  local c0 = {R - F[1] / kn, R - F[2] / kn, R - F[3] / kn}
  ball.create{id = 1, rad = R, pos = c0, density = 2500}
  ball.force_app(1, {-F[1], -F[2], -F[3]})
  model.timestep{fix = 1e-5}
  model.cycle(2000)
  verify.check{quantity = "corner:contacts", sim = count(1), ref = 3, tol = 0, kind = "abs"}
  local p, moved = ball.pos(1), 0
  for k = 1, 3 do moved = math.max(moved, math.abs(p[k] - c0[k])) end
  verify.check{quantity = "corner:moved", sim = moved, ref = 0, tol = 1e-12, kind = "abs"}
  local got = {0, 0, 0}
  for _, cp in ipairs(contact.list("ball-wall")) do
    local f = contact.force_global(cp)
    for k = 1, 3 do if math.abs(f[k]) > 0.5 * F[k] then got[k] = f[k] end end
  end
  for k, axis in ipairs{"x", "y", "z"} do
    verify.check{quantity = "corner:force_" .. axis, sim = got[k], ref = F[k], tol = 1e-9}
  end
end

do -- edge
  model.new{dim = 3}
  contact.cmat_default{model = "linear", kn = 1e6, ks = 0, fric = 0}
  wall.mesh{file = path, id = 1}
  local v = {-1, 0.3, -0.7}
  -- first touch of the floor 2 ms and of the wall 1 ms after the start
  ball.create{id = 1, rad = R, pos = {R + 0.001, 0.5, R + 0.0014}, vel = v, density = 2500}
  model.timestep{fix = 1e-6}
  model.cycle(20000)
  local out = ball.vel(1)
  verify.check{quantity = "edge:vel_x", sim = out[1], ref = 1, tol = 1e-5}
  verify.check{quantity = "edge:vel_z", sim = out[3], ref = 0.7, tol = 1e-5}
  verify.check{quantity = "edge:vel_along_it", sim = out[2], ref = 0.3, tol = 1e-12}
end

-- a V groove along y: faces through the line x = 0, z = 0 at +-half degrees from flat, each
-- in n strips across y
local function groove(half, n)
  local s, c = math.sin(math.rad(half)), math.cos(math.rad(half))
  local faces = {}
  for i = 0, n - 1 do
    local y0, y1 = -1 + 2 * i / n, -1 + 2 * (i + 1) / n
    faces[#faces + 1] = sq({0, y0, 0}, {c, y0, s}, {c, y1, s}, {0, y1, 0})
    faces[#faces + 1] = sq({0, y0, 0}, {0, y1, 0}, {-c, y1, s}, {-c, y0, s})
  end
  write(faces)
  return s, c
end

do -- groove: tessellated against analytic planes
  local s, c = groove(15, 80)
  local function run(mesh)
    model.new{dim = 3}
    model.gravity{0, 0.5, -9.81}
    contact.cmat_default{model = "linear", kn = kn, ks = 0.5 * kn, fric = 0.3, dp_nratio = 0.7}
    if mesh then
      wall.mesh{file = path, id = 1}
    else
      wall.create{kind = "plane", point = {0, 0, 0}, normal = {-s, 0, c}, id = 1}
      wall.create{kind = "plane", point = {0, 0, 0}, normal = {s, 0, c}, id = 2}
    end
    ball.create{id = 1, rad = R, pos = {0.005, -0.8, R / c}, vel = {0, 0.8, 0}, spin = {2, 0, 1},
                density = 2500}
    model.timestep{fix = 1e-5}
    model.cycle(60000)
    return {ball.pos(1), ball.vel(1), ball.spin(1)}, count(1) + (mesh and 0 or count(2))
  end
  local a, na = run(false)
  local b, nb = run(true)
  local dp, dv, ds = 0, 0, 0
  for k = 1, 3 do
    dp = math.max(dp, math.abs(a[1][k] - b[1][k]))
    dv = math.max(dv, math.abs(a[2][k] - b[2][k]))
    ds = math.max(ds, math.abs(a[3][k] - b[3][k]))
  end
  verify.check{quantity = "groove:contacts", sim = nb, ref = 2, tol = 0, kind = "abs"}
  verify.check{quantity = "groove:contacts_planes", sim = na, ref = 2, tol = 0, kind = "abs"}
  verify.check{quantity = "groove:travel", sim = b[1][2], ref = a[1][2], tol = 1e-12, kind = "abs"}
  verify.check{quantity = "groove:position", sim = dp, ref = 0, tol = 1e-12, kind = "abs"}
  verify.check{quantity = "groove:velocity", sim = dv, ref = 0, tol = 1e-11, kind = "abs"}
  verify.check{quantity = "groove:spin", sim = ds, ref = 0, tol = 1e-11, kind = "abs"}
end

do -- crease: below and beyond the crease angle
  for _, half in ipairs{5, 15} do
    local s, c = groove(half, 1)
    model.new{dim = 3}
    contact.cmat_default{model = "linear", kn = kn, ks = 0.5 * kn, fric = 0.3}
    wall.mesh{file = path, id = 1}
    local F = 0.8
    local N = F / (2 * c)
    ball.create{id = 1, rad = R, pos = {0, 0, (R - N / kn) / c}, density = 2500}
    ball.force_app(1, {0, 0, -F})
    model.timestep{fix = 1e-5}
    model.cycle(10)
    local tag = "crease_" .. 2 * half .. "deg"
    verify.check{quantity = tag .. ":contacts", sim = count(1), ref = half < 10 and 1 or 2,
                 tol = 0, kind = "abs"}
    if half > 10 then
      for _, cp in ipairs(contact.list("ball-wall")) do
        verify.check{quantity = tag .. ":normal_force", sim = contact.force(cp)[1], ref = N,
                     tol = 1e-9}
      end
    end
  end
end
os.remove(path)
