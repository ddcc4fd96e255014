-- Memory per MPI rank (docs/parallel.md, Limits): the granular benchmark's lattice of n^3
-- spheres, pressed (spacing 1.999 r: every ball against its six neighbours), cycled in ten calls
-- of 5 steps. Each rank writes mem_RANK.txt: its resident memory after the model was built (on
-- every rank, whole) and after the ten calls (divided), with the peaks (VmRSS, VmHWM).
-- Run: CAIRN_BENCH_N=80 cairn run bench/mpi_memory.lua                      (one process)
--      CAIRN_BENCH_N=80 mpirun -np 4 -x CAIRN_BENCH_N build-mpi/cairn run bench/mpi_memory.lua
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local S = dofile(here .. "granular/scenario.lua")
local n = math.tointeger(tonumber(os.getenv("CAIRN_BENCH_N") or "20"))
assert(n and n >= 2, "CAIRN_BENCH_N must be a whole number of 2 or more")

local function mem() -- resident and peak resident memory, MiB
  local f = assert(io.open("/proc/self/status"))
  local t = f:read("a")
  f:close()
  return tonumber(t:match("VmRSS:%s+(%d+)")) / 1024, tonumber(t:match("VmHWM:%s+(%d+)")) / 1024
end

local base = mem()
S.model()
local balls = n * n * n
S.box(S.lattice(n, 1.999))
local built, built_peak = mem()
for _ = 1, 10 do model.cycle(5) end
local now, peak = mem()
local r = model.ranks()
local out = assert(io.open("mem_" .. r.rank .. ".txt", "w"))
out:write(string.format("%d balls, rank %d of %d: at the start %.0f MiB; built %.0f MiB (peak " ..
                        "%.0f); after ten calls %.0f MiB (peak %.0f); divided %s\n", balls, r.rank,
                        r.count, base, built, built_peak, now, peak, tostring(not r.whole)))
out:close()
