-- The cost of clumps against balls (docs/clumps.md): a packing of clumps of two, three and four
-- pebbles of radius r (a row, a row and a tetrahedron; centres 2.1 r apart, so that no two
-- pebbles of a clump overlap) against a packing of as many balls, the same pebbles set free
-- (CAIRN_BENCH_MODE=balls). Both start on the same lattice in a box and are packed under a strong
-- gravity (100 m/s^2) with local damping 0.5 for the warm-up, then timed. The granular
-- benchmark's linear law. Prints the pebble-steps per second and the contacts per pebble; the
-- clumps' cost per pebble-step over the balls' is the ratio of the two rates.
--   CAIRN_BENCH_CLUMPS (default 20000), CAIRN_BENCH_WARM (8000), CAIRN_BENCH_TIMED (300)
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local S = dofile(here .. "granular/scenario.lua")
local mode = os.getenv("CAIRN_BENCH_MODE") or "clumps"
assert(mode == "clumps" or mode == "balls", "CAIRN_BENCH_MODE is clumps or balls")
local nc = math.tointeger(tonumber(os.getenv("CAIRN_BENCH_CLUMPS") or "20000"))
local warm = tonumber(os.getenv("CAIRN_BENCH_WARM") or "8000")
local timed = tonumber(os.getenv("CAIRN_BENCH_TIMED") or "300")

S.model()
model.gravity{0, 0, -100}
model.timestep{fix = 1e-5}
local r, d = S.r, 2.1 * S.r
local shapes = {
  {{0, 0, 0}, {d, 0, 0}},
  {{0, 0, 0}, {d, 0, 0}, {2 * d, 0, 0}},
  {{0, 0, 0}, {d, 0, 0}, {d / 2, d * math.sqrt(3) / 2, 0},
   {d / 2, d / (2 * math.sqrt(3)), d * math.sqrt(2 / 3)}},
}
for k, sh in ipairs(shapes) do
  local peb = {}
  for i, p in ipairs(sh) do peb[i] = {p[1], p[2], p[3], r} end
  clump.template{name = "c" .. k, pebbles = peb}
end
local cx, cy, cz = 2 * d + 2.4 * r, d + 2.4 * r, d + 2.4 * r -- a clump per cell, 0.2 r apart
local nxy = math.ceil((nc / 2) ^ (1 / 3))                    -- twice as tall as wide
local made = 0
for k = 0, 1000000 do
  for j = 0, nxy - 1 do
    for i = 0, nxy - 1 do
      if made < nc then
        made = made + 1
        local a = 0.7 * made
        local at = {(i + 0.5) * cx, (j + 0.5) * cy, (k + 0.5) * cz}
        local c = clump.create{template = "c" .. (made % 3 + 1), density = S.rho, damp = 0.5,
                               pos = at, orientation = {math.cos(a), 0, 0, math.sin(a)}}
        if mode == "balls" then -- its pebbles as free balls, where they are
          local ps = {}
          for _, p in ipairs(clump.pebbles(c)) do ps[#ps + 1] = ball.pos(p) end
          clump.delete(c)
          for _, p in ipairs(ps) do ball.create{rad = r, density = S.rho, damp = 0.5, pos = p} end
        end
      end
    end
  end
  if made == nc then break end
end
local L = {nxy * cx, nxy * cy}
for k, nn in ipairs{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}} do
  local p = {0, 0, 0}
  for c = 1, 2 do if nn[c] < 0 then p[c] = L[c] end end
  wall.create{kind = "plane", point = p, normal = nn}
end
model.cycle(warm)
model.clean()
local contacts0 = contact.count()
local t0 = model.wallclock()
model.cycle(timed)
local s = model.wallclock() - t0
local n = ball.count()
print(string.format("%-7s clumps %6d pebbles %7d threads %d steps %d wall %.2f s "
                    .. "pebble-steps/s %.4e contacts per pebble %.2f -> %.2f", mode, nc, n,
                    model.threads(), timed, s, n * timed / s, contacts0 / n, contact.count() / n))
