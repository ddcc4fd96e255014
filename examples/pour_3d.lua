-- ctest: long (about 10 s in Release, over 2 minutes under the sanitizers; left out of the sanitizer run)
-- Pour 3000 glass-like spheres (radius uniform in [4, 6] mm, density 2500 kg/m^3) from a loose
-- lattice into an open box of five planes and let them pile up under gravity. Records the mean
-- height, the largest speed and the contact count, exports them to pour_3d.csv in the current
-- folder and prints a short summary.
-- Run: cairn run examples/pour_3d.lua
local N = 3000
local L = 0.2                 -- box side (m): floor is [0, L] x [0, L] at z = 0
local rmin, rmax = 0.004, 0.006
local spacing = 0.013         -- lattice pitch: >= 0.5 mm between the largest balls after the nudge
local T = 0.5                 -- model time (s): the top layer falls ~0.2 m in ~0.2 s, then settles

-- Deterministic pseudo-random numbers in [0, 1): a 32-bit linear congruential generator
-- (Numerical Recipes' constants), so every run and platform builds the same packing.
local seed = 12345
local function rand()
  seed = (1664525 * seed + 1013904223) % 4294967296
  return seed / 4294967296
end

model.new{dim = 3}
model.gravity{0, 0, -9.81}
-- kn = 2e4 N/m keeps the overlap under gravity small (a column of 10 balls presses with ~0.1 N:
-- 5 um against 5 mm radii) while the timestep stays near 5e-5 s. ks = kn/2; dp_nratio 0.3 is
-- a restitution of about 0.37.
contact.cmat_default{model = "linear", kn = 2e4, ks = 1e4, fric = 0.5, dp_nratio = 0.3}

wall.create{id = 1, kind = "plane", point = {0, 0, 0}, normal = {0, 0, 1}}  -- floor
wall.create{id = 2, kind = "plane", point = {0, 0, 0}, normal = {1, 0, 0}}
wall.create{id = 3, kind = "plane", point = {L, 0, 0}, normal = {-1, 0, 0}}
wall.create{id = 4, kind = "plane", point = {0, 0, 0}, normal = {0, 1, 0}}
wall.create{id = 5, kind = "plane", point = {0, L, 0}, normal = {0, -1, 0}}
-- Balls that escape the box (they should not) would stop the run with a clear error.
model.domain{min = {-0.05, -0.05, -0.05}, max = {L + 0.05, L + 0.05, 1.0}}

-- A loose lattice, 15 x 15 per layer, filled from the bottom, each ball nudged sideways so the
-- columns do not stack perfectly.
local per_side = math.floor((L - 2 * rmax) / spacing) + 1
local n = 0
local layer = 0
while n < N do
  for i = 0, per_side - 1 do
    for j = 0, per_side - 1 do
      if n < N then
        n = n + 1
        local r = rmin + (rmax - rmin) * rand()
        local jx, jy = (rand() - 0.5) * 5e-4, (rand() - 0.5) * 5e-4
        ball.create{id = n, rad = r, density = 2500,
                    pos = {rmax + 0.0005 + i * spacing + jx, rmax + 0.0005 + j * spacing + jy,
                           rmax + 0.002 + layer * spacing}}
      end
    end
  end
  layer = layer + 1
end

model.timestep{auto = true}

local function mean_height()
  local s = 0
  for _, id in ipairs(ball.list()) do s = s + ball.pos(id)[3] end
  return s / ball.count()
end
local function max_speed()
  local m = 0
  for _, id in ipairs(ball.list()) do
    local v = ball.vel(id)
    local s = math.sqrt(v[1] * v[1] + v[2] * v[2] + v[3] * v[3])
    if s > m then m = s end
  end
  return m
end
history.add("mean_z", mean_height)
history.add("max_speed", max_speed)
history.add("contacts", function() return contact.count() end)

local z0 = mean_height()
local t0 = os.clock()
model.solve{time = T, history_interval = 200}
local cpu = os.clock() - t0
history.export("pour_3d.csv")

local bb, bw = 0, 0
for _, cp in ipairs(contact.list()) do
  if contact.active(cp) then
    if contact.ends(cp) == "ball-ball" then bb = bb + 1 else bw = bw + 1 end
  end
end
print(string.format("balls %d, steps %d, model time %.3f s, last dt %.3g s, cpu %.2f s",
                    ball.count(), model.step(), model.time(), model.timestep(), cpu))
print(string.format("mean height %.4f m -> %.4f m, max speed %.3g m/s", z0, mean_height(),
                    max_speed()))
print(string.format("active contacts: %d ball-ball, %d ball-wall; mean coordination %.2f",
                    bb, bw, 2 * bb / ball.count()))
