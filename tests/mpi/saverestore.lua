-- MPI test (tests/mpi/run.sh saverestore): a file saved on 4 ranks (in parts: the model is divided)
-- restores on 4, 3, 2 and 1 and the run goes on bit for bit as if never stopped. PHASE=straight
-- runs 2 x 1500 steps, saving mid.sav between them; PHASE=save runs 1500 and saves; PHASE=restore
-- restores, saves again.sav at once (the whole model: mid.sav, byte for byte) and runs 1500 more.
-- Each dumps what it has.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local dump = dofile(here .. "dump.lua")
local phase = os.getenv("PHASE") or "straight"
if phase == "restore" then
  model.restore("state.sav")
  model.save("again.sav")
else
  model.new{dim = 3}
  model.gravity{0, 0, -9.81}
  contact.cmat_default{model = "linear", kn = 2e4, ks = 1e4, fric = 0.5, dp_nratio = 0.3}
  contact.cmat_add{group = "b", kind = "ball-ball", model = "burger", bur_knk = 4e4,
                   bur_cnk = 40, bur_knm = 4e4, bur_cnm = 2e3, bur_ksk = 2e4, bur_csk = 20,
                   bur_ksm = 2e4, bur_csm = 1e3, bur_fric = 0.4}
  local L = 0.12
  wall.create{id = 1, kind = "plane", point = {0, 0, 0}, normal = {0, 0, 1}}
  wall.create{id = 2, kind = "plane", point = {0, 0, 0}, normal = {1, 0, 0}}
  wall.create{id = 3, kind = "plane", point = {L, 0, 0}, normal = {-1, 0, 0}}
  wall.create{id = 4, kind = "plane", point = {0, 0, 0}, normal = {0, 1, 0}}
  wall.create{id = 5, kind = "plane", point = {0, L, 0}, normal = {0, -1, 0}}
  local rand = dump.random(7)
  local n = 0
  for k = 0, 5 do
    for j = 0, 8 do
      for i = 0, 8 do
        n = n + 1
        ball.create{id = (n * 13) % 486 + 1, rad = 0.004 + 0.002 * rand(), density = 2500,
                    group = (n % 3 == 0) and "b" or "a",
                    pos = {0.0065 + i * 0.0128, 0.0065 + j * 0.0128, 0.008 + k * 0.0128},
                    vel = {(rand() - 0.5) * 0.3, (rand() - 0.5) * 0.3, 0}}
      end
    end
  end
  model.timestep{auto = true}
  energy.track(true)
end
if phase == "straight" then
  model.cycle(1500)
  model.save("mid.sav")
  model.cycle(1500)
  dump.write("dump.txt")
elseif phase == "save" then
  model.cycle(1500)
  model.save("state.sav")
else
  model.cycle(1500)
  dump.write("dump.txt")
end
