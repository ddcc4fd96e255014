-- The cost of clumps against balls (docs/clumps.md): a packing of clumps of two, three and four
-- pebbles of radius r (a row, a row and a tetrahedron; centres 2.1 r apart, so that no two
-- pebbles of a clump overlap; CAIRN_BENCH_SHAPES=rod: rows of three only, as
-- bench/lammps_clumps/in.clumps) against a packing of as many balls, the same pebbles set free
-- (CAIRN_BENCH_MODE=balls). Both start with one clump per cell of a cubic lattice (n x n x 2n
-- cells of 6.6 r, turned at random) in a box open at the top, are packed under a gravity of
-- 100 m/s^2 for the warm-up, then timed. The granular benchmark's linear law (its dashpot, no
-- local damping). Prints the pebble-steps per second and the contacts per pebble; the clumps'
-- cost per pebble-step over the balls' is the ratio of the two rates.
--   CAIRN_BENCH_N (default 22: 21 296 clumps), CAIRN_BENCH_WARM (10000), CAIRN_BENCH_TIMED (300)
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local S = dofile(here .. "granular/scenario.lua")
local mode = os.getenv("CAIRN_BENCH_MODE") or "clumps"
assert(mode == "clumps" or mode == "balls", "CAIRN_BENCH_MODE is clumps or balls")
local only_rods = os.getenv("CAIRN_BENCH_SHAPES") == "rod"
local n = math.tointeger(tonumber(os.getenv("CAIRN_BENCH_N") or "22"))
local warm = tonumber(os.getenv("CAIRN_BENCH_WARM") or "10000")
local timed = tonumber(os.getenv("CAIRN_BENCH_TIMED") or "300")

S.model()
model.gravity{0, 0, -100}
model.timestep{fix = 1e-5}
local r, d = S.r, 2.1 * S.r
local shapes = {
  {{-d / 2, 0, 0}, {d / 2, 0, 0}},
  {{-d, 0, 0}, {0, 0, 0}, {d, 0, 0}},
  {{0, 0, 0}, {d, 0, 0}, {d / 2, d * math.sqrt(3) / 2, 0},
   {d / 2, d / (2 * math.sqrt(3)), d * math.sqrt(2 / 3)}},
}
for k, sh in ipairs(shapes) do
  local peb = {}
  for i, p in ipairs(sh) do peb[i] = {p[1], p[2], p[3], r} end
  clump.template{name = "c" .. k, pebbles = peb}
end
local c = 2 * d + 2.4 * r -- a cell holds any clump, whatever its turn
local seed = 4242
local function uniform() -- a fixed pseudo-random stream (a linear congruential generator)
  seed = (seed * 6364136223846793005 + 1442695040888963407) & 0x7fffffffffffffff
  return (seed >> 11) / 2 ^ 52
end
local made = 0
for k = 0, 2 * n - 1 do
  for j = 0, n - 1 do
    for i = 0, n - 1 do
      made = made + 1
      local u1, u2, u3 = uniform(), 2 * math.pi * uniform(), 2 * math.pi * uniform()
      local q = {math.sqrt(1 - u1) * math.sin(u2), math.sqrt(1 - u1) * math.cos(u2),
                 math.sqrt(u1) * math.sin(u3), math.sqrt(u1) * math.cos(u3)}
      local t = only_rods and "c2" or "c" .. (made % 3 + 1)
      local id = clump.create{template = t, density = S.rho, orientation = q,
                              pos = {(i + 0.5) * c, (j + 0.5) * c, (k + 0.5) * c}}
      if mode == "balls" then -- its pebbles as free balls, where they are
        local ps = {}
        for _, p in ipairs(clump.pebbles(id)) do ps[#ps + 1] = ball.pos(p) end
        clump.delete(id)
        for _, p in ipairs(ps) do ball.create{rad = r, density = S.rho, pos = p} end
      end
    end
  end
end
local L = n * c
for _, nn in ipairs{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}} do
  local p = {0, 0, 0}
  for q = 1, 2 do if nn[q] < 0 then p[q] = L end end
  wall.create{kind = "plane", point = p, normal = nn}
end
model.cycle(warm)
model.clean()
local z0 = 2 * contact.count{active = true} / ball.count()
local t0 = model.wallclock()
model.cycle(timed)
local s = model.wallclock() - t0
local np = ball.count()
-- z: contacts per pebble, each contact counted at both its pebbles (LAMMPS's contact/atom mean)
print(string.format("%-7s %-5s clumps %6d pebbles %7d threads %d steps %d wall %.2f s "
                    .. "pebble-steps/s %.4e z %.2f -> %.2f", mode, only_rods and "rods" or "mixed",
                    made, np, model.threads(), timed, s, np * timed / s, z0,
                    2 * contact.count{active = true} / np))
