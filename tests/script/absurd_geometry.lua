-- Absurd finite rates, velocities and spins: a step that would leave the periodic cell or a wall
-- non-finite, out of range or turned inside out stops before anything moves, with one message
-- that names the input; setters refuse values that no timestep could step. Prints FAILED for a
-- case that was accepted, said something else, or left a NaN behind.
local function finite(x) return x == x and x > -math.huge and x < math.huge end
local function all_finite(t)
  for _, v in ipairs(t) do
    if type(v) == "table" then
      if not all_finite(v) then return false end
    elseif not finite(v) then
      return false
    end
  end
  return true
end
-- Every ball, wall node and cell edge finite, and the cell not inside out.
local function state_ok()
  for _, id in ipairs(ball.list()) do
    if not all_finite(ball.pos(id)) then return false end
  end
  for _, id in ipairs(wall.list()) do
    if not all_finite(wall.nodes(id)) then return false end
    if wall.kind and wall.kind(id) == "cylinder" and not (wall.radius(id) > 0) then
      return false
    end
  end
  if cell.exists() and not (all_finite(cell.edges()) and cell.volume() > 0) then return false end
  return true
end
local function refused(what, fn, pattern)
  local ok, err = pcall(fn)
  if ok then
    print("FAILED (accepted): " .. what)
  elseif not tostring(err):find(pattern, 1, true) then
    print("FAILED (message): " .. what .. ": " .. tostring(err))
  elseif not state_ok() then
    print("FAILED (NaN or inverted state left): " .. what .. ": " .. tostring(err))
  else
    print("refused: " .. what .. ": " .. tostring(err))
  end
end

local function cell_model()
  model.new{dim = 2}
  contact.cmat_default{model = "linear", kn = 1e4, ks = 1e4}
  cell.create{min = {0, 0}, max = {1, 1}}
  ball.create{id = 1, rad = 0.1, pos = {0.5, 0.5}}
  ball.create{id = 2, rad = 0.1, pos = {0.2, 0.3}}
  model.timestep{fix = 1e-4}
end

cell_model()
cell.rate{xx = -1e9}
refused("a cell rate that collapses it in one step", function() model.cycle(3) end,
        "the periodic cell's rate {xx = -1e+09} would turn it inside out (its volume would go "
        .. "from 1 to -99999) at step 1")

cell_model()
model.cycle(10)
cell.rate{xy = 1e9, yx = 1e9}
refused("a cell sheared inside out", function() model.cycle(3) end,
        "the periodic cell's rate {xy = 1e+09, yx = 1e+09} would turn it inside out")
if model.step() ~= 10 then print("FAILED (the refused step advanced): step " .. model.step()) end

cell_model()
cell.servo{axis = "x", stress = 1e3, rate_max = 1e9}
refused("a cell servo whose rate_max collapses it", function() model.cycle(3) end,
        "(its stress-controlled axes' rates set by cell.servo from the stress)")

model.new{dim = 3}
cell.create{min = {0, 0, 0}, max = {1, 1, 1}}
model.timestep{fix = 1e-4}
cell.rate{xx = 1e300, yy = 1e300, zz = 1e300}
refused("a cell grown beyond a double's range", function() model.cycle(1) end,
        "would make its edges non-finite")

local function wall_model()
  model.new{dim = 2}
  contact.cmat_default{model = "linear", kn = 1e4, ks = 1e4}
  ball.create{id = 1, rad = 0.1, pos = {0.5, 0.5}}
  wall.create{id = 3, kind = "segment", nodes = {{0, 0}, {1, 0}}}
  model.timestep{fix = 1e-4}
end

wall_model()
refused("a wall spun at 1e300", function() wall.spin(3, 1e300) end,
        "wall 3: spin 1e+300 is beyond 1e+150 in size")
refused("a wall moved at 1e300", function() wall.vel(3, {0, 1e300}) end,
        "wall 3: velocity (0, 1e+300) is beyond 1e+150 in size")
refused("a wall created moving at 1e300", function()
  wall.create{id = 5, kind = "segment", nodes = {{0, 2}, {1, 2}}, vel = {1e300, 0}}
end, "wall 5: velocity (1e+300, 0) is beyond 1e+150 in size")
-- within the setters' bound, but not with this timestep: the step's check names the input
model.timestep{fix = 1e5}
wall.spin(3, 1e150)
refused("a wall whose spin turns it by a non-finite angle in one step",
        function() model.cycle(1) end,
        "wall 3's spin 1e+150 would turn it by a non-finite angle in one step (step 1")
wall_model()
model.timestep{fix = 1e3}
wall.vel(3, {0, 1e149})
refused("a wall whose velocity moves it out of range in one step", function() model.cycle(1) end,
        "wall 3's velocity (0, 1e+149) would move it by 1e+152 in one step (step 1")

local function cylinder_model()
  model.new{dim = 3}
  contact.cmat_default{model = "linear", kn = 1e4, ks = 1e4}
  ball.create{id = 1, rad = 0.1, pos = {0, 0, 0}}
  wall.create{id = 4, kind = "cylinder", point = {0, 0, 0}, axis = {0, 0, 1}, radius = 1}
  model.timestep{fix = 1e-4}
end

cylinder_model()
refused("a cylinder's radial velocity at 1e300", function() wall.radial_vel(4, -1e300) end,
        "wall 4: radial velocity -1e+300 is beyond 1e+150 in size")
wall.radial_vel(4, -2e4)
refused("a cylinder shrinking through zero radius", function() model.cycle(1) end,
        "cylinder wall 4's radial velocity -20000 would take its radius from 1 to -1 at step 1")
cylinder_model()
wall.radial_vel(4, -1)
refused("a cylinder closing over many steps", function() model.cycle(20000) end,
        "cylinder wall 4's radial velocity -1 would take its radius from")
print("absurd geometry: all refused as they must be")
