-- The granular benchmark "settled-box-sc" (../../../shared/bench/SPEC.md): spheres of radius
-- 1 mm in a box of six planes, linear spring-dashpot with a tangential spring and Coulomb
-- friction, dt = 1e-5, starting from the settled packing the peers also start from.
-- Run: CAIRN_BENCH_DATA=settled_n20.data CAIRN_BENCH_WARM=2000 CAIRN_BENCH_TIMED=20000 \
--      cairn run bench/granular/settled_box.lua
-- Prints one row: code N threads steps wall_s pstep_s rss_mib z_pp rep (rss filled by the caller).
local data = assert(os.getenv("CAIRN_BENCH_DATA"), "set CAIRN_BENCH_DATA to an unpacked .data file")
local warm = tonumber(os.getenv("CAIRN_BENCH_WARM") or "2000")
local timed = tonumber(os.getenv("CAIRN_BENCH_TIMED") or "20000")
local rep = os.getenv("CAIRN_BENCH_REP") or "1"

local r, rho, kn, gn, mu = 1e-3, 2500.0, 1000.0, 6000.0, 0.5
local m = 4 / 3 * math.pi * r ^ 3 * rho
-- The spec's damping is mass-normalised (c = m_eff gamma_n); cairn's dp_nratio is the fraction
-- of critical damping, c = 2 ratio sqrt(m_eff kn): ratio = gamma_n sqrt(m_eff) / (2 sqrt(kn)).
local function ratio(meff) return gn * math.sqrt(meff) / (2 * math.sqrt(kn)) end

model.new{dim = 3}
model.gravity{0, 0, -9.81}
contact.cmat_default{kind = "ball-ball", model = "linear", kn = kn, ks = 2 / 7 * kn, fric = mu,
                     dp_nratio = ratio(m / 2)}
contact.cmat_default{kind = "ball-wall", model = "linear", kn = kn, ks = 2 / 7 * kn, fric = mu,
                     dp_nratio = ratio(m)}

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
for k, n in ipairs{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}} do
  local p = {0, 0, 0}
  for c = 1, 3 do if n[c] < 0 then p[c] = L end end
  wall.create{id = k, kind = "plane", point = p, normal = n}
end
model.timestep{fix = 1e-5}
history.interval(1000000000) -- no sampling in the timed loop

model.cycle(warm)
local rebuilds0 = model.neighbours().rebuilds
local t0 = model.wallclock()
model.cycle(timed)
local wall_s = model.wallclock() - t0
local nb = model.neighbours()
-- SPEC section 3: the scheme and the neighbour method go with every figure.
io.stderr:write(string.format("# cairn: centred differences (velocities at half steps, fixed dt); "
  .. "shear force kept in the contact plane and rotated with it; normal dashpot resolved inside "
  .. "the step; neighbours: cell grid (cell 2 r_max + reach), Verlet pair list with skin %.3g m "
  .. "(0.1 mean radius), rebuilt when a ball has moved half the skin: %d rebuilds in the timed "
  .. "run, %d pairs at the end\n", nb.skin, nb.rebuilds - rebuilds0, nb.pairs))
-- z_pp as the peers count it: ball-ball contacts that overlap (a linear contact is active
-- exactly while its gap is negative).
local npp = contact.count{kind = "ball-ball", active = true}
local N = ball.count()
print(string.format("%-8s %8d %5d %6d %9.2f %10.3e %8s %6.3f %3s", "cairn", N, model.threads(), timed, wall_s,
                    N * timed / wall_s, "-", 2 * npp / N, rep))
