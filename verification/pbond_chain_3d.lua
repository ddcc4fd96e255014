-- Axial vibration of a chain of balls joined by parallel bonds, against the closed form of a
-- free-free chain of masses and springs (3D; pbond_chain_2d.lua runs the same in 2D). N = 10 balls
-- (radius 0.01 m, 1000 kg/m3) on a line, each touching the next with an overlap of 1e-6 m and
-- bonded (linearpbond, pb_kn = 1e10 Pa/m; the linear part off: kn = ks = 0), so each bond is an
-- axial spring K = pb_kn A (A the bond section). The chain is started in its first axial mode,
-- v_i = V cos(pi (i + 1/2) / N), whose angular frequency is
--     w = 2 sqrt(K / m) sin(pi / (2 N)),
-- and which the centred scheme keeps exactly (the system is linear and the mode an eigenvector),
-- at its discrete frequency w_d = (2 / dt) asin(w dt / 2). The frequency is measured from the
-- zero crossings of the first ball's velocity (linear interpolation) over two periods, and must
-- match w_d to 1e-9 (a linear interpolation of a sine near its zero errs by the cube of the
-- step's phase, (2 pi / 8000)^3 = 5e-10) and w to 1.1 (w dt)^2 / 24 (the scheme's frequency
-- error, 2.6e-8 here). Observed (3D; 2D): 2.4e-13; 3.4e-13 against w_d, 2.6e-8 against w.
local dim = CH_DIM or 3
local N, r, ov, rho, pkn, V = 10, 0.01, 1e-6, 1000, 1e10, 1e-3
local A = dim == 3 and math.pi * r * r or 2 * r
local m = dim == 3 and rho * 4 / 3 * math.pi * r ^ 3 or rho * math.pi * r * r
local K = pkn * A
local w = 2 * math.sqrt(K / m) * math.sin(math.pi / (2 * N))
local dt = 2 * math.pi / w / 8000
local wd = 2 / dt * math.asin(w * dt / 2)
model.new{dim = dim}
contact.cmat_default{model = "linearpbond", kn = 0, ks = 0, pb_kn = pkn, pb_ks = pkn / 2,
                     pb_ten = 1e12, pb_coh = 1e12}
for i = 0, N - 1 do
  local x, vx = i * (2 * r - ov), V * math.cos(math.pi * (i + 0.5) / N)
  ball.create{id = i + 1, rad = r, density = rho, pos = dim == 3 and {x, 0, 0} or {x, 0},
              vel = dim == 3 and {vx, 0, 0} or {vx, 0}}
end
model.timestep{fix = dt}
local crossings, prev, t = {}, ball.vel(1)[1], 0
for _ = 1, 8000 * 2 + 100 do
  model.cycle(1)
  local v = ball.vel(1)[1] -- the half-step velocity after model.time()
  local tv = model.time() - dt / 2
  if prev > 0 and v <= 0 or prev < 0 and v >= 0 then
    crossings[#crossings + 1] = tv - dt + dt * prev / (prev - v)
  end
  prev = v
end
assert(#crossings >= 4, "the chain did not oscillate")
local half = (crossings[#crossings] - crossings[1]) / (#crossings - 1)
local wm = math.pi / half
verify.check{quantity = "axial_mode_1:frequency_vs_discrete", sim = wm, ref = wd, tol = 1e-9}
verify.check{quantity = "axial_mode_1:frequency_vs_closed_form", sim = wm, ref = w,
             tol = 1.1 * (w * dt) ^ 2 / 24}
