-- MPI test (tests/mpi/run.sh): 2D disks poured into a box of three segments, Hertz-Mindlin
-- between disks, rolling resistance where a disk of group "r" is involved, linear on the walls;
-- a "destroy" domain takes the disks that jump out over the side walls; forces and moments
-- applied to some disks (one of them thrown out, its load going with it), their work booked.
-- Every rank count must give the serial run's files bit for bit, and the run must be divided
-- (applied loads do not keep it whole).
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local dump = dofile(here .. "dump.lua")
model.new{dim = 2}
model.gravity{0, -9.81}
contact.cmat_default{model = "hertz", hz_shear = 5e7, hz_poiss = 0.25, fric = 0.4,
                     dp_nratio = 0.2}
contact.cmat_add{group = "r", kind = "ball-ball", model = "rrlinear", kn = 1e5, ks = 5e4,
                 fric = 0.4, rr_fric = 0.1, dp_nratio = 0.3}
contact.cmat_default{kind = "ball-wall", model = "linear", kn = 2e5, ks = 1e5, fric = 0.3}
local L = 0.4
wall.create{id = 1, kind = "segment", nodes = {{-0.01, 0}, {L + 0.01, 0}}}
wall.create{id = 2, kind = "segment", nodes = {{0, 0.12}, {0, -0.01}}}
wall.create{id = 3, kind = "segment", nodes = {{L, -0.01}, {L, 0.12}}}
-- a paddle turning in the middle of the pour (its torque enters the energy books)
wall.create{id = 4, kind = "segment", nodes = {{0.17, 0.06}, {0.23, 0.06}}}
wall.spin(4, 3.0)
model.domain{min = {-0.2, -0.1}, max = {L + 0.2, 2.0}, condition = "destroy"}
local rand = dump.random(99)
local n = 0
for k = 0, 19 do
  for i = 0, 29 do
    n = n + 1
    ball.create{id = (n * 11) % 600 + 1, rad = 0.004 + 0.0015 * rand(), density = 2600,
                group = (n % 4 == 0) and "r" or "a",
                pos = {0.008 + i * 0.0128 + (rand() - 0.5) * 1e-3, 0.01 + k * 0.0128},
                vel = {(rand() - 0.5) * 1.5, (rand() - 0.5) * 0.5}}
  end
end
-- ten disks thrown out over the side walls: the domain destroys them on the way
for i = 1, 10 do
  local left = i % 2 == 0
  ball.create{id = 600 + i, rad = 0.005, density = 2600,
              pos = {left and 0.03 + 0.005 * i or L - 0.03 - 0.005 * i, 0.3 + 0.012 * i},
              vel = {left and -3.5 or 3.5, 1.0}}
end
for _, id in ipairs{12, 155, 310, 488} do ball.force_app(id, {0.05 * (id % 3 - 1), 0.08}) end
ball.moment_app(233, 2e-4)
ball.force_app(603, {-0.5, 0.2}) -- a disk the domain destroys
for i = 1, 10 do ball.extra(600 + i, 1, i) end -- (extra variables, gone with their balls)
ball.extra(12, 2, 1.25)
model.timestep{auto = true}
energy.track(true)
history.add("mean_y", function()
  local s = 0
  for _, id in ipairs(ball.list()) do s = s + ball.pos(id)[2] end
  return s / ball.count()
end)
history.add("balls", function() return ball.count() end)
history.add("floor", function() return wall.force(1)[2] end)
model.solve{time = 0.12, history_interval = 150}
history.export("history.csv")
-- the ten disks thrown out, destroyed: counted over the ranks, nothing gathered
local destroyed = model.destroyed()
assert(destroyed == 10, "destroyed " .. destroyed)
assert(model.ranks().count == 1 or not model.ranks().whole, "model.destroyed gathered the model")
dump.write("dump.txt")
dump.report(" destroyed " .. destroyed)
-- the destroyed disks' extra variables went with them on every rank: the save restores
model.save("end.sav")
model.restore("end.sav")
assert(ball.extra(12, 2) == 1.25 and not ball.exists(605), "the restored model's extra variables")
