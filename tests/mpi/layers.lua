-- MPI test (tests/mpi/run.sh compare): balls made while the model is divided, layer after layer
-- between cycle calls, as a pour in layers makes them. Each ball is made on the rank whose brick
-- holds its centre, nothing is gathered, and the next call goes on from the same division
-- (model.ranks(): resumed, no gathers); the next step's rebuild finds the new balls' neighbours.
-- Automatic ids and a group named while divided come out alike on every rank; an id taken (by
-- a ball of another rank, maybe) and a negative radius are refused on every rank with one
-- message. Every rank count gives the serial run's dump bit for bit.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local dump = dofile(here .. "dump.lua")
model.new{dim = 3}
model.gravity{0, 0, -9.81}
contact.cmat_default{model = "linear", kn = 1e5, ks = 5e4, fric = 0.4, dp_nratio = 0.2}
local L = 0.1
wall.box{min = {0, 0, 0}, max = {L, L, 3 * L}}
local rand = dump.random(5)
local function layer(z, group)
  for j = 0, 5 do
    for i = 0, 5 do
      ball.create{rad = 0.005 + 0.002 * rand(), density = 2600, group = group,
                  pos = {0.01 + i * 0.016, 0.01 + j * 0.016, z + 0.004 * rand()},
                  vel = {(rand() - 0.5) * 0.2, (rand() - 0.5) * 0.2, -0.1}}
    end
  end
end
layer(0.01, "a")
model.timestep{auto = true}
model.cycle(300)
local r = model.ranks()
local divided = r.count > 1 and r.decomposed
for k = 1, 3 do
  layer(0.04 + 0.02 * k, k == 2 and "late" or "a")
  if divided then assert(not model.ranks().whole, "ball.create gathered the model") end
  model.cycle(300)
  r = dump.report(" layer " .. k)
  if divided then
    assert(r.resumed and r.gathers == 0, "layer " .. k .. ": the call after it did not go on " ..
           "from the division (resumed " .. tostring(r.resumed) .. ", gathers " .. r.gathers .. ")")
  end
end
assert(ball.count() == 4 * 36 and ball.count{in_group = "late"} == 36, "the balls and a group")
-- an id taken, maybe by a ball of another rank, and a negative radius: refused alike everywhere
local ok, err = pcall(ball.create, {id = 1, rad = 0.005, pos = {0.05, 0.05, 0.25}})
assert(not ok and err:find("ball 1 already exists", 1, true), tostring(err))
ok, err = pcall(ball.create, {rad = -1, pos = {0.09, 0.09, 0.25}})
assert(not ok and err:find("radius must be > 0", 1, true), tostring(err))
assert(not divided or not model.ranks().whole, "refused balls leave the model divided")
model.cycle(100)
dump.write("dump.txt")
