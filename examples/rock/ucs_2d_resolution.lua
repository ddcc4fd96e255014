-- ctest: long
-- Does the measured strength depend on the ball size? The UCS test of ucs_2d.lua with the same
-- micro properties (moduli, stiffness ratios, strengths and their spread, friction) at two
-- resolutions: the small size (about 500 disks) and the full size (balls half as large, about
-- 2 000 disks), three seeds each. Prints the mean and standard deviation of the peak strength,
-- Young's modulus and Poisson's ratio for each, and stops with an error unless the mean peak
-- strengths of the two resolutions differ by no more than chance allows (Welch's t-test at the
-- two-sided 95 % level, from the seed-to-seed standard deviations): the check docs/rock.md
-- states.
-- Writes ucs_2d_resolution.csv (one row per run). About 3 minutes on one core.
-- Run: cairn run examples/rock/ucs_2d_resolution.lua
local rows, stats = {}, {}
for _, size in ipairs({"small", "full"}) do
  local peaks, moduli, nus = {}, {}, {}
  for seed = 1, 3 do
    local r = lab.ucs{dim = 2, seed = seed, size = size}
    lab.check("ucs_2d_resolution", r)
    rows[#rows + 1] = {size = size == "small" and 0 or 1, seed = seed, balls = r.balls,
                       peak_MPa = r.peak_MPa, E_GPa = r.E_GPa, nu = r.nu, cracks = r.cracks,
                       cpu_s = r.cpu_s}
    peaks[seed], moduli[seed], nus[seed] = r.peak_MPa, r.E_GPa, r.nu
    print(string.format("%-5s seed %d: %4d disks, peak %.2f MPa, E %.2f GPa, nu %.3f, %.1f s",
                        size, seed, r.balls, r.peak_MPa, r.E_GPa, r.nu, r.cpu_s))
  end
  local function mean_sd(x)
    local m, v = 0, 0
    for _, a in ipairs(x) do m = m + a / #x end
    for _, a in ipairs(x) do v = v + (a - m) ^ 2 / (#x - 1) end
    return m, math.sqrt(v)
  end
  local s = {}
  s.peak, s.peak_sd = mean_sd(peaks)
  s.E, s.E_sd = mean_sd(moduli)
  s.nu, s.nu_sd = mean_sd(nus)
  stats[size] = s
  print(string.format("%-5s: peak %.2f +- %.2f MPa, E %.2f +- %.2f GPa, nu %.3f +- %.3f", size,
                      s.peak, s.peak_sd, s.E, s.E_sd, s.nu, s.nu_sd))
end
lab.rock.write_csv("ucs_2d_resolution.csv", {"size", "seed", "balls", "peak_MPa", "E_GPa", "nu",
                                         "cracks", "cpu_s"}, rows)
-- The two means differ by chance alone by about their standard error; a resolution effect would
-- show as a difference well beyond it. With three seeds a side the standard deviations are
-- themselves rough, so the difference is judged as Welch's t-test does, at the two-sided 95 %
-- level: against the Student t quantile for the Welch degrees of freedom (about 3 to 4 here,
-- where the quantile is about 3), not against the normal distribution's 2, which would call a
-- chance difference significant far more often than one time in twenty.
local n = 3
local d = stats.full.peak - stats.small.peak
local v1, v2 = stats.small.peak_sd ^ 2 / n, stats.full.peak_sd ^ 2 / n
local se = math.sqrt(v1 + v2)
local dof = (v1 + v2) ^ 2 / (v1 ^ 2 / (n - 1) + v2 ^ 2 / (n - 1))
-- t(0.975, dof), interpolated in 1 / dof between tabulated values (dof from 2 to infinity)
local t_table = {{2, 4.303}, {3, 3.182}, {4, 2.776}, {5, 2.571}, {6, 2.447}, {8, 2.306},
                 {10, 2.228}, {20, 2.086}, {30, 2.042}, {math.huge, 1.960}}
local function t975(nu)
  if nu <= 2 then return t_table[1][2] end
  for i = 2, #t_table do
    local a, b = t_table[i - 1], t_table[i]
    if nu <= b[1] then
      local x, xa, xb = 1 / nu, 1 / a[1], 1 / b[1]
      return a[2] + (b[2] - a[2]) * (x - xa) / (xb - xa)
    end
  end
  return 1.960
end
local limit = t975(dof) * se
print(string.format("mean peak strength: full size %.2f MPa, small size %.2f MPa: %+.1f %% " ..
                    "(%.2f MPa; standard error of the difference %.2f MPa, %.1f degrees of " ..
                    "freedom, 95 %% limit %.2f MPa)",
                    stats.full.peak, stats.small.peak, 100 * d / stats.small.peak, d, se, dof,
                    limit))
if math.abs(d) > limit then
  error(string.format("ucs_2d_resolution: the mean peak strengths differ by %.2f MPa, beyond the " ..
                      "95 %% limit of a chance difference (%.2f MPa: Welch's t-test)",
                      math.abs(d), limit))
end
