-- plot.history draws histories with gnuplot into a PNG or SVG; a bad request fails clearly and
-- leaves no file behind.
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
check(not ok and msg:find("must end in .png or .svg", 1, true), "bad extension: " .. tostring(msg))
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
-- no temporary files are left beside the outputs
local p = io.popen("ls")
local listing = p:read("a")
p:close()
check(not listing:find("tmp%-") and not listing:find("%.gp%-") and not listing:find("%.data%-"),
      "temporary files left: " .. listing)
print("plot ok")
