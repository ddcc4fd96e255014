-- Damaged or mismatched save files are refused with a clear message and the current model is
-- left intact (it still runs, with the same balls).
local function check(cond, what) if not cond then error("FAILED: " .. what, 2) end end
local function refused(path, text)
  local ok, msg = pcall(function() model.restore(path) end)
  check(not ok, path .. " was accepted")
  check(msg:find(text, 1, true), "message for " .. path .. " lacks '" .. text .. "': " .. msg)
  check(msg:find("corrupt.lua:%d+: model.restore: "), "no position in: " .. msg)
  print("refused: " .. msg)
end
local function slurp(p) local f = assert(io.open(p, "rb")); local s = f:read("a"); f:close(); return s end
local function spit(p, s) local f = assert(io.open(p, "wb")); f:write(s); f:close() end

model.new{dim = 3}
contact.cmat_default{model = "linear", kn = 1e4}
ball.create{id = 1, rad = 0.1, pos = {0, 0, 0}}
ball.create{id = 2, rad = 0.1, pos = {0, 0, 0.19}}
ball.fix{"velocity", "spin"} -- the overlap and the contact stay
model.timestep{fix = 1e-4}
model.cycle(10)
model.save("good.sav")
local good = slurp("good.sav")

spit("truncated.sav", good:sub(1, #good - 100))
refused("truncated.sav", "is truncated")
spit("short.sav", good:sub(1, 12))
refused("short.sav", "is truncated")
local flipped = good:sub(1, 200) .. string.char((good:byte(201) + 1) % 256) .. good:sub(202)
spit("flipped.sav", flipped)
refused("flipped.sav", "is corrupted (its checksum does not match)")
spit("version.sav", good:sub(1, 8) .. string.char(99) .. good:sub(10))
refused("version.sav", "has save format version 99, this cairn reads versions 1 to 9")
spit("text.sav", "hello, this is not a save file at all\n")
refused("text.sav", "is not a cairn save file")
refused("no_such.sav", "cannot read 'no_such.sav'")

-- A 3D save into a 2D model is refused; without a model (or a 3D one) it restores.
model.new{dim = 2}
ball.create{id = 7, rad = 0.5, pos = {0, 0}}
refused("good.sav", "holds a 3D model but this model is 2D")
check(ball.count() == 1 and ball.exists(7), "the 2D model is intact")
model.timestep{fix = 1e-3}
model.cycle(1)

-- The current model is intact after every refusal and the good file restores.
model.new{dim = 3}
model.restore("good.sav")
check(model.step() == 10 and ball.count() == 2, "good save restored")
model.cycle(5)
check(contact.find("ball-ball", 1, 2) ~= nil, "restored contact works")

-- A save made with a plugin model needs the plugin at restore.
model.load("cm1")
contact.apply{model = "cm1", cm1_kn = 1e4}
model.save("plugin.sav")
print("corrupt checks passed")
