-- Bad input to the periodic cell: each refused with one message that says what is wrong and
-- what to do. Prints FAILED for a call that was accepted or said something else.
local function refused(what, fn, pattern)
  local ok, err = pcall(fn)
  if ok then
    print("FAILED (accepted): " .. what)
  elseif not tostring(err):find(pattern, 1, true) then
    print("FAILED (message): " .. what .. ": " .. tostring(err))
  else
    print("refused: " .. what .. ": " .. tostring(err))
  end
end

model.new{dim = 3}
refused("cell call without a cell", function() cell.rate{xy = 1} end,
        "the model has no periodic cell; make one first with cell.create")
wall.create{kind = "plane", point = {0, 0, 0}, normal = {0, 0, 1}}
refused("a floor across a periodic z", function()
  cell.create{min = {0, 0, 0}, max = {1, 1, 1}}
end, "lies across the periodic cell's z axis")
cell.create{min = {0, 0, 0}, max = {1, 1, 1}, axes = "xy"}
refused("a wall across a periodic x", function()
  wall.create{kind = "plane", point = {0, 0, 0}, normal = {1, 0, 0}}
end, "lies across the periodic cell's x axis")
refused("a cylinder across the periodic axes", function()
  wall.create{kind = "cylinder", point = {0.5, 0.5, 0}, axis = {0, 0, 1}, radius = 0.4}
end, "lies across the periodic cell's x axis")
refused("a second cell", function() cell.create{min = {0, 0, 0}, max = {1, 1, 1}} end,
        "has a periodic cell already")
refused("a servo on a non-periodic axis", function()
  cell.servo{axis = "z", stress = 1e4, rate_max = 1}
end, "the z axis is not periodic")
refused("a negative target stress", function()
  cell.servo{axis = "x", stress = -1, rate_max = 1}
end, "stress must be a finite number >= 0")
refused("a servo without rate_max", function() cell.servo{axis = "x", stress = 1} end,
        "give rate_max")
refused("a servo without an axis", function() cell.servo{stress = 1, rate_max = 1} end,
        "give axis")
refused("an unknown component", function() cell.rate{xw = 1} end, "'w' is not an axis")
refused("a non-finite rate", function() cell.rate{xy = 0 / 0} end, "is NaN (not a number)")
cell.servo{axis = "x", stress = 1e3, rate_max = 1}
refused("a rate on a servo axis", function() cell.rate{xx = 1} end,
        "is held by cell.servo")

model.new{dim = 2}
ball.create{id = 1, rad = 0.1, pos = {0.5, 0.5}}
refused("z in 2D", function() cell.create{min = {0, 0}, max = {1, 1}, axes = "xz"} end,
        "'z' is not an axis of a 2D model")
refused("a cell too small for the balls", function()
  cell.create{min = {0, 0}, max = {0.35, 1}}
end, "not more than twice the largest ball's diameter")
refused("empty axes", function() cell.create{min = {0, 0}, max = {1, 1}, axes = {}} end,
        "is empty")

-- a cell squeezed below twice the contact range while running
model.new{dim = 2}
contact.cmat_default{model = "linear", kn = 1e4, ks = 1e4}
cell.create{min = {0, 0}, max = {1, 1}}
ball.create{id = 1, rad = 0.1, pos = {0.5, 0.5}}
model.timestep{fix = 1e-4}
cell.rate{xx = -5, remap = false}
refused("a cell squeezed too small", function() model.cycle(5000) end,
        "not more than twice the contact range")
print("cell errors: all refused as they must be")
