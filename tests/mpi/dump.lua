-- Shared by the MPI tests: write every ball (by id) and every contact (in contact.list order:
-- by ids) with every number as a hexadecimal float ("%a": exact), so that two runs compare bit
-- for bit with cmp. Every rank reads the model (a model divided by the last cycle call is gathered
-- by the first query, which every rank makes alike: docs/parallel.md); rank 0 writes.
local dump = {}

local function hex(v)
  if type(v) == "table" then
    local t = {}
    for i, x in ipairs(v) do t[i] = string.format("%a", x) end
    return table.concat(t, " ")
  end
  if type(v) == "number" then return string.format("%a", v) end
  return tostring(v)
end

function dump.write(path)
  local lines = {}
  local f = {write = function(_, ...) for _, x in ipairs({...}) do lines[#lines + 1] = x end end}
  f:write(string.format("step %d time %s dt %s\n", model.step(), hex(model.time()),
                        hex(model.timestep())))
  local ids = ball.list()
  table.sort(ids)
  for _, id in ipairs(ids) do
    f:write(string.format("ball %d %s | %s | %s | %s\n", id, hex(ball.pos(id)), hex(ball.vel(id)),
                          hex(ball.spin(id)), hex(ball.force(id))))
  end
  for _, cp in ipairs(contact.list()) do
    local props = contact.props(cp)
    local names = {}
    for name in pairs(props) do names[#names + 1] = name end
    table.sort(names)
    local parts = {tostring(cp), hex(contact.force(cp))}
    for _, name in ipairs(names) do parts[#parts + 1] = name .. "=" .. hex(props[name]) end
    f:write(table.concat(parts, " "), "\n")
  end
  for _, id in ipairs(wall.list()) do
    f:write(string.format("wall %d %s\n", id, hex(wall.force(id))))
  end
  local e = energy.tracking() and energy.get() or {}
  local keys = {}
  for k in pairs(e) do keys[#keys + 1] = k end
  table.sort(keys)
  for _, k in ipairs(keys) do f:write(string.format("energy %s %s\n", k, hex(e[k]))) end
  if model.ranks().rank ~= 0 then return end
  local out = assert(io.open(path, "w"))
  out:write(table.concat(lines))
  out:close()
end

-- Lines of figures a test collected (the same on every rank), written by rank 0 to
-- figures.txt, which run.sh compares with the one-rank run's.
function dump.figures(lines)
  if model.ranks().rank ~= 0 then return end
  local f = assert(io.open("figures.txt", "w"))
  f:write(table.concat(lines, "\n"), "\n")
  f:close()
end

-- A 3D scene with every kind of contact list filled: a floor and two side walls, and a bonded
-- block of 4 x 4 x 3 overlapping balls (group "block", ids 999 down to 952) resting on the floor
-- across the middle (x = L / 2). Returns the number of bonds and of balls made.
function dump.bonded_block(L)
  wall.create{id = 1, kind = "plane", point = {0, 0, 0}, normal = {0, 0, 1}}
  wall.create{id = 2, kind = "plane", point = {0, 0, 0}, normal = {1, 0, 0}}
  wall.create{id = 3, kind = "plane", point = {L, 0, 0}, normal = {-1, 0, 0}}
  local n = 0
  for k = 0, 2 do
    for j = 0, 3 do
      for i = 0, 3 do
        n = n + 1
        ball.create{id = 1000 - n, rad = 0.005, density = 2500, group = "block",
                    pos = {0.035 + 0.0099 * i, 0.035 + 0.0099 * j, 0.005 + 0.0099 * k}}
      end
    end
  end
  model.clean()
  local bonded = contact.bond{model = "linearcbond", in_group = "block", kind = "ball-ball",
                              kn = 2e4, ks = 1e4, cb_tenf = 5, cb_shearf = 1}
  return bonded, n
end

-- On standard error (rank 0's, the one printed): what the last cycle call did with the ranks,
-- which run.sh checks ("decomposed true"); 'extra' is appended.
function dump.report(extra)
  local r = model.ranks()
  if r.count > 1 and r.rank == 0 then
    io.stderr:write(string.format("decomposed %s grid %d %d %d moved %d exchanges %d spread %d"
                                  .. " recuts %d%s\n", tostring(r.decomposed), r.grid[1],
                                  r.grid[2], r.grid[3], r.moved, r.exchanges, r.spread, r.recuts,
                                  extra or ""))
  end
  return r
end

-- A stream of pseudo-random numbers in [0, 1) from 'seed': a 32-bit linear congruential
-- generator (Numerical Recipes' constants), the same on every rank and machine.
function dump.random(seed)
  return function()
    seed = (1664525 * seed + 1013904223) % 4294967296
    return seed / 4294967296
  end
end

return dump
