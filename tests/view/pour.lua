-- A pour of about 1 100 spheres into a box, for the live view's test (live_check.py): STEPS
-- steps (default 20 000), a history with a unit, and at the end a hash of the positions (%a:
-- every bit), which must be the same with the view as without.
model.new{dim = 3}
model.gravity{0, 0, -9.81}
wall.box{min = {0, 0, 0}, max = {0.1, 0.1, 0.2}}
contact.cmat_default{model = "linear", kn = 1e5, ks = 5e4, fric = 0.3, dp_nratio = 0.2}
specimen.generate{shape = "box", min = {0, 0, 0}, max = {0.1, 0.1, 0.2}, porosity = 0.7,
                  size = {kind = "uniform", rmin = 0.004, rmax = 0.006}, seed = 3, density = 2500}
model.timestep{fix = 2e-5}
history.add("zmean", function()
  local s, n = 0, 0
  for _, id in ipairs(ball.list()) do s, n = s + ball.pos(id)[3], n + 1 end
  return s / n
end, "m")
history.interval(200)
model.cycle(tonumber(os.getenv("STEPS") or "20000"))
local h = 0
for _, id in ipairs(ball.list()) do
  local p = ball.pos(id)
  h = h + p[1] * 1.1 + p[2] * 1.3 + p[3] * 1.7
end
print(string.format("hash %a", h))
