-- Energy balance of the burger model (2D; the 3D twin is energy_burger_3d.lua). A ball dropped
-- from 3 mm with a sideways velocity and a backspin lands on a floor, skids (the slider slips),
-- rolls, and creeps into the floor; the contact is a burger contact in both directions with all
-- four elements, bur_fric 0.1. Energy is tracked from the release, so the work of gravity must
-- equal the ball's kinetic energy, the springs' energy and the dashpot and slip losses:
--   W_g + E_kin(0) = E_kin + E_strain + D_dashpot + D_slip
--
-- The model books its losses from the trapezoidal scheme it is built on (seed 002): over a step,
-- the work of the mean force less the springs' gain is exactly what the dashpots take (Kelvin
-- C_k (du_k)^2 / dt and Maxwell F_mean^2 dt / C_m in each direction), and in shear what remains
-- is the slider's. As for the linear model (energy_pour_2d.lua), the residual is the step on
-- which the contact starts (the force jumps from 0 while the ball moved the whole step), second
-- order in dt.
-- Checks: |balance| / W_g < 1 % at dt = 1e-5 and at dt/2, the ratio of the two residuals in
-- [2, 6] (4 for second order), and both losses present (> 1 % of W_g).
--   [2D: 4.3e-5, 1.7e-5, ratio 2.6; 3D: 4.3e-3, 1.0e-3, ratio 4.2]
local dim = ENERGY_DIM or 2
local r = 0.005

local function drop(dt)
  model.new{dim = dim}
  contact.cmat_default{model = "burger", bur_knk = 1e5, bur_cnk = 50, bur_knm = 2e5, bur_cnm = 500,
                       bur_ksk = 5e4, bur_csk = 20, bur_ksm = 1e5, bur_csm = 300, bur_fric = 0.1}
  if dim == 3 then
    model.gravity{0, 0, -9.81}
    wall.create{kind = "plane", point = {0, 0, 0}, normal = {0, 0, 1}}
    ball.create{id = 1, rad = r, density = 2500, pos = {0, 0, r + 0.003}, vel = {0.05, 0, 0},
                spin = {0, 100, 0}}
  else
    model.gravity{0, -9.81}
    wall.create{kind = "segment", nodes = {{-1, 0}, {1, 0}}}
    ball.create{id = 1, rad = r, density = 2500, pos = {0, r + 0.003}, vel = {0.05, 0},
                spin = {0, 0, -100}}
  end
  model.timestep{fix = dt}
  energy.track(true)
  model.solve{time = 0.2}
  return energy.get()
end

local e1, e2 = drop(1e-5), drop(5e-6)
for i, e in ipairs{e1, e2} do
  verify.check{quantity = "|balance| / W_gravity" .. (i == 1 and "" or ", dt/2"),
               sim = math.abs(e.balance) / e.gravity_work, ref = 0, tol = 0.01, kind = "abs"}
end
verify.check{quantity = "residual ratio dt : dt/2 (order 2 gives 4)",
             sim = math.abs(e1.balance) / math.abs(e2.balance), ref = 4, tol = 0.5}
for _, part in ipairs{"dashpot", "slip"} do
  verify.check{quantity = part .. " loss > 1 % of W_gravity",
               sim = e1[part] / e1.gravity_work > 0.01 and 1 or 0, ref = 1, tol = 0, kind = "abs"}
end
print(string.format("energy_burger_%dd: W_g %.6g J, start %.4g; kinetic %.4g, strain %.4g, dashpot "
                    .. "%.4g, slip %.4g; balance %.3g (dt/2: %.3g)", dim, e1.gravity_work, e1.start,
                    e1.kinetic, e1.strain, e1.dashpot, e1.slip, e1.balance, e2.balance))
