-- Walls moved by tables of velocity and spin against time (wall.motion): the displacement is the
-- integral of the table's piecewise-linear velocity, the turning that of its spin; a servo on the
-- same wall sets the velocity along its axis and keeps the table's across it; save and restore in
-- the middle of a table continue bit for bit; wall.motion(ID) gives the table back; bad tables
-- are refused with one sentence and change nothing.
local function check(cond, what) if not cond then error("FAILED: " .. what, 2) end end
local function near(a, b, tol, what)
  check(math.abs(a - b) <= tol, string.format("%s: %.17g, expected %.17g within %g", what, a, b, tol))
end
local function refused(f, pattern, what)
  local ok, err = pcall(f)
  check(not ok, what .. ": accepted")
  check(tostring(err):find(pattern, 1, true), what .. ": message '" .. tostring(err) ..
        "' lacks '" .. pattern .. "'")
end
local stl = dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "../../verification/lib/stl.lua")
local path = os.tmpname()
stl.write(path, {{{-0.5, -0.5, 0}, {0.5, -0.5, 0}, {0, 0.5, 0}}})

-- A mesh and a polygon driven by tables with breakpoints on step boundaries (dt = 1e-3): each
-- step takes the velocity at its middle, the exact mean over the step of a linear segment, so
-- the displacement is the integral to round-off: vz 0 -> 1 m/s over [0, 1], held to 2 s:
-- 0.5 + 1 = 1.5 m; vx 2 m/s until 0.5 s, -2 m/s from 1.5 s, linear between: 0. (Each step adds
-- about 1e-16 m of rounding; 2 000 steps: 1e-12.)
model.new{dim = 3}
local mesh = wall.mesh{file = path, centre = {0, 0, 0}}
local poly = wall.create{kind = "polygon", nodes = {{-0.5, -0.5, 0}, {0.5, -0.5, 0}, {0, 0.5, 0}},
                         centre = {0, 0, 0}}
local tab = {time = {0, 0.5, 1, 1.5}, vel = {{2, 0, 0}, {2, 0, 0.5}, {0, 0, 1}, {-2, 0, 1}}}
for _, id in ipairs({mesh, poly}) do wall.motion{id = id, time = tab.time, vel = tab.vel} end
local got = wall.motion(mesh)
check(#got.time == 4 and got.time[3] == 1 and got.vel[4][1] == -2 and got.spin == nil,
      "wall.motion(ID) gives the table back")
near(wall.vel(mesh)[1], 2, 0, "the velocity is the table's at once")
model.timestep{fix = 1e-3}
model.cycle(2000)
-- vx: 2 * 0.5 + (0 over [0.5, 1.5], antisymmetric) - 2 * 0.5 = 0; vz: 0.25 + 0.75 + 0.5 = 1.5
near(wall.centre(mesh)[3], 1.5, 1e-12, "mesh: z displacement, the integral of the table")
near(wall.centre(mesh)[1], 0, 1e-12, "mesh: x displacement, the integral of the table")
near(wall.nodes(poly)[1][3], 1.5, 1e-12, "polygon: z displacement")
near(wall.nodes(poly)[1][1], -0.5, 1e-12, "polygon: x displacement")
near(wall.vel(mesh)[1], -2, 0, "held beyond the last time")
wall.motion{id = mesh}
check(wall.motion(mesh) == nil, "wall.motion{id = ID} removes the table")
model.cycle(10)
near(wall.vel(mesh)[1], -2, 0, "without a table the velocity stays as it was")

-- Spin: 0 -> 2 rad/s about z over [0, 1]: a turn of 1 rad; a node at (0.5, -0.5) about the
-- centre turns with it (each step's Rodrigues turn rounds: 1e-12 over 1 000 steps).
model.new{dim = 3}
local p2 = wall.create{kind = "polygon", nodes = {{0.5, -0.5, 0}, {0.5, 0.5, 0}, {-0.5, 0, 0}},
                       centre = {0, 0, 0}}
wall.motion{id = p2, time = {0, 1}, spin = {{0, 0, 0}, {0, 0, 2}}}
model.timestep{fix = 1e-3}
model.cycle(1000)
local n1 = wall.nodes(p2)[1]
near(n1[1], 0.5 * math.cos(1) + 0.5 * math.sin(1), 1e-12, "spin table: x of a node")
near(n1[2], 0.5 * math.sin(1) - 0.5 * math.cos(1), 1e-12, "spin table: y of a node")

-- A servo on a table's wall: the table drives it across the servo's axis, the servo along it.
model.new{dim = 3}
model.gravity{0, 0, -9.81}
contact.cmat_default{model = "linear", kn = 1e5, ks = 5e4, fric = 0.3}
local floor = wall.mesh{file = path, centre = {0, 0, 0}}
ball.create{id = 1, rad = 0.05, pos = {0, -0.1, 0.05}, density = 2500}
wall.motion{id = floor, time = {0, 1}, vel = {{0.1, 0, 0.3}, {0.1, 0, 0.3}}}
wall.servo{id = floor, force = 0, vmax = 1, axis = {0, 0, 1}}
model.timestep{fix = 1e-4}
model.cycle(100)
near(wall.vel(floor)[1], 0.1, 0, "servo with a table: the table's velocity across the axis")
check(wall.vel(floor)[3] ~= 0.3, "servo with a table: the servo's velocity along its axis")
wall.servo{id = floor, off = true}

-- Save and restore in the middle of a table: the same bits as the run that went on.
model.new{dim = 3}
model.gravity{0, 0, -9.81}
contact.cmat_default{model = "linear", kn = 1e5, ks = 5e4, fric = 0.3, dp_nratio = 0.2}
local m = wall.mesh{file = path, centre = {0, 0, 0}}
wall.motion{id = m, time = {0, 0.02, 0.05}, vel = {{0, 0, 0}, {0.05, 0, 0.01}, {-0.05, 0.02, 0}},
            spin = {{0, 0, 0}, {0, 0, 1}, {0.2, 0, -1}}}
ball.create{id = 1, rad = 0.05, pos = {0.05, -0.1, 0.0499}, density = 2500}
model.timestep{fix = 1e-4}
model.cycle(150)
local save = os.tmpname()
model.save(save)
model.cycle(400)
local function state()
  local p, v, c = ball.pos(1), ball.vel(1), wall.centre(m)
  return string.format("%a %a %a %a %a %a %a %a %a", p[1], p[2], p[3], v[1], v[2], v[3], c[1],
                       c[2], c[3])
end
local went_on = state()
model.restore(save)
check(wall.motion(m) and #wall.motion(m).time == 3, "the table is restored")
model.cycle(400)
check(state() == went_on, "restored mid-table: " .. state() .. " against " .. went_on)
os.remove(save)

-- Refusals: nothing changes.
model.new{dim = 3}
local plane = wall.create{kind = "plane", point = {0, 0, 0}, normal = {0, 0, 1}}
local w2 = wall.mesh{file = path}
refused(function() wall.motion{id = w2, time = {0, 1, 1}, vel = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}}} end,
        "time 3 (1) is not a finite number after the one before it", "times not increasing")
refused(function() wall.motion{id = w2, time = {0, 1}, vel = {{0, 0, 0}}} end,
        "vel must be a list of 2 values", "a velocity missing")
refused(function() wall.motion{id = w2, time = {0, 1}} end,
        "gives neither velocities nor spins", "no velocities or spins")
refused(function() wall.motion{id = plane, time = {0, 1}, spin = {{0, 0, 0}, {0, 0, 1}}} end,
        "an infinite plane cannot turn", "a plane's spin")
refused(function() wall.motion{id = w2, vel = {{0, 0, 0}}} end, "give the times", "no times")
refused(function() wall.motion{id = w2, time = {0}, vel = {{1e200, 0, 0}}} end, "beyond",
        "a velocity out of range")
refused(function() wall.motion{id = w2, time = {0}, speed = {1}} end, "speed", "an unknown key")
check(wall.motion(w2) == nil and wall.motion(plane) == nil, "a refused table installs nothing")
os.remove(path)
print("wall motion tables: all checks passed")
