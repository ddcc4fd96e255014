-- Energy balance of a damped pour of clumps (3D; the 2D twin is energy_clump_pour_2d.lua): the
-- case and checks of energy_pour_2d.lua (read the derivation and tolerances there) with the
-- balls replaced by 60 (2D: 80) clumps of three overlapping pebbles, placed on a lattice with
-- turned orientations and spins, falling into the same box. A clump's kinetic energy is
-- 1/2 M v^2 + 1/2 omega . L, its gravity work and damping loss are booked with its mid-step
-- velocities as a ball's, and its pebbles' contacts book their work as any contact does, so
-- the balance must close as the balls' does: the residual is the numerical loss at the steps a
-- contact starts and ends, second order in dt (ratio of the residuals at dt and dt/2 in [2, 6]),
-- below 1 % of the gravity work, with every loss present and the pour settled.
-- ctest: heavy
local dim = CLUMP_DIM or 3
local L = 0.1

local function pour(dt)
  model.new{dim = dim}
  contact.cmat_default{model = "linear", kn = 1e5, ks = 5e4, fric = 0.4, dp_nratio = 0.2,
                       dp_sratio = 0.1}
  local n
  if dim == 3 then
    model.gravity{0, 0, -9.81}
    wall.create{kind = "plane", point = {0, 0, 0}, normal = {0, 0, 1}}
    wall.create{kind = "plane", point = {0, 0, 0}, normal = {1, 0, 0}}
    wall.create{kind = "plane", point = {L, 0, 0}, normal = {-1, 0, 0}}
    wall.create{kind = "plane", point = {0, 0, 0}, normal = {0, 1, 0}}
    wall.create{kind = "plane", point = {0, L, 0}, normal = {0, -1, 0}}
    clump.template{name = "grain", pebbles = {{0, 0, 0, 0.005}, {0.006, 0, 0, 0.004},
                                              {0.001, 0.005, 0.002, 0.003}}}
    n = 60
  else
    model.gravity{0, -9.81}
    wall.create{kind = "segment", nodes = {{-0.01, 0}, {L + 0.01, 0}}}
    wall.create{kind = "segment", nodes = {{0, -0.01}, {0, 0.3}}}
    wall.create{kind = "segment", nodes = {{L, -0.01}, {L, 0.3}}}
    clump.template{name = "grain", pebbles = {{0, 0, 0.003}, {0.004, 0, 0.0025},
                                              {0.001, 0.003, 0.002}}}
    n = 80
  end
  for i = 0, n - 1 do
    local a = 1.7 * i
    if dim == 3 then
      local x, y, z = 0.015 + 0.023 * (i % 4), 0.015 + 0.023 * ((i // 4) % 4), 0.02 + 0.02 * (i // 16)
      local h = 0.5 * a
      clump.create{template = "grain", pos = {x, y, z}, density = 2500, damp = 0.1,
                   orientation = {math.cos(h), 0.6 * math.sin(h), 0, 0.8 * math.sin(h)},
                   spin = {math.sin(a), math.cos(a), 0.5}}
    else
      local x, y = 0.01 + 0.0115 * (i % 8), 0.01 + 0.012 * (i // 8)
      clump.create{template = "grain", pos = {x, y}, density = 2500, damp = 0.1,
                   orientation = a, spin = math.sin(a)}
    end
  end
  model.timestep{fix = dt}
  energy.track(true)
  model.solve{time = 0.5}
  return energy.get()
end

-- dt: about a third of the smallest pebble's sqrt(m / (kn + ks)) with the clump's mass
local dt = dim == 3 and 1.5e-5 or 5e-5
local e1 = pour(dt)
local e2 = pour(dt / 2)
for i, e in ipairs{e1, e2} do
  local tag = i == 1 and "" or ", dt/2"
  verify.check{quantity = "|balance| / W_gravity" .. tag, sim = math.abs(e.balance) / e.gravity_work,
               ref = 0, tol = 0.01, kind = "abs"}
end
local r1, r2 = math.abs(e1.balance), math.abs(e2.balance)
verify.check{quantity = "residual ratio dt : dt/2 (order 2 gives 4)", sim = r1 / r2, ref = 4,
             tol = 0.5}
for _, part in ipairs{"dashpot", "slip", "damping"} do
  verify.check{quantity = part .. " loss > 1 % of W_gravity",
               sim = e1[part] / e1.gravity_work > 0.01 and 1 or 0, ref = 1, tol = 0, kind = "abs"}
end
verify.check{quantity = "settled: E_kin / W_gravity", sim = e1.kinetic / e1.gravity_work, ref = 0,
             tol = 1e-3, kind = "abs"}
print(string.format("energy_clump_pour_%dd: W_g %.6g J; kinetic %.3g, strain %.4g, dashpot %.4g, "
                    .. "slip %.4g, damping %.4g; balance %.3g (dt/2: %.3g)", dim, e1.gravity_work,
                    e1.kinetic, e1.strain, e1.dashpot, e1.slip, e1.damping, e1.balance, e2.balance))
