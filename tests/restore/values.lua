-- A save whose checksum matches but whose values no script could have set (NaN gravity, a
-- negative timestep, an unknown timestep mode, a NaN position, a negative radius, a normal that
-- is not unit, a NaN contact force, a ball's neighbour key naming another ball, a joint's normal
-- that is not unit) is refused with one sentence naming the file and the field, and the current
-- model is left intact (it still runs, with the same balls).
local function check(cond, what) if not cond then error("FAILED: " .. what, 2) end end
local function slurp(p)
  local f = assert(io.open(p, "rb")); local s = f:read("a"); f:close(); return s
end
local function spit(p, s) local f = assert(io.open(p, "wb")); f:write(s); f:close() end

-- The file: "CAIRNSAV", u32 version, u32 byte-order mark, u64 payload size, the payload, u64
-- FNV-1a checksum of the payload (src/io/save.c); the payload is sections, each a 4-byte tag, a
-- u64 length and its bytes.
local HEAD = 24
local function fnv1a(s)
  local h = 1469598103934665603
  for i = 1, #s do h = (h ~ s:byte(i)) * 1099511628211 end -- (wraps modulo 2^64, as in C)
  return h
end

-- Where section 'tag' starts in the file (the first byte of its body, 1-based).
local function section(file, tag)
  local size = string.unpack("<I8", file, 17)
  local pos = HEAD + 1
  while pos <= HEAD + size do
    local t, len = string.unpack("<c4I8", file, pos)
    if t == tag then return pos + 12 end
    pos = pos + 12 + len
  end
  error("FAILED: no section " .. tag)
end

-- The file with 'bytes' written at body offset 'off' of section 'tag', its checksum made right
-- again so that only the value check can refuse it.
local function patch(file, tag, off, bytes)
  local at = section(file, tag) + off
  local out = file:sub(1, at - 1) .. bytes .. file:sub(at + #bytes)
  local size = string.unpack("<I8", out, 17)
  local payload = out:sub(HEAD + 1, HEAD + size)
  return out:sub(1, HEAD + size) .. string.pack("<i8", fnv1a(payload))
end

local function refused(path, text)
  local ok, msg = pcall(function() model.restore(path) end)
  check(not ok, path .. " was accepted")
  local want = "'" .. path .. "' is damaged: " .. text
  check(msg:find(want, 1, true), "message for " .. path .. " lacks \"" .. want .. "\": " .. msg)
  check(msg:find("; restore an earlier save$"), "message for " .. path .. " ends oddly: " .. msg)
  print("refused: " .. msg)
end

model.new{dim = 3}
contact.cmat_default{model = "linear", kn = 1e4}
wall.create{id = 1, kind = "plane", point = {0, 0, -0.2}, normal = {0, 0, 1}}
ball.create{id = 1, rad = 0.1, pos = {0, 0, 0}}
ball.create{id = 2, rad = 0.1, pos = {0, 0, 0.19}}
ball.fix{"velocity", "spin"} -- the overlap and the contact stay
model.gravity{0, 0, -9.81}
model.timestep{fix = 1e-4}
model.cycle(10)
model.save("values.sav")
local good = slurp("values.sav")
check(patch(good, "WRLD", 0, "") == good, "the checksum is recomputed as cairn computes it")

-- The world section: u32 dimension, gravity (3 doubles), u32 timestep mode, dt, safety, time.
local nan = 0 / 0
spit("v_gravity.sav", patch(good, "WRLD", 4, string.pack("<d", nan)))
refused("v_gravity.sav", "its gravity is not finite (")
spit("v_dt.sav", patch(good, "WRLD", 32, string.pack("<d", -1)))
refused("v_dt.sav", "its fixed timestep is -1 (a finite number > 0)")
spit("v_mode.sav", patch(good, "WRLD", 28, string.pack("<I4", 5)))
refused("v_mode.sav", "its timestep mode is 5 (0 automatic or 1 fixed)")
spit("v_safety.sav", patch(good, "WRLD", 40, string.pack("<d", 2)))
refused("v_safety.sav", "its timestep safety is 2 (in (0, 1])")

-- The ball section: u64 count n, the ids (n i64), positions, velocities, spins, forces, moments,
-- displacements (n x 3 doubles each), radii (n doubles), ...
local ball_at = section(good, "BALL")
local n = string.unpack("<I8", good, ball_at)
local id = string.unpack("<i8", good, ball_at + 8) -- the ball in slot 0
spit("v_pos.sav", patch(good, "BALL", 8 + 8 * n, string.pack("<d", nan)))
refused("v_pos.sav", "ball " .. id .. "'s position is not finite (")
spit("v_rad.sav", patch(good, "BALL", 8 + 8 * n + 6 * 24 * n, string.pack("<d", -0.1)))
refused("v_rad.sav", "ball " .. id .. "'s radius is -0.1 (a finite number > 0)")

-- The neighbour keys (SKEY, after a rebuild): u64 count n, then each ball's key in the ball
-- section's order, a Morton code above the ball's id; a key whose id part is another ball's is
-- refused.
local skey_at = section(good, "SKEY")
check(string.unpack("<I8", good, skey_at) == n, "a key per ball")
local key = string.unpack("<I8", good, skey_at + 8)
check(key & 0x7fffffff == id, "the first key is its ball's")
spit("v_skey.sav", patch(good, "SKEY", 8, string.pack("<I8", (key & ~0x7fffffff) | (id + 1))))
refused("v_skey.sav", "ball " .. id .. "'s neighbour key " .. ((key & ~0x7fffffff) | (id + 1)) ..
        " does not belong to it")

-- The wall section: u32 count, then the plane's i64 id, u32 kind, u32 nodes (none), its point
-- and its normal.
spit("v_normal.sav", patch(good, "WALL", 4 + 16 + 24, string.pack("<ddd", 0, 0, 2)))
refused("v_normal.sav", "wall 1's normal (0, 0, 2) has length 2 (a unit vector)")

-- The contact section: u64 count, then the first contact's u8 kind (0: ball-ball), u32 sides a
-- and b (slots), u32 model, its normal, gap, force.
local cont_at = section(good, "CONT")
check(string.unpack("<I8", good, cont_at) >= 1, "the save holds a contact")
local kind, a, b = string.unpack("<I1I4I4", good, cont_at + 8)
local function ball_id(slot) return (string.unpack("<i8", good, ball_at + 8 + 8 * slot)) end
local side = kind == 0 and "ball " .. ball_id(a) or "wall 1"
spit("v_force.sav", patch(good, "CONT", 8 + 13 + 24 + 8, string.pack("<d", nan)))
refused("v_force.sav",
        "contact (" .. side .. ", ball " .. ball_id(b) .. ")'s force is not finite (NaN")

-- The model is intact after every refusal and still runs; the good file restores.
check(model.step() == 10 and ball.count() == 2 and wall.count() == 1, "the model is intact")
model.cycle(5)
check(model.step() == 15, "the model runs after the refusals")
model.restore("values.sav")
check(model.step() == 10 and ball.count() == 2, "the good save restores")
model.cycle(5)

-- The joints that last (JNTS): u64 count, then each joint's point, normal (3 doubles each) and
-- radius, then its assignment; a normal that is not unit is refused.
model.new{dim = 3}
contact.cmat_default{model = "linear", kn = 1e4}
ball.create{id = 1, rad = 0.1, pos = {0, 0, 0}}
ball.create{id = 2, rad = 0.1, pos = {0, 0, 0.19}}
model.clean()
contact.joint{point = {0, 0, 0.095}, normal = {0, 0, 1}, sj_kn = 1e8}
model.save("joints.sav")
local joints = slurp("joints.sav")
spit("v_joint.sav", patch(joints, "JNTS", 8 + 24, string.pack("<ddd", 0, 0, 2)))
refused("v_joint.sav", "joint 1's normal (0, 0, 2) has length 2 (a unit vector)")
model.restore("joints.sav")
check(ball.count() == 2, "the good save with a joint restores")
print("value checks passed")
