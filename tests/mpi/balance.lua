-- MPI test (tests/mpi/run.sh): the ranks' balance. Balls poured into a tall box fall from a
-- lattice high above the floor and settle in a layer at its bottom, so bricks cut evenly over
-- the lattice would leave the upper ranks with nothing; the cuts follow the balls instead (at
-- each call's division, and at rebuilds while a rank owns more than 1.05 times the mean). At the
-- end of the pour call, and after a call on the settled layer, no rank may own more than 1.10
-- times the mean number of balls. The files must be the one-rank run's, bit for bit.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local dump = dofile(here .. "dump.lua")
local N, L = 2000, 0.16
local rmin, rmax, spacing = 0.004, 0.006, 0.013
local rand = dump.random(12345)
model.new{dim = 3}
model.gravity{0, 0, -9.81}
contact.cmat_default{model = "linear", kn = 2e4, ks = 1e4, fric = 0.5, dp_nratio = 0.3}
wall.create{id = 1, kind = "plane", point = {0, 0, 0}, normal = {0, 0, 1}}
wall.create{id = 2, kind = "plane", point = {0, 0, 0}, normal = {1, 0, 0}}
wall.create{id = 3, kind = "plane", point = {L, 0, 0}, normal = {-1, 0, 0}}
wall.create{id = 4, kind = "plane", point = {0, 0, 0}, normal = {0, 1, 0}}
wall.create{id = 5, kind = "plane", point = {0, L, 0}, normal = {0, -1, 0}}
local per_side = math.floor((L - 2 * rmax) / spacing) + 1
local n, layer = 0, 0
while n < N do
  for i = 0, per_side - 1 do
    for j = 0, per_side - 1 do
      if n < N then
        n = n + 1
        ball.create{id = n, rad = rmin + (rmax - rmin) * rand(), density = 2500,
                    pos = {rmax + 0.0005 + i * spacing + (rand() - 0.5) * 5e-4,
                           rmax + 0.0005 + j * spacing + (rand() - 0.5) * 5e-4,
                           rmax + 0.002 + layer * spacing}}
      end
    end
  end
  layer = layer + 1
end
model.timestep{auto = true}
history.interval(500)
history.add("mean_z", function()
  local s = 0
  for _, id in ipairs(ball.list()) do s = s + ball.pos(id)[3] end
  return s / ball.count()
end)
model.solve{time = 0.5}
local function check(what)
  local r = dump.report(string.format(" balance %.3f recuts %d (%s)", model.ranks().balance,
                                      model.ranks().recuts, what))
  if r.count > 1 and not (r.balance <= 1.10) then
    error(string.format("%s: a rank owns %.3f times the mean number of balls", what, r.balance))
  end
  return r
end
local r = check("the pour")
if r.count > 1 and r.recuts == 0 then error("the pour moved no cut") end
model.cycle(200)
check("the settled layer")
history.export("history.csv")
dump.write("dump.txt")
