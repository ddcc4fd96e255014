-- Restore test, part 2 (a new process): restore the save of part 1, give the history functions
-- again, run the remaining 1000 steps; the exported histories must equal part 1's byte for byte.
dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "scene.lua")
model.restore("restart.sav")
assert(model.step() == 1000, "restored at step 1000")
add_histories()
model.cycle(1000)
history.export("resumed.csv")
local function slurp(p) local f = assert(io.open(p, "rb")); local s = f:read("a"); f:close(); return s end
local a, b = slurp("full.csv"), slurp("resumed.csv")
if a ~= b then
  local n = 0
  for la, lb in a:gmatch("([^\n]*)\n"), b:gmatch("([^\n]*)\n") do end
  error("FAILED: resumed histories differ from the uninterrupted run")
end
local rows = select(2, a:gsub("\n", "")) - 1
print(string.format("part 2: %d history rows identical to the uninterrupted run", rows))
