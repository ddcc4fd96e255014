-- MPI test (tests/mpi/run.sh): a 2D pile of disks with frictional contacts (shear forces that
-- carry history) across the bricks, changed between cycle calls in each of the ways that leave
-- the neighbour list stale (a new default property, a deleted ball, a deleted wall, model.clean),
-- then cycled with a periodic VTK output. Every rank count must give the serial run's files bit
-- for bit: a contact that joins two ranks keeps its history through the division that follows a
-- change. Under MPI, the periodic output gathers the model only for the frames it writes.
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
-- the periodic output: a gathering per frame, none at the call's end (the model stays divided
-- until the next query)
local from = model.step()
vtk.every{steps = 100, prefix = "frame"}
model.cycle(300)
vtk.stop()
r = dump.report()
if r.count > 1 then
  local frames = (from + 300) // 100 - from // 100
  if r.gathers ~= frames or r.whole then
    error(string.format("vtk.every gathered the model %d times in a call of 300 steps with %d " ..
                        "frames due (expected %d), whole at the end: %s", r.gathers, frames,
                        frames, tostring(r.whole)))
  end
end
dump.write("dump.txt")
