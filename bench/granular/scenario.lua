-- The contact law, walls and timing of the granular benchmark "settled-box-sc"
-- (../../../shared/bench/SPEC.md), shared by settled_box.lua (from the provided settled packings)
-- and lattice_box.lua (from SPEC section 1's lattice, for sizes without a packing).
local S = {}

S.r, S.rho, S.kn, S.gn, S.mu = 1e-3, 2500.0, 1000.0, 6000.0, 0.5
S.m = 4 / 3 * math.pi * S.r ^ 3 * S.rho

-- The spec's damping is mass-normalised (c = m_eff gamma_n); cairn's dp_nratio is the fraction
-- of critical damping, c = 2 ratio sqrt(m_eff kn): ratio = gamma_n sqrt(m_eff) / (2 sqrt(kn)).
local function ratio(meff) return S.gn * math.sqrt(meff) / (2 * math.sqrt(S.kn)) end

-- A new 3D model with gravity and the contact law for both contact kinds.
function S.model()
  model.new{dim = 3}
  model.gravity{0, 0, -9.81}
  contact.cmat_default{kind = "ball-ball", model = "linear", kn = S.kn, ks = 2 / 7 * S.kn,
                       fric = S.mu, dp_nratio = ratio(S.m / 2)}
  contact.cmat_default{kind = "ball-wall", model = "linear", kn = S.kn, ks = 2 / 7 * S.kn,
                       fric = S.mu, dp_nratio = ratio(S.m)}
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

-- Warm up, time the run, and print the row of peers.sh's table (rss filled by the caller) with
-- SPEC section 3's note on the scheme on stderr. 'what' says where the run started.
function S.run(warm, timed, rep, what)
  model.cycle(warm)
  local rebuilds0 = model.neighbours().rebuilds
  local t0 = model.wallclock()
  model.cycle(timed)
  local wall_s = model.wallclock() - t0
  local nb = model.neighbours()
  io.stderr:write(string.format("# cairn: %s; centred differences (velocities at half steps, "
    .. "fixed dt); shear force kept in the contact plane and rotated with it; normal dashpot "
    .. "resolved inside the step; neighbours: cell grid (cell 2 r_max + reach), balls in Morton "
    .. "order of the cells, Verlet pair list with skin %.3g m (0.1 mean radius), rebuilt when a "
    .. "ball has moved half the skin: %d rebuilds in the timed run, %d pairs at the end\n",
    what, nb.skin, nb.rebuilds - rebuilds0, nb.pairs))
  -- z_pp as the peers count it: ball-ball contacts that overlap (a linear contact is active
  -- exactly while its gap is negative).
  local npp = contact.count{kind = "ball-ball", active = true}
  local N = ball.count()
  print(string.format("%-8s %8d %5d %6d %9.2f %10.3e %8s %6.3f %3s", "cairn", N, model.threads(),
                      timed, wall_s, N * timed / wall_s, "-", 2 * npp / N, rep))
end

return S
