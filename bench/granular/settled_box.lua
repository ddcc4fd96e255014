-- The granular benchmark "settled-box-sc" (../../../shared/bench/SPEC.md): spheres of radius
-- 1 mm in a box of six planes, linear spring-dashpot with a tangential spring and Coulomb
-- friction, dt = 1e-5, starting from the settled packing the peers also start from.
-- Run: CAIRN_BENCH_DATA=settled_n20.data CAIRN_BENCH_WARM=2000 CAIRN_BENCH_TIMED=20000 \
--      cairn run bench/granular/settled_box.lua
-- Prints one row: code N threads steps wall_s pstep_s rss_mib z_pp rep (rss filled by the caller).
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local S = dofile(here .. "scenario.lua")
local data = assert(os.getenv("CAIRN_BENCH_DATA"), "set CAIRN_BENCH_DATA to an unpacked .data file")
local warm = tonumber(os.getenv("CAIRN_BENCH_WARM") or "2000")
local timed = tonumber(os.getenv("CAIRN_BENCH_TIMED") or "20000")
local rep = os.getenv("CAIRN_BENCH_REP") or "1"

S.model()
-- Read the LAMMPS data file: header, "Atoms # sphere" (id type diameter density x y z ...),
-- "Velocities" (id vx vy vz wx wy wz). Balls are made as their lines are read, so no table of
-- the whole packing stays in memory (the peak RSS is compared with the peers').
local L, section = nil, nil
for line in io.lines(data) do
  local lo, hi = line:match("^%s*(%S+)%s+(%S+)%s+xlo xhi")
  if lo then L = tonumber(hi) end
  if line:match("^Atoms") then section = "atoms"
  elseif line:match("^Velocities") then section = "vel"
  elseif section and line:match("%S") then
    local id, a, b, c, d, e, f = line:match("^%s*(%S+)%s+(%S+)%s+(%S+)%s+(%S+)%s+(%S+)%s+(%S+)%s+(%S+)")
    id = math.tointeger(tonumber(id))
    if section == "atoms" then -- id type diameter density x y z
      ball.create{id = id, rad = tonumber(b) / 2, density = tonumber(c),
                  pos = {tonumber(d), tonumber(e), tonumber(f)}}
    else -- id vx vy vz wx wy wz
      ball.vel(id, {tonumber(a), tonumber(b), tonumber(c)})
      ball.spin(id, {tonumber(d), tonumber(e), tonumber(f)})
    end
  end
end
collectgarbage("collect")
S.box(L)
S.run(warm, timed, rep, "from the settled packing " .. data:match("[^/]*$"))
