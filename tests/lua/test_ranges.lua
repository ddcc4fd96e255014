-- Ranges of balls (docs/scripting.md, "Selecting balls"): in_box, in_sphere and in_cylinder,
-- alone and combined with each other and with in_group, in every call that selects balls
-- (ball.list, ball.count, ball.attribute, ball.fix, ball.free, contact.bond), against a count by
-- hand of the balls whose centres lie inside; boundaries count as inside; bad ranges are refused
-- with one sentence and change nothing.
local function check(cond, what) if not cond then error("FAILED: " .. what, 2) end end
local function refused(f, pattern, what)
  local ok, err = pcall(f)
  check(not ok, what .. ": accepted")
  check(tostring(err):find(pattern, 1, true), what .. ": message '" .. tostring(err) ..
        "' lacks '" .. pattern .. "'")
end

model.new{dim = 3}
-- a 10 x 10 x 10 lattice of overlapping balls (contacts between neighbours), centres at
-- integers 0 .. 9 times 2 mm
local id = 0
for i = 0, 9 do for j = 0, 9 do for k = 0, 9 do
  id = id + 1
  ball.create{id = id, rad = 0.00101, density = 2500, pos = {0.002 * i, 0.002 * j, 0.002 * k},
              group = (i + j + k) % 2 == 0 and "even" or "odd"}
end end end

-- the count by hand
local function count(pred)
  local n = 0
  for _, b in ipairs(ball.list()) do if pred(ball.pos(b), ball.group(b)) then n = n + 1 end end
  return n
end
local e = 1e-12 -- lattice points on a boundary are inside; the range is given with a little slack
local box = {min = {0.002 * 2 - e, 0.002 * 3 - e, -e}, max = {0.002 * 5 + e, 0.002 * 9 + e, 0.002 * 1 + e}}
local in_box = function(p)
  for c = 1, 3 do if p[c] < box.min[c] or p[c] > box.max[c] then return false end end
  return true
end
check(ball.count{in_box = box} == 4 * 7 * 2, "in_box: 4 x 7 x 2 balls, got " .. ball.count{in_box = box})
check(#ball.list{in_box = box} == ball.count{in_box = box}, "ball.list and ball.count agree")

local sphere = {centre = {0.009, 0.009, 0.009}, radius = 0.005}
local in_sphere = function(p)
  local d2 = 0
  for c = 1, 3 do d2 = d2 + (p[c] - 0.009) ^ 2 end
  return d2 <= 0.005 ^ 2
end
check(ball.count{in_sphere = sphere} == count(in_sphere), "in_sphere")
check(count(in_sphere) > 0, "the sphere holds balls")

-- a cylinder along z through (0.006, 0.006), radius 3 mm, from z = 2 mm to 12 mm
local cyl = {from = {0.006, 0.006, 0.002}, to = {0.006, 0.006, 0.012}, radius = 0.003 + e}
local in_cyl = function(p)
  local d2 = (p[1] - 0.006) ^ 2 + (p[2] - 0.006) ^ 2
  return d2 <= cyl.radius ^ 2 and p[3] >= 0.002 - e and p[3] <= 0.012 + e
end
check(ball.count{in_cylinder = cyl} == count(in_cyl), "in_cylinder: " .. ball.count{in_cylinder = cyl} ..
      " against " .. count(in_cyl))
-- a slanted cylinder: the same test by projection
local slant = {from = {0, 0, 0}, to = {0.018, 0.018, 0.018}, radius = 0.0025}
local in_slant = function(p)
  local a = {0.018, 0.018, 0.018}
  local t = (p[1] * a[1] + p[2] * a[2] + p[3] * a[3]) / (3 * 0.018 ^ 2)
  if t < 0 or t > 1 then return false end
  local d2 = 0
  for c = 1, 3 do d2 = d2 + (p[c] - t * a[c]) ^ 2 end
  return d2 <= 0.0025 ^ 2
end
check(ball.count{in_cylinder = slant} == count(in_slant), "a slanted in_cylinder")

-- combined: every option must hold
local both = function(p, g) return in_box(p) and g == "even" end
check(ball.count{in_box = box, in_group = "even"} == count(both), "in_box with in_group")
check(ball.count{in_box = box, in_sphere = sphere} ==
      count(function(p) return in_box(p) and in_sphere(p) end), "in_box with in_sphere")
check(ball.count{in_group = "nobody"} == 0, "a group no ball has selects none")

-- the calls that change balls take the same ranges
ball.attribute{in_sphere = sphere, group = "core"}
check(ball.count{in_group = "core"} == count(in_sphere), "ball.attribute on in_sphere")
ball.fix{"velocity", in_box = box, in_group = "odd"}
local fixed = 0
for _, b in ipairs(ball.list()) do if ball.fixed(b).xvelocity then fixed = fixed + 1 end end
check(fixed == count(function(p, g) return in_box(p) and g == "odd" end), "ball.fix on a range")
ball.free{"velocity", in_box = box}
for _, b in ipairs(ball.list()) do check(not ball.fixed(b).xvelocity, "ball.free on a range") end

-- contact.bond: contacts with a ball in the range
contact.cmat_default{model = "linear", kn = 1e5, ks = 1e5}
model.cycle(1)
local want, all = 0, 0
for _, cp in ipairs(contact.list()) do
  local _, a, b = contact.ends(cp)
  all = all + 1
  if in_sphere(ball.pos(a)) or in_sphere(ball.pos(b)) then want = want + 1 end
end
local bonded = contact.bond{model = "linearcbond", in_sphere = sphere, cb_tenf = 1, cb_shearf = 1}
local got = 0
for _, cp in ipairs(contact.list()) do
  if contact.model(cp) == "linearcbond" then got = got + 1 end
end
check(bonded == want and got == want and want > 0 and want < all,
      "contact.bond on in_sphere: " .. bonded .. " bonded, " .. got .. " now bonded, " .. want ..
      " with a ball in the sphere, of " .. all)

-- refused: one sentence, nothing changed
local before = ball.count{in_group = "core"}
refused(function() ball.attribute{in_box = {min = {1, 1, 1}, max = {0, 2, 2}}, group = "x"} end,
        "ball.attribute: in_box: min must not exceed max", "min above max")
refused(function() ball.count{in_sphere = {centre = {0, 0, 0}, radius = -1}} end,
        "ball.count: in_sphere: radius must be a finite number > 0", "negative radius")
refused(function() ball.list{in_cylinder = {from = {0, 0, 0}, to = {0, 0, 0}, radius = 1}} end,
        "from and to must differ", "a cylinder without an axis")
refused(function() ball.count{in_box = {lo = {0, 0, 0}, max = {1, 1, 1}}} end,
        "in_box: unknown key 'lo'; the keys are: min, max", "an unknown key")
refused(function() ball.fix{"velocity", id = 1, in_box = box} end,
        "give at most one of id, ids and a range", "id with a range")
refused(function() ball.count{in_ball = box} end, "unknown option 'in_ball'", "an unknown option")
check(ball.count{in_group = "core"} == before, "a refused call changed nothing")
print("ranges ok: box, sphere, cylinder, group and their combinations")
