-- MPI test (tests/mpi/run.sh): a periodic cell divided among the ranks. Spheres in a fully
-- periodic cell are pressed by the cell's stress control on every axis, then sheared fast
-- (cell.rate{xz = ...}, z held by the control) until the cell's tilted edge is flipped back
-- (a shear strain past 0.5), with histories of the cell's stress and volume sampled inside the
-- calls. The bricks are cut in the cell's fractional coordinates and deform with it; balls near
-- a face are ghosts on the ranks across it. Every rank count must give the serial run's files bit
-- for bit, with the model divided and never gathered between the calls.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local dump = dofile(here .. "dump.lua")
model.new{dim = 3}
local L = 0.03
cell.create{min = {0, 0, 0}, max = {L, L, L}}
contact.cmat_default{model = "linear", kn = 2e6, ks = 1e6, fric = 0.3, dp_nratio = 0.1}
local rand = dump.random(5)
local n, m = 0, 7
for k = 0, m - 1 do
  for j = 0, m - 1 do
    for i = 0, m - 1 do
      n = n + 1
      ball.create{id = n, rad = 0.0014 + 0.0006 * rand(), density = 2650, damp = 0.3,
                  pos = {(i + 0.5 + 0.3 * (rand() - 0.5)) * L / m,
                         (j + 0.5 + 0.3 * (rand() - 0.5)) * L / m,
                         (k + 0.5 + 0.3 * (rand() - 0.5)) * L / m},
                  vel = {(rand() - 0.5) * 0.05, (rand() - 0.5) * 0.05, (rand() - 0.5) * 0.05}}
    end
  end
end
model.timestep{auto = true}
energy.track(true)
cell.servo{axis = "xyz", stress = 2e5, rate_max = 200.0}
history.add("sxz", function() return cell.stress("xz") end)
history.add("szz", function() return cell.stress("zz") end)
history.add("volume", function() return cell.volume() end)
history.add("contacts", function() return contact.count{active = true} end)
history.interval(100)
model.cycle(3000)
local r = dump.report()
assert(r.count == 1 or r.decomposed, "the periodic cell's run was not divided")
-- shear: x moving with z, z under stress control, x and y fixed
cell.servo{axis = "xy", off = true}
cell.rate{xx = 0, yy = 0, xz = 300.0}
local figures = {}
for call = 1, 6 do
  model.cycle(500)
  r = model.ranks()
  assert(r.count == 1 or (r.resumed and r.gathers == 0 and not r.whole),
         "call " .. call .. " divided or gathered the model")
  local e = cell.edges()
  figures[#figures + 1] = string.format("%a %a %a %a %a", cell.stress("xz"), cell.volume(),
                                        e[3][1], cell.strain()[1][3], (model.ratio()))
end
-- the shear strain passed 0.5: the cell's z edge was flipped back (it leans less than half of x)
assert(cell.strain()[1][3] > 0.55, "the shear did not reach a flip: " .. cell.strain()[1][3])
assert(math.abs(cell.edges()[3][1]) <= 0.5 * cell.edges()[1][1] + 1e-12, "the edge was not flipped")
dump.figures(figures)
history.export("history.csv")
dump.write("dump.txt")
dump.report()
