-- MPI test (tests/mpi/run.sh, under CAIRN_MPI_GRID=2,2,2 on 8 ranks, 2,2,1, 1,2,2 and 4,1,1 on 4):
-- balls that fly across every face, edge and corner between the bricks, and bonded pairs that cross
-- together with a shear velocity between them, so that their contact's history (shear force,
-- bond state) crosses with them while for some steps its two balls are owned by different
-- ranks. The balls lie about evenly on either side of 0.5 along each axis (four fixed balls at
-- corners of the unit cube, the others near the middle), so the cuts, at the balls' medians,
-- start near 0.5; with so few balls per rank they move at most rebuilds (docs/parallel.md,
-- Bricks), which the crossing balls and bonds must survive too. Every rank count must give the
-- serial run's dump bit for bit.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local dump = dofile(here .. "dump.lua")
model.new{dim = 3}
contact.cmat_default{model = "linear", kn = 1e5, ks = 5e4, fric = 0.5, dp_nratio = 0.1}
-- the flying balls pass through the others (the null model: contacts without force)
contact.cmat_add{group = "fly", kind = "ball-ball", model = "null"}
local id = 0
local function add(pos, vel, group, rad)
  id = id + 1
  ball.create{id = id, rad = rad or 0.02, density = 1000, pos = pos, vel = vel or {0, 0, 0},
              group = group}
  return id
end
for _, c in ipairs{{0, 0, 0}, {1, 1, 1}, {1, 0, 0}, {0, 1, 1}} do
  ball.fix{"velocity", "spin", id = add(c)}
end
-- 26 directions: each small ball starts 0.03 short of the cuts it crosses (a component that
-- does not move sits in a quarter of the box picked by the direction)
local flying = {}
for dx = -1, 1 do
  for dy = -1, 1 do
    for dz = -1, 1 do
      if dx ~= 0 or dy ~= 0 or dz ~= 0 then
        local d = {dx, dy, dz}
        local p, v = {}, {}
        local norm = math.sqrt(dx * dx + dy * dy + dz * dz)
        for k = 1, 3 do
          p[k] = d[k] ~= 0 and 0.5 - 0.03 * d[k]
                 or 0.2 + 0.6 * ((dx + 2 * dy + 3 * dz + 6 + k) % 2)
          v[k] = 1.0 * d[k] / norm
        end
        flying[#flying + 1] = {add(p, v, "fly", 0.005), d}
      end
    end
  end
end
-- bonded pairs: the two balls touch and slide past each other (a shear velocity between them)
-- while both cross one cut, two or three; the first pair lies along its motion, so that its
-- leading ball crosses well before the other and for a while its contact joins balls owned by
-- different ranks
local crossings = {{1, 0, 0}, {0, 1, 1}, {1, 1, 1}, {-1, 1, -1}}
for n, dir in ipairs(crossings) do
  local base = {}
  for k = 1, 3 do base[k] = dir[k] ~= 0 and 0.5 - 0.06 * dir[k] or (n % 2 == 0 and 0.25 or 0.75) end
  local a = {base[1], base[2], base[3]}
  local b = {base[1], base[2], base[3]}
  local along = n == 1 and 1 or (dir[3] == 0 and 3 or (dir[2] == 0 and 2 or 1))
  b[along] = b[along] + 0.0399
  local v = {0.6 * dir[1], 0.6 * dir[2], 0.6 * dir[3]}
  local shear = along == 1 and 2 or 1
  local va, vb = {v[1], v[2], v[3]}, {v[1], v[2], v[3]}
  va[shear] = va[shear] + 0.01
  vb[shear] = vb[shear] - 0.01
  add(a, va, "pair")
  add(b, vb, "pair")
end
model.clean()
local bonded = contact.bond{model = "linearcbond", in_group = "pair", kn = 1e5, ks = 5e4,
                            cb_tenf = 1e3, cb_shearf = 1e3}
assert(bonded == #crossings, "every pair bonded (" .. bonded .. ")")
model.timestep{auto = true}
model.cycle(1000)
dump.write("dump.txt")
local r = dump.report()
if r.count > 1 and r.rank == 0 then
  -- with a cut across every axis, every flying ball and both balls of every pair moved to
  -- another rank at least once; with fewer cuts, most of them
  local all = r.grid[1] == 2 and r.grid[2] == 2 and r.grid[3] == 2
  assert(r.moved >= (all and 26 + 2 * #crossings or 20), "balls moved between ranks: " .. r.moved)
  -- a rebuild exchanges with the ranks of the neighbouring bricks alone, unless some rank must
  -- send farther: never on a grid of 2 a side (every brick touches every other); on a row of 4
  -- bricks, thinner than the ghosts' reach, some rebuilds do and the others do not (both ways
  -- are taken, and must give the same bits)
  if r.grid[1] <= 2 and r.grid[2] <= 2 and r.grid[3] <= 2 then
    assert(r.spread == 0, "exchanges beyond the neighbours on a grid of 2 a side: " .. r.spread)
  elseif r.grid[1] == 4 then
    assert(r.spread > 0 and r.spread < r.exchanges, "exchanges beyond the neighbours on a row " ..
           "of 4 bricks: " .. r.spread .. " of " .. r.exchanges)
  end
end
-- each flying ball ended beyond every cut it was sent across
for _, f in ipairs(flying) do
  local p = ball.pos(f[1])
  for k = 1, 3 do
    if f[2][k] ~= 0 then assert((p[k] - 0.5) * f[2][k] > 0, "ball " .. f[1] .. " crossed") end
  end
end
