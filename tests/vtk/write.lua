-- Writes the VTK outputs that check_vtk.py reads back with VTK's own reader: a 3D box of spheres
-- (periodic output, 3 snapshots) and a 2D snapshot with segments.
model.new{dim = 3}
model.gravity{0, 0, -9.81}
contact.cmat_default{model = "linear", kn = 1e4, ks = 5e3, fric = 0.3, dp_nratio = 0.3}
local id = 0
for i = 0, 2 do for j = 0, 2 do for k = 0, 3 do
  id = id + 1
  ball.create{id = id, rad = 0.005, density = 2500, group = k == 0 and "bottom" or "",
              pos = {0.006 + 0.0099 * i, 0.006 + 0.0099 * j, 0.0051 + 0.0099 * k}}
end end end
ball.attribute{damp = 0.7} -- settle into a packing instead of bouncing apart
wall.create{id = 1, kind = "plane", point = {0, 0, 0}, normal = {0, 0, 1}}
wall.create{id = 2, kind = "polygon", nodes = {{0, 0, 0}, {0.03, 0, 0}, {0.03, 0, 0.05}, {0, 0, 0.05}},
            vel = {0, 0.01, 0}}
model.timestep{fix = 1e-5}
os.execute("mkdir -p out")
vtk.every{steps = 500, prefix = "out/box"}
model.cycle(1000)
vtk.stop()
model.cycle(10)
-- facts for the checker, written by the script itself
assert(contact.count() > 20, "the packing has contacts")

model.new{dim = 2}
contact.cmat_default{model = "linear", kn = 1e3}
ball.create{id = 1, rad = 0.5, pos = {0, 0.45}}
ball.create{id = 2, rad = 0.5, pos = {0.95, 0.45}, vel = {0.1, 0}}
wall.create{id = 1, nodes = {{-1, 0}, {2, 0}}}
model.clean()
vtk.write("out/disks")
