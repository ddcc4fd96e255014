-- Energy balance with a wall that drags a contact's shear spring (3D; energy_drag_wall_2d.lua
-- runs the same with a segment). A ball (radius 0.1 m, velocity and spin fixed at 0) presses
-- on a floor with an overlap of 1e-4 m (linear model: kn = 1e5 N/m, so F_n = 10 N; ks = 5e4 N/m,
-- friction 0.3, shear dashpot ratio 0.2). The floor slides along x at 0.01 m/s for 0.01 s,
-- then accelerates to 0.03 m/s for 0.005 s, then stops for 0.002 s: the shear spring loads
-- (stick), reaches the friction limit 3 N and slips, and the dashpot works throughout. The
-- ball does not move, so all the wall's work goes into the spring, the slip and the dashpot:
--   wall_work = strain + slip + dashpot   (energy.get().balance is the difference)
-- How the books close: each contact books the work of its force by the trapezoidal rule over
-- the relative motion since its last force pass, and the wall's work is booked with the wall's
-- motion from the middle of the last step to the middle of this one. A contact sees a wall's
-- motion over the step before its force pass (as it sees a ball's), so the two sums telescope
-- into each other exactly, whatever the force history, when the wall is at rest at the start
-- and at the end: the balance is round-off. (Before, a contact saw the wall's velocity for the
-- coming step, one step ahead of its own motion, which left a residual of about F dV dt per
-- speed change: first order, 1.4e-4 of the wall's work here at dt = 1e-5 and 7.2e-5 at 5e-6.)
-- Checks, at dt = 1e-5 and 5e-6 (the contact's sqrt(m / k) is 2.9e-3 s):
--  * |balance| / wall_work < 1e-12 at each (round-off of sums of about 2 000 and 4 000 terms);
--    [3D 2.0e-15 and 3.2e-14; 2D 1.3e-14 and 2.5e-14]
--  * each of strain, slip and dashpot > 1 % of the wall's work (every book is exercised).
local dim = DRAG_DIM or 3
local function vec(x) return dim == 3 and {x, 0, 0} or {x, 0} end

local function drag(dt)
  model.new{dim = dim}
  contact.cmat_default{model = "linear", kn = 1e5, ks = 5e4, fric = 0.3, dp_sratio = 0.2}
  if dim == 3 then
    wall.create{id = 1, kind = "plane", point = {0, 0, 0}, normal = {0, 0, 1}}
    ball.create{id = 1, rad = 0.1, pos = {0, 0, 0.1 - 1e-4}, density = 2000}
  else
    wall.create{id = 1, nodes = {{-1, 0}, {1, 0}}}
    ball.create{id = 1, rad = 0.1, pos = {0, 0.1 - 1e-4}, density = 2000}
  end
  ball.fix{"velocity", "spin"}
  model.timestep{fix = dt}
  model.cycle(1) -- the contact forms, with the normal spring's energy: tracking starts there
  energy.track(true)
  for _, stage in ipairs{{0.01, 0.01}, {0.03, 0.005}, {0, 0.002}} do
    wall.vel(1, vec(stage[1]))
    model.solve{time = model.time() + stage[2]}
  end
  return energy.get()
end

local e1, e2 = drag(1e-5), drag(5e-6)
local r1, r2 = math.abs(e1.balance) / e1.wall_work, math.abs(e2.balance) / e2.wall_work
print(string.format("energy_drag_wall_%dd: wall work %.6g J; strain %.4g, slip %.4g, dashpot "
                    .. "%.4g; balance %.3g (dt/2: %.3g)", dim, e1.wall_work, e1.strain, e1.slip,
                    e1.dashpot, e1.balance, e2.balance))
verify.check{quantity = "|balance| / wall_work, dt = 1e-5", sim = r1, ref = 0, tol = 1e-12,
             kind = "abs"}
verify.check{quantity = "|balance| / wall_work, dt = 5e-6", sim = r2, ref = 0, tol = 1e-12,
             kind = "abs"}
for _, part in ipairs{"strain", "slip", "dashpot"} do
  verify.check{quantity = part .. " > 1 % of the wall's work",
               sim = e1[part] / e1.wall_work > 0.01 and 1 or 0, ref = 1, tol = 0, kind = "abs"}
end
