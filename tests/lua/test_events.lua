-- Events fire exactly once per change. A scripted sequence: create a contact, drive it into
-- sliding, stop, back off (slip ends), slide the other way, back off again, then pull apart.
-- Expected: created 1, activated 1, slip_change 5 with modes 0,1,0,1,0 (the last as the pull
-- lowers the normal force, and so the friction limit, under a shear force just below it),
-- deleted 1. A contact that opens while sliding raises no further slip_change.
local function check(cond, what) if not cond then error("FAILED: " .. what, 2) end end

model.new{dim = 3}
contact.cmat_default{model = "linear", kn = 1e6, ks = 1e6, fric = 0.5}
ball.create{id = 1, rad = 0.1, pos = {0, 0, 0}}
ball.create{id = 2, rad = 0.1, pos = {0, 0, 0.199}} -- overlap 1 mm: normal force 1000 N
ball.fix{"velocity", "spin"}                         -- both move only as the script says
model.timestep{fix = 1e-5}

local count, modes, names = {}, {}, {}
for _, ev in ipairs{"contact_created", "contact_deleted", "contact_activated", "slip_change"} do
  count[ev] = 0
  callback.on(ev, function(cp, mode)
    count[ev] = count[ev] + 1
    names[#names + 1] = ev .. " " .. tostring(cp)
    if ev == "slip_change" then modes[#modes + 1] = mode end
  end)
end
local before, after = 0, 0
callback.on("before_force", function() before = before + 1 end)
callback.on("after_force", function() after = after + 1 end)

model.clean()
check(count.contact_created == 1, "one contact_created after model.clean")
local steps = 0
local function run(vel, n)
  ball.vel(2, vel)
  model.cycle(n)
  steps = steps + n
end
-- Shear force grows at ks v = 1e4 N/s; the limit 0.5 * 1000 N is reached after 0.05 s.
run({0.01, 0, 0}, 6000)
check(count.contact_activated == 1, "activated once")
check(count.slip_change == 1 and modes[1] == 0, "slip began once (mode 0)")
run({0, 0, 0}, 100)
run({-0.001, 0, 0}, 10) -- backing off lowers the shear force below the limit: slip ends
check(count.slip_change == 2 and modes[2] == 1, "slip ended once (mode 1)")
run({-0.01, 0, 0}, 12000) -- through zero to the opposite limit after 0.1 s
check(count.slip_change == 3 and modes[3] == 0, "slip began again")
run({0.001, 0, 0}, 10)
check(count.slip_change == 4 and modes[4] == 1, "slip ended again")
run({0, 0, 1.0}, 2) -- the first step moves ball 2, the second sees the lower limit: slip
check(count.slip_change == 5 and modes[5] == 0, "slip began as the pull started")
run({0, 0, 1.0}, 98) -- the gap opens after 1 mm, i.e. 100 steps of 1e-5 m
run({0, 0, 1.0}, 10)
check(count.contact_deleted == 1, "deleted once")
check(count.contact_created == 1 and count.contact_activated == 1, "no extra created/activated")
check(count.slip_change == 5, "exactly 5 slip changes, got " .. count.slip_change)
check(before == steps and after == steps, "cycle-point callbacks once per step")
check(names[1] == "contact_created contact ball-ball 1-2", "event names the contact: " .. names[1])

-- An error inside a callback stops the run with the callback's own file and line.
callback.on("after_force", function() error("boom") end)
local ok, msg = pcall(function() model.cycle(1) end)
check(not ok and msg:find("test_events.lua:%d+: boom") and msg:find("after_force"),
      "callback error names its file and line: " .. tostring(msg))
-- model.new clears callbacks
model.new{dim = 2}
ball.create{id = 1, rad = 1, pos = {0, 0}}
model.timestep{fix = 1e-3}
model.cycle(1) -- the failing callback is gone
print("events ok")
