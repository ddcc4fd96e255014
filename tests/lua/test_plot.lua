-- plot.history draws histories with gnuplot into a PNG, SVG or PDF, one quantity to a panel
-- unless asked for one axis, with the histories' units in the header and the axis labels; a bad
-- request fails clearly and leaves no file behind.
local function check(cond, what) if not cond then error("FAILED: " .. what, 2) end end
model.new{dim = 2}
model.gravity{0, -9.81}
ball.create{id = 1, rad = 0.1, pos = {0, 1}}
model.timestep{fix = 1e-3}
history.add("y", function() return ball.pos(1)[2] end)
history.add("y_exact", function() local t = model.time(); return 1 - 9.81 * t * t / 2 end)
model.cycle(200)
os.remove("fall.png"); os.remove("fall.svg")
plot.history{out = "fall.png", y = {"y", "y_exact"}, title = "free fall", xlabel = "t [s]",
             ylabel = "y [m]"}
local f = io.open("fall.png", "rb")
check(f and f:read(4) == "\137PNG", "fall.png is a PNG")
f:close()
history.export("fall.csv")
plot.history{csv = "fall.csv", out = "fall.svg"}
f = io.open("fall.svg", "r")
check(f and f:read("a"):find("<svg", 1, true), "fall.svg is an SVG")
f:close()
local ok, msg = pcall(function() plot.history{out = "bad.png", y = {"nosuch"}} end)
check(not ok and msg:find("has no column 'nosuch'; its columns are: step, time, y", 1, true),
      "unknown column, named with the file's columns: " .. tostring(msg))
ok, msg = pcall(function() plot.history{csv = "fall.csv", out = "bad.png", y2 = {"nosuch"}} end)
check(not ok and msg:find("has no column 'nosuch' (for the second axis); its columns are: step", 1,
                          true), "unknown second-axis column: " .. tostring(msg))
check(io.open("bad.png") == nil, "no image left after a failed plot")
ok, msg = pcall(function() plot.history{out = "bad.jpg"} end)
check(not ok and msg:find("must end in .png, .svg or .pdf", 1, true),
      "bad extension: " .. tostring(msg))
-- a second axis, legends in words and a logarithmic axis: the SVG carries the legends
plot.history{csv = "fall.csv", out = "fall2.svg", y = {"y"}, y2 = {"y_exact"}, y2label = "y [m]",
             labels = {"height", "closed form"}, logy = true}
f = io.open("fall2.svg", "r")
local svg = f and f:read("a") or ""
if f then f:close() end
check(svg:find("closed form", 1, true) and svg:find("height", 1, true), "legends in fall2.svg")
ok, msg = pcall(function() plot.history{csv = "fall.csv", out = "bad.png", y = {"y"},
                                        labels = {"a", "b"}} end)
check(not ok and msg:find("one legend per series", 1, true), "labels length: " .. tostring(msg))
-- styles: one per series, in words; an unknown one or a wrong count is an error
plot.history{csv = "fall.csv", out = "fall3.svg", y = {"y", "y_exact"},
             styles = {"points", "line"}}
f = io.open("fall3.svg", "r")
check(f and f:read("a"):find("<svg", 1, true), "fall3.svg is an SVG")
f:close()
ok, msg = pcall(function() plot.history{csv = "fall.csv", out = "bad.png", y = {"y"},
                                        styles = {"wiggly"}} end)
check(not ok and msg:find("unknown style 'wiggly'", 1, true), "unknown style: " .. tostring(msg))
check(io.open("bad.png") == nil, "no image left after an unknown style")
ok, msg = pcall(function() plot.history{csv = "fall.csv", out = "bad.png", y = {"y"},
                                        styles = {"line", "points"}} end)
check(not ok and msg:find("one style per series", 1, true), "styles length: " .. tostring(msg))

-- Units and panels. The SVG's text elements are what the reader sees: the y labels of the panels
-- (one a quantity) or of the one axis.
local function labels_of(path)
  local fh = assert(io.open(path))
  local out = {}
  for t in fh:read("a"):gmatch("<text[^>]*>(.-)</text>") do out[#out + 1] = t end
  fh:close()
  return table.concat(out, "|")
end
local function count(s, pat) return select(2, s:gsub(pat, "")) end
history.clear()
history.add("h", function() return ball.pos(1)[2] end, "m")
history.add("h_exact", function() local t = model.time(); return 1 - 9.81 * t * t / 2 end, "m")
history.add("v", function() return ball.vel(1)[2] end, "m/s")
history.add("n", function() return model.step() end)
check(history.unit("h") == "m" and history.unit("v") == "m/s" and history.unit("n") == nil,
      "history.unit")
model.cycle(100)
history.export("units.csv")
local fh = io.open("units.csv")
local header = fh:read("l")
fh:close()
check(header == "step,time,h [m],h_exact [m],v [m/s],n", "units in the CSV header: " .. header)
-- three quantities: m (h with its reference), m/s and n's; a panel each
plot.history{out = "panels.svg"}
local t = labels_of("panels.svg")
check(t:find("|h [m]|", 1, true) and t:find("|v [m/s]|", 1, true) and t:find("|n|", 1, true),
      "a panel per quantity, labelled with its unit: " .. t)
check(count(t .. "|", "|time|") == 1, "the x axis named once, under the last panel: " .. t)
-- (each axis has its own x tics: their count is the count of axes)
local function axes(s) return count(s .. "|", "| 0.21|") end
check(axes(t) == 3, "three panels: " .. t)
-- the same from the exported file, columns asked by name without their unit
plot.history{csv = "units.csv", out = "panels2.svg", y = {"h", "v"}}
t = labels_of("panels2.svg")
check(t:find("|h [m]|", 1, true) and t:find("|v [m/s]|", 1, true) and axes(t) == 2,
      "panels from a CSV: " .. t)
-- one axis when asked: together, or a y label of one's own
plot.history{csv = "units.csv", out = "one.svg", y = {"h", "v"}, together = true}
t = labels_of("one.svg")
check(axes(t) == 1 and t:find("v [m/s]", 1, true), "together: one axis, the units in the legend")
plot.history{csv = "units.csv", out = "one2.svg", y = {"h", "v"}, ylabel = "state"}
t = labels_of("one2.svg")
check(count(t .. "|", "|state|") == 1 and axes(t) == 1, "one axis for a ylabel: " .. t)
-- a PDF
plot.history{csv = "units.csv", out = "panels.pdf"}
fh = io.open("panels.pdf", "rb")
check(fh and fh:read(5) == "%PDF-", "panels.pdf is a PDF")
fh:close()
-- a bad unit is refused, naming the history
ok, msg = pcall(function() history.add("w", function() return 0 end, "k[Pa]") end)
check(not ok and msg:find("history 'w': its unit 'k[Pa]' must not hold a comma, quote, bracket",
                          1, true), "bad unit: " .. tostring(msg))
ok, msg = pcall(function() history.add("w", function() return 0 end, "") end)
check(not ok and msg:find("must have 1 to 31 characters", 1, true), "empty unit: " .. msg)
-- units go with a save and come back with a restore
model.save("units.sav")
model.new{dim = 2}
model.restore("units.sav")
check(history.unit("h") == "m" and history.unit("v") == "m/s" and history.unit("n") == nil,
      "units restored")
history.add("h", function() return 0 end) -- attached again: keeps its unit
check(history.unit("h") == "m", "a restored history attached again keeps its unit")
-- no temporary files are left beside the outputs
local p = io.popen("ls")
local listing = p:read("a")
p:close()
check(not listing:find("tmp%-") and not listing:find("%.gp%-") and not listing:find("%.data%-"),
      "temporary files left: " .. listing)
print("plot ok")
