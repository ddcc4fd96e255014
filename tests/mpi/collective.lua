-- MPI test (tests/mpi/run.sh collective): a collective call made by some ranks alone, or in
-- another order, stops every rank within seconds with one message naming each rank's call, and
-- exit status 1 (a script error), instead of leaving a rank waiting forever (docs/parallel.md,
-- Collective calls). CASE picks the script's mistake; run.sh checks the message.
local case = os.getenv("CASE") or "save"
model.new{dim = 3}
local rank = model.ranks().rank
contact.cmat_default{model = "linear", kn = 1e4, ks = 1e4}
for i = 1, 40 do
  ball.create{id = i, rad = 0.01, pos = {-0.9 + 0.045 * i, 0, 0}, vel = {0, 0, 0.1}}
end
model.timestep{fix = 5e-6}
if case == "save" then -- rank 0 alone saves, the last call of the script
  if rank == 0 then
    model.save("state.sav")
  end
elseif case == "cycle" then -- rank 0 alone cycles, then every rank saves
  if rank == 0 then
    model.cycle(10)
  end
  model.save("state.sav")
elseif case == "order" then -- the ranks write two files in different orders
  history.add("z", function() return ball.pos(1)[3] end)
  model.cycle{steps = 10, history_interval = 5}
  if rank == 0 then
    vtk.write("snap")
    history.export("history.csv")
  else
    history.export("history.csv")
    vtk.write("snap")
  end
elseif case == "pcall" then -- rank 0's call fails inside pcall, and the script goes on
  if rank == 0 then
    pcall(model.save, "state.sav")
  end
  model.cycle(10)
elseif case == "history" then -- a history function writes a file on rank 0 alone, mid-cycle
  history.add("z", function()
    if rank == 0 then
      history.export("history.csv")
    end
    return ball.pos(1)[3]
  end)
  model.cycle{steps = 20, history_interval = 10}
elseif case == "callback" then -- a callback asks on rank 0 alone, mid-cycle
  callback.on("after_force", function()
    if rank == 0 and model.step() == 5 then
      print(ball.pos(1)[1])
    end
  end)
  model.cycle(20)
end
