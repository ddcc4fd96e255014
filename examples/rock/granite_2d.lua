-- ctest: full
-- A flat-jointed hard rock in 2D, calibrated to Lac du Bonnet granite (docs/rock.md): the UCS
-- and Brazilian tests of ucs_2d.lua and brazilian_2d.lua with the flat-jointed material
-- (lab.rock.flatjoint_micro), biaxial tests at confinements of 5, 10 and 20 MPa, Hoek and Brown's
-- envelope fitted to them. Prints each macro property against its target and the ratio of the
-- UCS to the Brazilian strength (ucs_2d.lua and brazilian_2d.lua give the parallel-bonded
-- material's, for comparison); writes
-- granite_2d/granite_2d_table.csv and granite_2d/granite_2d_envelope.csv and .png (the measured
-- strengths and the fitted envelope against the confinement). At the small size, where the
-- material was calibrated, it stops with an error if a property is off its target by more than
-- 15 % or the flat joints' UCS / Brazilian ratio is below 10.
-- Run: cairn run examples/rock/granite_2d.lua  (ROCK_SIZE=full for the full size)
local size = os.getenv("ROCK_SIZE") or "small"
os.execute("mkdir -p granite_2d")

-- Lac du Bonnet granite, as calibrations of bonded-particle models quote it (Martin 1993, after
-- Potyondy and Cundall 2004 and Potyondy 2012): round figures
local target = {ucs = 200, bts = 9, E = 69, nu = 0.26}

local u = lab.ucs{dim = 2, seed = 1, size = size, material = "flatjoint"}
local b = lab.brazilian{seed = 1, size = size, material = "flatjoint"}
local confinements = {5, 10, 20}
local s3, s1 = {0}, {u.peak_MPa}
for _, c in ipairs(confinements) do
  local t = lab.rock_triaxial{dim = 2, seed = 1, size = size, material = "flatjoint",
                                 confinement = c * 1e6}
  s3[#s3 + 1], s1[#s1 + 1] = c, t.peak_MPa
end
local m = lab.hoek_brown_m(u.peak_MPa, {table.unpack(s3, 2)}, {table.unpack(s1, 2)})

local rows = {{"UCS [MPa]", u.peak_MPa, target.ucs}, {"Brazilian strength [MPa]", b.tensile_MPa,
              target.bts}, {"Young's modulus [GPa]", u.E_GPa, target.E},
              {"Poisson's ratio", u.nu, target.nu}}
local f = assert(io.open("granite_2d/granite_2d_table.csv.tmp", "w"))
f:write("property,measured,target,measured_over_target\n")
local worst = 0
for _, r in ipairs(rows) do
  print(string.format("granite_2d: %-26s %8.3f  target %7.3f  (%.3f)", r[1], r[2], r[3],
                      r[2] / r[3]))
  f:write(string.format("%s,%.6g,%.6g,%.4f\n", r[1], r[2], r[3], r[2] / r[3]))
  worst = math.max(worst, math.abs(r[2] / r[3] - 1))
end
f:close()
assert(os.rename("granite_2d/granite_2d_table.csv.tmp", "granite_2d/granite_2d_table.csv"))
local ratio = u.peak_MPa / b.tensile_MPa
print(string.format("granite_2d: UCS / Brazilian strength %.1f (%d balls, %d flat-jointed " ..
                    "interfaces; ucs_2d.lua and brazilian_2d.lua give the parallel-bonded " ..
                    "material's, docs/rock.md)", ratio, u.balls, u.bonds))
for i = 2, #s3 do
  print(string.format("granite_2d: biaxial at %g MPa: peak %.1f MPa; Hoek-Brown %.1f MPa", s3[i],
                      s1[i], s3[i] + u.peak_MPa * math.sqrt(m * s3[i] / u.peak_MPa + 1)))
end
print(string.format("granite_2d: Hoek-Brown m_i = %.1f (sigma_c = the UCS, %.1f MPa)", m,
                    u.peak_MPa))
-- The calibration is of seed 1's specimen. Other specimens of the same material (seeds 2 to 4 at
-- the small size) say how far one specimen's figures stand from the material's: printed, not
-- checked.
if size == "small" then
  local runs = {u}
  for seed = 2, 4 do
    runs[seed] = lab.ucs{dim = 2, seed = seed, size = size, material = "flatjoint"}
  end
  local function spread(field)
    local sum, sq = 0, 0
    for _, r in ipairs(runs) do sum = sum + r[field] end
    local mean = sum / #runs
    for _, r in ipairs(runs) do sq = sq + (r[field] - mean) ^ 2 end
    return mean, math.sqrt(sq / (#runs - 1))
  end
  local function each(field, fmt) -- the seeds' values, in order
    local v = {}
    for i, r in ipairs(runs) do v[i] = string.format(fmt, r[field]) end
    return table.concat(v, ", ")
  end
  local um, us = spread("peak_MPa")
  local em, es = spread("E_GPa")
  local nm, ns = spread("nu")
  print(string.format("granite_2d: seeds 1 to 4: UCS %.1f +- %.1f MPa (%s), E %.1f +- %.1f GPa, " ..
                      "nu %.3f +- %.3f (%s)", um, us, each("peak_MPa", "%.1f"), em, es, nm, ns,
                      each("nu", "%.3f")))
end
print(string.format("granite_2d: CPU %.0f s (UCS %.0f, Brazilian %.0f)", os.clock(), u.cpu_s,
                    b.cpu_s))

-- the envelope: the measured strengths and Hoek-Brown's curve through them
local env = {}
for i = 1, #s3 do
  env[i] = {sigma3_MPa = s3[i], sigma1_MPa = s1[i],
            hoek_brown_MPa = s3[i] + u.peak_MPa * math.sqrt(m * s3[i] / u.peak_MPa + 1)}
end
lab.rock.write_csv("granite_2d/granite_2d_envelope.csv", {"sigma3_MPa", "sigma1_MPa",
                                                      "hoek_brown_MPa"}, env)
plot.history{csv = "granite_2d/granite_2d_envelope.csv",
             out = "granite_2d/granite_2d_envelope.png",
             x = "sigma3_MPa", y = {"sigma1_MPa", "hoek_brown_MPa"},
             labels = {"measured (flat joints)", string.format("Hoek-Brown, m_i = %.1f", m)},
             styles = {"linespoints", "line"},
             title = "flat-jointed granite, 2D: strength envelope",
             xlabel = "confining stress sigma_3 [MPa]", ylabel = "peak axial stress sigma_1 [MPa]"}

if size == "small" then
  if worst > 0.15 then
    error(string.format("granite_2d: a macro property is %.0f %% off its target (at most 15 %%)",
                        100 * worst))
  end
  if ratio < 10 then
    error(string.format("granite_2d: UCS / Brazilian strength is %.1f (at least 10)", ratio))
  end
end
