-- MPI test (tests/mpi/run.sh files): a file saved after a decomposed run restores to the model
-- of one process, which saved whole is the one-process file, byte for byte (docs/parallel.md,
-- the determinism promise and Save files). The model has every list the file holds filled:
-- ball-ball and ball-wall contacts of two models, a bonded lattice (some of whose bonds break:
-- cracks), histories with rows, applied loads, and a pair list that joins balls of two ranks. It saves after a
-- cycle (divided: in the ranks' parts; restored and saved whole), after changing the model (the
-- model gathered, the pair list stale: saved whole), and after another cycle (in parts again).
-- Its VTK snapshots, in the call and between calls, are compared with one process's too.
model.new{dim = 3}
model.gravity{0, 0, -9.81}
contact.cmat_default{model = "linear", kn = 2e4, ks = 1e4, fric = 0.5, dp_nratio = 0.3}
contact.cmat_add{group = "h", kind = "ball-ball", model = "hertz", hz_shear = 1e8, hz_poiss = 0.25,
                 fric = 0.3}
local L = 0.1
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local dump = dofile(here .. "dump.lua")
-- a bonded block of 4 x 4 x 3 overlapping balls resting on the floor across the middle (x = L / 2)
local bonded, n = dump.bonded_block(L)
assert(bonded > 100, "the block is bonded (" .. bonded .. " bonds)")
-- loose balls falling onto it and beside it, some under Hertz
for k = 0, 3 do
  for j = 0, 5 do
    for i = 0, 5 do
      n = n + 1
      ball.create{id = 7 * n % 997 + 1000, rad = 0.0035 + 0.0002 * ((i + j + k) % 4),
                  density = 2500, group = (n % 3 == 0) and "h" or "a",
                  pos = {0.012 + 0.0152 * i, 0.012 + 0.0152 * j, 0.045 + 0.0152 * k},
                  vel = {0.05 * (i - 2.5), 0.05 * (j - 2.5), -0.5}}
    end
  end
end
-- applied loads, which travel with their balls between the ranks and go in the file by ball id
-- (set in another order than the ids')
ball.force_app(1343, {0.002, 0, -0.01})
ball.force_app(1357, {-0.001, 0.001, 0})
ball.moment_app(990, {0, 0, 1e-5})
local function histories()
  history.add("mean_z", function()
    local s, ids = 0, ball.list()
    for _, id in ipairs(ids) do s = s + ball.pos(id)[3] end
    return s / #ids
  end)
  history.add("contacts", function() return contact.count() end)
end
histories()
model.timestep{auto = true}
vtk.every{steps = 500, prefix = "pour"} -- (frames within the call: run.sh compares them)
model.cycle{steps = 1500, history_interval = 100}
vtk.stop()
local r = model.ranks()
if r.count > 1 then
  assert(r.decomposed, "the model was decomposed")
  io.stderr:write("decomposed true\n")
end
assert(contact.cracks() > 0 and contact.cracks() < bonded, "some bonds broke, not all ("
       .. contact.cracks() .. " of " .. bonded .. ")")
vtk.write("settled") -- (between calls, cracks made: written in pieces while divided)
model.save("after_cycle.sav") -- (divided: in the ranks' parts)
model.restore("after_cycle.sav") -- (whole on every rank: saved whole, the one-process file)
histories()
model.save("after_cycle_whole.sav")
ball.create{id = 5000, rad = 0.004, pos = {0.05, 0.09, 0.09}}
model.save("after_change.sav")
-- a save of the divided model, in the ranks' parts: restored (on as many ranks) and saved whole,
-- it is the one-process file, byte for byte (run.sh compares parts_whole.sav)
model.cycle(150)
-- the cracks: their count summed over the ranks, their list and file brought together in one
-- process's order, nothing gathered
local cracks, list = contact.cracks(), contact.cracks{list = true}
contact.cracks{export = "cracks.csv"}
if r.count > 1 then assert(not model.ranks().whole, "the model is divided when it is saved") end
if r.rank == 0 then
  local f = assert(io.open("cracks.txt", "w"))
  f:write(cracks, " ", #list, "\n")
  for _, k in ipairs(list) do
    f:write(string.format("%d %a %a %a %s %d %d %s\n", k.step, k.time, k.pos[1], k.pos[3], k.kind,
                          k.id1, k.id2, k.mode))
  end
  f:close()
end
model.save("parts.sav")
model.restore("parts.sav")
model.save("parts_whole.sav")
