-- history.interval{by = ..., every = ...} (docs/scripting.md): rows by a quantity's progress, not
-- by steps: a falling ball's drop sampled every 0.5 m has rows at the first step and then each
-- 0.5 m (within one step's travel); back to steps with history.interval(K); bad options refused.
local function check(cond, what) if not cond then error("FAILED: " .. what, 2) end end
model.new{dim = 2}
model.gravity{0, -9.81}
ball.create{id = 1, rad = 0.1, pos = {0, 0}}
model.timestep{fix = 1e-3}
history.add("drop", function() return -ball.pos(1)[2] end)
local calls = 0
history.interval{by = function() calls = calls + 1; return -ball.pos(1)[2] end, every = 0.5}
model.cycle(1000)
local v, t = history.get("drop")
check(#v == 10 and calls == 1000, "a row at the first step and each 0.5 m: " .. #v)
for i = 2, #v do
  local step = 9.81 * t[i] * 1e-3 -- the most the ball falls in one step, about then
  check(v[i] - v[i - 1] >= 0.5 and v[i] - v[i - 1] < 0.5 + step + 1e-12, "row " .. i .. " apart by 0.5")
end
history.interval(100)
model.cycle(1000)
check(#history.get("drop") == 20, "back to a row every 100 steps")
local ok, err = pcall(function() history.interval{by = "nothing", every = 1} end)
check(not ok and err:find("no history 'nothing'", 1, true), "an unknown history: " .. tostring(err))
ok, err = pcall(function() history.interval{by = "drop", every = 0} end)
check(not ok and err:find("every must be a positive", 1, true), "every 0: " .. tostring(err))
ok, err = pcall(function() history.interval{by = "drop", evry = 1} end)
check(not ok and err:find("evry", 1, true), "an unknown option: " .. tostring(err))
history.interval{by = function() return 0 / 0 end, every = 1}
ok, err = pcall(model.cycle, 1)
check(not ok and err:find("not a finite number", 1, true), "a NaN quantity: " .. tostring(err))
print("history by a quantity: all checks passed")
