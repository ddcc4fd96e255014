-- expect: history_error.lua:7: ball 99 does not exist; check the id (ball.list() gives all ids) (in history 'bad')
-- The message must name the line inside the history function (7), not the model.cycle call.
model.new{dim = 2}
ball.create{id = 1, rad = 0.5, pos = {0, 0}}
model.timestep{fix = 0.1}
history.add("bad", function()
  return ball.pos(99)[1]
end)
model.cycle{steps = 20, history_interval = 5}
