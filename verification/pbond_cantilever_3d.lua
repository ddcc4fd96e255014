-- A cantilever of bonded balls under an end load (3D; pbond_cantilever_2d.lua runs the same in
-- 2D). N + 1 = 11 balls (radius r = 0.01 m) on the x axis, each touching the next with an overlap
-- of 1e-6 m and bonded (linearpbond: pb_kn = 1e10 Pa/m, pb_ks = 5e9 Pa/m, pb_rmul 1; the linear
-- part off). Ball 1 is clamped (velocity and spin fixed); the last ball carries P = 0.01 N along
-- -y (ball.force_app); local damping 0.7; solved to an unbalanced-force ratio of 1e-9.
-- The chain is statically determinate, so its deflection has a closed form from the bond laws
-- alone. Bond j (between balls j and j+1, contact point at x_j = (2j - 1) r) carries the shear
-- force P and the moment M_j = P (L - x_j), L the tip ball's x; its bending spring
-- k_b = pb_kn I gives the balls' relative rotation theta_j+1 - theta_j = M_j / k_b, and its shear
-- spring k_s = pb_ks A the relative displacement at the contact point,
-- (u_j+1 - u_j) - r (theta_j + theta_j+1) = P / k_s (the balls' rotations move their surfaces at
-- the contact by r theta each). Summing from the clamp gives the tip deflection u_tip exactly,
-- up to the small-deflection linearisation (relative error of order (u/L)^2, 1e-8 here) and the
-- ratio's residual: tolerance 1e-6.
-- Euler-Bernoulli's P L^3 / (3 E I) with E I = k_b (2 r) (a bond of length 2r) and Timoshenko's
-- shear term P L / (k_s / 2r) are the continuum's: the discrete chain differs from them by its
-- discretisation (the rotations step at the bonds): printed with the deflection, not checked.
local dim = CL_DIM or 3
local N, r, ov, P, pkn, pks = 10, 0.01, 1e-6, 0.01, 1e10, 5e9
local A = dim == 3 and math.pi * r * r or 2 * r
local I = dim == 3 and math.pi * r ^ 4 / 4 or (2 * r) ^ 3 / 12
local kb, ksb = pkn * I, pks * A
model.new{dim = dim}
contact.cmat_default{model = "linearpbond", kn = 0, ks = 0, pb_kn = pkn, pb_ks = pks,
                     pb_ten = 1e15, pb_coh = 1e15}
local step = 2 * r - ov
for i = 0, N do
  ball.create{id = i + 1, rad = r, density = 1000, damp = 0.7,
              pos = dim == 3 and {i * step, 0, 0} or {i * step, 0}}
end
ball.fix{"velocity", "spin", id = 1}
-- The linear part is off, so the properties give the automatic timestep no stiffness: a fixed
-- step a fifth of the stiffest bond spring's (bending, on a ball's moment of inertia) period
-- over 2 pi keeps the explicit scheme well inside its stability limit.
local m = 1000 * (dim == 3 and 4 / 3 * math.pi * r ^ 3 or math.pi * r * r)
local J = (dim == 3 and 0.4 or 0.5) * m * r * r
model.timestep{fix = 0.2 * math.min(math.sqrt(J / kb), math.sqrt(m / (pkn * A)))}
model.clean()
model.cycle(1) -- the bonds form, stress-free
ball.force_app(N + 1, dim == 3 and {0, -P, 0} or {0, -P})
local res = model.solve{ratio = 1e-9, time = 20}
local u_tip = -(ball.pos(N + 1)[2])
-- the closed form of the discrete chain
local L = N * step
local theta, u = {[0] = 0}, 0
for j = 1, N do
  local xj = (j - 0.5) * step -- contact point of bond j, between balls j-1 and j (0-based)
  theta[j] = theta[j - 1] + P * (L - xj) / kb
  local a = r - ov / 2 -- the arm from each centre to the contact point
  u = u + a * (theta[j - 1] + theta[j]) + P / ksb
end
verify.check{quantity = "solved_to_the_ratio", sim = res.reason == "ratio" and 1 or 0, ref = 1,
             tol = 0, kind = "abs"}
verify.check{quantity = "tip_deflection_vs_discrete_chain", sim = u_tip, ref = u, tol = 1e-6}
local EI = kb * step
local eb = P * L ^ 3 / (3 * EI) + P * L / (ksb / step)
print(string.format("pbond_cantilever_%dd: tip deflection %.6g m; discrete chain %.6g m; " ..
                    "Euler-Bernoulli + shear %.6g m (%.2f %% apart: the discretisation)", dim,
                    u_tip, u, eb, 100 * (u / eb - 1)))
