-- MPI test (tests/mpi/run.sh): callbacks and contact events with the model divided among the
-- ranks. A bonded block on a floor is hit by falling balls (frictional contacts made, slipping
-- and parting; bonds breaking). Every rank calls every callback, with every rank's events, in the
-- order of their contacts (docs/parallel.md): a log of every event (its name, contact and mode,
-- in the order the callbacks saw them) must be one process's, byte for byte. The callbacks ask
-- the owners of what they name (a contact's force as its bond breaks, a ball's position), count
-- steps, and twice set a ball's velocity (a setter: the model is gathered for the rest of the
-- callback and divided again, once before the force pass and once after it). The run must stay
-- divided, and every rank count give the serial run's files bit for bit.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local dump = dofile(here .. "dump.lua")
model.new{dim = 3}
model.gravity{0, 0, -9.81}
contact.cmat_default{model = "linear", kn = 2e4, ks = 1e4, fric = 0.5, dp_nratio = 0.3}
local L = 0.1
local _, n = dump.bonded_block(L)
for k = 0, 3 do
  for j = 0, 5 do
    for i = 0, 5 do
      n = n + 1
      ball.create{id = 7 * n % 997 + 1000, rad = 0.0035 + 0.0002 * ((i + j + k) % 4),
                  density = 2500, pos = {0.012 + 0.0152 * i, 0.012 + 0.0152 * j, 0.045 + 0.0152 * k},
                  vel = {0.05 * (i - 2.5), 0.05 * (j - 2.5), -0.5}}
    end
  end
end
model.timestep{auto = true}
energy.track(true)

local log, count = {}, {}
local function note(line) log[#log + 1] = line end
for _, ev in ipairs{"contact_created", "contact_deleted", "contact_activated", "slip_change",
                    "bond_break"} do
  count[ev] = 0
  callback.on(ev, function(cp, mode)
    count[ev] = count[ev] + 1
    local line = string.format("%d %s %s %d", model.step(), ev, tostring(cp), mode)
    if ev == "bond_break" and count[ev] <= 5 then -- (the owner of the contact answers)
      local f = contact.force(cp)
      line = line .. string.format(" %a %a %a", f[1], f[2], f[3])
    end
    note(line)
  end)
end
local steps_before, steps_after = 0, 0
callback.on("before_force", function()
  steps_before = steps_before + 1
  if model.step() == 400 then ball.vel(1343, {0, 0, -2}) end -- (gathers, divided again)
end)
callback.on("after_force", function()
  steps_after = steps_after + 1
  if model.step() % 250 == 0 then note(string.format("pos %a", ball.pos(999)[3])) end
  if model.step() == 700 then ball.vel(1350, {0.5, 0, 0}) end
end)
history.add("contacts", function() return contact.count() end)
history.interval(100)
model.cycle(1200)
local r = dump.report()
assert(r.count == 1 or r.decomposed, "the run with callbacks was not divided")
-- (the two setters gathered the model, each for the rest of its callback)
assert(r.count == 1 or r.gathers == 2, "gathered " .. r.gathers .. " times, not twice")
assert(count.bond_break > 0 and count.contact_created > 0 and count.slip_change > 0,
       "every kind of event came")
model.cycle(300)
r = model.ranks()
assert(r.count == 1 or (r.resumed and not r.whole), "the second call did not go on divided")
assert(steps_before == 1500 and steps_after == 1500, "the cycle-point callbacks ran each step")
callback.off("before_force")
note(string.format("counts %d %d %d %d %d", count.contact_created, count.contact_deleted,
                   count.contact_activated, count.slip_change, count.bond_break))
dump.figures(log)
history.export("history.csv")
dump.write("dump.txt")
dump.report()
