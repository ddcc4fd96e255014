-- The plugin loader refuses every bad library with one clear message naming the file, and the
-- run goes on unharmed: the world still works and no model of a refused library is registered.
local dir = assert(os.getenv("CAIRN_TEST_PLUGINS"), "set CAIRN_TEST_PLUGINS")
local function lib(name) return dir .. "/lib" .. name .. ".so" end

local function refused(path, text)
  local ok, msg = pcall(function() model.load(path) end)
  if ok then error("FAILED: " .. path .. " was loaded; expected a refusal") end
  if not msg:find(text, 1, true) then
    error("FAILED: message for " .. path .. " lacks '" .. text .. "': " .. msg)
  end
  -- one sentence, naming the library file, with the script position in front
  local base = path:match("[^/]+$")
  if not msg:find(base, 1, true) then error("FAILED: message does not name " .. base .. ": " .. msg) end
  if not msg:find("test_loader.lua:%d+:") then error("FAILED: no file:line in: " .. msg) end
  print("refused as expected: " .. msg)
end

model.new{dim = 3}
contact.cmat_default{model = "linear", kn = 1e4}
ball.create{id = 1, rad = 0.1, pos = {0, 0, 0}}
ball.create{id = 2, rad = 0.1, pos = {0, 0, 0.19}}
ball.fix{"velocity", "spin"} -- keep the overlap, so the contact stays

refused(dir .. "/no_such_plugin.so", "no such file")
refused(lib("not_a_library"), "cannot be loaded")
refused(lib("bad_no_entry"), "has no function cairn_plugin_register")
refused(lib("bad_abi"), "built for contact-model ABI 6, this cairn needs ABI 5")
refused(lib("bad_taken_name"), "contact model 'linear' is already registered (by built-in)")
refused(lib("bad_repeated_prop"), "property/state name 'bad_k' is repeated")
refused(lib("bad_empty_range"), "has an empty range [1, 0]")
refused(lib("bad_two_models"), "built for contact-model ABI") -- BAD_TWO_MODELS: see below

-- A library whose second model is bad registers neither: 'first_ok' must be unknown.
local ok, msg = pcall(contact.cmat_default, {model = "first_ok"})
if ok or not msg:find("contact model 'first_ok' is not known", 1, true) then
  error("FAILED: a refused library left a model behind: " .. tostring(msg))
end

-- The run goes on unharmed.
model.cycle(10)
local cp = contact.find("ball-ball", 1, 2)
if not cp or contact.force(cp)[1] <= 0 then error("FAILED: the world no longer works") end

-- A good library loads; loading it again (by another spelling of its path) is a no-op.
model.load(lib("good_plugin"))
model.load(dir .. "/./libgood_plugin.so")
contact.apply{model = "good"}
if contact.model(cp) ~= "good" then error("FAILED: model 'good' not applied") end

-- A plugin written in C++ loads and works like a C one.
model.load(lib("cpp_plugin"))
contact.apply{model = "cpp_spring", cpp_kn = 2e4}
model.cycle(1)
local f = contact.force(cp)[1]
local expect = 2e4 * -contact.gap(cp)
if math.abs(f - expect) > 1e-12 * expect then
  error(string.format("FAILED: C++ plugin force %.17g, expected %.17g", f, expect))
end
-- A model's validation hook runs on a contact's first update and stops the run with a message
-- naming the contact and the property.
model.load(lib("validating"))
contact.apply{model = "checked"}
local ok2, msg2 = pcall(function() model.cycle(1) end)
if ok2 or not msg2:find("ball-ball contact 1-2: contact model 'checked': chk_kn is 0", 1, true) then
  error("FAILED: validation hook: " .. tostring(msg2))
end
-- A contact created early (proximity > 0) is checked only once its surfaces touch.
do
  model.new{dim = 3}
  contact.cmat_default{model = "checked", proximity = 0.01}
  ball.create{id = 1, rad = 0.1, pos = {0, 0, 0}}
  ball.create{id = 2, rad = 0.1, pos = {0, 0, 0.201}, vel = {0, 0, -0.1}} -- gap 1 mm, closing
  model.timestep{fix = 1e-3}
  model.cycle(5)                          -- in contact (gap < proximity), not touching: runs
  if not contact.find("ball-ball", 1, 2) then error("FAILED: no early contact") end
  local ok3, msg3 = pcall(function() model.cycle(20) end) -- touches after 10 steps
  if ok3 or not msg3:find("chk_kn is 0", 1, true) then
    error("FAILED: validation at first touch: " .. tostring(msg3))
  end
  model.new{dim = 3}
  contact.cmat_default{model = "linear", kn = 1e4}
  ball.create{id = 1, rad = 0.1, pos = {0, 0, 0}}
  ball.create{id = 2, rad = 0.1, pos = {0, 0, 0.19}}
  ball.fix{"velocity", "spin"}
  model.timestep{fix = 1e-4}
  cp = contact.find("ball-ball", 1, 2)
end
contact.apply{model = "checked", chk_kn = 5} -- fresh state: first update again, now valid
model.cycle(1)
-- Models stay loaded across model.new.
model.new{dim = 2}
contact.cmat_default{model = "cpp_spring", cpp_kn = 1}
print("loader checks passed")
