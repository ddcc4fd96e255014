-- Deleting many balls at once: a cubic lattice of N^3 touching balls (N = 30 by default: 27 000
-- balls, about 78 000 contacts; BENCH_N sets N), the upper half given a speed that takes it out
-- of the model domain (condition "destroy") in one step. Prints the time of that step, the
-- balls and contacts before and after. The deletion is one pass over the balls and one over the
-- contacts, so its time grows linearly with the model (it was a pass over every contact per
-- ball deleted: quadratic).
-- Run: cairn run bench/delete_many.lua   (BENCH_N=60 for 216 000 balls, 108 000 deleted)
local N = tonumber(os.getenv("BENCH_N") or 30)
model.new{dim = 3}
contact.cmat_default{model = "null"} -- contacts that carry no force: no runaway check
local r = 0.5
specimen.lattice{kind = "cubic", rad = r, n = {N, N, N}, spacing = 2 * r * (1 - 1e-4)}
local top = 2 * r * (N - 1)
model.domain{min = {-1, -1, -1}, max = {top + 1, top + 1, top + 0.5}, condition = "destroy"}
model.timestep{fix = 1e-3}
model.cycle(1) -- contacts formed
local nb, nc = ball.count(), contact.count()
local leaving = 0
for _, id in ipairs(ball.list()) do
  if ball.pos(id)[3] > 0.5 * top then
    ball.vel(id, {0, 0, 1e5})
    leaving = leaving + 1
  end
end
local t0 = os.clock()
model.cycle(1)
local t = os.clock() - t0
print(string.format("delete_many: %d balls, %d contacts; %d deleted in one step of %.3f s; " ..
                    "%d balls, %d contacts left", nb, nc, model.destroyed(), t, ball.count(),
                    contact.count()))
assert(model.destroyed() == leaving)
