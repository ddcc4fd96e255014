-- A periodic cell saved and restored: a packing under stress control on y, sheared in xy, saved
-- half way; the restored run continues bit for bit (positions, velocities, spins, the cell's
-- edges and stress), with its contacts across the faces.
local function build()
  model.new{dim = 2}
  contact.cmat_default{model = "linear", kn = 1e5, ks = 5e4, fric = 0.5, dp_nratio = 0.1}
  cell.create{min = {0, 0}, max = {1, 1}}
  specimen.generate{shape = "box", min = {0, 0}, max = {1, 1}, count = 150, seed = 4,
                    density = 2650, size = {kind = "uniform", rmin = 0.02, rmax = 0.03}}
  ball.attribute{damp = 0.5}
  model.timestep{auto = true}
  cell.servo{axis = "xy", stress = 1e4, rate_max = 0.5}
  model.cycle(3000)
  cell.servo{axis = "x", off = true}
  cell.rate{xx = 0, xy = 0.2}
end

local function state()
  local t = {}
  for _, id in ipairs(ball.list()) do
    for _, v in ipairs(ball.pos(id)) do t[#t + 1] = v end
    for _, v in ipairs(ball.vel(id)) do t[#t + 1] = v end
    t[#t + 1] = ball.spin(id)
  end
  for _, e in ipairs(cell.edges()) do for _, v in ipairs(e) do t[#t + 1] = v end end
  for _, row in ipairs(cell.stress()) do for _, v in ipairs(row) do t[#t + 1] = v end end
  t[#t + 1] = contact.count()
  return t
end

build()
model.cycle(500)
model.save("periodic.sav")
model.cycle(700)
local want = state()
local across = 0 -- contacts whose balls are more than half the cell apart: across a face
for _, cp in ipairs(contact.list()) do
  local _, a, b = contact.ends(cp)
  if math.abs(ball.pos(a)[1] - ball.pos(b)[1]) > 0.5 or math.abs(ball.pos(a)[2] - ball.pos(b)[2]) > 0.5 then
    across = across + 1
  end
end
model.new{dim = 2} -- (no cell: the restore brings it)
model.restore("periodic.sav")
if not cell.exists() or #cell.periodic() ~= 2 then print("FAILED: the cell was not restored") end
model.cycle(700)
local got = state()
local bad = #got ~= #want and 1 or 0
for i = 1, #want do if got[i] ~= want[i] then bad = bad + 1 end end
if bad > 0 or across == 0 then
  print(string.format("FAILED: %d values differ after the restore (%d contacts across faces)",
                      bad, across))
else
  print(string.format("restored periodic run continues bit for bit (%d values, %d contacts "
                      .. "across faces)", #want, across))
end
