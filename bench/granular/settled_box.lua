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
-- "Velocities" (id vx vy vz wx wy wz).
local L, atoms, vels, section = nil, {}, {}, nil
for line in io.lines(data) do
  local lo, hi = line:match("^%s*(%S+)%s+(%S+)%s+xlo xhi")
  if lo then L = tonumber(hi) end
  if line:match("^Atoms") then section = "atoms"
  elseif line:match("^Velocities") then section = "vel"
  elseif section and line:match("%S") then
    local f = {}
    for w in line:gmatch("%S+") do f[#f + 1] = tonumber(w) end
    if section == "atoms" then atoms[#atoms + 1] = f else vels[f[1]] = f end
  end
end
for _, a in ipairs(atoms) do
  local v = vels[a[1]]
  ball.create{id = a[1], rad = a[3] / 2, density = a[4], pos = {a[5], a[6], a[7]},
              vel = {v[2], v[3], v[4]}, spin = {v[5], v[6], v[7]}}
end
for k, n in ipairs{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}} do
  local p = {0, 0, 0}
  for c = 1, 3 do if n[c] < 0 then p[c] = L end end
  wall.create{id = k, kind = "plane", point = p, normal = n}
end
model.timestep{fix = 1e-5}
history.interval(1000000000) -- no sampling in the timed loop

model.cycle(warm)
local t0 = model.wallclock()
model.cycle(timed)
local wall_s = model.wallclock() - t0
local npp = 0
for _, cp in ipairs(contact.list("ball-ball")) do if contact.gap(cp) < 0 then npp = npp + 1 end end
local N = ball.count()
print(string.format("%-8s %8d %5d %6d %9.2f %10.3e %8s %6.3f %3s", "cairn", N, model.threads(), timed, wall_s,
                    N * timed / wall_s, "-", 2 * npp / N, rep))
