-- Mesh walls (docs/meshes.md): wall.mesh from an STL file, its transform at load, a turning and
-- moving mesh as a turning polygon, save and restore bit for bit, VTK triangles, and every bad
-- input refused with one sentence and no wall made.
local function check(cond, what) if not cond then error("FAILED: " .. what, 2) end end
local function refused(f, pattern, what)
  local n = wall.count()
  local ok, err = pcall(f)
  check(not ok, what .. ": accepted")
  check(tostring(err):find(pattern, 1, true), what .. ": message '" .. tostring(err) ..
        "' lacks '" .. pattern .. "'")
  check(wall.count() == n, what .. ": a wall was left behind")
end
local stl = dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "../../verification/lib/stl.lua")
local path = os.tmpname()

-- one triangle: as a mesh it turns and moves as the same triangle as a polygon wall does
local T = {{-0.5, -0.5, 0}, {0.7, -0.4, 0}, {0.1, 0.6, 0}}
stl.write(path, {T})
local function drag(mesh)
  model.new{dim = 3}
  model.gravity{0, 0, -9.81}
  contact.cmat_default{model = "linear", kn = 1e5, ks = 5e4, fric = 0.5, dp_nratio = 0.2}
  local id
  if mesh then
    id = wall.mesh{file = path, vel = {0.1, 0, 0}, spin = {0, 0, 2}, centre = {0, 0, 0}}
  else
    id = wall.create{kind = "polygon", nodes = T, vel = {0.1, 0, 0}, spin = {0, 0, 2},
                     centre = {0, 0, 0}}
  end
  ball.create{id = 1, rad = 0.05, pos = {0.2, 0, 0.0499}, density = 2500}
  model.timestep{fix = 1e-5}
  model.cycle(20000)
  return ball.pos(1), ball.vel(1), id
end
local pp, vp = drag(false)
local pm, vm, mid = drag(true)
check(wall.kind(mid) == "mesh" and wall.triangles(mid) == 1, "a mesh wall of one triangle")
for k = 1, 3 do
  check(math.abs(pp[k] - pm[k]) < 1e-12 and math.abs(vp[k] - vm[k]) < 1e-10,
        "the turning mesh drags the ball as the turning polygon: " .. (pm[k] - pp[k]))
end
check(math.sqrt((pm[1] - 0.2) ^ 2 + pm[2] ^ 2) > 0.01, "the ball was dragged")

-- save and restore: the run goes on bit for bit
local save = os.tmpname()
model.save(save)
model.cycle(5000)
local straight = ball.pos(1)
model.restore(save)
os.remove(save)
model.cycle(5000)
local again = ball.pos(1)
check(again[1] == straight[1] and again[2] == straight[2] and again[3] == straight[3],
      "restored, the same bits")

-- the transform at load: scale, turn, move
model.new{dim = 3}
local id = wall.mesh{file = path, scale = 2, rotate = {axis = {0, 0, 1}, angle = 90},
                     translate = {10, 0, 0}}
check(math.abs(wall.point(id)[1] - 10 - (-2 * (-0.4 - 0.5 + 0.6) / 3)) < 1e-12, "placed")
-- VTK: a cell per triangle
local prefix = os.tmpname()
vtk.write(prefix)
local f = io.open(prefix .. "_walls_00000.vtp")
local text = f:read("a")
f:close()
for _, part in ipairs{"balls", "walls", "contacts", "cracks", "clumps"} do
  os.remove(prefix .. "_" .. part .. "_00000.vtp")
end
os.remove(prefix .. ".pvd")
os.remove(prefix)
check(text:find('NumberOfPolys="1"', 1, true), "one triangle cell in the walls file")

-- triangle forces: the balls' weight, each ball's on the triangle under it, summing to the wall's
model.new{dim = 3}
model.gravity{0, 0, -9.81}
contact.cmat_default{model = "linear", kn = 1e5, ks = 5e4, fric = 0.3, dp_nratio = 0.5}
stl.write(path, {{{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}}, {{-1, -1, 0}, {1, 1, 0}, {-1, 1, 0}}})
local plate = wall.mesh{file = path}
ball.create{id = 1, rad = 0.05, pos = {0.5, -0.5, 0.05}, density = 1000} -- over triangle 1
ball.create{id = 2, rad = 0.05, pos = {-0.5, 0.5, 0.05}, density = 1000} -- over triangle 2
ball.create{id = 3, rad = 0.08, pos = {-0.6, 0.2, 0.08}, density = 1000} -- over triangle 2
model.timestep{fix = 1e-5}
model.solve{ratio = 1e-6}
local tf = wall.triangle_forces(plate)
local wf = wall.force(plate)
check(#tf == 2 and math.abs(tf[1][3] + tf[2][3] - wf[3]) < 1e-9 * math.abs(wf[3]),
      "the triangles' forces sum to the wall's")
local w1 = ball.mass(1) * 9.81
-- (settled to an unbalanced-force ratio of 1e-6: the forces hold the weights to about 1e-5)
check(math.abs(tf[1][3] + w1) < 1e-4 * w1, "triangle 1 carries ball 1's weight: " .. tf[1][3])
local w23 = (ball.mass(2) + ball.mass(3)) * 9.81
check(math.abs(tf[2][3] + w23) < 1e-4 * w23, "triangle 2 carries the others'")
local ok = pcall(wall.triangle_forces, wall.create{kind = "plane", point = {0, 0, -1},
                                                   normal = {0, 0, 1}})
check(not ok, "a plane has no triangles")

-- bad input
stl.write(path, {T})
refused(function() wall.mesh{file = path, scale = 0} end, "zero scale", "scale 0")
refused(function() wall.mesh{file = "/nonexistent.stl"} end, "cannot read", "a missing file")
local g = io.open(path, "w")
g:write("not a mesh at all\n")
g:close()
refused(function() wall.mesh{file = path} end, "is not an STL file", "not STL")
stl.write(path, {{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {{0, 0, 0}, {1, 0, 0}, {0, -1, 0}},
                 {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}}})
refused(function() wall.mesh{file = path} end, "shared by 3 triangles", "an edge of three faces")
stl.write(path, {{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}}})
refused(function() wall.mesh{file = path} end, "has no area", "a flat triangle")
stl.write(path, {T})
refused(function() wall.mesh{file = path, rotate = {axis = {0, 0, 0}, angle = 10}} end,
        "non-zero axis", "a zero axis")
-- the plain vertex/face text (a subset of OBJ): a square as one quad (a fan of two triangles)
-- and a triangle with OBJ's texture and normal numbers, in millimetres
local function text(t)
  local f = assert(io.open(path, "w"))
  f:write(t)
  f:close()
end
text("# a plate\nv -1000 -1000 0\nv 1000 -1000 0\nv 1000 1000 0\nv -1000 1000 0\n" ..
     "vn 0 0 1\nf 1 2 3 4\ng extra\nv 0 0 500\nf 1/1/1 2/2/1 5/3/1\n")
local vf = wall.mesh{file = path, scale = 0.001}
check(wall.triangles(vf) == 3, "a vertex/face file: a quad and a triangle make 3 triangles")
wall.delete(vf)
text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n")
refused(function() wall.mesh{file = path} end, "line 4: a face is", "a face naming no vertex")
text("v 0 0 0\nv 1 0\n")
refused(function() wall.mesh{file = path} end, "line 2: a vertex is", "a vertex of two numbers")
text("v 0 0 0\nv 1 0 0\nv 0 1 0\nx 1 2 3\n")
refused(function() wall.mesh{file = path} end, "line 4 starts with 'x'", "an unknown line")
text("v 0 0 0\nv 1 0 0\n")
refused(function() wall.mesh{file = path} end, "holds no triangles", "no face")
text("hello\n")
refused(function() wall.mesh{file = path} end, "nor a vertex/face text file", "neither")
stl.write(path, {T})
model.new{dim = 2}
refused(function() wall.mesh{file = path} end, "is an STL file (triangles, for a 3D model)", "2D")
model.new{dim = 3}
cell.create{min = {-1, -1, -1}, max = {1, 1, 1}}
refused(function() wall.mesh{file = path} end, "periodic cell", "a periodic cell")
os.remove(path)
print("mesh walls: all checks passed")
