-- A run for simd_same.cmake: a packing of touching balls on a floor, with linear contacts and
-- again with hertz contacts (rolling and twisting resistance), 300 steps on the threads the
-- machine has, then every ball's position, velocity, spin and force as hexadecimal floats (exact)
-- to the file named by SIMD_OUT. Run once with the CPU's vector kernels and once with
-- CAIRN_SIMD=baseline: the files must be the same byte for byte (cairn/simd.h).
local out = assert(io.open(assert(os.getenv("SIMD_OUT"), "set SIMD_OUT"), "w"))
local function hex(v) return string.format("%a %a %a", v[1], v[2], v[3]) end
local laws = {
  {model = "linear", kn = 1e4, ks = 5e3, fric = 0.4, dp_nratio = 0.2, dp_sratio = 0.1},
  {model = "hertz", hz_shear = 2e7, hz_poiss = 0.25, fric = 0.4, dp_nratio = 0.2,
   dp_sratio = 0.1, rr_fric = 0.1, tw_fric = 0.05},
}
for _, props in ipairs(laws) do
  model.new{dim = 3}
  model.gravity{0, 0, -9.81}
  contact.cmat_default(props)
  local id, seed = 0, 11
  local function rnd() seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648 end
  for i = 0, 11 do for j = 0, 11 do for k = 0, 9 do
    id = id + 1
    ball.create{id = id, rad = 0.001 * (1 + 0.05 * rnd()), density = 2500,
                pos = {0.002 * i, 0.002 * j, 0.002 * k},
                vel = {0.05 * (rnd() - 0.5), 0.05 * (rnd() - 0.5), 0.05 * (rnd() - 0.5)}}
  end end end
  wall.create{id = 1, kind = "plane", point = {0, 0, -0.001}, normal = {0, 0, 1}}
  model.timestep{fix = 2e-5}
  model.cycle(150)
  ball.fix{"xvelocity", id = 1} -- then a ball with a fixed velocity (the gathers' other path)
  model.cycle(150)
  local ids = ball.list()
  table.sort(ids)
  out:write(props.model, " ", contact.count(), "\n")
  for _, b in ipairs(ids) do
    out:write(b, " ", hex(ball.pos(b)), " ", hex(ball.vel(b)), " ", hex(ball.spin(b)), " ",
              hex(ball.force(b)), "\n")
  end
end
out:close()
