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
ENERGY_DIM, ENERGY_NAME = dim, "energy_clump_pour"
-- dt: about a third of the smallest pebble's sqrt(m / (kn + ks)) with the clump's mass
ENERGY_DT = dim == 3 and 1.5e-5 or 5e-5
function ENERGY_FILL(d)
  local n
  if d == 3 then
    clump.template{name = "grain", pebbles = {{0, 0, 0, 0.005}, {0.006, 0, 0, 0.004},
                                              {0.001, 0.005, 0.002, 0.003}}}
    n = 60
  else
    clump.template{name = "grain", pebbles = {{0, 0, 0.003}, {0.004, 0, 0.0025},
                                              {0.001, 0.003, 0.002}}}
    n = 80
  end
  for i = 0, n - 1 do
    local a = 1.7 * i
    if d == 3 then
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
end
dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "energy_pour_2d.lua")
ENERGY_DIM, ENERGY_NAME, ENERGY_DT, ENERGY_FILL = nil, nil, nil, nil
