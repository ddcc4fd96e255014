-- Size distribution of a generated specimen against the requested one: 20 000 spheres in a box
-- with a sieve curve (percent passing by mass, linear in the diameter between sieves). By mass
-- means the number density of diameters on a bin is proportional to (dP/dd) / d^3 (a ball's
-- mass goes as d^3), so the number CDF the radii must follow is, bin by bin,
--   F(d) ~ sum of full bins + dP_k/(d_{k+1} - d_k) * (d_k^-2 - d^-2) / 2,
-- written out here independently of the C code. Check: the Kolmogorov-Smirnov distance D between
-- the radii and F stays below the 1 % critical value sqrt(ln(200)/2)/sqrt(n) = 1.628/sqrt(n)
-- (asymptotic, accurate for n this large). Also: the mass fraction passing each sieve, from
-- the specimen, against the curve, within 0.02: a mass fraction from n draws has a sampling
-- spread of about cv(d^3)/sqrt(n) < 1/sqrt(20000) = 0.007, so this is about 3 of them.
local dia = {0.008, 0.012, 0.016, 0.024}
local pass = {0, 20, 60, 100}
local n = 20000
model.new{dim = 3}
local info = specimen.generate{shape = "box", min = {0, 0, 0}, max = {0.4, 0.4, 0.4}, count = n,
                               size = {kind = "curve", diameter = dia, passing = pass}, seed = 2024}
local function bin_w(k, d) -- number weight of bin k up to diameter d
  local dp = (pass[k + 1] - pass[k]) / 100
  return dp / (dia[k + 1] - dia[k]) * (dia[k] ^ -2 - d ^ -2) / 2
end
local total = 0
for k = 1, #dia - 1 do total = total + bin_w(k, dia[k + 1]) end
local function cdf(d)
  local acc = 0
  for k = 1, #dia - 1 do
    if d >= dia[k + 1] then
      acc = acc + bin_w(k, dia[k + 1])
    elseif d > dia[k] then
      acc = acc + bin_w(k, d)
    end
  end
  return acc / total
end
local d = {}
for i, id in ipairs(ball.list()) do d[i] = 2 * ball.rad(id) end
table.sort(d)
local D = 0
for i = 1, #d do
  local F = cdf(d[i])
  D = math.max(D, i / #d - F, F - (i - 1) / #d)
end
verify.check{quantity = "count", sim = info.count, ref = n, tol = 0}
verify.check{quantity = "KS distance (n=" .. #d .. ")", sim = D, ref = 0,
             tol = math.sqrt(math.log(200) / 2) / math.sqrt(#d), kind = "abs"}
-- Mass passing each inner sieve: sum of d^3 below it over the total.
local m_all = 0
for i = 1, #d do m_all = m_all + d[i] ^ 3 end
for k = 2, #dia - 1 do
  local m_below = 0
  for i = 1, #d do if d[i] <= dia[k] then m_below = m_below + d[i] ^ 3 end end
  local p = pass[k] / 100
  verify.check{quantity = string.format("mass passing %g", dia[k]), sim = m_below / m_all, ref = p,
               tol = 0.02, kind = "abs"}
end
print(string.format("# %d balls, porosity of the box %.4f", info.count, info.porosity))
