-- 2D mesh walls: a polyline read from a text file (docs/meshes.md, "2D: polylines"), held to the
-- same rules as a 3D mesh and checked the same ways.
--  * flat: a line from x = -1 to 1 cut into 40 segments of very different lengths (from 0.2 to
--    1.8 times the mean, at random) against the analytic segment wall over the same span: a disk
--    resting on it, one sliding and spinning across it (0.87 m: it crosses about 17 of the
--    polyline's vertices) and one dropped onto a vertex. The nearest point of a straight run of segments is
--    one point whichever segment holds it, so the disk feels one contact with the line's normal
--    and gap: the runs agree to 1e-12 m in position and 1e-11 in velocity and spin after 100 000
--    steps of 1e-5 s.
--  * corner: a disk (R = 0.05 m) pressed into the concave corner of an L (a floor and a wall of
--    one polyline) by a load F = -(0.3, 0.8) N, placed where the two linear springs (kn = 1e5
--    N/m) balance it: two contacts, each pushing with its F_i to 1e-9 (the overlap F_i / kn,
--    3e-6 m, is a difference of numbers near R), the disk moving less than 1e-12 m in 2 000
--    steps.
--  * vertex: a disk thrown at the convex vertex of a step (frictionless, undamped, kn = 1e8
--    N/m) rebounds as off a hard point there, v' = v - 2 (v . n0) n0 with n0 from the vertex to
--    the centre at first touch: its direction to 4 delta / R (delta = |v| sqrt(m / kn), above
--    the largest overlap: the finite stiffness turns the normal during the contact, as in
--    mesh_edge_3d), its speed to 1e-5 (a spring without dashpot returns its energy up to the
--    onset and parting steps, with 1 400 steps per contact).
--  * crease: a disk pressed into a V whose two segments meet 10 degrees from flat has one contact
--    (a shallow crease acts as one line), one of 30 degrees two, each pushing F / (2 cos 15
--    degrees) to 1e-9.
local path = os.tmpname()
local R, kn = 0.05, 1e5
-- polylines: a list of lists of {x, y}, written one vertex a line, a blank line between them
local function write(lines)
  local f = assert(io.open(path, "w"))
  f:write("# test polyline\n")
  for i, pl in ipairs(lines) do
    if i > 1 then f:write("\n") end
    for _, p in ipairs(pl) do f:write(string.format("%.17g %.17g\n", p[1], p[2])) end
  end
  f:close()
end
local function count(wid)
  local n = 0
  for _, cp in ipairs(contact.list("ball-wall")) do
    local _, _, w = contact.ends(cp)
    if w == wid and contact.gap(cp) < 0 then n = n + 1 end
  end
  return n
end

do -- flat
  local seed, xs, x = 3, {}, -1
  local function rnd()
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed / 2147483648
  end
  local w = {}
  for i = 1, 40 do w[i] = 0.2 + 1.6 * rnd() end
  local total = 0
  for i = 1, 40 do total = total + w[i] end
  xs[1] = {-1, 0}
  for i = 1, 39 do
    x = x + 2 * w[i] / total
    xs[#xs + 1] = {x, 0}
  end
  xs[#xs + 1] = {1, 0}
  write{xs}
  local function run(mesh, spec)
    model.new{dim = 2}
    model.gravity{0, -9.81}
    contact.cmat_default{model = "linear", kn = kn, ks = 0.5 * kn, fric = 0.3, dp_nratio = 0.2}
    if mesh then
      wall.mesh{file = path}
    else
      wall.create{kind = "segment", nodes = {{-1, 0}, {1, 0}}}
    end
    ball.create(spec)
    model.timestep{fix = 1e-5}
    model.cycle(100000)
    return {ball.pos(1), ball.vel(1), ball.spin(1)}
  end
  local cases = {
    rest = {id = 1, rad = R, pos = {0.13, 0.0499}, density = 2500},
    slide = {id = 1, rad = R, pos = {-0.7, 0.1}, vel = {1.2, 0}, spin = -5, density = 2500},
    vertex = {id = 1, rad = R, pos = {xs[20][1], 0.2}, vel = {0, -1}, density = 2500},
  }
  for _, name in ipairs{"rest", "slide", "vertex"} do
    local a, b = run(false, cases[name]), run(true, cases[name])
    local dp, dv = 0, 0
    for k = 1, 2 do
      dp = math.max(dp, math.abs(a[1][k] - b[1][k]))
      dv = math.max(dv, math.abs(a[2][k] - b[2][k]))
    end
    verify.check{quantity = "flat_" .. name .. ":position", sim = dp, ref = 0, tol = 1e-12,
                 kind = "abs"}
    verify.check{quantity = "flat_" .. name .. ":velocity", sim = dv, ref = 0, tol = 1e-11,
                 kind = "abs"}
    verify.check{quantity = "flat_" .. name .. ":spin", sim = math.abs(a[3] - b[3]), ref = 0,
                 tol = 1e-11, kind = "abs"}
  end
end

do -- corner
  write{{{1, 0}, {0, 0}, {0, 1}}}
  model.new{dim = 2}
  contact.cmat_default{model = "linear", kn = kn, ks = 0.5 * kn, fric = 0.3}
  wall.mesh{file = path, id = 1}
  local F = {0.3, 0.8}
  local c0 = {R - F[1] / kn, R - F[2] / kn}
  ball.create{id = 1, rad = R, pos = c0, density = 2500}
  ball.force_app(1, {-F[1], -F[2]})
  model.timestep{fix = 1e-5}
  model.cycle(2000)
  verify.check{quantity = "corner:contacts", sim = count(1), ref = 2, tol = 0, kind = "abs"}
  local p = ball.pos(1)
  verify.check{quantity = "corner:moved", sim = math.max(math.abs(p[1] - c0[1]),
               math.abs(p[2] - c0[2])), ref = 0, tol = 1e-12, kind = "abs"}
  local got = {0, 0}
  for _, cp in ipairs(contact.list("ball-wall")) do
    local f = contact.force_global(cp)
    for k = 1, 2 do if math.abs(f[k]) > 0.5 * F[k] then got[k] = f[k] end end
  end
  verify.check{quantity = "corner:force_x", sim = got[1], ref = F[1], tol = 1e-9}
  verify.check{quantity = "corner:force_y", sim = got[2], ref = F[2], tol = 1e-9}
end

do -- vertex: the step's convex corner at (0, 0), the floor going left, the riser going down
  write{{{-1, 0}, {0, 0}, {0, -1}}}
  model.new{dim = 2}
  contact.cmat_default{model = "linear", kn = 1e8, ks = 0, fric = 0}
  wall.mesh{file = path}
  local a = math.rad(35)
  local n0, v = {math.cos(a), math.sin(a)}, {-1, -0.2}
  -- first touch 0.01 s after the start
  ball.create{id = 1, rad = R, density = 2500,
              pos = {R * n0[1] - 0.01 * v[1], R * n0[2] - 0.01 * v[2]}, vel = v}
  model.timestep{fix = 1e-6}
  model.cycle(20000)
  local out = ball.vel(1)
  local vn = v[1] * n0[1] + v[2] * n0[2]
  local ref = {v[1] - 2 * vn * n0[1], v[2] - 2 * vn * n0[2]}
  local function norm(u) return math.sqrt(u[1] ^ 2 + u[2] ^ 2) end
  local dot = (out[1] * ref[1] + out[2] * ref[2]) / (norm(out) * norm(ref))
  local m = ball.mass(1)
  local delta = norm(v) * math.sqrt(m / 1e8)
  verify.check{quantity = "vertex:direction", sim = math.acos(math.min(1, dot)), ref = 0,
               tol = 4 * delta / R, kind = "abs"}
  verify.check{quantity = "vertex:speed", sim = norm(out), ref = norm(v), tol = 1e-5}
end

do -- crease
  for _, half in ipairs{5, 15} do
    local s, c = math.sin(math.rad(half)), math.cos(math.rad(half))
    write{{{-c, s}, {0, 0}, {c, s}}}
    model.new{dim = 2}
    contact.cmat_default{model = "linear", kn = kn, ks = 0.5 * kn, fric = 0.3}
    wall.mesh{file = path, id = 1}
    local F = 0.8
    local N = F / (2 * c)
    ball.create{id = 1, rad = R, pos = {0, (R - N / kn) / c}, density = 2500}
    ball.force_app(1, {0, -F})
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
