-- Work of a moving wall (2D; the 3D twin is energy_wall_work_3d.lua). A ball of radius r is held
-- in place (velocity and spin fixed) and a wall touching it (gap 0) moves into it at speed v for
-- M steps, then back out at -v until it has left. Linear contact, kn only, no dashpot, no
-- friction: the wall's work goes into the spring and comes back.
--
-- Discrete closed forms (u = v dt): at step j the overlap is (j - 1) u (the wall moves after the
-- force pass), the force F_j = kn (j - 1) u, and cairn pairs each step's wall force with the
-- wall's motion from the middle of the last step to the middle of this one (u while it moves
-- steadily, 0 at the turn, where the last and the next move cancel). Hence:
--  * at the turn, W_wall = kn u^2 (0 + 1 + ... + (M - 1)) = kn u^2 M (M - 1) / 2, exactly but
--    for round-off in the positions: the wall's coordinate (size r) gains u each step, with an
--    error up to eps r / 2 each time, so an overlap j u is off by up to j eps r / 2, relative
--    eps r / (2 u) = 1.1e-11. Tolerance 2 eps r / u = 4.4e-11, rel. [5.9e-12]
--  * the same against the continuous work (1/2) kn (M u)^2 at the wall's position: relative
--    error 1/M (M = 200: 5e-3), the half step the wall moved past its last force; tolerance
--    1.01 / M.
--  * after the wall has left: the spring gave all of it back, W_wall = 0 to round-off, and the
--    balance is 0 (no kinetic energy, no strain, no loss); tolerance 1e-12 of the work at the
--    turn, abs. [0: the way out retraces the way in bit for bit]
local dim = ENERGY_DIM or 2
local r, kn, v, dt, M = 0.01, 1e6, 0.05, 1e-6, 200
local u = v * dt
model.new{dim = dim}
contact.cmat_default{model = "linear", kn = kn, ks = 0, fric = 0}
ball.create{id = 1, rad = r, density = 1000, pos = dim == 3 and {0, 0, 0} or {0, 0}}
ball.fix{"velocity", "spin"}
local vel
if dim == 3 then
  wall.create{id = 1, kind = "plane", point = {0, 0, -r}, normal = {0, 0, 1}}
  vel = function(s) return {0, 0, s * v} end
else
  wall.create{id = 1, kind = "segment", nodes = {{-2 * r, -r}, {2 * r, -r}}}
  vel = function(s) return {0, s * v} end
end
model.timestep{fix = dt}
energy.track(true)
wall.vel(1, vel(1))
model.cycle(M)
local at_turn = energy.get()
local exact = kn * u * u * M * (M - 1) / 2
verify.check{quantity = "W_wall at the turn (discrete sum)", sim = at_turn.wall_work, ref = exact,
             tol = 2 * 2.220446049250313e-16 * r / u}
verify.check{quantity = "W_wall at the turn against kn (M u)^2 / 2", sim = at_turn.wall_work,
             ref = 0.5 * kn * (M * u) ^ 2, tol = 1.01 / M}
wall.vel(1, vel(-1))
model.cycle(M + 5)
local after = energy.get()
verify.check{quantity = "W_wall after the wall left", sim = after.wall_work, ref = 0,
             tol = 1e-12 * exact, kind = "abs"}
verify.check{quantity = "balance after the wall left", sim = after.balance, ref = 0,
             tol = 1e-12 * exact, kind = "abs"}
verify.check{quantity = "contacts left", sim = #contact.list(), ref = 0, tol = 0, kind = "abs"}
