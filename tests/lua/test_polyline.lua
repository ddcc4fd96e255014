-- 2D mesh walls from polyline files (docs/meshes.md, "2D: polylines"): the transform at load,
-- a turning polyline as the same segments' analytic walls, save and restore bit for bit, the
-- segments' forces, the VTK lines, and every bad input refused with one sentence naming the file
-- and line (or segment) and no wall made.
local function check(cond, what) if not cond then error("FAILED: " .. what, 2) end end
local function refused(f, pattern, what)
  local n = wall.count()
  local ok, err = pcall(f)
  check(not ok, what .. ": accepted")
  check(tostring(err):find(pattern, 1, true), what .. ": message '" .. tostring(err) ..
        "' lacks '" .. pattern .. "'")
  check(wall.count() == n, what .. ": a wall was left behind")
end
local path = os.tmpname()
local function write(text)
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
end

-- the transform at load: scale, turn (degrees about z), move; a blank line starts a polyline
model.new{dim = 2}
write("# two polylines\n0 0\n1000, 0\n\n0 500\n0 1000\n")
local id = wall.mesh{file = path, scale = 0.001, rotate = 90, translate = {2, 0}, id = 4}
check(id == 4 and wall.kind(4) == "mesh" and wall.triangles(4) == 2, "two segments, one wall")
-- (0, 0)-(1, 0) becomes (2, 0)-(2, 1); (0, 0.5)-(0, 1) becomes (1.5, 0)-(1, 0)
ball.create{id = 1, rad = 0.1, pos = {2.05, 0.5}, density = 1000}
ball.create{id = 2, rad = 0.1, pos = {0.05, 0.75}, density = 1000} -- (where it was in the file)
ball.create{id = 3, rad = 0.1, pos = {1.25, 0.05}, density = 1000}
contact.cmat_default{model = "linear", kn = 1e5, ks = 5e4}
model.timestep{fix = 1e-5}
model.cycle(1)
local touched = {}
for _, cp in ipairs(contact.list("ball-wall")) do
  local _, b = contact.ends(cp)
  touched[#touched + 1] = b
end
check(#touched == 2 and touched[1] == 1 and touched[2] == 3,
      "balls 1 and 3 touch the moved segments: " .. table.concat(touched, " "))

-- a turning polyline drags a disk as the same two segments turning as segment walls do
local function drag(mesh)
  model.new{dim = 2}
  model.gravity{0, -9.81}
  contact.cmat_default{model = "linear", kn = 1e5, ks = 5e4, fric = 0.5, dp_nratio = 0.2}
  if mesh then
    write("-0.5 0\n0.2 0\n0.6 0.1\n")
    wall.mesh{file = path, spin = 2, centre = {0, 0}}
  else
    wall.create{kind = "segment", nodes = {{-0.5, 0}, {0.2, 0}}, spin = 2, centre = {0, 0}}
    wall.create{kind = "segment", nodes = {{0.2, 0}, {0.6, 0.1}}, spin = 2, centre = {0, 0}}
  end
  ball.create{id = 1, rad = 0.05, pos = {-0.2, 0.0499}, density = 2500}
  model.timestep{fix = 1e-5}
  model.cycle(20000)
  return ball.pos(1), ball.vel(1)
end
local ps, vs = drag(false)
local pm, vm = drag(true)
for k = 1, 2 do
  check(math.abs(ps[k] - pm[k]) < 1e-12 and math.abs(vs[k] - vm[k]) < 1e-10,
        "the turning polyline drags the disk as the turning segments: " .. (pm[k] - ps[k]))
end

-- save and restore: the run goes on bit for bit (a disk in the polyline's concave corner)
model.new{dim = 2}
model.gravity{-3, -9.81}
contact.cmat_default{model = "linear", kn = 1e5, ks = 5e4, fric = 0.5, dp_nratio = 0.2}
write("1 0\n0 0\n0 1\n")
wall.mesh{file = path, id = 9}
ball.create{id = 1, rad = 0.05, pos = {0.06, 0.06}, vel = {-0.3, -0.1}, density = 2500}
model.timestep{fix = 1e-5}
model.cycle(20000)
local save = os.tmpname()
model.save(save)
model.cycle(5000)
local straight = ball.pos(1)
check(contact.find("ball-wall", 1, 9, 2), "the disk sits in the corner on two contacts")
model.restore(save)
os.remove(save)
model.cycle(5000)
local again = ball.pos(1)
check(again[1] == straight[1] and again[2] == straight[2], "restored, the same bits")
-- the segments' forces carry the disk's weight and sum to the wall's force
local sf, wf = wall.triangle_forces(9), wall.force(9)
check(#sf == 2, "a force per segment")
for k = 1, 2 do
  check(math.abs(sf[1][k] + sf[2][k] - wf[k]) < 1e-12 * math.abs(wf[2]), "segments sum to the wall")
end
check(math.abs(wf[2] + ball.mass(1) * 9.81) < 0.01 * ball.mass(1) * 9.81, "the wall holds the weight")
-- VTK: a line per segment
local prefix = os.tmpname()
vtk.write(prefix)
local f = assert(io.open(prefix .. "_walls_00000.vtp"))
local text = f:read("a")
f:close()
check(text:find('NumberOfLines="2"', 1, true), "two lines in the walls file")
for _, suffix in ipairs{"", ".pvd", "_balls_00000.vtp", "_walls_00000.vtp", "_contacts_00000.vtp",
                        "_cracks_00000.vtp", "_clumps_00000.vtp"} do
  os.remove(prefix .. suffix)
end

-- bad input
model.new{dim = 2}
refused(function() wall.mesh{file = "/nonexistent.txt"} end, "cannot read the polyline file",
        "a missing file")
write("0 0\n1 zero\n")
refused(function() wall.mesh{file = path} end, "line 2 is not a vertex", "a word")
write("0 0 0\n1 0 0\n")
refused(function() wall.mesh{file = path} end, "line 1 is not a vertex", "three numbers")
write("0 0\n1 inf\n")
refused(function() wall.mesh{file = path} end, "line 2 holds a coordinate that is not finite",
        "not finite")
write("0 0\n1 0\n1 0\n")
refused(function() wall.mesh{file = path} end, "line 3 repeats the vertex", "a repeated vertex")
write("0 0\n1 0\n\n5 5\n")
refused(function() wall.mesh{file = path} end, "line 4: a polyline of one vertex", "one vertex")
write("# nothing\n\n")
refused(function() wall.mesh{file = path} end, "holds no segment", "no segment")
write("0 0\n1 0\n\n1 0\n1 1\n\n1 0\n2 0\n")
refused(function() wall.mesh{file = path} end, "is shared by 3 segments", "a branch")
write("0 0\n1 0\n")
refused(function() wall.mesh{file = path, scale = 0} end, "scale must be a positive number",
        "a zero scale")
refused(function() wall.mesh{file = path, rotate = {axis = {0, 0, 1}, angle = 3}} end,
        "rotate (degrees about z, in 2D)", "a 3D rotation in 2D")
os.remove(path)
