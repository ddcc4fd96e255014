-- The granular benchmark's scenario (../../../shared/bench/SPEC.md) started from SPEC section 1's
-- lattice instead of a settled packing: n^3 spheres on a simple cubic lattice with the spec's
-- pseudo-random initial velocities, so a size without a provided packing (n = 80, 512 000 balls)
-- can be timed. Compare its throughput with the same script's at another n, not with
-- settled_box.lua's: the state differs.
--   CAIRN_BENCH_SPACING (default 2.1, the spec's): the lattice spacing in radii. At 2.1 the balls
--   start apart and few touch in a short run; below 2 every ball starts pressed against its six
--   neighbours (1.999: an overlap of 0.001 r), a contact-heavy state for timing at scale.
-- Run: CAIRN_BENCH_N=80 CAIRN_BENCH_SPACING=1.999 CAIRN_BENCH_WARM=200 CAIRN_BENCH_TIMED=300 \
--      cairn run bench/granular/lattice_box.lua
-- Prints the same row as settled_box.lua.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local S = dofile(here .. "scenario.lua")
local n = math.tointeger(tonumber(os.getenv("CAIRN_BENCH_N") or "20"))
local warm = tonumber(os.getenv("CAIRN_BENCH_WARM") or "200")
local timed = tonumber(os.getenv("CAIRN_BENCH_TIMED") or "300")
local rep = os.getenv("CAIRN_BENCH_REP") or "1"
assert(n and n >= 2, "CAIRN_BENCH_N must be a whole number of 2 or more")

S.model()
local spacing = tonumber(os.getenv("CAIRN_BENCH_SPACING") or "2.1")
assert(spacing and spacing > 1, "CAIRN_BENCH_SPACING is the lattice spacing in radii, above 1")
local A = 0.05
S.box(S.lattice(n, spacing, function(i, j, k)
  local v = {}
  for c = 0, 2 do
    local h = 43758.5453 * math.sin(12.9898 * i + 78.233 * j + 37.719 * k + c)
    v[c + 1] = A * (2 * (h - math.floor(h)) - 1)
  end
  return v
end))
S.run(warm, timed, rep, string.format("from the spec's lattice, n = %d, spacing %g r", n, spacing))
