-- The message audit (issue: "says what is wrong and what to do"), as tests: for each case the
-- message must contain the sentence given, start with the script's file:line, and must not
-- show what a user should never read: a temporary file's name, NaN printed as "nan"/"-nan", or
-- a count of components where the object belongs to the other dimension.
local dir = "message_audit_dir"
os.execute("rm -rf " .. dir .. " && mkdir -p " .. dir)
local checked = 0

local function says(what, f, want)
  local ok, msg = pcall(f)
  if ok then error("FAILED: " .. what .. ": accepted") end
  msg = tostring(msg)
  if not msg:find(want, 1, true) then
    error("FAILED: " .. what .. ": the message lacks '" .. want .. "': " .. msg)
  end
  if not msg:find("message_audit.lua:%d+:") then error("FAILED: " .. what .. ": no file:line: " .. msg) end
  for _, never in ipairs{".tmp-", ".data-", " nan", "-nan", "(got nan"} do
    if msg:find(never, 1, true) then
      error("FAILED: " .. what .. ": the message shows '" .. never .. "': " .. msg)
    end
  end
  checked = checked + 1
end

model.new{dim = 3}
ball.create{id = 1, rad = 0.1, pos = {0, 0, 0}}
history.add("x", function() return ball.pos(1)[1] end)
model.timestep{fix = 1e-3}
model.cycle(2)

-- a folder where a file is expected
says("save to a folder", function() model.save(dir) end,
     "'" .. dir .. "' is a folder; give the name of a file")
says("save to a folder/", function() model.save(dir .. "/") end, "is a folder; give the name of a file")
says("restore a folder", function() model.restore(dir) end,
     "'" .. dir .. "' is a folder, not a save file; give the path of a file written by model.save")
says("export to a folder", function() history.export(dir) end, "is a folder; give the name of a file")
says("VTK prefix that is a folder", function() vtk.write(dir .. "/") end,
     "names a folder, not a file prefix; give a prefix in it")
says("VTK into a missing folder", function() vtk.write(dir .. "/no/such/x") end,
     "No such file or directory; check that the folder exists")
says("restore a missing file", function() model.restore(dir .. "/none.sav") end,
     "cannot read '" .. dir .. "/none.sav': No such file or directory; check the path")

-- the other dimension's objects: said first, before any count of components
says("a segment in 3D", function() wall.create{kind = "segment", nodes = {{0, 0}, {1, 0}}} end,
     "wall.create: line segments are 2D walls; in 3D use kind = \"plane\" or \"polygon\"")
model.new{dim = 2}
says("a polygon in 2D", function()
  wall.create{kind = "polygon", nodes = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}}}
end, "wall.create: polygons are 3D walls; in 2D use kind = \"segment\"")
says("a plane in 2D", function() wall.create{kind = "plane", point = {0, 0}, normal = {0, 1}} end,
     "wall.create: planes are 3D walls; in 2D use kind = \"segment\"")
says("a cylinder in 2D", function() wall.create{kind = "cylinder"} end,
     "cylinders are 3D walls; in 2D bound the balls with segments")
says("a 3D point with z in 2D", function() ball.create{rad = 0.1, pos = {0, 0, 1}} end,
     "a 2D model has no z component (got 1); give 2 numbers")
model.new{dim = 3}
says("a 2D point in 3D", function() ball.create{rad = 0.1, pos = {0, 0}} end,
     "pos must have 3 components in a 3D model (got 2)")

-- NaN said in words, not as a geometric fact
says("NaN radius", function() ball.create{rad = 0 / 0, pos = {0, 0, 0}} end,
     "option 'rad' is NaN (not a number); give a number")
says("NaN node", function()
  wall.create{kind = "polygon", nodes = {{0, 0, 0}, {1, 0, 0}, {0 / 0, 1, 0}}}
end, "node 3: component 1 is NaN (not a number); give a finite number")
says("NaN normal", function() wall.create{kind = "plane", point = {0, 0, 0}, normal = {0 / 0, 0, 1}} end,
     "normal: component 1 is NaN (not a number)")
says("infinite position", function() ball.create{rad = 0.1, pos = {math.huge, 0, 0}} end,
     "component 1 is +inf; give a finite number")
says("NaN domain", function() model.domain{min = {0, 0, 0}, max = {1, 0 / 0, 1}} end,
     "max: component 2 is NaN (not a number)")

-- the model and the timestep
says("model.new(2)", function() model.new(2) end,
     "model.new: give a table, model.new{dim = 2} (disks) or model.new{dim = 3} (spheres)")
says("a negative timestep", function() model.timestep{fix = -1} end,
     "model.timestep: fix must be a positive time (got -1)")
says("steps per impact", function() model.timestep{impact = -1} end,
     "impact (the least steps per impact) must be in [0, 1e6]")
-- options of the other timestep mode are refused, and the timestep stays as it was
model.timestep{fix = 1e-3}
says("safety with fix", function() model.timestep{fix = 1e-5, safety = 5} end,
     "model.timestep: safety and impact belong to the automatic timestep, not to fix = DT")
says("impact with fix", function() model.timestep{fix = 1e-5, impact = 4} end,
     "model.timestep: safety and impact belong to the automatic timestep, not to fix = DT")
says("strict without fix", function() model.timestep{strict = true} end,
     "model.timestep: strict = true belongs to a fixed timestep; give it with fix = DT")
says("auto = false", function() model.timestep{auto = false} end,
     "model.timestep: auto = false chooses no timestep; give fix = DT for a fixed one")
if model.timestep() ~= 1e-3 then error("FAILED: a refused model.timestep changed the timestep") end

-- a plot whose data cannot be written names the plot, not its temporary data file
model.new{dim = 3}
ball.create{id = 1, rad = 0.1, pos = {0, 0, 0}}
history.add("x", function() return ball.pos(1)[1] end)
model.timestep{fix = 1e-3}
model.cycle(2)
says("plot into a missing folder", function()
  plot.history{out = dir .. "/no/such/p.png", y = {"x"}}
end, "plot: cannot write the data of '" .. dir .. "/no/such/p.png' (a file beside it, removed after)")

os.execute("rm -rf " .. dir)
-- a property the model lacks names the models that have it (PFC's linear has no rolling
-- resistance; rrlinear is linear with it)
says("rolling resistance on linear", function()
  contact.cmat_default{model = "linear", kn = 1e5, rr_fric = 0.1}
end, "contact model 'linear' has no property 'rr_fric' (models with it: hertz, rrlinear, " ..
     "linearcbond, linearpbond); run `cairn models linear`")
print(string.format("message audit: %d messages say what is wrong and what to do", checked))
