-- expect: history 'h': the function returned string, not a number
-- A numeric string is not a number (docs/scripting.md, Conventions): refused, as in every setter.
model.new{dim = 2}
ball.create{id = 1, rad = 0.1, pos = {0, 0}}
model.timestep{fix = 1e-3}
history.interval(1)
history.add("h", function() return "12" end)
model.cycle(2)
