-- A ball's several contacts with one mesh wall (docs/meshes.md, "Concave corners"): balls packed
-- into an open box that is one mesh (a floor and four sides, their edges and corners concave)
-- touch two or three of its faces at once; the run is the same bits on 1 and 2 threads and after
-- a save and restore in the middle; contact.find and contact.ends name each of a ball's contacts
-- with the mesh; bad arguments are refused with one sentence.
local function check(cond, what) if not cond then error("FAILED: " .. what, 2) end end
local stl = dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "../../verification/lib/stl.lua")
local path = os.tmpname()
local L, H = 0.032, 0.03
local function sq(a, b, c, d) return {a, b, c}, {a, c, d} end
local tris = {}
for _, f in ipairs{{{0, 0, 0}, {L, 0, 0}, {L, L, 0}, {0, L, 0}}, {{0, 0, 0}, {0, L, 0}, {0, L, H}, {0, 0, H}},
                   {{L, 0, 0}, {L, 0, H}, {L, L, H}, {L, L, 0}}, {{0, 0, 0}, {0, 0, H}, {L, 0, H}, {L, 0, 0}},
                   {{0, L, 0}, {L, L, 0}, {L, L, H}, {0, L, H}}} do
  local a, b = sq(f[1], f[2], f[3], f[4])
  tris[#tris + 1] = a
  tris[#tris + 1] = b
end
stl.write(path, tris)

local function build(threads)
  model.threads(threads)
  model.new{dim = 3}
  model.gravity{-9.81, -9.81, -9.81} -- (towards the corner at the origin)
  contact.cmat_default{model = "linear", kn = 1e4, ks = 5e3, fric = 0.1, dp_nratio = 0.2,
                       dp_sratio = 0.1}
  wall.mesh{file = path, id = 7}
  local id, seed = 0, 11
  local function rnd() seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648 end
  for i = 0, 15 do for j = 0, 15 do for k = 0, 9 do
    id = id + 1
    ball.create{id = id, rad = 0.001 * (1 - 0.02 * rnd()), density = 2500,
                pos = {0.001 + 0.002 * i, 0.001 + 0.002 * j, 0.001 + 0.002 * k},
                vel = {0.1 * (rnd() - 0.5), 0.1 * (rnd() - 0.5), -0.1 * rnd()}}
  end end end
  model.timestep{fix = 5e-6}
end
local function state()
  local out = {}
  for _, b in ipairs(ball.list()) do
    local p, v, w = ball.pos(b), ball.vel(b), ball.spin(b)
    out[#out + 1] = string.format("%a %a %a %a %a %a %a %a %a", p[1], p[2], p[3], v[1], v[2],
                                  v[3], w[1], w[2], w[3])
  end
  return table.concat(out, "\n")
end
-- how many balls touch the mesh at two and at three places
local function multiple()
  local per = {}
  for _, cp in ipairs(contact.list("ball-wall")) do
    local _, b = contact.ends(cp)
    per[b] = (per[b] or 0) + 1
  end
  local two, three = 0, 0
  for _, n in pairs(per) do
    if n == 2 then two = two + 1 elseif n >= 3 then three = three + 1 end
  end
  return two, three
end

build(1)
model.cycle(3000)
local two, three = multiple()
check(two > 20 and three >= 1, "balls along the box's edges and in its corners touch two and " ..
      "three faces: " .. two .. " and " .. three)
-- every ball stays inside the box (a single contact per ball and mesh lets corner balls through)
for _, b in ipairs(ball.list()) do
  local p, r = ball.pos(b), ball.rad(b)
  check(p[1] > 0.5 * r and p[2] > 0.5 * r and p[3] > 0.5 * r and p[1] < L - 0.5 * r and
        p[2] < L - 0.5 * r, "ball " .. b .. " stays inside the box")
end
local save = os.tmpname()
model.save(save)
model.cycle(1000)
local one = state()
model.restore(save)
model.cycle(1000)
check(state() == one, "restored in the middle, the run goes on bit for bit")
build(2)
model.cycle(4000)
check(state() == one, "2 threads give the bits of 1")
model.threads(1)
os.remove(save)

-- naming a ball's contacts with the mesh: the corner ball (id 1 at the corner (0, 0, 0))
model.new{dim = 3}
contact.cmat_default{model = "linear", kn = 1e4, ks = 5e3, fric = 0.4}
wall.mesh{file = path, id = 7}
ball.create{id = 1, rad = 0.001, pos = {0.0009, 0.00095, 0.00098}, density = 2500}
model.cycle(1)
local seen = {}
for n = 1, 3 do
  local cp = contact.find("ball-wall", 1, 7, n)
  check(cp, "contact.find names the ball's contact " .. n .. " with the mesh")
  local kind, b, w, which = contact.ends(cp)
  check(kind == "ball-wall" and b == 1 and w == 7 and which == n, "contact.ends: " ..
        tostring(kind) .. " " .. tostring(b) .. " " .. tostring(w) .. " " .. tostring(which))
  local nrm = contact.normal(cp)
  for k = 1, 3 do if math.abs(nrm[k]) > 0.99 then seen[k] = true end end
end
check(seen[1] and seen[2] and seen[3], "its three contacts push along x, y and z")
check(contact.find("ball-wall", 1, 7) == contact.find("ball-wall", 1, 7, 1), "the first by default")
check(tostring(contact.find("ball-wall", 1, 7, 2)):find("its contact 2 with the mesh", 1, true),
      "a handle says which contact it is: " .. tostring(contact.find("ball-wall", 1, 7, 2)))
local ok, err = pcall(contact.find, "ball-wall", 1, 7, 4)
check(not ok and tostring(err):find("1 to 3", 1, true), "a fourth contact refused: " .. tostring(err))
ok, err = pcall(contact.find, "ball-ball", 1, 2, 2)
check(not ok and tostring(err):find("mesh wall", 1, true), "ball-ball with a fourth argument: " ..
      tostring(err))

-- a ball sliding up across a concave crease (a floor, then a slope of 30 degrees) with a large
-- proximity (0.02 m): the contact with the floor follows the floor's edge once the ball's foot
-- has left the floor (its normal turning, its gap growing) instead of taking the slope's place or
-- being left on its last geometry, while the slope's contact keeps the slope's normal
local s30, c30 = math.sin(math.rad(30)), math.cos(math.rad(30))
stl.write(path, {{{-1, -1, 0}, {0, -1, 0}, {0, 1, 0}}, {{-1, -1, 0}, {0, 1, 0}, {-1, 1, 0}},
                 {{0, -1, 0}, {c30, -1, s30}, {c30, 1, s30}}, {{0, -1, 0}, {c30, 1, s30}, {0, 1, 0}}})
model.new{dim = 3}
model.gravity{0, 0, -9.81}
contact.cmat_default{model = "linear", kn = 1e5, ks = 5e4, fric = 0, dp_nratio = 0.9,
                     proximity = 0.02}
wall.mesh{file = path, id = 7}
ball.create{id = 1, rad = 0.05, pos = {-0.12, 0, 0.0499}, vel = {0.6, 0, 0}, density = 2500}
model.timestep{fix = 1e-5}
local worst, far, turned = 0, -1, 0
callback.on("after_force", function()
  local p = ball.pos(1)
  far = math.max(far, p[1])
  local n = 0
  for _, cp in ipairs(contact.list("ball-wall")) do
    n = n + 1
    local nrm, gap = contact.normal(cp), contact.gap(cp)
    -- a contact's normal points from its point to the centre: its point is the centre less
    -- (r + gap) along it, on the surface (the floor z = 0 for x <= 0, the slope beyond)
    local q = {p[1] - (0.05 + gap) * nrm[1], p[3] - (0.05 + gap) * nrm[3]}
    worst = math.max(worst, q[1] <= 0 and math.abs(q[2]) or math.abs(-s30 * q[1] + c30 * q[2]))
    if nrm[1] > 0 then turned = math.max(turned, nrm[1]) end -- the floor's edge
    check(not (nrm[1] < 0 and math.abs(nrm[1] + s30) > 1e-12), "a slope contact keeps its normal")
  end
  check(n <= 2, "at most two contacts on a crease")
end)
model.cycle(30000)
callback.off("after_force")
check(worst < 1e-9, "every contact's point lies on the surface: off by " .. worst)
check(far > 0.005, "the ball's centre passed the crease: x up to " .. far)
check(turned > 0.05, "the floor's contact followed the floor's edge: normal x up to " .. turned)
os.remove(path)
