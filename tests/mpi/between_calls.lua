-- MPI test (tests/mpi/run.sh): a 2D pile of disks with frictional contacts (shear forces that
-- carry history) across the bricks, changed between cycle calls in each of the ways that leave
-- the neighbour list stale (a new default property, a deleted ball, a deleted wall, model.clean),
-- then cycled with a periodic VTK output. Every rank count must give the serial run's files bit
-- for bit: a contact that joins two ranks keeps its history through the division that follows a
-- change. Under MPI, the periodic output writes its frames in pieces, gathering nothing.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local dump = dofile(here .. "dump.lua")
model.new{dim = 2}
model.gravity{0, -9.81}
local grains = {kind = "ball-ball", model = "linear", kn = 2e5, ks = 1e5, fric = 0.5,
                dp_nratio = 0.2}
contact.cmat_default(grains)
contact.cmat_default{kind = "ball-wall", model = "linear", kn = 2e5, ks = 1e5, fric = 0.3}
local L = 0.3
wall.create{id = 1, kind = "segment", nodes = {{-0.01, 0}, {L + 0.01, 0}}}
wall.create{id = 2, kind = "segment", nodes = {{0, 0.2}, {0, -0.01}}}
wall.create{id = 3, kind = "segment", nodes = {{L, -0.01}, {L, 0.2}}}
wall.create{id = 4, kind = "segment", nodes = {{0.12, 0.09}, {0.18, 0.09}}} -- a shelf, taken away
local rand = dump.random(7)
local n = 0
for k = 0, 11 do
  for i = 0, 21 do
    n = n + 1
    ball.create{id = n, rad = 0.005 + 0.0015 * rand(), density = 2600,
                pos = {0.008 + i * 0.0132 + (rand() - 0.5) * 1e-3, 0.01 + k * 0.0132},
                vel = {(rand() - 0.5) * 0.5, 0}}
  end
end
model.timestep{auto = true}
energy.track(true)
model.cycle(3000)
local r = dump.report(" settled")
contact.cmat_default(grains) -- (the same properties: only the neighbour list goes stale)
model.cycle(200)
ball.delete(n // 2)
model.cycle(200)
wall.delete(4)
model.cycle(400)
model.clean()
model.cycle(200)
-- the periodic output: each frame written by the ranks in pieces, the model never gathered
-- (run.sh compares the frames with the one-rank run's: vtk_same.py)
vtk.every{steps = 100, prefix = "frame"}
model.cycle(300)
vtk.stop()
vtk.write("rest") -- (between calls: in pieces too)
r = dump.report()
if r.count > 1 and (r.gathers ~= 0 or r.whole) then
  error(string.format("vtk.every gathered the model %d times in a call of 300 steps, whole at " ..
                      "the end: %s", r.gathers, tostring(r.whole)))
end
-- a piece that one rank cannot write (a folder in its place): every rank refuses the snapshot
-- with that rank's message, and nothing of it stays
if r.count > 1 then
  os.execute("mkdir -p blocked_balls_00000_1.vtp")
  local ok, err = pcall(vtk.write, "blocked")
  assert(not ok and err:find("blocked_balls_00000_1.vtp' is a folder", 1, true),
         "vtk.write with a folder in a piece's place: " .. tostring(err))
  for _, f in ipairs{"blocked_balls_00000_0.vtp", "blocked_balls_00000.pvtp", "blocked.pvd"} do
    assert(not io.open(f), f .. " stayed after the snapshot failed")
  end
  io.stderr:write("a piece that cannot be written: refused on every rank, nothing left\n")
  -- a save of the divided model to a folder: refused on every rank alike, the model unchanged
  os.execute("mkdir -p folder.sav")
  ok, err = pcall(model.save, "folder.sav")
  assert(not ok and err:find("'folder.sav' is a folder", 1, true), "model.save to a folder: "
         .. tostring(err))
  assert(not model.ranks().whole, "a refused save leaves the model divided")
end
dump.write("dump.txt")
