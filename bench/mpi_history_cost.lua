-- The cost of history samples under MPI (docs/parallel.md, Gathering): the granular benchmark's
-- lattice of n^3 spheres, pressed (spacing 1.999 r), cycled in ten calls of 20 steps (each after
-- the first must go on from the last call's division, with nothing gathered), then 100 steps
-- with three histories sampled at every step (a region's stress and porosity over a box of 0.6
-- of each side in the middle, contact.count). Rank 0 prints the step's time without and with the
-- samples, and how many calls resumed and how many times the model was gathered.
-- Run: CAIRN_BENCH_N=40 mpirun -np 2 -x CAIRN_BENCH_N build-mpi/cairn run bench/mpi_history_cost.lua
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local S = dofile(here .. "granular/scenario.lua")
local n = math.tointeger(tonumber(os.getenv("CAIRN_BENCH_N") or "20"))
assert(n and n >= 2, "CAIRN_BENCH_N must be a whole number of 2 or more")
S.model()
local balls = n * n * n
local L = S.lattice(n, 1.999)
S.box(L)
model.cycle(50)
local t0 = model.wallclock()
local resumed, gathers = 0, 0
for _ = 1, 10 do
  model.cycle(20)
  local r = model.ranks()
  if r.resumed then resumed = resumed + 1 end
  gathers = gathers + r.gathers
end
local t_plain = (model.wallclock() - t0) / 200
-- a history sample every step: a region's stress and porosity, the contacts
local m = measure.create{shape = "box", min = {0.2 * L, 0.2 * L, 0.2 * L},
                         max = {0.8 * L, 0.8 * L, 0.8 * L}}
history.add("szz", function() return m:stress("zz") end)
history.add("por", function() return m:porosity() end)
history.add("contacts", function() return contact.count() end)
history.interval(1)
t0 = model.wallclock()
model.cycle(100)
local t_hist = (model.wallclock() - t0) / 100
local rr = model.ranks()
if rr.rank == 0 then
  io.stderr:write(string.format("%d balls on %d ranks: of the 10 calls after the first, %d " ..
                                "resumed, %d gatherings, divided at the end: %s; a step %.2f " ..
                                "ms, with 3 samples %.2f ms (%d gatherings)\n", balls, rr.count,
                                resumed, gathers, tostring(not rr.whole), 1e3 * t_plain,
                                1e3 * t_hist, rr.gathers))
end
