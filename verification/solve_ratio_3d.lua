-- Solving to an unbalanced-force ratio (model.solve, model.ratio; 3D, and 2D in
-- solve_ratio_2d.lua), against closed forms.
--  1. The ratio's definition: a ball (radius 0.01 m, 2500 kg/m3) at rest at an overlap of
--     2 m g / kn on a floor, kn = 1e5 N/m, after one step: its unbalanced force is
--     kn d - m g = m g and the forces applied to it sum to kn d + m g = 3 m g, so the mean and the
--     maximum ratio are 1/3. A ball fixed in every velocity component does not count: with it
--     alone the ratios are 0. Both exact up to rounding (1e-12).
--  2. Solving to ratio = 1e-6: the same ball, free, dropped from an overlap of 0 with a normal
--     dashpot (dp_nratio 0.3), settles; model.solve returns reason "ratio" with the mean ratio
--     below 1e-6, and at the force pass it was taken from the contact's force F (spring and
--     dashpot) balances the weight: |F - m g| / (F + m g) is the ratio, so
--     |F - m g| / m g <= 2 ratio / (1 - ratio). (The ratio is a balance of forces, not a state
--     of rest: a damped ball may meet it while passing through the balance point; combine it with
--     calm = E for rest.)
--  3. The first criterion met ends it: with steps = 10 given too, it stops after 10 steps with
--     reason "steps"; calm = E stops when the kinetic energy falls below E.
--  4. The floor of the applied forces (docs/scripting.md, model.ratio): two balls without
--     gravity at an overlap d = 1e-13 m, linear with kn = ks = 1e5 N/m: each carries F = kn d =
--     1e-8 N, unbalanced, and F is below the floor 1e-9 k_tran r = 1e-9 (kn + ks) r = 2e-6 N,
--     so both ratios are kn d / (1e-9 (kn + ks) r) = 5e-3 (it was 1 without the floor), exact
--     up to rounding (1e-12; d is taken as the positions hold it).
--  5. An unloaded bonded equilibrium: three balls bonded in a triangle (linearcbond, no gravity,
--     local damping 0.7), one kicked at 0.01 m/s. Their bonds' forces die away with the motion,
--     and without the floor the ratio stayed at 0.42 for ever (200 000 steps, kinetic energy
--     1e-59); with it model.solve{ratio = 1e-5} stops on "ratio" (observed after 238 steps in
--     2D; the limit given, 5 000 steps, is generous).
local dim = SOLVE_DIM or 3
local r, rho, kn, g = 0.01, 2500, 1e5, 9.81
local function vec(y) return dim == 3 and {0, y, 0} or {0, y} end
local function setup(overlap, fixed, dpn)
  model.new{dim = dim}
  model.gravity(vec(-g))
  contact.cmat_default{model = "linear", kn = kn, dp_nratio = dpn or 0}
  if dim == 2 then
    wall.create{id = 1, nodes = {{-1, 0}, {1, 0}}}
  else
    wall.create{id = 1, kind = "plane", point = {0, 0, 0}, normal = {0, 1, 0}}
  end
  ball.create{id = 1, rad = r, density = rho, pos = vec(r - overlap)}
  if fixed then ball.fix{"velocity", id = 1} end
  model.timestep{fix = 1e-5}
  return ball.mass(1)
end

-- 1
local m = setup(2 * 9.81 * (dim == 3 and 4 / 3 * math.pi * r ^ 3 or math.pi * r * r) * rho / kn,
                true)
model.cycle(1)
local mean, max = model.ratio()
-- the ball is fixed in velocity: it does not count, and nothing else does
verify.check{quantity = "fixed_ball_only:ratios", sim = mean + max, ref = 0, tol = 0, kind = "abs"}
m = setup(2 * 9.81 * m / kn, false)
model.cycle(1) -- (the ratio is that of the force pass, at the starting overlap)
mean, max = model.ratio()
verify.check{quantity = "mean_ratio_definition", sim = mean, ref = 1 / 3, tol = 1e-12}
verify.check{quantity = "max_ratio_definition", sim = max, ref = 1 / 3, tol = 1e-12}

-- 2
m = setup(0, false, 0.3)
local res = model.solve{ratio = 1e-6, time = 10}
verify.check{quantity = "solve_ratio:reason_is_ratio", sim = res.reason == "ratio" and 1 or 0,
             ref = 1, tol = 0, kind = "abs"}
verify.check{quantity = "solve_ratio:ratio<=1e-6", sim = math.max(res.ratio - 1e-6, 0), ref = 0,
             tol = 0, kind = "abs"}
local fc = contact.force(contact.find("ball-wall", 1, 1))[1] -- normal, spring + dashpot
verify.check{quantity = "balance_at_the_stop", sim = math.abs(fc - m * g) / (m * g), ref = 0,
             tol = 2 * 1e-6 / (1 - 1e-6), kind = "abs"}

-- 3
setup(0, false, 0.3)
res = model.solve{ratio = 1e-6, steps = 10}
verify.check{quantity = "first_met:steps", sim = res.reason == "steps" and res.steps or -1,
             ref = 10, tol = 0, kind = "abs"}
res = model.solve{calm = 1e-9, time = 10}
verify.check{quantity = "calm:kinetic<=1e-9", sim = res.reason == "calm" and
             math.max(res.kinetic - 1e-9, 0) or 1, ref = 0, tol = 0, kind = "abs"}

-- 4
model.new{dim = dim}
contact.cmat_default{model = "linear", kn = 1e5, ks = 1e5}
ball.create{id = 1, rad = r, density = rho, pos = vec(0)}
ball.create{id = 2, rad = r, density = rho, pos = vec(2 * r - 1e-13)}
model.timestep{fix = 1e-5}
local d = 2 * r - ball.pos(2)[2] -- (1e-13 as the position holds it: exact, Sterbenz)
model.cycle(1) -- (the ratio is that of the force pass, at the starting overlap)
mean, max = model.ratio()
local floored = 1e5 * d / (1e-9 * 2e5 * r)
verify.check{quantity = "floor:mean_ratio", sim = mean, ref = floored, tol = 1e-12}
verify.check{quantity = "floor:max_ratio", sim = max, ref = floored, tol = 1e-12}

-- 5
model.new{dim = dim}
contact.cmat_default{model = "linearcbond", kn = 1e6, ks = 1e6, cb_tenf = 1e9, cb_shearf = 1e9}
local function at(x, y) return dim == 3 and {x, y, 0} or {x, y} end
ball.create{id = 1, rad = r, pos = at(0, 0)}
ball.create{id = 2, rad = r, pos = at(1.99 * r, 0)}
ball.create{id = 3, rad = r, pos = at(0.995 * r, 1.72 * r)}
ball.attribute{density = 2650, damp = 0.7}
model.cycle(1) -- (the bonds form, stress-free)
ball.vel(2, at(0.01, 0.003))
res = model.solve{ratio = 1e-5, steps = 5000}
verify.check{quantity = "bonded_at_rest:reason_is_ratio", sim = res.reason == "ratio" and 1 or 0,
             ref = 1, tol = 0, kind = "abs"}
