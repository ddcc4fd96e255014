-- The flatjoint model's interface, against closed forms summed over its elements (3D;
-- flatjoint_2d.lua runs the same in 2D). Two balls (radius r = 0.01 m) touching with an overlap
-- of 1e-6 m get an interface of radius R = r at their first update, cut into fj_nr = 2 rings of
-- fj_na = 4 sectors (2D: fj_nr = 4 pieces of a segment of unit thickness); fj_kn = 1e10 Pa/m,
-- fj_ks = 5e9 Pa/m; velocities and spins fixed (set), dt = 1e-7.
-- The closed form: each element e has area A_e and centroid x_e = a1 e1 + a2 e2 in the contact
-- plane (3D: ring i between radii R i / nr and R (i + 1) / nr, sector j between angles j D and
-- (j + 1) D, D = 2 pi / na: A_e = (ro^2 - ri^2) D / 2 and the centroid at
-- 2 (ro^3 - ri^3) / (3 (ro^2 - ri^2)) sin(D/2) / (D/2) on the mid-angle; 2D: pieces of length
-- 2R / nr at their midpoints), e1 read from the contact (fj_e1; 2D: t = (-n_y, n_x)). Under a
-- constant relative velocity v and spin w, element e has moved d_e = (v + w x x_e) T after T =
-- (n - 1) dt (the interface forms stress-free at the first update, as a parallel bond does): its
-- gap is g_e = d_e . n, its normal stress -fj_kn g_e, its shear stress -fj_ks (d_e - g_e n), and
-- the interface's force and moment are the sums of A_e times these stresses and of x_e x
-- (their forces). This script sums them itself, from the layout above:
--  1. tension: ball 2 moves away at v = 0.013 m/s; force to rounding (1e-12 of fj_ten A); every
--     element breaks in tension in the first step where fj_kn v T > fj_ten = 1e5 Pa, with one
--     bond_break event and a tensile crack per element (fj_newten: all of them in that step);
--  2. shear: ball 2 moves across at v; force against the sum within theta^2 / 2 of the shear
--     strength (the line of centres turns by theta = v t / 2r, as for parallel bonds); every
--     element breaks in shear in the step where fj_ks v T > fj_coh = 2e5 Pa;
--  3. bending: the balls spin at -w/2 and w/2 (w = 1 rad/s; so the spin moves neither surface
--     across the contact point) about an axis in the contact plane: the moment against
--     the sum (1e-12), opposing the spin; against the continuum beam fj_kn I w T (I = pi R^4 / 4;
--     2D (2R)^3 / 12) the sum falls short by exactly the elements' own second moments about their
--     centroids (parallel-axis theorem): in 2D by 1 / nr^2 of I, in 3D by what this script
--     integrates element by element (midpoint rule on a 400 x 400 grid in r and the angle,
--     error below 1e-5 of I): the continuum rows check that shortfall, with tolerance 1e-4;
--  4. twisting (3D): the balls spin likewise about the normal: the moment against the sum
--     (1e-12), and against the continuum fj_ks J w T (J = pi R^4 / 2) short by the elements'
--     own polar moments likewise;
--  5. progressive breakage in bending: with w = 7 rad/s (no element's threshold within 1e-6 of
--     a whole step, so rounding cannot move a break by a step) each element on the tension side
--     breaks in the first step where fj_kn (w x x_e) . n T exceeds fj_ten: the step of each
--     element's break against its own closed form (exact), elements in compression never; in
--     every step as many new cracks as elements broke, all of them tensile;
--  6. the gap closing and friction: every element a slit open by fj_gap = 2e-9 m; ball 2 comes
--     closer at v: the elements close in the first step where v T > fj_gap, and then the normal
--     force is fj_kn A (v T - fj_gap) (1e-12 of it); ball 2 then stops and moves across: the
--     shear force grows as fj_ks A s and is capped at fj_fric times the normal force (fj_fric =
--     0.5), within the turn of the normal (theta^2 / 2, as in 2);
--  7. energy: a free bonded pair launched apart, across and spinning oscillates for 2000 steps:
--     the balance of kinetic and stored energy closes to the trapezoidal books' second-order
--     error (tolerance 1e-3 of the energy in play, as for parallel bonds); then the same pair
--     with strengths of 60 % of the largest stress the motion could reach breaks in tension and
--     releases what its elements stored (fj_ebreak, booked with the slip losses): the slip books
--     equal the stored energy of its last bonded step to within F v dt (the work of the breaking
--     step's increment), and the balance closes to F v dt / 2 (as for parallel bonds).
local dim = FJ_DIM or 3
local r, ov, dt, v, w = 0.01, 1e-6, 1e-7, 0.013, 1.0
local kn, ks, ten, coh = 1e10, 5e9, 1e5, 2e5
local nr, na = dim == 3 and 2 or 4, dim == 3 and 4 or 1
local R = r
local function vec(x, y, z) return dim == 3 and {x, y, z} or {x, y} end
local function v3(t) if type(t) == "number" then return {0, 0, t} end
  return {t[1], t[2], t[3] or 0} end
local function dot(a, b) return a[1] * b[1] + a[2] * b[2] + a[3] * b[3] end
local function cross(a, b)
  return {a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1]}
end
local function norm(a) return math.sqrt(dot(a, a)) end

-- the layout: per element its area and centroid coordinates (a1, a2) in units of R
local layout = {}
if dim == 3 then
  local D = 2 * math.pi / na
  local chord = na == 1 and 0 or math.sin(D / 2) / (D / 2)
  for i = 0, nr - 1 do
    local ri, ro = i / nr, (i + 1) / nr
    local rho = 2 * (ro ^ 3 - ri ^ 3) / (3 * (ro ^ 2 - ri ^ 2)) * chord
    for j = 0, na - 1 do
      local phi = (j + 0.5) * D
      layout[#layout + 1] = {A = 0.5 * (ro ^ 2 - ri ^ 2) * D, a1 = rho * math.cos(phi),
                             a2 = rho * math.sin(phi), ri = ri, ro = ro, p0 = j * D,
                             p1 = (j + 1) * D}
    end
  end
else
  for i = 0, nr - 1 do
    layout[#layout + 1] = {A = 2 / nr, a1 = -1 + (2 * i + 1) / nr, a2 = 0}
  end
end

-- the closed form: force and moment on side 2 after relative motion v, spin w for time T
local function frame(cp)
  local n = v3(contact.normal(cp))
  local e1 = dim == 3 and contact.prop(cp, "fj_e1") or {-n[2], n[1], 0}
  return n, e1, cross(n, e1)
end
local function closed(cp, vel, spin, T)
  local n, e1, e2 = frame(cp)
  local F, M, elems = {0, 0, 0}, {0, 0, 0}, {}
  for k, e in ipairs(layout) do
    local A = e.A * (dim == 3 and R * R or R)
    local x = {}
    for c = 1, 3 do x[c] = R * (e.a1 * e1[c] + e.a2 * e2[c]) end
    local u = cross(spin, x)
    local d = {}
    for c = 1, 3 do d[c] = (vel[c] + u[c]) * T end
    local g = dot(d, n)
    local f = {}
    for c = 1, 3 do f[c] = A * (-kn * g * n[c] - ks * (d[c] - g * n[c])) end
    local m = cross(x, f)
    for c = 1, 3 do F[c] = F[c] + f[c]; M[c] = M[c] + m[c] end
    elems[k] = {x = x, g = g, A = A}
  end
  return F, M, elems, n
end
local function dist(a, b) return norm({a[1] - b[1], a[2] - b[2], a[3] - b[3]}) end

local function setup(props, vel, spin)
  model.new{dim = dim}
  local cm = {model = "flatjoint", fj_kn = kn, fj_ks = ks, fj_ten = ten, fj_coh = coh,
              fj_nr = nr, fj_na = na}
  for k, val in pairs(props or {}) do cm[k] = val end
  contact.cmat_default(cm)
  -- the balls spin by -spin/2 and +spin/2, so that the spin moves neither surface across the
  -- contact point: the relative velocity there is vel
  local half = type(spin) == "number" and spin / 2 or {spin[1] / 2, spin[2] / 2, spin[3] / 2}
  local minus = type(spin) == "number" and -half or {-half[1], -half[2], -half[3]}
  ball.create{id = 1, rad = r, pos = vec(0, 0, 0), spin = minus, density = 1000}
  ball.create{id = 2, rad = r, pos = vec(2 * r - ov, 0, 0), vel = vel, spin = half,
              density = 1000}
  ball.fix{"velocity", "spin"}
  model.timestep{fix = dt}
  local breaks = 0
  callback.on("bond_break", function() breaks = breaks + 1 end)
  return function() return breaks end
end
local nospin = dim == 3 and {0, 0, 0} or 0
local function modes(cp)
  local m, out = contact.prop(cp, "fj_emode"), {}
  for k = 1, #layout do out[k] = m[k] end
  return out
end
local function all_are(list, x)
  for _, y in ipairs(list) do if y ~= x then return 0 end end
  return 1
end

-- 1: tension
local breaks = setup({}, vec(v, 0, 0), nospin)
local worst, broke_at, expect = 0, nil, nil
for n = 1, 100000 do
  model.cycle(1)
  local cp = contact.find("ball-ball", 1, 2)
  if not expect and kn * v * dt * (n - 1) > ten then expect = n end
  if contact.prop(cp, "fj_nbond") == #layout then
    local F = closed(cp, {v, 0, 0}, {0, 0, 0}, (n - 1) * dt)
    worst = math.max(worst, dist(v3(contact.force_global(cp)), F) /
                            (ten * (dim == 3 and math.pi * R * R or 2 * R)))
  else
    broke_at = n
    verify.check{quantity = "tension:every_element_broken_in_tension",
                 sim = all_are(modes(cp), 2) * contact.prop(cp, "fj_nten"), ref = #layout,
                 tol = 0, kind = "abs"}
    verify.check{quantity = "tension:no_force_once_open", sim = norm(v3(contact.force_global(cp))),
                 ref = 0, tol = 0, kind = "abs"}
    break
  end
end
verify.check{quantity = "tension:force_vs_element_sum", sim = worst, ref = 0, tol = 1e-12,
             kind = "abs"}
verify.check{quantity = "tension:break_step", sim = broke_at or -1, ref = expect or -2, tol = 0,
             kind = "abs"}
local tensile = 0
for _, k in ipairs(contact.cracks{list = true}) do
  if k.mode == "tension" then tensile = tensile + 1 end
end
verify.check{quantity = "tension:one_event_a_tensile_crack_per_element",
             sim = breaks() * 1000 + tensile * 10 + (contact.cracks() - tensile),
             ref = 1000 + #layout * 10, tol = 0, kind = "abs"}

-- 2: shear
setup({}, vec(0, v, 0), nospin)
worst, broke_at, expect = 0, nil, nil
for n = 1, 100000 do
  model.cycle(1)
  local cp = contact.find("ball-ball", 1, 2)
  local Atot = dim == 3 and math.pi * R * R or 2 * R
  if not expect and ks * v * dt * (n - 1) > coh then expect = n end
  if contact.prop(cp, "fj_nbond") == #layout then
    local f = contact.force(cp)
    worst = math.max(worst, math.abs(math.sqrt(f[2] ^ 2 + f[3] ^ 2) -
                                     ks * Atot * v * dt * (n - 1)) / (coh * Atot))
  else
    broke_at = n
    verify.check{quantity = "shear:every_element_broken_in_shear",
                 sim = all_are(modes(cp), 3) * contact.prop(cp, "fj_nshear"), ref = #layout,
                 tol = 0, kind = "abs"}
    break
  end
end
local theta = v * dt * (broke_at or 0) / (2 * r)
verify.check{quantity = "shear:force_vs_element_sum", sim = worst, ref = 0,
             tol = theta * theta / 2 + 1e-12, kind = "abs"}
verify.check{quantity = "shear:break_step", sim = broke_at or -1, ref = expect or -2, tol = 0,
             kind = "abs"}

-- 3 and 4: bending and twisting, against the element sums and the continuum
local function second_moments(axis_a1, axis_a2)
  -- the elements' own second moments about their centroids, about the in-plane axis
  -- (axis_a1, axis_a2) (bending: distances perpendicular to it) or, with axis nil, polar
  local total = 0
  for _, e in ipairs(layout) do
    local sum, N = 0, 400
    local dr, dp = (e.ro - e.ri) / N, (e.p1 - e.p0) / N
    for i = 0, N - 1 do
      local rr = e.ri + (i + 0.5) * dr
      for j = 0, N - 1 do
        local p = e.p0 + (j + 0.5) * dp
        local x, y = rr * math.cos(p) - e.a1, rr * math.sin(p) - e.a2
        local d2 = axis_a1 and (x * axis_a2 - y * axis_a1) ^ 2 or x * x + y * y
        sum = sum + d2 * rr * dr * dp
      end
    end
    total = total + sum
  end
  return total * R ^ 4
end
local n = 1000
local T = (n - 1) * dt
for _, case in ipairs(dim == 3 and {"bending", "twisting"} or {"bending"}) do
  local spin = case == "bending" and {0, 0, w} or {w, 0, 0}
  setup({fj_ten = 1e15, fj_coh = 1e15}, vec(0, 0, 0), dim == 3 and spin or w)
  model.cycle(n)
  local cp = contact.find("ball-ball", 1, 2)
  local _, M = closed(cp, {0, 0, 0}, spin, T)
  local Msim = v3(contact.moment(cp))
  verify.check{quantity = case .. ":moment_vs_element_sum", sim = dist(Msim, M) / norm(M), ref = 0,
               tol = 1e-12, kind = "abs"}
  verify.check{quantity = case .. ":moment_opposes_the_spin", sim = dot(Msim, spin) < 0 and 1 or 0,
               ref = 1, tol = 0, kind = "abs"}
  -- the continuum, and the elements' shortfall from it
  local I, short
  if case == "bending" then
    I = dim == 3 and math.pi * R ^ 4 / 4 or (2 * R) ^ 3 / 12
    if dim == 3 then
      local n_, e1 = frame(cp)
      local e2 = cross(n_, e1)
      -- the bending axis (the spin) in (e1, e2) components
      short = second_moments(dot(spin, e1) / w, dot(spin, e2) / w) / I
    else
      short = 1 / (nr * nr)
    end
  else
    I = math.pi * R ^ 4 / 2
    short = second_moments(nil, nil) / I
  end
  local k = case == "bending" and kn or ks
  verify.check{quantity = case .. ":moment_vs_continuum_less_the_elements_own_moments",
               sim = norm(Msim) / (k * I * w * T), ref = 1 - short, tol = 1e-4}
end

-- 5: progressive breakage in bending
setup({}, vec(0, 0, 0), dim == 3 and {0, 0, 7 * w} or 7 * w)
model.cycle(1)
local cp = contact.find("ball-ball", 1, 2)
local _, _, elems = closed(cp, {0, 0, 0}, {0, 0, 7 * w}, dt)
local predicted, seen, tension_side = {}, {}, 0
for k, e in ipairs(elems) do
  -- tension (g > 0) per step of T: e.g / dt; first n with kn (g/dt) (n - 1) dt > ten
  local rate = e.g / dt
  if rate > 0 then
    tension_side = tension_side + 1
    local steps = ten / (kn * rate * dt)
    assert(math.abs(steps - math.floor(steps + 0.5)) > 1e-6, "a threshold on a whole step")
    predicted[k] = math.floor(steps) + 2
  end
end
local crack_step_off = 0 -- steps whose new cracks are not their newly broken elements
for step = 2, 20000 do
  local cracks0 = contact.cracks()
  model.cycle(1)
  local m, fresh = modes(cp), 0
  for k = 1, #layout do
    if m[k] ~= 1 and not seen[k] then seen[k] = {step = step, mode = m[k]}; fresh = fresh + 1 end
  end
  if contact.cracks() - cracks0 ~= fresh then crack_step_off = crack_step_off + 1 end
  if contact.prop(cp, "fj_nbond") == #layout - tension_side then break end
end
local tensile = 0
for _, k in ipairs(contact.cracks{list = true}) do
  if k.mode == "tension" then tensile = tensile + 1 end
end
verify.check{quantity = "progressive:a_crack_per_element_in_its_break_step", sim = crack_step_off,
             ref = 0, tol = 0, kind = "abs"}
verify.check{quantity = "progressive:tensile_cracks", sim = tensile, ref = tension_side, tol = 0,
             kind = "abs"}
local wrong, compressed_broke = 0, 0
for k = 1, #layout do
  if predicted[k] then
    if not seen[k] or seen[k].step ~= predicted[k] or seen[k].mode ~= 2 then
      wrong = wrong + 1
    end
  elseif seen[k] then
    compressed_broke = compressed_broke + 1
  end
end
verify.check{quantity = "progressive:tension_side_elements", sim = tension_side,
             ref = dim == 3 and 4 or 2, tol = 0, kind = "abs"}
verify.check{quantity = "progressive:elements_off_their_break_step", sim = wrong, ref = 0, tol = 0,
             kind = "abs"}
verify.check{quantity = "progressive:compressed_elements_broken", sim = compressed_broke, ref = 0,
             tol = 0, kind = "abs"}

-- 6: the gap closing, then friction
local g0, fric = 2e-9, 0.5
setup({fj_slit = 1, fj_gap = g0, fj_fric = fric}, vec(-v, 0, 0), nospin)
local Atot = dim == 3 and math.pi * R * R or 2 * R
local closed_at, expect_close, fn_worst, fn_last = nil, nil, 0, 0
for step = 1, 200 do
  model.cycle(1)
  cp = contact.find("ball-ball", 1, 2)
  local closing = v * dt * (step - 1)
  if not expect_close and closing > g0 then expect_close = step end
  local fn = contact.force(cp)[1]
  if fn > 0 and not closed_at then closed_at = step end
  if closed_at then
    local exact = kn * Atot * (closing - g0)
    fn_worst = math.max(fn_worst, math.abs(fn - exact) / exact)
    fn_last = fn
  end
end
verify.check{quantity = "gap:closing_step", sim = closed_at or -1, ref = expect_close or -2,
             tol = 0, kind = "abs"}
verify.check{quantity = "gap:normal_force_once_closed", sim = fn_worst, ref = 0, tol = 1e-12,
             kind = "abs"}
ball.vel(2, vec(0, v, 0))
local s_worst, slid = 0, 0
for step = 1, 4000 do
  model.cycle(1)
  local f = contact.force(cp)
  local fs = math.sqrt(f[2] ^ 2 + f[3] ^ 2)
  local exact = math.min(ks * Atot * v * dt * step, fric * f[1])
  if ks * Atot * v * dt * step > fric * f[1] then slid = slid + 1 end
  s_worst = math.max(s_worst, math.abs(fs - exact) / (fric * fn_last))
end
theta = v * dt * 4000 / (2 * r)
verify.check{quantity = "friction:shear_force_capped", sim = s_worst, ref = 0,
             tol = theta * theta / 2 + 1e-12, kind = "abs"}
verify.check{quantity = "friction:steps_sliding", sim = slid > 1000 and 1 or 0, ref = 1, tol = 0,
             kind = "abs"}

-- 7: energy of a free bonded pair, then through a break
model.new{dim = dim}
contact.cmat_default{model = "flatjoint", fj_kn = kn, fj_ks = ks, fj_ten = 1e15, fj_coh = 1e15,
                     fj_nr = nr, fj_na = na}
ball.create{id = 1, rad = r, pos = vec(0, 0, 0), density = 1000}
ball.create{id = 2, rad = r, pos = vec(2 * r - ov, 0, 0), density = 1000,
            vel = vec(0.013, 0.005, 0), spin = dim == 3 and {0, 1, 3} or 3}
model.timestep{fix = dt}
model.cycle(1)
energy.track(true)
local e0 = energy.get()
model.cycle(2000)
local e = energy.get()
verify.check{quantity = "energy:|balance|/energy_in_play", sim = math.abs(e.balance) /
             (e0.kinetic + e0.strain), ref = 0, tol = 1e-3, kind = "abs"}

model.new{dim = dim}
local m = (dim == 3 and 4 / 3 * math.pi * r ^ 3 or math.pi * r * r) * 1000
local smax = v * math.sqrt(kn * Atot * m / 2) / Atot
contact.cmat_default{model = "flatjoint", fj_kn = kn, fj_ks = ks, fj_ten = 0.6 * smax,
                     fj_coh = 1e15, fj_nr = nr, fj_na = na}
ball.create{id = 1, rad = r, pos = vec(0, 0, 0), density = 1000}
ball.create{id = 2, rad = r, pos = vec(2 * r - ov, 0, 0), density = 1000, vel = vec(v, 0, 0)}
model.timestep{fix = dt}
local nbreak = 0
callback.on("bond_break", function() nbreak = nbreak + 1 end)
model.cycle(1)
energy.track(true)
e0 = energy.get()
local stored, fbond = 0, 0
for _ = 1, 4000 do
  cp = contact.find("ball-ball", 1, 2)
  if cp and contact.prop(cp, "fj_nbond") == #layout then
    stored, fbond = contact.prop(cp, "fj_estore"), math.abs(contact.prop(cp, "fj_fn"))
  end
  model.cycle(1)
end
e = energy.get()
verify.check{quantity = "energy_break:breaks_once", sim = nbreak, ref = 1, tol = 0, kind = "abs"}
local in_play = e0.kinetic + e0.strain
verify.check{quantity = "energy_break:|balance|/energy_in_play", sim = math.abs(e.balance) /
             in_play, ref = 0, tol = 0.5 * fbond * v * dt / in_play, kind = "abs"}
verify.check{quantity = "energy_break:released_vs_stored", sim = e.slip, ref = stored,
             tol = (fbond * v * dt) / stored, kind = "rel"}
