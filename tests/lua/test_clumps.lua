-- Clumps (docs/clumps.md): templates, creation, what a pebble refuses, deletion with contacts,
-- pebbles of one clump never in contact, a rigid body staying rigid, the refusals (bad templates,
-- the wrong dimension, saving, a periodic cell), each with one sentence and nothing changed.
local function check(cond, what) if not cond then error("FAILED: " .. what, 2) end end
local function refused(f, pattern, what)
  local nb, nc = ball.count(), clump.count()
  local ok, err = pcall(f)
  check(not ok, what .. ": accepted")
  check(tostring(err):find(pattern, 1, true), what .. ": message '" .. tostring(err) ..
        "' lacks '" .. pattern .. "'")
  check(ball.count() == nb and clump.count() == nc, what .. ": something was left behind")
end
local function dist(a, b)
  local s = 0
  for k = 1, #a do s = s + (a[k] - b[k]) ^ 2 end
  return math.sqrt(s)
end

model.new{dim = 3}
-- bad templates
refused(function() clump.template{pebbles = {}} end, "has no pebbles", "empty template")
refused(function() clump.template{pebbles = {{0, 0, 0, 0}}} end, "radius 0", "zero radius")
refused(function() clump.template{pebbles = {{0, 0, 0, -1}}} end, "radius -1", "negative radius")
refused(function() clump.template{pebbles = {{0, 0 / 0, 0, 1}}} end, "non-finite",
        "NaN coordinate")
refused(function() clump.template{pebbles = {{0, 0, 1}}} end, "must be {x, y, z, radius}",
        "2D pebble in 3D")
refused(function() clump.template{pebbles = {{0, 0, 0, 1}}, resolution = 0} end,
        "resolution must be", "zero resolution")
local t = clump.template{name = "pair", pebbles = {{-0.04, 0, 0, 0.05}, {0.04, 0, 0, 0.05}}}
refused(function() clump.template{name = "pair", pebbles = {{0, 0, 0, 1}}} end,
        "a template named 'pair' exists", "duplicate name")
check(t.pebbles == 2 and t.volume > 0 and t.volume_error < 1e-4 * t.volume, "template table")
refused(function() clump.create{template = "nope", pos = {0, 0, 0}} end, "no template named 'nope'",
        "unknown template")
refused(function() clump.create{template = t, pos = {0, 0, 0}, density = -1} end,
        "density must be > 0", "negative density")
refused(function() clump.create{template = t, pos = {0, 0, 0}, orientation = {1, 1, 0, 0}} end,
        "unit quaternion", "orientation not unit")
refused(function() clump.create{template = t, pos = {0, 0, 0}, colour = 1} end, "colour",
        "unknown option")

-- a clump of two overlapping pebbles: its pebbles are balls, never in contact with each other
contact.cmat_default{model = "linear", kn = 1e5, ks = 5e4, fric = 0.3}
local c = clump.create{template = "pair", pos = {0, 0, 0.2}, density = 2000, id = 7,
                       orientation = {math.cos(0.3), 0, 0, math.sin(0.3)}, spin = {0, 0, 4}}
check(c == 7 and clump.exists(7) and clump.count() == 1, "clump 7 made")
local peb = clump.pebbles(c)
check(#peb == 2 and ball.count() == 2, "two pebbles as balls")
check(clump.of(peb[1]) == 7 and clump.of(peb[2]) == 7, "clump.of names the clump")
check(math.abs(clump.mass(c) - 2000 * t.volume) <= 1e-12 * clump.mass(c), "mass = density volume")
local q = clump.orientation(c)
check(math.abs(q[1] - math.cos(0.3)) < 1e-12 and math.abs(q[4] - math.sin(0.3)) < 1e-12,
      "orientation as given: " .. table.concat(q, " "))
model.clean()
check(contact.count() == 0, "no contact between the pebbles of one clump")

-- a pebble refuses being moved on its own
local p1 = peb[1]
refused(function() ball.vel(p1, {1, 0, 0}) end, "is a pebble of clump 7", "ball.vel")
refused(function() ball.spin(p1, {1, 0, 0}) end, "is a pebble of clump 7", "ball.spin")
refused(function() ball.pos(p1, {1, 0, 0}) end, "is a pebble of clump 7", "ball.pos")
refused(function() ball.attribute{id = p1, rad = 0.2} end, "is a pebble of clump 7",
        "ball.attribute rad")
refused(function() ball.fix{"velocity", id = p1} end, "is a pebble of clump 7", "ball.fix")
refused(function() ball.delete(p1) end, "is a pebble of clump 7", "ball.delete")
ball.attribute{id = p1, group = "tagged"} -- (a group is not motion)

-- free flight: rigid (the pebbles keep their distance), the centre moves with the velocity
clump.vel(c, {0.5, 0, 0})
local d0 = dist(ball.pos(peb[1]), ball.pos(peb[2]))
model.timestep{fix = 1e-4}
model.cycle(1000)
check(math.abs(dist(ball.pos(peb[1]), ball.pos(peb[2])) - d0) < 1e-12, "the body stays rigid")
check(math.abs(clump.pos(c)[1] - 0.05) < 1e-12, "the centre moved 0.05")
local v = ball.vel(peb[1])
local r = {ball.pos(peb[1])[1] - clump.pos(c)[1], ball.pos(peb[1])[2] - clump.pos(c)[2]}
check(math.abs(v[1] - (0.5 - 4 * r[2])) < 1e-9 and math.abs(v[2] - 4 * r[1]) < 1e-9,
      "a pebble moves with the body's velocity at its centre")

-- a periodic cell is refused
refused(function() cell.create{min = {-1, -1, -1}, max = {1, 1, 1}} end, "periodic cell",
        "cell.create")

-- a ball touching a pebble; deleting the clump deletes its pebbles and their contacts
local b = ball.create{rad = 0.05, pos = {clump.pos(c)[1], clump.pos(c)[2], 0.28}}
model.clean()
check(contact.count() >= 1, "the ball touches a pebble")
clump.delete(c)
check(clump.count() == 0 and ball.count() == 1 and ball.exists(b), "clump and pebbles gone")
model.clean()
check(contact.count() == 0, "their contacts gone")

-- fixity: a clump fixed in velocity and spin does not move under gravity
model.gravity{0, 0, -9.81}
model.timestep{fix = 1e-5}
local c2 = clump.create{template = "pair", pos = {1, 1, 1}, density = 2000}
clump.fix{"velocity", "spin", id = c2}
model.cycle(100)
check(clump.pos(c2)[3] == 1, "a fixed clump stays")
-- a fixed spin is held: the body turns at it, rigidly
clump.spin(c2, {0, 0, 10})
local pa, pb = clump.pebbles(c2)[1], clump.pebbles(c2)[2]
local gap0 = dist(ball.pos(pa), ball.pos(pb))
local a0 = math.atan(ball.pos(pb)[2] - ball.pos(pa)[2], ball.pos(pb)[1] - ball.pos(pa)[1])
model.cycle(100) -- 1e-3 s: 0.01 rad
local a1 = math.atan(ball.pos(pb)[2] - ball.pos(pa)[2], ball.pos(pb)[1] - ball.pos(pa)[1])
check(math.abs(a1 - a0 - 0.01) < 1e-12 and math.abs(dist(ball.pos(pa), ball.pos(pb)) - gap0) < 1e-15,
      "turned 0.01 rad at the fixed spin, rigidly: " .. (a1 - a0))
check(clump.spin(c2)[3] == 10, "the spin held")
clump.free{"velocity", id = c2}
model.cycle(100)
check(clump.pos(c2)[3] < 1, "a freed clump falls")

-- 2D: pebbles are {x, y, radius}; orientation an angle; one pebble given in 3D form is refused
model.new{dim = 2}
refused(function() clump.template{pebbles = {{0, 0, 0, 1}}} end, "must be {x, y, radius}",
        "3D pebble in 2D")
clump.template{name = "bar", pebbles = {{-1, 0, 0.6}, {1, 0, 0.6}}}
local c3 = clump.create{template = "bar", pos = {0, 0}, orientation = math.pi / 2, density = 1}
check(math.abs(clump.orientation(c3) - math.pi / 2) < 1e-12, "2D orientation")
local pp = ball.pos(clump.pebbles(c3)[2])
-- (to the centroid's error: the grid puts it within about 1e-7 of the middle)
check(math.abs(pp[1]) < 1e-6 and math.abs(math.abs(pp[2]) - 1) < 1e-6, "turned by 90 degrees")
-- save and restore: the run continues bit for bit (clumps tumbling onto a plane and each other)
local function pour()
  model.new{dim = 3}
  model.gravity{0, 0, -9.81}
  contact.cmat_default{model = "linear", kn = 1e5, ks = 5e4, fric = 0.4, dp_nratio = 0.2}
  wall.create{kind = "plane", point = {0, 0, 0}, normal = {0, 0, 1}}
  clump.template{name = "tri", pebbles = {{0, 0, 0, 0.03}, {0.04, 0, 0, 0.025},
                                          {0, 0.035, 0.01, 0.02}}}
  for i = 1, 12 do
    clump.create{template = "tri", pos = {0.07 * (i % 4), 0.07 * (i // 4), 0.05 + 0.01 * i},
                 density = 2500, damp = 0.1, orientation = {math.cos(i), 0, math.sin(i), 0},
                 spin = {i, -i, 0.5 * i}}
  end
  ball.create{rad = 0.03, pos = {0.1, 0.1, 0.3}, density = 2500}
  model.timestep{fix = 2e-5}
  model.cycle(3000)
end
local function state()
  local out = {}
  for _, id in ipairs(clump.list()) do
    for _, v in ipairs({clump.pos(id), clump.vel(id), clump.spin(id), clump.orientation(id)}) do
      for k = 1, #v do out[#out + 1] = string.format("%a", v[k]) end
    end
  end
  for _, id in ipairs(ball.list()) do
    for _, v in ipairs({ball.pos(id), ball.vel(id), ball.spin(id)}) do
      for k = 1, #v do out[#out + 1] = string.format("%a", v[k]) end
    end
  end
  return table.concat(out, " ")
end
pour()
model.save("clumps_test.sav")
model.cycle(3000)
local straight = state()
model.restore("clumps_test.sav")
check(clump.count() == 12 and clump.exists(12), "the clumps restored")
model.cycle(3000)
check(state() == straight, "a restored run of clumps continues bit for bit")
os.remove("clumps_test.sav")
-- threads: the same bits on 1 and 2 threads
pour()
model.threads(1)
model.cycle(2000)
local one = state()
pour()
model.threads(2)
model.cycle(2000)
check(state() == one, "1 and 2 threads give the same bits")
-- random orientations: the same seed, the same turn; a random turn needs a seed
model.new{dim = 3}
clump.template{name = "pair", pebbles = {{-0.04, 0, 0, 0.05}, {0.04, 0, 0, 0.05}}}
local ra = clump.orientation(clump.create{template = "pair", pos = {0, 0, 0}, orientation = "random", seed = 7})
local rb = clump.orientation(clump.create{template = "pair", pos = {1, 0, 0}, orientation = "random", seed = 7})
local rc = clump.orientation(clump.create{template = "pair", pos = {2, 0, 0}, orientation = "random", seed = 8})
check(ra[1] == rb[1] and ra[2] == rb[2] and ra[1] ~= rc[1], "seeded random orientations")
refused(function() clump.create{template = "pair", pos = {3, 0, 0}, orientation = "random"} end,
        "needs seed", "random without a seed")
refused(function() clump.create{template = "pair", pos = {3, 0, 0}, orientation = "any"} end,
        "or \"random\"", "an unknown orientation word")

-- scale: lengths times s, mass times s^3, moments times s^5
model.new{dim = 3}
clump.template{name = "pair", pebbles = {{-0.04, 0, 0, 0.05}, {0.04, 0, 0, 0.05}}}
local c1 = clump.create{template = "pair", pos = {0, 0, 0}, density = 1000}
local c2 = clump.create{template = "pair", pos = {1, 0, 0}, density = 1000, scale = 2}
check(math.abs(clump.mass(c2) / clump.mass(c1) - 8) < 1e-12, "mass scales as s^3")
check(math.abs(clump.inertia(c2)[3] / clump.inertia(c1)[3] - 32) < 1e-12, "inertia as s^5")
check(math.abs(ball.rad(clump.pebbles(c2)[1]) - 0.1) < 1e-15, "pebble radius scaled")
refused(function() clump.create{template = "pair", pos = {0, 0, 0}, scale = -1} end,
        "scale must be a positive number", "negative scale")

-- replace_balls: each ball becomes a clump of its volume at its centre, turned at random
-- (the same seed, the same turns), keeping its velocity and group; pebbles are left alone
model.new{dim = 3}
clump.template{name = "rod", pebbles = {{-0.5, 0, 0, 0.5}, {0, 0, 0, 0.5}, {0.5, 0, 0, 0.5}}}
local vols = {}
for i = 1, 5 do
  ball.create{id = i, rad = 0.01 * (1 + 0.1 * i), pos = {0.1 * i, 0, 0}, density = 2000,
              vel = {i, 0, 0}, group = i % 2 == 0 and "even" or nil}
  vols[i] = 4 / 3 * math.pi * ball.rad(i) ^ 3
end
local made = clump.replace_balls{template = "rod", in_box = {min = {0.15, -1, -1}, max = {1, 1, 1}}}
check(#made == 4 and clump.count() == 4, "four balls in the box replaced")
check(ball.exists(1) and not ball.exists(2), "ball 1 (outside the box) kept, ball 2 replaced")
for k, c in ipairs(made) do
  local i = k + 1
  check(math.abs(clump.mass(c) - 2000 * vols[i]) < 1e-9 * clump.mass(c), "the ball's mass " .. i)
  check(math.abs(clump.pos(c)[1] - 0.1 * i) < 1e-12, "at the ball's centre " .. i)
  check(clump.vel(c)[1] == i, "with the ball's velocity " .. i)
  check(ball.group(clump.pebbles(c)[1]) == (i % 2 == 0 and "even" or ""), "and its group " .. i)
end
local q1 = clump.orientation(made[1])
check(clump.replace_balls{template = "rod"}[1] ~= nil and clump.count() == 5, "the last ball")
model.new{dim = 3}
clump.template{name = "rod", pebbles = {{-0.5, 0, 0, 0.5}, {0, 0, 0, 0.5}, {0.5, 0, 0, 0.5}}}
for i = 1, 5 do ball.create{id = i, rad = 0.01 * (1 + 0.1 * i), pos = {0.1 * i, 0, 0}} end
local again = clump.replace_balls{template = "rod", in_box = {min = {0.15, -1, -1}, max = {1, 1, 1}}}
local q2 = clump.orientation(again[1])
check(q1[1] == q2[1] and q1[4] == q2[4], "the same seed, the same orientations")
refused(function() clump.replace_balls{template = "rod", ids = {99}} end, "99", "unknown ball")
-- VTK: the balls carry their clump's id, and the clumps file has a point per clump with its axes
model.new{dim = 3}
clump.template{name = "pair", pebbles = {{-0.04, 0, 0, 0.05}, {0.04, 0, 0, 0.05}}}
clump.create{template = "pair", pos = {0, 0, 0}, id = 3}
ball.create{rad = 0.05, pos = {1, 0, 0}}
local prefix = os.tmpname()
vtk.write(prefix)
local function slurp(p)
  local f = assert(io.open(p))
  local s = f:read("a")
  f:close()
  os.remove(p)
  return s
end
local balls_vtp = slurp(prefix .. "_balls_00000.vtp")
local clumps_vtp = slurp(prefix .. "_clumps_00000.vtp")
for _, part in ipairs{"walls", "contacts", "cracks"} do
  os.remove(prefix .. "_" .. part .. "_00000.vtp")
end
check(slurp(prefix .. ".pvd"):find("clumps_00000", 1, true), "the collection lists the clumps")
os.remove(prefix)
check(balls_vtp:find('Name="clump"', 1, true), "the balls' clump array")
check(clumps_vtp:find('NumberOfPoints="1"', 1, true) and clumps_vtp:find('Name="axis3"', 1, true),
      "one clump with its axes")

-- a template from a pebble file; mass properties given by the user
model.new{dim = 3}
local pf = os.tmpname()
local f = io.open(pf, "w")
f:write("# x y z radius\n-0.04, 0, 0, 0.05\n\n0.04 0 0 0.05  # the second\n")
f:close()
local tf = clump.template{name = "from_file", file = pf}
local tl = clump.template{name = "from_list", pebbles = {{-0.04, 0, 0, 0.05}, {0.04, 0, 0, 0.05}}}
check(tf.pebbles == 2 and tf.volume == tl.volume, "a pebble file gives the list's template")
f = io.open(pf, "w")
f:write("0 0 0.05\n")
f:close()
refused(function() clump.template{name = "short", file = pf} end, "line 1 is not x y z radius",
        "a 2D row in 3D")
os.remove(pf)
refused(function() clump.template{name = "gone", file = pf} end, "cannot read the pebble file",
        "a missing file")
local tg = clump.template{name = "given", pebbles = {{0, 0, 0, 0.05}, {0.05, 0, 0, 0.05}},
                          mass = {volume = 1e-3, centroid = {0.025, 0, 0},
                                  inertia = {{1e-7, 0, 0}, {0, 3e-7, 0}, {0, 0, 3e-7}}}}
check(tg.volume == 1e-3 and math.abs(tg.inertia[1] - 1e-7) < 1e-20, "the mass properties given")
local cg = clump.create{template = "given", pos = {0, 0, 0}, density = 2000}
check(math.abs(clump.mass(cg) - 2) < 1e-12, "mass = density x the given volume")
refused(function()
  clump.template{name = "odd", pebbles = {{0, 0, 0, 0.05}},
                 mass = {volume = 1, centroid = {0, 0, 0},
                         inertia = {{1, 0, 0}, {0, 1, 0}, {0, 0, 5}}}}
end, "are not a body's", "impossible moments")

-- a clump one of whose pebbles leaves a "destroy" domain goes whole, its energy booked removed
model.new{dim = 3}
model.domain{min = {-1, -1, -1}, max = {1, 1, 1}, condition = "destroy"}
energy.track(true)
clump.template{name = "pair", pebbles = {{-0.04, 0, 0, 0.05}, {0.04, 0, 0, 0.05}}}
local leaving = clump.create{template = "pair", pos = {0.9, 0, 0}, vel = {10, 0, 0}, density = 1000}
local staying = clump.create{template = "pair", pos = {0, 0, 0}, density = 1000}
local ke = 0.5 * clump.mass(leaving) * 100
model.timestep{fix = 1e-3}
model.cycle(20)
check(not clump.exists(leaving) and clump.exists(staying) and ball.count() == 2,
      "the clump left whole, the other stayed")
check(model.destroyed() == 2, "its two pebbles counted as destroyed")
check(math.abs(energy.get().removed - ke) < 1e-9 * ke, "its kinetic energy booked as removed")

-- specimen.generate with a clump template: clumps of the drawn balls' volumes, placed apart by
-- their bounding spheres; the porosity as reported; clump.grow expands them in place
model.new{dim = 2}
contact.cmat_default{model = "linear", kn = 1e6, ks = 1e6}
local tr = clump.template{name = "rod", pebbles = {{-0.5, 0, 0.5}, {0, 0, 0.5}, {0.5, 0, 0.5}}}
check(math.abs(tr.bounding_radius - 1) < 1e-6 and tr.equivalent_radius < 1, "template radii")
local gen = specimen.generate{shape = "box", min = {0, 0}, max = {1, 1}, porosity = 0.8, seed = 3,
                              size = {kind = "uniform", rmin = 0.02, rmax = 0.03}, clump = "rod",
                              density = 2000}
check(#gen.clumps == gen.count and clump.count() == gen.count and ball.count() == 3 * gen.count,
      "every generated ball became a clump of three pebbles")
model.clean()
check(contact.count{active = true} == 0, "the generated clumps do not overlap")
local region = measure.create{shape = "box", min = {0, 0}, max = {1, 1}}
check(math.abs(region:porosity() - gen.porosity) < 1e-9, "the porosity as reported")
local sc = clump.scale(gen.clumps[1])
local function solid()
  local v = 0
  for _, id in ipairs(clump.list()) do v = v + clump.volume(id) end
  return v
end
local before = solid()
clump.grow(1.1)
check(math.abs(clump.scale(gen.clumps[1]) / sc - 1.1) < 1e-12, "grown by 1.1")
check(math.abs(solid() / before - 1.21) < 1e-12, "area times 1.21")
refused(function() clump.grow(0) end, "must be > 0", "zero growth")

-- templates from surfaces: every bad file refused with one sentence naming it, nothing made
local stl = dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "../../verification/lib/stl.lua")
model.new{dim = 3}
local dir = os.tmpname()
os.remove(dir)
local function surface_refused(content, pattern, what)
  local f = io.open(dir, "wb")
  f:write(content)
  f:close()
  refused(function() clump.template_from_surface{file = dir, name = "s" .. what} end, pattern,
          what)
  check(not pcall(clump.create, {template = "s" .. what, pos = {0, 0, 0}}), what .. ": no template")
end
surface_refused("hello, not a surface\n", "is not an STL file", "not STL")
surface_refused(string.rep("\0", 80) .. string.pack("<I4", 10) .. string.rep("\0", 120),
                "is cut short", "truncated binary")
local tris = stl.ellipsoid(dir, 1, 1, 1, 6, 8)
local function text(ts, drop, edit)
  stl.write(dir, ts, drop)
  local f = io.open(dir)
  local s = f:read("a")
  f:close()
  return edit and edit(s) or s
end
surface_refused(text(tris, 5), "is not a closed surface", "open")
surface_refused(text(tris, nil, function(s) return s:gsub("vertex [^\n]*", "vertex 0 nan 0", 1) end),
                "not a finite number", "NaN vertex")
local flat = {}
for k, t in ipairs(tris) do flat[k] = t end
flat[3] = {tris[3][1], tris[3][1], tris[3][2]}
surface_refused(text(flat), "has no area", "zero-area triangle")
local flipped = {}
for k, t in ipairs(tris) do flipped[k] = t end
flipped[4] = {tris[4][2], tris[4][1], tris[4][3]}
surface_refused(text(flipped), "run the wrong way round", "flipped triangle")
surface_refused(text(tris, nil, function(s) return s:gsub("endloop", "endlop", 1) end),
                "expected 'endloop'", "misspelt keyword")
text(tris)
refused(function() clump.template_from_surface{file = dir, overlap = 1} end, "overlap must be",
        "overlap 1")
local good = clump.template_from_surface{file = dir, name = "ball", pebbles = 5}
check(good.pebbles >= 1 and good.pebbles <= 5, "a template from a closed surface")
model.new{dim = 2}
refused(function() clump.template_from_surface{file = dir} end, "a surface makes a 3D template",
        "2D")
os.remove(dir)
print("clumps: all checks passed")
