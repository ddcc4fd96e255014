-- MPI test (tests/mpi/run.sh): a 3D pour of 900 balls in a box of five planes with mixed contact
-- models: linear with dashpots and friction between balls of group "a", Burger's model where a
-- ball of group "b" is involved, the cm1 plugin on the walls. Energy is tracked, histories are
-- sampled every 100 steps, and the whole state is dumped at the end; every rank count must give
-- the serial run's files bit for bit.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local dump = dofile(here .. "dump.lua")
model.load("cm1")
model.new{dim = 3}
model.gravity{0, 0, -9.81}
contact.cmat_default{model = "linear", kn = 2e4, ks = 1e4, fric = 0.5, dp_nratio = 0.3,
                     dp_sratio = 0.1}
contact.cmat_add{group = "b", kind = "ball-ball", model = "burger", bur_knk = 4e4, bur_cnk = 40,
                 bur_knm = 4e4, bur_cnm = 2e3, bur_ksk = 2e4, bur_csk = 20, bur_ksm = 2e4,
                 bur_csm = 1e3, bur_fric = 0.4}
contact.cmat_default{kind = "ball-wall", model = "cm1", cm1_kn = 4e4, cm1_ks = 2e4, cm1_fric = 0.3}
local L = 0.16
wall.create{id = 1, kind = "plane", point = {0, 0, 0}, normal = {0, 0, 1}}
wall.create{id = 2, kind = "plane", point = {0, 0, 0}, normal = {1, 0, 0}}
wall.create{id = 3, kind = "plane", point = {L, 0, 0}, normal = {-1, 0, 0}}
wall.create{id = 4, kind = "plane", point = {0, 0, 0}, normal = {0, 1, 0}}
wall.create{id = 5, kind = "plane", point = {0, L, 0}, normal = {0, -1, 0}}
model.domain{min = {-0.05, -0.05, -0.05}, max = {L + 0.05, L + 0.05, 1.0}}
local rand = dump.random(4242)
local n, per = 0, 12
for k = 0, 6 do
  for j = 0, per - 1 do
    for i = 0, per - 1 do
      if n < 900 then
        n = n + 1
        -- ids out of space order: 7 is coprime to 900
        ball.create{id = (n * 7) % 900 + 1, rad = 0.004 + 0.002 * rand(), density = 2500,
                    group = (n % 3 == 0) and "b" or "a",
                    pos = {0.0065 + i * 0.0128 + (rand() - 0.5) * 4e-4,
                           0.0065 + j * 0.0128 + (rand() - 0.5) * 4e-4, 0.008 + k * 0.0128},
                    vel = {(rand() - 0.5) * 0.2, (rand() - 0.5) * 0.2, 0}}
      end
    end
  end
end
ball.attribute{damp = 0.05}
model.timestep{auto = true}
energy.track(true)
history.add("mean_z", function()
  local s = 0
  for _, id in ipairs(ball.list()) do s = s + ball.pos(id)[3] end
  return s / ball.count()
end)
history.add("contacts", function() return contact.count() end)
history.add("floor", function() return wall.force(1)[3] end)
history.add("kinetic", function() return energy.get().kinetic end)
model.solve{time = 0.15, history_interval = 100}
-- a second call: the decomposition is made again from the whole model, which must not change
-- anything either
model.cycle(300)
history.export("history.csv")
dump.write("dump.txt")
dump.report()
