-- The lab module (docs/scripting.md, "lab"): a small biaxial test and a coarse UCS run whole,
-- their results checked against what their own files and curves give when read back (the peak
-- and residual friction angles from the history CSV, the UCS's peak, modulus and Poisson's
-- ratio by a least-squares fit done here), a biaxial test with the membrane; then every refusal of a bad option, each reported at
-- this file's line of the call, with the model left as it was.
local function fail(msg) error("FAILED: " .. msg, 2) end
local function near(a, b, tol, what)
  if not (math.abs(a - b) <= tol * math.max(1, math.abs(b))) then
    fail(string.format("%s: %.12g against %.12g", what, a, b))
  end
end

-- A CSV file's columns by name.
local function read_csv(path)
  local f = assert(io.open(path))
  local names, cols = {}, {}
  for c in f:read("l"):gmatch("[^,]+") do names[#names + 1] = c; cols[c] = {} end
  for line in f:lines() do
    local i = 0
    for x in line:gmatch("[^,]+") do
      i = i + 1
      table.insert(cols[names[i]], tonumber(x))
    end
  end
  f:close()
  return cols
end

-- 1. A drained biaxial test, 71 disks, 2 % of axial strain: seconds.
local r = lab.biaxial{name = "lab_quick", L = {0.02, 0.04}, strain_end = 0.02}
if r.test ~= "lab.biaxial" or r.name ~= "lab_quick" then fail("the result's test and name") end
if r.balls ~= ball.count() or r.balls < 50 then fail("balls: " .. r.balls) end
if model.dim() ~= 2 then fail("a biaxial test is 2D") end
local h = read_csv("lab_quick/lab_quick.csv")
local peak, res, n = -math.huge, 0, 0
for i, phi in ipairs(h.phi_deg) do
  peak = math.max(peak, phi)
  if h.axial_strain[i] >= 0.8 * 0.02 then res, n = res + phi, n + 1 end
end
-- the CSV holds 10 significant digits
near(r.peak, peak, 1e-9, "peak friction angle against the CSV's")
near(r.residual, res / n, 1e-9, "residual friction angle against the CSV's")
if not (h.axial_strain[#h.axial_strain] >= 0.02) then fail("the test stopped early") end
if not io.open("lab_quick/lab_quick.png") then fail("no figure") end
-- the specimen's picture, where VTK's Python modules and an X server are there to draw it
local can_draw = os.execute("/usr/bin/python3 -c 'import vtkmodules.vtkRenderingOpenGL2' " ..
                            "2>/dev/null && command -v xvfb-run >/dev/null")
if not io.open("lab_quick/lab_quick.pvd") then fail("no VTK snapshot of the specimen") end
if can_draw and not io.open("lab_quick/lab_quick_specimen.png") then fail("no specimen picture") end
lab.check("lab_quick", r) -- quasi-static, a dense soil's angles

-- 2. A UCS of a coarse bonded specimen (radii 2.5 times the small size's).
local u = lab.ucs{scale = 2.5, out = "lab_ucs/ucs"}
if u.test ~= "lab.ucs" then fail("the UCS result's test") end
local top, ipk = -math.huge, 0
for i, row in ipairs(u.rows) do if row.stress_MPa > top then top, ipk = row.stress_MPa, i end end
near(u.peak_MPa, top, 0, "UCS peak against its curve")
-- Young's modulus and Poisson's ratio: least squares between 5 % and 25 % of the peak
local sx, sy, sxx, sxy, sl, sxl, m = 0, 0, 0, 0, 0, 0, 0
local started = false
for i = 1, ipk do
  local row = u.rows[i]
  if row.stress_MPa >= 0.05 * top then started = true end
  if started and row.stress_MPa <= 0.25 * top then
    local x = row.axial_strain
    sx, sy, sxx, sxy = sx + x, sy + row.stress_MPa, sxx + x * x, sxy + x * row.stress_MPa
    sl, sxl, m = sl + row.lateral_strain, sxl + x * row.lateral_strain, m + 1
  end
end
if m < 3 then fail("too few samples on the rising curve: " .. m) end
near(u.E_GPa, (m * sxy - sx * sy) / (m * sxx - sx * sx) / 1e3, 1e-6, "Young's modulus")
near(u.nu, -(m * sxl - sx * sl) / (m * sxx - sx * sx), 1e-6, "Poisson's ratio")
local curve = read_csv("lab_ucs/ucs_curve.csv")
if #curve.stress_MPa ~= #u.rows then fail("the curve's CSV rows") end
if not io.open("lab_ucs/ucs.pvd") then fail("no VTK series") end
if can_draw and not io.open("lab_ucs/ucs_cracks.png") then fail("no picture of the cracks") end
lab.check("ucs", u)

-- 2b. A biaxial test of the coarse specimen with the membrane (lab.rock_triaxial's membrane):
-- it fails above the confinement and above the UCS, and takes its loads off at the end. Then
-- lab.rock.membrane itself on what is left (the two platens and the broken specimen): the
-- outermost ball of each band on each side pushed in by the confinement times the band's
-- height, so that each side's loads sum to the confinement times the platens' gap (1e-12), and
-- no load once stopped. Its files under 'out': the curve (its peak the result's), the cracks.
local m = lab.rock_triaxial{scale = 2.5, confinement = 2e6, membrane = true,
                            out = "lab_membrane/membrane"}
if not (m.peak_MPa > u.peak_MPa and m.peak_MPa > 2) then
  fail(string.format("confined peak %.2f MPa against the UCS's %.2f", m.peak_MPa, u.peak_MPa))
end
local mc = read_csv("lab_membrane/membrane_curve.csv")
local mpeak = -math.huge
for _, x in ipairs(mc.stress_MPa) do mpeak = math.max(mpeak, x) end
near(mpeak, m.peak_MPa, 1e-9, "the membrane test's peak from its CSV")
if not io.open("lab_membrane/membrane_cracks.csv") then fail("no cracks CSV from 'out'") end
local function loads()
  local left, right, n = 0, 0, 0
  for _, id in ipairs(ball.list()) do
    local f = ball.force_app(id)
    if f[2] ~= 0 then fail("a membrane load along the axis") end
    if f[1] > 0 then left = left + f[1] elseif f[1] < 0 then right = right - f[1] end
    if f[1] ~= 0 then n = n + 1 end
  end
  return left, right, n
end
if select(3, loads()) ~= 0 then fail("the membrane's loads stayed on after the test") end
local platens = wall.list()
table.sort(platens, function(a, b) return lab.rock.wall_level(2, a) < lab.rock.wall_level(2, b) end)
local gap = lab.rock.wall_level(2, platens[2]) - lab.rock.wall_level(2, platens[1])
local band = 3e-3
local update, width, stop = lab.rock.membrane(platens[1], platens[2], 2e6, band)
update()
local left, right, n = loads()
local bands = math.floor(gap / band + 0.5)
for _, side in ipairs{left, right} do
  if math.abs(side / (2e6 * gap) - 1) > 1e-12 then
    fail(string.format("a side's membrane loads sum to %.9g N/m, not %.9g", side, 2e6 * gap))
  end
end
if n < bands or n > 2 * bands or not (width() > 0) then
  fail(string.format("%d balls loaded for %d bands, width %g", n, bands, width()))
end
stop()
if select(3, loads()) ~= 0 then fail("the membrane's loads stayed on after stop()") end

-- 3. Refusals: one sentence naming the option, at this file's line of the call; nothing run.
local count, steps = ball.count(), model.step()
local function refused(f, want)
  local line = debug.getinfo(2, "l").currentline
  local ok, msg = pcall(f)
  if ok then fail("accepted; wanted: " .. want) end
  if not msg:find("^.-test_lab%.lua:" .. line .. ": ") then
    fail("not reported at line " .. line .. ": " .. msg)
  end
  if not msg:find(want, 1, true) then fail("message: " .. msg .. "\n  wanted: " .. want) end
  if ball.count() ~= count or model.step() ~= steps then fail("a refused call changed the model") end
end
refused(function() lab.biaxial{fo = 1} end, "lab.biaxial: unknown option 'fo'; it takes L, clump")
refused(function() lab.biaxial(3) end, "lab.biaxial takes a table of options")
refused(function() lab.biaxial{size = "medium"} end,
        "lab.biaxial: option 'size' must be \"small\" or \"full\" (got medium)")
refused(function() lab.triaxial{kn = -1} end, "lab.triaxial: option 'kn' must be a positive number")
refused(function() lab.triaxial{p0 = 0 / 0} end, "option 'p0' must be a positive number")
refused(function() lab.biaxial{rmin = 2e-3, rmax = 1e-3} end,
        "option 'rmin' (0.002) is larger than 'rmax' (0.001)")
refused(function() lab.biaxial{name = "../x"} end, "option 'name' must be a word")
refused(function() lab.biaxial{name = "a b"} end, "option 'name' must be a word")
refused(function() lab.triaxial{L = {0.03, 0.06}} end, "option 'L' must be the box's 3 sizes")
refused(function() lab.biaxial{L = {0.05, -1}} end, "(L[2] is -1)")
refused(function() lab.biaxial{strain_end = 1.5} end, "'strain_end' must lie between 0 and 1")
refused(function() lab.simple_shear{porosity0 = 0} end, "'porosity0' must lie between 0 and 1")
refused(function() lab.simple_shear{gamma = 1} end, "lab.simple_shear: unknown option 'gamma'")
refused(function() lab.ucs{dim = 4} end, "lab.ucs: option 'dim' must be 2 or 3 (got 4)")
refused(function() lab.ucs{material = "granite"} end,
        "option 'material' must be \"pbond\" or \"flatjoint\" (got granite)")
refused(function() lab.ucs{seed = 1.5} end, "option 'seed' must be a whole number")
refused(function() lab.ucs{props = 1} end, "option 'props' must be a table")
refused(function() lab.brazilian{dim = 3} end, "lab.brazilian: option 'dim' must be 2 (got 3)")
refused(function() lab.rock_triaxial{} end, "option 'confinement' must be a positive number")
refused(function() lab.rock_triaxial{confinement = 1e6, joint = {angle = 30}} end,
        "option 'joint' must be {angle = DEGREES, fric = MU}")
refused(function() lab.rock_triaxial{confinement = 1e6, membrane = 1} end,
        "option 'membrane' must be true or false (got 1)")
refused(function() lab.rock_triaxial{confinement = 1e6, membrane = true, dim = 3} end,
        "option 'membrane' is for 2D specimens (dim = 2)")
refused(function() lab.check("x", {}) end, "lab.check takes a name and the results")
refused(function() lab.check("x", {test = "lab.ucs", cracks = 0}) end,
        "x: the test did not come out as a rock test should: no bond broke")
refused(function() lab.check("q", {test = "lab.biaxial", inertial = 0.1, peak = 30, residual = 20})
        end, "q: the test was not quasi-static")
refused(function() lab.report("x", r) end, "lab.report takes a name and the results of lab.ucs")
-- lab.rock.write_csv: the named columns to 10 digits; a row without a number leaves no file
lab.rock.write_csv("lab_table.csv", {"a", "b"}, {{a = 1, b = 0.1}, {a = 2.5, b = 1 / 3}})
local f = assert(io.open("lab_table.csv"))
local text = f:read("a")
f:close()
if text ~= "a,b\n1,0.1\n2.5,0.3333333333\n" then fail("write_csv wrote " .. text) end
refused(function() lab.rock.write_csv("lab_bad.csv", {"a", "b"}, {{a = 1, b = 2}, {a = 1}}) end,
        "lab.rock.write_csv: row 2 has no number for column 'b'")
if io.open("lab_bad.csv") then fail("a refused write_csv left a file") end
refused(function() lab.rock.write_csv("lab_bad.csv", {"a", 2}, {}) end,
        "lab.rock.write_csv: column 2 is not a name")
print("lab: biaxial and UCS results match their files, the membrane's loads, write_csv, " ..
      "29 refusals")
