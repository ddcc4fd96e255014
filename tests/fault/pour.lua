-- The scripted run of the fault-injection tests (fault_run.c): a small 2D pour with every kind of
-- output (save, VTK, history CSV, crack CSV, a plot when gnuplot is installed), a save that
-- overwrites the first, a restore, and more cycling after it. It runs in a fresh folder.
model.new{dim = 2}
model.gravity{0, -9.81}
contact.cmat_default{model = "linear", kn = 1e5, ks = 5e4, fric = 0.5, dp_nratio = 0.2}
wall.create{id = 1, nodes = {{-0.1, 0}, {0.1, 0}}}
for i = 1, 12 do
  ball.create{id = i, rad = 0.01, density = 2600,
              pos = {-0.055 + 0.022 * ((i - 1) % 6), 0.011 + 0.021 * ((i - 1) // 6)}}
end
history.add("y1", function() return ball.pos(1)[2] end)
history.interval(5)
model.timestep{fix = 1e-4}
model.cycle(40)
model.save("pour.sav")
vtk.write("snap")
history.export("hist.csv")
contact.cracks{export = "cracks.csv"}
if os.getenv("FAULT_PLOTS") then plot.history{out = "hist.png", y = {"y1"}} end
model.cycle(20)
model.save("pour.sav") -- if this one fails, the first must still be there, whole
model.restore("pour.sav")
history.add("y1", function() return ball.pos(1)[2] end)
model.cycle(20)
vtk.write("snap")
