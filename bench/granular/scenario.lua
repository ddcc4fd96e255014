-- The contact law, walls and timing of the granular benchmark "settled-box-sc"
-- (../../../shared/bench/SPEC.md), shared by settled_box.lua (from the provided settled packings)
-- and lattice_box.lua (from SPEC section 1's lattice, for sizes without a packing).
local S = {}

S.r, S.rho, S.kn, S.gn, S.mu = 1e-3, 2500.0, 1000.0, 6000.0, 0.5
S.m = 4 / 3 * math.pi * S.r ^ 3 * S.rho

-- The spec's damping is mass-normalised (c = m_eff gamma_n); cairn's dp_nratio is the fraction
-- of critical damping, c = 2 ratio sqrt(m_eff kn): ratio = gamma_n sqrt(m_eff) / (2 sqrt(kn)).
local function ratio(meff) return S.gn * math.sqrt(meff) / (2 * math.sqrt(S.kn)) end

-- The contact law: CAIRN_BENCH_LAW = "linear" (default: the spec's law) or "hertz" (compare.sh
-- LAW=hertz, timed against LAMMPS's gran/hertz/history with bench/lammps_hertz/).
S.law = os.getenv("CAIRN_BENCH_LAW") or "linear"
assert(S.law == "linear" or S.law == "hertz", "CAIRN_BENCH_LAW takes 'linear' or 'hertz'")

-- Hertz-Mindlin parameters, the same as bench/lammps_hertz/hertz.in (whose comments hold the
-- full derivation). cairn's hertz model with one material (G, nu) on both sides:
-- E* = G / (1 - nu), G* = G / (2 (2 - nu)); F_n = (4/3) E* sqrt(R*) d^1.5, k_t = 8 G* sqrt(R* d)
-- (incremental), so LAMMPS's Kn = (4/3) E*, Kt = 8 G*. E* = 2.4e7 Pa, nu = 0.25: G = 1.8e7 Pa,
-- tangent stiffness 2 E* sqrt(R* d) = 1518 N/m at d0 = 2e-6 m between balls (R* = 5e-4 m), near
-- the linear kn = 1000 N/m at the packing's overlaps. LAMMPS's walls take the pairs' Kn and Kt
-- with Reff = r, i.e. a wall of the balls' material, so cairn's ball-wall law gets
-- hz_shear2 = hz_shear (E* = G / (1 - nu) against walls too, not a rigid wall's 2 G / (1 - nu)).
-- Damping: the pp ratio of the tangent stiffness is the linear benchmark's ratio(m / 2) = 0.2171;
-- LAMMPS's dashpot m_eff gamma_n sqrt(Reff d) v_n equals cairn's 2 ratio sqrt(m_eff k_n(d)) v_n
-- at d0 between balls for gamma_n = 2.338e8 1/(m s) (S.hz_gn); the walls share that gamma_n in
-- LAMMPS, which at d0 (m_eff = m, Reff = r) is the wall ratio S.hz_ratio(S.m, S.r) = 0.3651.
-- No shear dashpot (dp_sratio 0, LAMMPS gamma_t 0), fric 0.5, dp_mode 0 (tension allowed).
S.hz_E, S.hz_nu, S.hz_d0 = 2.4e7, 0.25, 2e-6
S.hz_G = S.hz_E * (1 - S.hz_nu)
do
  local meff, R = S.m / 2, S.r / 2
  local k0 = 2 * S.hz_E * math.sqrt(R * S.hz_d0)
  S.hz_gn = 2 * ratio(meff) * math.sqrt(k0 / meff) / math.sqrt(R * S.hz_d0)
end
-- The fraction of critical damping at d0 that LAMMPS's gamma_n gives (m_eff, R*).
function S.hz_ratio(meff, R)
  local k0 = 2 * S.hz_E * math.sqrt(R * S.hz_d0)
  return meff * S.hz_gn * math.sqrt(R * S.hz_d0) / (2 * math.sqrt(meff * k0))
end

-- A new 3D model with gravity and the contact law for both contact kinds.
function S.model()
  model.new{dim = 3}
  model.gravity{0, 0, -9.81}
  if S.law == "hertz" then
    contact.cmat_default{kind = "ball-ball", model = "hertz", hz_shear = S.hz_G,
                         hz_poiss = S.hz_nu, fric = S.mu, dp_nratio = S.hz_ratio(S.m / 2, S.r / 2),
                         dp_sratio = 0}
    contact.cmat_default{kind = "ball-wall", model = "hertz", hz_shear = S.hz_G,
                         hz_poiss = S.hz_nu, hz_shear2 = S.hz_G, fric = S.mu,
                         dp_nratio = S.hz_ratio(S.m, S.r), dp_sratio = 0}
    return
  end
  contact.cmat_default{kind = "ball-ball", model = "linear", kn = S.kn, ks = 2 / 7 * S.kn,
                       fric = S.mu, dp_nratio = ratio(S.m / 2)}
  contact.cmat_default{kind = "ball-wall", model = "linear", kn = S.kn, ks = 2 / 7 * S.kn,
                       fric = S.mu, dp_nratio = ratio(S.m)}
end

-- n^3 balls on a simple cubic lattice, 'spacing' radii apart (below 2 each ball is pressed
-- against its six neighbours), ids 1.. in the order k, j, i; vel(i, j, k), if given, sets each
-- ball's velocity. Returns the edge of the box that holds them.
function S.lattice(n, spacing, vel)
  local s, id = spacing * S.r, 0
  for k = 0, n - 1 do
    for j = 0, n - 1 do
      for i = 0, n - 1 do
        id = id + 1
        ball.create{id = id, rad = S.r, density = S.rho,
                    pos = {(i + 0.5) * s, (j + 0.5) * s, (k + 0.5) * s},
                    vel = vel and vel(i, j, k) or nil}
      end
    end
  end
  return n * s
end

-- The six walls of the box [0, L]^3 and the fixed timestep.
function S.box(L)
  for k, n in ipairs{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}} do
    local p = {0, 0, 0}
    for c = 1, 3 do if n[c] < 0 then p[c] = L end end
    wall.create{id = k, kind = "plane", point = p, normal = n}
  end
  model.timestep{fix = 1e-5}
  history.interval(1000000000) -- no sampling in the timed loop
end

-- Sum of 1/2 m v^2 over the balls (cairn's half-step velocities); LAMMPS's compute ke.
function S.kinetic_trans()
  local e = 0.0
  for _, id in ipairs(ball.list()) do
    local v = ball.vel(id)
    e = e + 0.5 * ball.mass(id) * (v[1] * v[1] + v[2] * v[2] + v[3] * v[3])
  end
  return e
end

-- Warm up, time the run, and print the row of peers.sh's table (rss filled by the caller) with
-- SPEC section 3's note on the scheme on stderr. 'what' says where the run started.
function S.run(warm, timed, rep, what)
  model.cycle(warm)
  -- LAW=hertz only: the state before and after the timed run (outside the timing), on stderr.
  local z0 = S.law == "hertz" and
               2 * contact.count{kind = "ball-ball", active = true} / ball.count()
  local rebuilds0 = model.neighbours().rebuilds
  local t0 = model.wallclock()
  model.cycle(timed)
  local wall_s = model.wallclock() - t0
  local nb = model.neighbours()
  io.stderr:write(string.format("# cairn: %s; centred differences (velocities at half steps, "
    .. "fixed dt); shear force kept in the contact plane and rotated with it; normal dashpot "
    .. "resolved inside the step; neighbours: cell grid (cell 2 r_max + reach), balls in Morton "
    .. "order of the cells, Verlet pair list with skin %.3g m (0.1 mean radius), rebuilt when a "
    .. "ball has moved half the skin: %d rebuilds in the timed run, %d pairs at the end%s\n",
    what, nb.skin, nb.rebuilds - rebuilds0, nb.pairs,
    S.law == "hertz" and "; contact law: hertz (Hertz-Mindlin, bench/lammps_hertz/hertz.in)" or ""))
  if S.law == "hertz" then
    io.stderr:write(string.format("# cairn hertz state: z_pp %.4f at the start of the timed run, "
      .. "%.4f at its end; kinetic energy (translation) %.4e J at its end\n", z0,
      2 * contact.count{kind = "ball-ball", active = true} / ball.count(),
      S.kinetic_trans()))
  end
  -- z_pp as the peers count it: ball-ball contacts that overlap (a linear or hertz contact is
  -- active exactly while its gap is negative).
  local npp = contact.count{kind = "ball-ball", active = true}
  local N = ball.count()
  -- (the processors: MPI ranks times threads)
  print(string.format("%-8s %8d %5d %6d %9.2f %10.3e %8s %6.3f %3s", "cairn", N,
                      model.ranks().count * model.threads(),
                      timed, wall_s, N * timed / wall_s, "-", 2 * npp / N, rep))
end

return S
