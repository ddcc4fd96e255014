-- Writes the seed saves of the save-file fuzzer into the current folder: small scenes with every
-- feature the format holds (2D and 3D, several models with state, bonds, walls of each kind,
-- servos, applied loads, histories, cracks, a periodic cell). Run: cairn run make_corpus.lua.
-- Run on two MPI ranks (mpirun -np 2 cairn run make_corpus.lua) it writes the scenes that divide
-- saved in the ranks' parts (section PRTS), named seed_parts_*.sav.
local function scene(dim, name, extra)
  model.new{dim = dim}
  model.gravity(dim == 3 and {0, 0, -9.81} or {0, -9.81})
  contact.cmat_default{model = "linear", kn = 1e5, ks = 5e4, fric = 0.5, dp_nratio = 0.1}
  for i = 1, 6 do
    local p = dim == 3 and {0.021 * i, 0.01 * (i % 2), 0.012} or {0.021 * i, 0.012}
    ball.create{id = i, rad = 0.011, pos = p, density = 2600, group = i % 2 == 0 and "a" or nil}
  end
  if extra then extra() end
  model.timestep{auto = true}
  history.add("t", function() return model.time() end)
  history.interval(3)
  model.cycle(30)
  local r = model.ranks()
  if r.count > 1 and r.whole then return end -- (a scene that runs whole: no parts)
  model.save(r.count > 1 and name:gsub("^seed_", "seed_parts_") or name)
end

scene(2, "seed_2d.sav", function()
  wall.create{id = 1, nodes = {{-1, 0}, {1, 0}}}
  wall.servo{id = 1, stress = 10, area = 1, vmax = 0.01}
  ball.force_app(1, {0.1, 0})
end)
scene(3, "seed_3d.sav", function()
  wall.create{id = 1, kind = "plane", point = {0, 0, 0}, normal = {0, 0, 1}}
  wall.create{id = 2, kind = "polygon", nodes = {{0, -1, 0}, {0, 1, 0}, {0, 1, 1}}, spin = {0.1, 0, 0}}
  wall.create{id = 3, kind = "cylinder", point = {0, 0, 0}, axis = {0, 0, 1}, radius = 1}
  contact.cmat_add{kind = "ball-ball", group = "a", model = "hertz", hz_shear = 1e8, hz_poiss = 0.3}
end)
scene(2, "seed_bonds_2d.sav", function()
  contact.cmat_default{model = "linearpbond", kn = 1e5, ks = 5e4, pb_kn = 1e9, pb_ks = 1e9,
                       pb_ten = 1e3, pb_coh = 1e3, pb_gap = 0.01}
end)
scene(3, "seed_burger_3d.sav", function()
  contact.cmat_default{model = "burger", bur_knk = 1e5, bur_cnk = 1e3, bur_knm = 1e5, bur_cnm = 1e4,
                       bur_ksk = 1e5, bur_csk = 1e3, bur_ksm = 1e5, bur_csm = 1e4, bur_fric = 0.5}
end)
scene(2, "seed_cell_2d.sav", function()
  cell.create{min = {0, -0.5}, max = {0.2, 0.5}, axes = "x"}
  cell.rate{xy = 0.1}
end)
scene(3, "seed_cell_3d.sav", function()
  cell.create{min = {0, -0.1, -0.1}, max = {0.2, 0.1, 0.2}}
  cell.servo{axis = "xyz", stress = 100, rate_max = 0.1}
end)
scene(3, "seed_clumps_3d.sav", function()
  wall.create{id = 1, kind = "plane", point = {0, 0, 0}, normal = {0, 0, 1}}
  clump.template{name = "pair", pebbles = {{-0.004, 0, 0, 0.006}, {0.004, 0, 0, 0.005}}}
  clump.create{template = "pair", pos = {0.05, 0.03, 0.01}, density = 2600, spin = {1, 2, 3}}
  clump.create{template = "pair", pos = {0.09, 0.03, 0.01}, density = 2600, scale = 1.5}
end)
scene(2, "seed_clumps_2d.sav", function()
  wall.create{id = 1, nodes = {{-1, 0}, {1, 0}}}
  clump.template{name = "bar", pebbles = {{-0.004, 0, 0.006}, {0.004, 0, 0.005}}}
  clump.create{template = "bar", pos = {0.05, 0.03}, density = 2600, spin = 2}
end)
scene(3, "seed_mesh_3d.sav", function()
  local path = os.tmpname()
  local f = io.open(path, "w")
  f:write("solid m\nfacet normal 0 0 1\nouter loop\nvertex -1 -1 0\nvertex 1 -1 0\n" ..
          "vertex 1 1 0\nendloop\nendfacet\nfacet normal 0 0 1\nouter loop\nvertex -1 -1 0\n" ..
          "vertex 1 1 0\nvertex -1 1 0\nendloop\nendfacet\nendsolid m\n")
  f:close()
  local m = wall.mesh{file = path, spin = {0, 0, 0.5}, vel = {0.01, 0, 0}}
  os.remove(path)
  wall.motion{id = m, time = {0, 0.001, 0.002}, vel = {{0, 0, 0}, {0.01, 0, 0}, {0, 0.01, 0}},
              spin = {{0, 0, 0}, {0, 0, 0.5}, {0.1, 0, 0}}}
  ball.extra(1, 3, 42)
  ball.track_displacement(true)
end)
-- a ball in a concave corner of one mesh: two contacts with it (3D), and of one polyline (2D)
scene(3, "seed_mesh_corner_3d.sav", function()
  local path = os.tmpname()
  local f = io.open(path, "w")
  local function tri(a, b, c)
    f:write(string.format("facet normal 0 0 0\nouter loop\nvertex %g %g %g\nvertex %g %g %g\n" ..
                          "vertex %g %g %g\nendloop\nendfacet\n", a[1], a[2], a[3], b[1],
                          b[2], b[3], c[1], c[2], c[3]))
  end
  local x, z = 0.0101, 0.0009999
  f:write("solid corner\n")
  tri({x, -1, z}, {1, -1, z}, {1, 1, z})
  tri({x, -1, z}, {1, 1, z}, {x, 1, z})
  tri({x, -1, z}, {x, 1, z}, {x, 1, 1})
  tri({x, -1, z}, {x, 1, 1}, {x, -1, 1})
  f:write("endsolid corner\n")
  f:close()
  wall.mesh{file = path}
  os.remove(path)
end)
scene(2, "seed_polyline_2d.sav", function()
  local path = os.tmpname()
  local f = io.open(path, "w")
  f:write("0.01001 1\n0.01001 0.00101\n1 0.00101\n")
  f:close()
  wall.mesh{file = path}
  os.remove(path)
end)
print("seed saves written")
