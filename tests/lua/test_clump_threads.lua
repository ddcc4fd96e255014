-- Clumps move in parallel (cycle/rigid.c): 800 clumps (more than the 512 a parallel loop needs)
-- poured into a box under 200 m/s^2 give the same bits on 1 and 2 threads: positions,
-- velocities, spins, orientations, and the energy books.
local function check(cond, what) if not cond then error("FAILED: " .. what, 2) end end
local function run(threads)
  model.new{dim = 3}
  model.threads(threads)
  model.gravity{0, 0, -200}
  contact.cmat_default{model = "linear", kn = 1e5, ks = 5e4, fric = 0.4, dp_nratio = 0.2}
  wall.box{min = {0, 0, 0}, max = {0.2, 0.2, 0.3}}
  energy.track(true)
  clump.template{name = "tri", pebbles = {{0, 0, 0, 0.006}, {0.008, 0, 0, 0.005},
                                          {0, 0.007, 0.002, 0.004}}}
  specimen.generate{shape = "box", min = {0, 0, 0}, max = {0.2, 0.2, 0.3}, count = 800, seed = 5,
                    size = {kind = "uniform", rmin = 0.005, rmax = 0.007}, clump = "tri",
                    density = 2500, damp = 0.1}
  model.timestep{fix = 2e-5}
  model.cycle(1500)
  local out = {}
  for _, id in ipairs(clump.list()) do
    for _, v in ipairs({clump.pos(id), clump.vel(id), clump.spin(id), clump.orientation(id)}) do
      for k = 1, #v do out[#out + 1] = string.format("%a", v[k]) end
    end
  end
  local e = energy.get()
  for _, k in ipairs{"gravity_work", "damping", "dashpot", "slip", "kinetic"} do
    out[#out + 1] = string.format("%a", e[k])
  end
  return table.concat(out, " "), contact.count{active = true}
end
local one, c1 = run(1)
local two, c2 = run(2)
check(c1 > 100, "the clumps touch (" .. c1 .. " contacts)")
check(one == two and c1 == c2, "1 and 2 threads give the same bits")
print(string.format("clump threads: the same bits on 1 and 2 threads (%d contacts)", c1))
