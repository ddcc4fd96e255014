-- wall.servo(ID).at_vmax says whether the wall moved at vmax in the last step (scripting.md),
-- also at the step where the servo's window of steps at vmax ends and a new one begins (here at
-- step 100 000: a servo with no balls to meet closes in at vmax for ever, and warns once).
local function check(cond, what) if not cond then error("FAILED: " .. what, 2) end end
model.new{dim = 2}
wall.create{id = 1, nodes = {{-1, 0}, {1, 0}}}
wall.servo{id = 1, stress = 10, area = 1, vmax = 0.01, axis = {0, 1}}
model.timestep{fix = 1e-4}
model.cycle(99990)
for step = 99991, 100010 do
  model.cycle(1)
  check(wall.servo(1).at_vmax, "at_vmax at step " .. step)
end
print("at_vmax ok")
