-- ctest: full
-- Grain shape and strength: the drained biaxial test of biaxial_2d.lua run three times, on disks
-- and on clumps of aspect ratio 1.5 (two overlapping disks, centres one radius apart) and 2 (three
-- in a row, centres one radius apart), each clump of its disk's area (clump.replace_balls on the
-- same generated packing, turned at random). Elongated grains interlock and resist rolling, so
-- their peak and residual friction angles are higher than round ones' (the trend the DEM
-- literature reports, e.g. Azema and Radjai for 2D elongated particles). Writes
-- biaxial_shape_2d/biaxial_shape_2d.csv (the mobilised friction angle of the three against axial
-- strain) and .png, and prints each test's peak and residual friction angles.
-- Run: cairn run examples/labtests/biaxial_shape_2d.lua  (LAB_SIZE=full for ~1 850 grains)
local size = os.getenv("LAB_SIZE")
local shapes = {
  {name = "disks", label = "disks", aspect = 1},
  {name = "clumps_1_5", label = "clumps, aspect 1.5", aspect = 1.5,
   pebbles = {{-0.25, 0, 0.5}, {0.25, 0, 0.5}}},
  {name = "clumps_2", label = "clumps, aspect 2", aspect = 2,
   pebbles = {{-0.5, 0, 0.5}, {0, 0, 0.5}, {0.5, 0, 0.5}}},
}
local results = {}
for i, s in ipairs(shapes) do
  results[i] = lab.biaxial{name = "biaxial_shape_2d_" .. s.name,
                           title = "drained biaxial test, " .. s.label, size = size,
                           clump = s.pebbles}
  lab.check(results[i].name, results[i])
end

-- The three friction-angle curves on one grid of axial strain (linear between samples).
local function curve(name)
  local path = string.format("biaxial_shape_2d_%s/biaxial_shape_2d_%s.csv", name, name)
  local f = assert(io.open(path))
  local head = {}
  for c in f:read("l"):gmatch("[^,]+") do head[#head + 1] = c end
  local col = {}
  for i, c in ipairs(head) do col[c] = i end
  local e, phi = {}, {}
  for line in f:lines() do
    local v = {}
    for x in line:gmatch("[^,]+") do v[#v + 1] = tonumber(x) end
    e[#e + 1], phi[#phi + 1] = v[col.axial_strain], v[col.phi_deg]
  end
  f:close()
  return function(x)
    for j = 2, #e do
      if e[j] >= x then return phi[j - 1] + (phi[j] - phi[j - 1]) * (x - e[j - 1]) / (e[j] - e[j - 1]) end
    end
    return phi[#phi]
  end
end
local fs = {}
for i, s in ipairs(shapes) do fs[i] = curve(s.name) end
os.execute("mkdir -p biaxial_shape_2d")
local out = assert(io.open("biaxial_shape_2d/biaxial_shape_2d.csv", "w"))
out:write("step,time,axial_strain,phi_disks,phi_aspect_1_5,phi_aspect_2\n")
local top = size == "full" and 0.15 or 0.10
for j = 0, 200 do
  local x = top * j / 200
  if x < 0.002 then x = 0.002 end
  out:write(string.format("%d,0,%.6g,%.6g,%.6g,%.6g\n", j, x, fs[1](x), fs[2](x), fs[3](x)))
end
out:close()
plot.history{csv = "biaxial_shape_2d/biaxial_shape_2d.csv", out = "biaxial_shape_2d/biaxial_shape_2d.png",
             x = "axial_strain", y = {"phi_disks", "phi_aspect_1_5", "phi_aspect_2"},
             labels = {"disks", "clumps, aspect 1.5", "clumps, aspect 2"},
             title = string.format("drained biaxial tests at 100 kPa, %d grains each",
                                   results[1].balls),
             xlabel = "axial strain [-]", ylabel = "mobilised friction angle [deg]"}
for i, s in ipairs(shapes) do
  print(string.format("biaxial_shape_2d: %-20s peak %.1f deg, residual %.1f deg", s.label,
                      results[i].peak, results[i].residual))
end
if not (results[3].peak > results[1].peak and results[3].residual > results[1].residual) then
  error("biaxial_shape_2d: the elongated clumps are not stronger than the disks")
end
