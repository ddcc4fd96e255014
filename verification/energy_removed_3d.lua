-- The energy of deleted balls is booked, by name, as 'removed' (3D; energy_removed_2d.lua runs
-- the same in 2D).
--  1. Ten balls thrown up fall freely under gravity (no contacts, no damping) out of a model
--     domain whose condition is "destroy". In free flight the books hold exactly: gravity's work
--     is booked with each step's mid-step velocity, m g (v0 + v1) dt / 2, which is the change of
--     the kinetic energy at half steps. Deleting a ball must not change the balance: with every
--     ball gone, the balance is what it was after the first step (0 to round-off) and
--     removed = gravity_work + start - that, both to round-off: 1e-12 of the work of gravity.
--  2. Two balls pressed together at rest (a linear contact, kn = 1e5 N/m, overlap 1e-3 m, their
--     velocities held) and one deleted by ball.delete: removed = kn overlap^2 / 2 (its contact's
--     strain energy; it had no kinetic energy) and the balance stays 0, to round-off (1e-12 of
--     that energy).
local dim = ER_DIM or 3
local function vec(x, y, z) if dim == 3 then return {x, y, z} end return {x, y} end
model.new{dim = dim}
model.gravity(vec(0, -9.81, 0))
model.domain{min = vec(-1, -0.5, -1), max = vec(1, 10, 1), condition = "destroy"}
for i = 1, 10 do
  ball.create{id = i, rad = 0.01, density = 2500, pos = vec(0.1 * i - 0.5, 0.05 * i, 0),
              vel = vec(0, 0.3 * i, 0)}
end
model.timestep{fix = 1e-3}
energy.track(true)
model.cycle(1)
local offset = energy.get("balance")
local steps = 0
while ball.count() > 0 and steps < 10000 do
  model.cycle(10)
  steps = steps + 10
end
local e = energy.get()
verify.check{quantity = "fall:all_removed", sim = model.destroyed(), ref = 10, tol = 0,
             kind = "abs"}
verify.check{quantity = "fall:removed_vs_gravity_work_plus_start", sim = e.removed,
             ref = e.gravity_work + e.start - offset, tol = 1e-12}
verify.check{quantity = "fall:balance_unchanged_by_removals",
             sim = math.abs(e.balance - offset) / math.abs(e.gravity_work), ref = 0, tol = 1e-12,
             kind = "abs"}

-- 2
model.new{dim = dim}
contact.cmat_default{model = "linear", kn = 1e5, ks = 0}
ball.create{id = 1, rad = 0.01, pos = vec(0, 0, 0)}
ball.create{id = 2, rad = 0.01, pos = vec(0.019, 0, 0)}
ball.fix{"velocity", "spin"}
model.timestep{fix = 1e-4}
model.cycle(1)
energy.track(true)
ball.delete(2)
e = energy.get()
local strain = 0.5 * 1e5 * 1e-3 ^ 2
verify.check{quantity = "delete:removed_is_the_contact_strain", sim = e.removed, ref = strain,
             tol = 1e-12}
verify.check{quantity = "delete:|balance|/strain", sim = math.abs(e.balance) / strain, ref = 0,
             tol = 1e-12, kind = "abs"}
