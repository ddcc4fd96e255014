-- The soak test (make soak; a small version runs in the ordinary suite): a 3D pour of about
-- SOAK_BALLS balls (default 50 000) in four layers with four contact models (linear with
-- dashpots, hertz, burger, and the test plugin hertzlike), with histories, an after_force and a
-- contact_created callback, VTK output every chunk, run twice from the same start:
--   A  uninterrupted, SOAK_CHUNKS chunks of SOAK_STEPS steps;
--   B  the same chunks, each ending with model.save and model.restore into a fresh world (the
--      callbacks and history functions given again, as a script must).
-- Checks: B ends bitwise where A ends (every ball's position, velocity and spin, every contact's
-- ends and force, written with %a); the callbacks saw the same steps, contacts and contact
-- updates; the contact updates add up to SOAK_UPDATES or more (default 1e8); and the resident
-- memory (after a full garbage collection) grows from the third chunk of B to its end by no more
-- than 5 % or 64 MiB, whichever is larger: a save, restore, VTK file or callback that leaked
-- would add its size at every chunk. (The allocator and Lua settle in the first chunks: at 4 000
-- balls RSS went 24, 25, 30 MiB, then stayed at 30 to 31 MiB for nine more. The full run, 48 668
-- balls and 1.39e8 contact updates in 25 s on 2 cores, went 216, 234, 249 MiB, then 249 to 276
-- MiB over seven more restores, each of which reads a 40 MB save; run under AddressSanitizer the
-- small one reports no leak.) Prints one line per chunk and a summary; a failed check raises an
-- error starting with FAILED.
local NB = tonumber(os.getenv("SOAK_BALLS")) or 50000
local CHUNKS = tonumber(os.getenv("SOAK_CHUNKS")) or 10
local STEPS = tonumber(os.getenv("SOAK_STEPS")) or 100
local WANT = tonumber(os.getenv("SOAK_UPDATES")) or 1e8
local dir = os.getenv("SOAK_DIR") or "."
model.load("hertzlike")

-- Four cubic lattices, one per model, stacked in a box of five planes. Neighbours overlap by
-- 1e-4 of a diameter, so every ball has its six contacts from the first step and keeps them
-- (the box holds the lattice together), about 3 NB contacts in all.
local r = 0.005
local n = math.max(2, math.floor((NB / 4) ^ (1 / 3) + 0.5)) -- balls per edge of each layer
local A = 2 * r * (1 - 1e-4)
local L = (n - 1) * A + 2 * r - 2e-4 * r

local counts = {created = 0, steps = 0, updates = 0}
local function callbacks()
  callback.on("after_force", function()
    counts.steps = counts.steps + 1
    counts.updates = counts.updates + contact.count()
  end)
  callback.on("contact_created", function() counts.created = counts.created + 1 end)
  history.add("ke", function() return energy.get("kinetic") end)
  history.add("contacts", function() return contact.count() end)
end

local function setup()
  model.new{dim = 3}
  model.gravity{0, 0, -9.81}
  local K = 4 / 3 * 1e8 * math.sqrt(r / 2)
  contact.cmat_default{model = "linear", kn = 1e5, ks = 5e4, fric = 0.4, dp_nratio = 0.2,
                       dp_sratio = 0.1}
  contact.cmat_add{groups = {"hz", "hz"}, model = "hertz", hz_shear = 4e7, hz_poiss = 0.25,
                   fric = 0.4, dp_nratio = 0.2}
  contact.cmat_add{groups = {"bur", "bur"}, model = "burger", bur_knk = 1e5, bur_cnk = 10,
                   bur_knm = 1e5, bur_cnm = 1e3, bur_ksk = 5e4, bur_csk = 5, bur_ksm = 5e4,
                   bur_csm = 5e2, bur_fric = 0.4}
  contact.cmat_add{groups = {"hl", "hl"}, model = "hertzlike", hl_k = K, hl_dref = 1e-4}
  for i, g in ipairs{"lin", "hz", "bur", "hl"} do
    specimen.lattice{kind = "cubic", rad = r, n = {n, n, n}, spacing = A,
                     origin = {r - 1e-4 * r, r - 1e-4 * r, r - 1e-4 * r + (i - 1) * n * A},
                     density = 2500, damp = 0.05, group = g}
  end
  for _, p in ipairs{{{0, 0, 0}, {0, 0, 1}}, {{0, 0, 0}, {1, 0, 0}}, {{L, 0, 0}, {-1, 0, 0}},
                     {{0, 0, 0}, {0, 1, 0}}, {{0, L, 0}, {0, -1, 0}}} do
    wall.create{kind = "plane", point = p[1], normal = p[2]}
  end
  model.timestep{fix = 2e-5}
  energy.track(true)
  history.interval(10)
  callbacks()
end

-- The state, exactly: balls by id, contacts by their ends.
local function dump()
  local lines = {}
  for _, id in ipairs(ball.list()) do
    local p, v, w = ball.pos(id), ball.vel(id), ball.spin(id)
    lines[#lines + 1] = string.format("b %d %a %a %a %a %a %a %a %a %a", id, p[1], p[2], p[3],
                                      v[1], v[2], v[3], w[1], w[2], w[3])
  end
  for _, cp in ipairs(contact.list()) do
    local kind, i1, i2 = contact.ends(cp)
    local f = contact.force_global(cp)
    lines[#lines + 1] = string.format("c %s %d %d %a %a %a", kind, i1, i2, f[1], f[2], f[3])
  end
  table.sort(lines)
  return table.concat(lines, "\n")
end

local function rss_mib()
  collectgarbage()
  collectgarbage()
  local f = io.open("/proc/self/statm")
  if not f then return 0 end
  local _, res = f:read("n", "n")
  f:close()
  return res * 4096 / 2 ^ 20
end

-- A: uninterrupted
setup()
local t0 = os.clock()
for c = 1, CHUNKS do
  model.cycle(STEPS)
  vtk.write(dir .. "/soak_a")
  print(string.format("soak A: chunk %d/%d, %d contacts, %.3g contact updates, RSS %.0f MiB", c,
                      CHUNKS, contact.count(), counts.updates, rss_mib()))
end
local a, updates_a, created_a = dump(), counts.updates, counts.created
print(string.format("soak A: %d balls, %d steps, %.3g contact updates in %.0f s", ball.count(),
                    counts.steps, updates_a, os.clock() - t0))

-- B: a save and a restore after every chunk
counts = {created = 0, steps = 0, updates = 0}
setup()
local rss = {}
for c = 1, CHUNKS do
  model.cycle(STEPS)
  vtk.write(dir .. "/soak_b")
  model.save(dir .. "/soak.sav")
  model.restore(dir .. "/soak.sav")
  callbacks()
  rss[c] = rss_mib()
  print(string.format("soak B: chunk %d/%d, saved and restored, RSS %.0f MiB", c, CHUNKS, rss[c]))
end
local b = dump()
os.remove(dir .. "/soak.sav")

if a ~= b then error("FAILED: the run with saves and restores does not end where the uninterrupted one does") end
if counts.updates ~= updates_a or counts.created ~= created_a then
  error(string.format("FAILED: the callbacks saw other counts (%d updates and %d new contacts, "
                      .. "against %d and %d)", counts.updates, counts.created, updates_a, created_a))
end
if updates_a < WANT then
  error(string.format("FAILED: %.3g contact updates, fewer than the %.3g asked for", updates_a, WANT))
end
local warm = math.min(3, CHUNKS)
local base, top = rss[warm], 0
for c = warm, CHUNKS do top = math.max(top, rss[c]) end
if top - base > math.max(0.05 * base, 64) then
  error(string.format("FAILED: resident memory grew from %.0f to %.0f MiB over the restores", base, top))
end
-- The last snapshots of A and B are the same files, byte for byte; then the VTK files go (650
-- MB at full size).
local function slurp(path)
  local f = assert(io.open(path, "rb"))
  local t = f:read("a")
  f:close()
  return t
end
for _, part in ipairs{"balls", "contacts"} do
  local last = string.format("_%s_%05d.vtp", part, CHUNKS - 1)
  if slurp(dir .. "/soak_a" .. last) ~= slurp(dir .. "/soak_b" .. last) then
    error("FAILED: the last " .. part .. " snapshots of the two runs differ")
  end
end
for _, run in ipairs{"a", "b"} do
  os.remove(string.format("%s/soak_%s.pvd", dir, run))
  for c = 0, CHUNKS - 1 do
    for _, part in ipairs{"balls", "walls", "contacts", "cracks", "clumps"} do
      os.remove(string.format("%s/soak_%s_%s_%05d.vtp", dir, run, part, c))
    end
  end
end
print(string.format("soak: identical after %d saves and restores; %.3g contact updates; RSS "
                    .. "%.0f -> %.0f MiB after warm-up", CHUNKS, updates_a, base, top))
