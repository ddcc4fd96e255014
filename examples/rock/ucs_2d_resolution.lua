-- ctest: long
-- Does the measured strength depend on the ball size? The UCS test of ucs_2d.lua with the same
-- micro properties (moduli, stiffness ratios, strengths and their spread, friction) at two
-- resolutions: the small size (about 500 disks) and the full size (balls half as large, about
-- 2 000 disks), three seeds each. Prints the mean and standard deviation of the peak strength,
-- Young's modulus and Poisson's ratio for each, and stops with an error unless the mean peak
-- strengths of the two resolutions lie within two standard errors of their difference (from
-- the seed-to-seed standard deviations): the spread docs/rock.md states.
-- Writes ucs_2d_resolution.csv (one row per run). About 3 minutes on one core.
-- Run: cairn run examples/rock/ucs_2d_resolution.lua
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local rock = dofile(here .. "rock.lua")
local rows, stats = {}, {}
for _, size in ipairs({"small", "full"}) do
  local peaks, moduli, nus = {}, {}, {}
  for seed = 1, 3 do
    local r = rock.ucs{dim = 2, seed = seed, size = size}
    rock.check("ucs_2d_resolution", r)
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
rock.write_csv("ucs_2d_resolution.csv", {"size", "seed", "balls", "peak_MPa", "E_GPa", "nu",
                                         "cracks", "cpu_s"}, rows)
-- The two means differ by chance alone by about their standard error; a resolution effect
-- would show as a difference well beyond it: two standard errors is the spread allowed.
local n = 3
local d = stats.full.peak - stats.small.peak
local se = math.sqrt(stats.small.peak_sd ^ 2 / n + stats.full.peak_sd ^ 2 / n)
print(string.format("mean peak strength: full size %.2f MPa, small size %.2f MPa: %+.1f %% " ..
                    "(%.2f MPa; two standard errors of the difference: %.2f MPa)",
                    stats.full.peak, stats.small.peak, 100 * d / stats.small.peak, d, 2 * se))
if math.abs(d) > 2 * se then
  error(string.format("ucs_2d_resolution: the mean peak strengths differ by %.2f MPa, more than " ..
                      "two standard errors of the difference (%.2f MPa)", math.abs(d), 2 * se))
end
