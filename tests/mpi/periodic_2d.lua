-- MPI test (tests/mpi/run.sh): a cell periodic along x alone, divided among the ranks. Disks
-- settle under gravity on a floor (a segment wider than the cell, which the periodic axis runs along), a second
-- layer is made between calls (on the ranks that own its disks), the cell then shears the layer
-- (cell.rate{xy = ...}: x moving with y, y not periodic), and the model is saved while divided,
-- run on, restored and run on again, which must repeat itself bit for bit. The bricks are cut in
-- the cell's fractional coordinates; disks near the cell's x faces are ghosts on the ranks
-- across them. Every rank count must give the serial run's files bit for bit.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local dump = dofile(here .. "dump.lua")
model.new{dim = 2}
model.gravity{0, -9.81}
local W = 0.2
cell.create{min = {0, -0.05}, max = {W, 0.5}, axes = "x"}
contact.cmat_default{kind = "ball-ball", model = "linear", kn = 1e5, ks = 5e4, fric = 0.4,
                     dp_nratio = 0.2}
contact.cmat_default{kind = "ball-wall", model = "linear", kn = 2e5, ks = 1e5, fric = 0.3}
local floor = wall.create{kind = "segment", nodes = {{-0.1, 0}, {W + 0.1, 0}}}
local rand = dump.random(17)
local n = 0
local function layer(y0, rows)
  for k = 0, rows - 1 do
    for i = 0, 15 do
      n = n + 1
      ball.create{id = n, rad = 0.004 + 0.0015 * rand(), density = 2600,
                  pos = {(i + 0.5) * W / 16 + (rand() - 0.5) * 1e-3, y0 + k * 0.0125},
                  vel = {(rand() - 0.5) * 0.5, (rand() - 0.5) * 0.2}}
    end
  end
end
layer(0.008, 8)
model.timestep{auto = true}
energy.track(true)
history.add("floor_fy", function() return wall.force(floor)[2] end)
history.add("sxy", function() return cell.stress("xy") end)
history.add("contacts", function() return contact.count{active = true} end)
history.interval(100)
model.cycle(2000)
local r = dump.report()
assert(r.count == 1 or r.decomposed, "the periodic cell's run was not divided")
layer(0.12, 3) -- made while divided: each disk on the rank that owns its place
model.cycle(1500)
r = model.ranks()
assert(r.count == 1 or (r.resumed and r.gathers == 0), "the new layer gathered the model")
cell.rate{xy = 2.0}
model.cycle(1000)
history.export("history.csv")
history.clear()
model.save("periodic_2d.sav")
model.cycle(500)
local function state()
  local t = {}
  for _, id in ipairs(ball.list()) do
    t[#t + 1] = string.format("%d %a %a %a %a %a", id, ball.pos(id)[1], ball.pos(id)[2],
                              ball.vel(id)[1], ball.vel(id)[2], ball.spin(id))
  end
  local e = cell.edges()
  t[#t + 1] = string.format("%a %a %a", e[1][1], e[2][1], cell.stress("xy"))
  return table.concat(t, "\n")
end
local straight = state()
model.restore("periodic_2d.sav")
model.cycle(500)
assert(state() == straight, "the restored periodic model did not repeat its run")
dump.write("dump.txt")
dump.report()
