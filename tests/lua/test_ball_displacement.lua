-- ball.track_displacement and ball.displacement (docs/scripting.md): each ball's displacement by
-- its motion since tracking began, across neighbour rebuilds, across a periodic cell's faces (the
-- wrap is not a displacement), saved and restored; a script's move is not counted.
local function check(cond, what) if not cond then error("FAILED: " .. what, 2) end end
local function near(a, b, tol) return math.abs(a - b) <= tol end

-- free flight at constant velocity: displacement = v t, whatever the rebuilds
model.new{dim = 3}
ball.create{id = 1, rad = 0.01, pos = {0, 0, 0}, vel = {1, 2, 0}}
ball.create{id = 2, rad = 0.01, pos = {1, 0, 0}}
model.timestep{fix = 1e-4}
model.cycle(10) -- before tracking: not counted
ball.track_displacement(true)
model.cycle(5000)
local dsp = ball.displacement(1)
check(near(dsp[1], 0.5, 1e-12) and near(dsp[2], 1.0, 1e-12), "v t: " .. dsp[1] .. " " .. dsp[2])
ball.pos(2, {1, 1, 1}) -- a script's move: not a displacement
check(ball.displacement(2)[2] == 0, "a move by the script is not counted")
-- saved and restored, it goes on
local path = os.tmpname()
model.save(path)
model.cycle(1000)
local straight = ball.displacement(1)
model.restore(path)
os.remove(path)
model.cycle(1000)
check(ball.displacement(1)[1] == straight[1], "restored, the same bits")
-- a ball made later counts from its making
ball.create{id = 3, rad = 0.01, pos = {-1, 0, 0}, vel = {0, 0, 1}}
model.cycle(100)
check(near(ball.displacement(3)[3], 0.01, 1e-12), "from its making")

-- through a periodic cell's faces: the wrap is not counted
model.new{dim = 2}
cell.create{min = {0, 0}, max = {1, 1}}
ball.create{id = 1, rad = 0.01, pos = {0.5, 0.5}, vel = {3, 0}}
model.timestep{fix = 1e-3}
ball.track_displacement(true)
model.cycle(1000) -- 3 m: three times across
check(near(ball.displacement(1)[1], 3, 1e-9) and ball.pos(1)[1] < 1, "three cells' widths")

local ok, err = pcall(function()
  model.new{dim = 2}
  ball.create{id = 1, rad = 0.01, pos = {0, 0}}
  return ball.displacement(1)
end)
check(not ok and err:find("track_displacement(true) first", 1, true), "untracked: " .. tostring(err))
print("ball.displacement: all checks passed")
