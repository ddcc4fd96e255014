-- Strain rate of a lattice moving with a uniform velocity field v = -D x + v0 (D symmetric): the
-- least-squares fit recovers the compression-positive strain rate D exactly, whatever the
-- region (the field is linear). Closed form: D itself. Tolerance 1e-12 absolute (rates of
-- order 0.1): the fit is a 3x3 solve on centred sums, exact but for round-off.
local D = {{0.1, 0.02, -0.01}, {0.02, -0.05, 0.03}, {-0.01, 0.03, 0.2}}
model.new{dim = 3}
specimen.lattice{kind = "fcc", rad = 0.5, n = {5, 5, 5}}
for _, id in ipairs(ball.list()) do
  local x = ball.pos(id)
  local v = {}
  for i = 1, 3 do
    v[i] = 0.3 * i
    for j = 1, 3 do v[i] = v[i] - D[i][j] * x[j] end
  end
  ball.vel(id, v)
end
local sph = measure.create{shape = "sphere", centre = {3.4, 3.6, 3.5}, radius = 2.5}
local e = sph:strain_rate()
local worst = 0
for i = 1, 3 do
  for j = 1, 3 do worst = math.max(worst, math.abs(e[i][j] - D[i][j])) end
end
verify.check{quantity = "max |e_ij - D_ij|", sim = worst, ref = 0, tol = 1e-12, kind = "abs"}
verify.check{quantity = "volumetric rate", sim = sph:strain_rate("vol"), ref = 0.25, tol = 1e-12}
