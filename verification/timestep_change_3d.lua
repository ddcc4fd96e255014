-- A timestep that changes between steps (3D; timestep_change_2d.lua runs the same in 2D). Two
-- balls (radius 0.01 m, overlap 1e-4 m) with velocities and spins fixed: ball 2 slides past
-- ball 1 at v = 1e-3 m/s, perpendicular to the line of centres, and the linear model (ks =
-- 5e5 N/m, friction 100: it sticks) loads its shear spring by ks times the relative motion. The
-- run takes 100 steps of 1e-5 s, 50 of 3e-5 s and 70 of 5e-6 s (a fixed timestep changed twice;
-- the automatic one changes every step).
-- A contact's increment at a force pass is the relative velocity times the step that brought
-- the balls there (the model's `dt`), so its shear displacement is the balls' relative motion
-- up to that pass, plus the one step of relative velocity a new contact takes at its first
-- update: at the last pass, v (T - dt_3 + dt_1), T the run's time, dt_3 = 5e-6 s the last
-- step (taken after that pass) and dt_1 = 1e-5 s the first. Before, the increment used the
-- coming step, and the spring drifted from the motion by v times each change of timestep
-- (here v (dt_3 - dt_1) = 5e-9 m, 0.18 %).
-- Checks: |F_s| / ks against v (T - dt_3 + dt_1), relative tolerance 2e-8 (the line of centres
-- turns by theta = 1.4e-4 rad in the run; the spring, turned with it step by step, differs from
-- the straight-line closed form at order theta^2 = 2e-8; observed 3.4e-9, against 1.8e-3 before);
-- and the balls' relative displacement at the end is v T to round-off (1e-12).
local dim = TS_DIM or 3
local function vec(x, y) return dim == 3 and {x, y, 0} or {x, y} end
model.new{dim = dim}
local v, ks, r = 1e-3, 5e5, 0.01
contact.cmat_default{model = "linear", kn = 1e6, ks = ks, fric = 100}
ball.create{id = 1, rad = r, pos = vec(0, 0), density = 2600}
ball.create{id = 2, rad = r, pos = vec(2 * r - 1e-4, 0), density = 2600, vel = vec(0, v)}
ball.fix{"velocity", "spin"}
local y0 = ball.pos(2)[2]
local stages = {{1e-5, 100}, {3e-5, 50}, {5e-6, 70}}
for _, st in ipairs(stages) do
  model.timestep{fix = st[1]}
  model.cycle(st[2])
end
local T = model.time()
local f = contact.force(contact.find("ball-ball", 1, 2))
local fs = math.sqrt(f[2] ^ 2 + f[3] ^ 2)
print(string.format("timestep_change_%dd: |F_s| / ks = %.10g m after %d steps, T = %g s", dim,
                    fs / ks, model.step(), T))
verify.check{quantity = "shear spring / ks = v (T - dt_last + dt_first)", sim = fs / ks,
             ref = v * (T - stages[3][1] + stages[1][1]), tol = 2e-8}
verify.check{quantity = "relative displacement = v T", sim = ball.pos(2)[2] - y0, ref = v * T,
             tol = 1e-12}
