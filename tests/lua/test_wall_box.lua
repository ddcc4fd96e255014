-- wall.box (docs/scripting.md): the walls around a box, facing in, in one call: six planes in 3D,
-- four segments in 2D, in the order -x, +x, -y, +y (-z, +z), with consecutive ids; balls dropped
-- inside stay inside; bad boxes are refused with one sentence and leave no wall behind.
local function check(cond, what) if not cond then error("FAILED: " .. what, 2) end end
local function near(a, b) return math.abs(a - b) <= 1e-12 * math.max(1, math.abs(b)) end
local function refused(f, pattern, what)
  local n = wall.count()
  local ok, err = pcall(f)
  check(not ok, what .. ": accepted")
  check(tostring(err):find(pattern, 1, true), what .. ": message '" .. tostring(err) ..
        "' lacks '" .. pattern .. "'")
  check(wall.count() == n, what .. ": walls left behind")
end

-- 3D: six planes; a ball against each face is pushed back into the box
model.new{dim = 3}
local lo, hi = {0, 0, 0}, {0.1, 0.2, 0.3}
local ids = wall.box{min = lo, max = hi, id = 11, group = "box"}
check(#ids == 6, "six walls in 3D")
for i, id in ipairs(ids) do
  check(id == 10 + i, "consecutive ids from id: " .. id)
  check(wall.kind(id) == "plane", "planes in 3D")
  local axis, upper = (i + 1) // 2, i % 2 == 0
  check(near(wall.point(id)[axis], upper and hi[axis] or lo[axis]), "wall " .. id .. " on its face")
end
contact.cmat_default{model = "linear", kn = 1e4, ks = 0, fric = 0}
local centre = {0.05, 0.1, 0.15}
for i = 1, 6 do -- a ball overlapping face i by 1 mm
  local axis, upper = (i + 1) // 2, i % 2 == 0
  local p = {centre[1], centre[2], centre[3]}
  p[axis] = upper and hi[axis] - 0.009 or lo[axis] + 0.009
  ball.create{id = i, rad = 0.01, pos = p, density = 1000}
end
model.timestep{fix = 1e-5}
model.cycle(1)
for i = 1, 6 do
  local axis, upper = (i + 1) // 2, i % 2 == 0
  local f = ball.force(i)[axis]
  check(upper and f < 0 or (not upper and f > 0), "face " .. i .. " pushes its ball inward: " .. f)
end
refused(function() wall.box{min = {0, 0, 0}, max = {1, 0, 1}} end,
        "wall.box: min must be below max in every component (component 2", "a flat box")
refused(function() wall.box{min = {0, 0, 0}, max = {1, 1, 1}, id = 14} end,
        "wall.box: wall 14 exists already; the box takes ids 14 to 19", "ids taken")
refused(function() wall.box{max = {1, 1, 1}} end, "wall.box: give min", "no min")
refused(function() wall.box{min = {0, 0}, max = {1, 1}} end, "must have 3 components", "2D corners in 3D")
local more = wall.box{min = {-1, -1, -1}, max = {1, 1, 1}}
check(more[1] == 17 and more[6] == 22, "default ids follow the highest: " .. more[1])

-- 2D: four segments along the edges
model.new{dim = 2}
ids = wall.box{min = {0, 0}, max = {2, 1}}
check(#ids == 4, "four walls in 2D")
local want = {{{0, 0}, {0, 1}}, {{2, 0}, {2, 1}}, {{0, 0}, {2, 0}}, {{0, 1}, {2, 1}}}
for i, id in ipairs(ids) do
  check(wall.kind(id) == "segment", "segments in 2D")
  local n = wall.nodes(id)
  for j = 1, 2 do for c = 1, 2 do
    check(near(n[j][c], want[i][j][c]), "segment " .. i .. " node " .. j)
  end end
end
print("wall.box ok: six planes in 3D, four segments in 2D, facing in")

-- wall.cylinder_specimen: bottom, top and cylinder of a triaxial cell, balls kept inside
model.new{dim = 3}
local cell = wall.cylinder_specimen{base = {1, 2, 0}, radius = 0.05, height = 0.1, id = 21,
                                    group = "cell"}
check(#cell == 3 and cell[1] == 21 and cell[3] == 23, "three walls with consecutive ids")
check(wall.kind(cell[1]) == "plane" and wall.kind(cell[3]) == "cylinder", "planes and a cylinder")
check(near(wall.point(cell[2])[3], 0.1) and near(wall.radius(cell[3]), 0.05), "top and radius")
contact.cmat_default{model = "linear", kn = 1e4, ks = 0, fric = 0}
ball.create{id = 1, rad = 0.01, pos = {1.041, 2, 0.05}, density = 1000}  -- 1 mm into the side
ball.create{id = 2, rad = 0.01, pos = {1, 2, 0.009}, density = 1000}     -- 1 mm into the bottom
model.timestep{fix = 1e-5}
model.cycle(1)
check(ball.force(1)[1] < 0 and ball.force(2)[3] > 0, "the side and the bottom push inward")
refused(function() wall.cylinder_specimen{base = {0, 0, 0}, radius = -1, height = 1} end,
        "positive lengths", "a negative radius")
refused(function() wall.cylinder_specimen{base = {0, 0, 0}, radius = 1, height = 1, id = 22} end,
        "wall 22 exists already", "ids taken")
model.new{dim = 2}
refused(function() wall.cylinder_specimen{base = {0, 0}, radius = 1, height = 1} end,
        "a cylinder is 3D", "2D")
print("wall.cylinder_specimen: all checks passed")
