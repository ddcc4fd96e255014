-- The cost of a periodic cell against walls (issue 20, item 7): the same 3D specimen, a simple
-- cubic lattice of n^3 touching balls (as bench/'s settled-box-sc scenario), with small random
-- velocities so that contacts open, close and the neighbour list is rebuilt, run for STEPS
-- steps once in a box of six plane walls touching its outer balls and once in a fully periodic
-- cell of the same size, and once more in that cell shearing (cell.rate{xz = 1}: a sheared cell,
-- whose images move). Prints the time per step of each and the ratios.
-- Run: OMP_NUM_THREADS=1 cairn run bench/periodic_cost.lua   (environment: n = 20, STEPS = 1000)
local n = tonumber(os.getenv("n") or "20")
local STEPS = tonumber(os.getenv("STEPS") or "1000")
local r = 0.005
local a = 2 * r * 0.9999 -- a hair of overlap: every neighbour is a contact
local L = n * a

local function build(periodic, shear)
  model.new{dim = 3}
  contact.cmat_default{model = "linear", kn = 1e5, ks = 5e4, fric = 0.5, dp_nratio = 0.05}
  specimen.lattice{kind = "cubic", rad = r, n = {n, n, n}, spacing = a,
                   origin = {a / 2, a / 2, a / 2}, density = 2650}
  if periodic then
    cell.create{min = {0, 0, 0}, max = {L, L, L}}
    if shear then cell.rate{xz = 1.0} end
  else
    for k = 1, 3 do
      local lo, hi, nn = {0, 0, 0}, {0, 0, 0}, {0, 0, 0}
      lo[k], hi[k], nn[k] = a / 2 - r, L - a / 2 + r, 1
      wall.create{kind = "plane", point = lo, normal = nn}
      wall.create{kind = "plane", point = hi, normal = {-nn[1], -nn[2], -nn[3]}}
    end
  end
  local seed = 1
  for _, id in ipairs(ball.list()) do
    local v = {}
    for k = 1, 3 do
      seed = (1103515245 * seed + 12345) % 2147483648
      v[k] = 0.02 * (seed / 2147483648 - 0.5)
    end
    ball.vel(id, v)
  end
  model.timestep{auto = true}
  model.cycle(100)
end

local function timed()
  local r0 = model.step()
  local t0 = os.clock()
  model.cycle(STEPS)
  return (os.clock() - t0) / STEPS, model.step() - r0
end

build(false)
local tw = timed()
local cw = contact.count()
build(true)
local tp = timed()
local cp = contact.count()
build(true, true)
local ts = timed()
print(string.format("%d balls, %d steps: walls %.3f ms/step (%d contacts), periodic %.3f " ..
                    "ms/step (%d contacts), periodic shearing %.3f ms/step: periodic / walls = " ..
                    "%.3f, shearing / walls = %.3f", n ^ 3, STEPS, 1e3 * tw, cw, 1e3 * tp, cp,
                    1e3 * ts, tp / tw, ts / tw))
