-- ball.extra (docs/scripting.md): up to 16 numbers per ball for a script, 0 until set, kept by
-- ball (not by place: they follow the ball through cairn's re-sorting), saved and restored with
-- the model, gone with the ball.
local function check(cond, what) if not cond then error("FAILED: " .. what, 2) end end
model.new{dim = 3}
contact.cmat_default{model = "linear", kn = 1e4, ks = 5e3, fric = 0.3}
model.gravity{0, 0, -9.81}
wall.box{min = {0, 0, 0}, max = {0.1, 0.1, 0.2}}
specimen.generate{shape = "box", min = {0, 0, 0}, max = {0.1, 0.1, 0.2}, count = 200, seed = 4,
                  size = {kind = "uniform", rmin = 0.004, rmax = 0.006}, density = 2000}
check(ball.extra(7, 1) == 0, "0 until set")
for _, id in ipairs(ball.list()) do
  ball.extra(id, 1, id * 10)
  ball.extra(id, 16, -id)
end
model.timestep{fix = 1e-5}
model.cycle(2000) -- the balls fall and are re-sorted by cell
for _, id in ipairs(ball.list()) do
  check(ball.extra(id, 1) == id * 10 and ball.extra(id, 16) == -id, "ball " .. id .. "'s values")
end
local path = os.tmpname()
model.save(path)
ball.delete(7)
ball.create{id = 7, rad = 0.005, pos = {0.05, 0.05, 0.19}}
check(ball.extra(7, 1) == 0, "a new ball 7 starts at 0")
model.restore(path)
os.remove(path)
check(ball.extra(7, 1) == 70 and ball.extra(200, 16) == -200, "restored with the model")
for _, bad in ipairs{0, 17} do
  local ok, err = pcall(function() ball.extra(1, bad, 1) end)
  check(not ok and err:find("from 1 to 16", 1, true), "index " .. bad .. ": " .. tostring(err))
end
local ok, err = pcall(function() ball.extra(999, 1) end)
check(not ok and err:find("999", 1, true), "an unknown ball: " .. tostring(err))
print("ball.extra: all checks passed")
