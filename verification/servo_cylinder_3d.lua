-- A cylindrical wall (3D), fixed and servo-controlled in radius.
--  1. Geometry: a cylinder of radius R = 0.1 m about the z axis; a ball (r = 0.01 m) whose centre
--     is d = 0.0905 m from the axis overlaps it by r + d - R = 5e-4 m: contact.gap is -5e-4, the
--     normal points from the wall to the axis through the centre, and the linear contact pushes
--     the ball inwards with kn 5e-4 (exact, to round-off: 1e-12).
--  2. Servo: 36 balls held still in 3 rings of 12 at 0.08 m from the axis touch a cylinder of
--     radius 0.09 m - 1e-11 m; its servo holds the stress S = 1e4 Pa over a fixed area
--     A = 0.01 m2 by changing its radius at the rate alpha (sigma - S) A / (K dt), K = 36 kn,
--     as a plane's servo moves it (servo_3d): the error falls as (1 - alpha)^n, exactly, and a
--     step change of the target is followed the same way. Tolerance 1e-9 of the target.
--  3. The wall work of a cylinder closing at a constant rate on the held balls equals the strain
--     energy it stores, booked from mid-step to mid-step as for any moving wall: within one
--     step's work, kn d (rate dt) per contact (first order in dt, as the books of a wall that
--     starts moving are).
local R, r, kn = 0.1, 0.01, 1e6
model.new{dim = 3}
contact.cmat_default{model = "linear", kn = kn, ks = 0}
local cyl = wall.create{kind = "cylinder", point = {0, 0, 0}, axis = {0, 0, 2}, radius = R}
ball.create{id = 1, rad = r, pos = {0.0905, 0, 0.3}}
ball.fix{"velocity", "spin"}
model.timestep{fix = 1e-6}
model.cycle(1)
local cp = contact.find("ball-wall", 1, cyl)
local n = contact.normal(cp)
verify.check{quantity = "geometry:gap", sim = contact.gap(cp), ref = -5e-4, tol = 1e-12}
verify.check{quantity = "geometry:normal_towards_the_axis", sim = n[1], ref = -1, tol = 1e-12}
verify.check{quantity = "geometry:force_inwards", sim = contact.force_global(cp)[1],
             ref = -kn * 5e-4, tol = 1e-12}
verify.check{quantity = "geometry:kind_and_radius", sim = (wall.kind(cyl) == "cylinder" and
             wall.radius(cyl) == R) and 1 or 0, ref = 1, tol = 0, kind = "abs"}

-- 2
local function rings(radius)
  model.new{dim = 3}
  contact.cmat_default{model = "linear", kn = kn, ks = 0}
  local id = 0
  for layer = 0, 2 do
    for k = 0, 11 do
      local t = 2 * math.pi * k / 12
      id = id + 1
      ball.create{id = id, rad = r, pos = {0.08 * math.cos(t), 0.08 * math.sin(t), 0.02 * layer}}
    end
  end
  ball.fix{"velocity", "spin"}
  local c = wall.create{kind = "cylinder", point = {0, 0, 0}, axis = {0, 0, 1}, radius = radius}
  model.timestep{fix = 1e-5}
  return c
end
local S, A, d0 = 1e4, 0.01, 1e-11
cyl = rings(0.09 - d0)
wall.servo{id = cyl, stress = S, area = A, vmax = 100}
local ref = 36 * kn * d0 / A
local worst = 0
local function follow(target, steps)
  for _ = 1, steps do
    model.cycle(1)
    worst = math.max(worst, math.abs(wall.stress(cyl) - ref) / S)
    ref = ref - 0.5 * (ref - target)
  end
end
follow(S, 40)
wall.servo{id = cyl, stress = 2 * S, area = A, vmax = 100}
follow(2 * S, 40)
verify.check{quantity = "servo:response_vs_recursion", sim = worst, ref = 0, tol = 1e-9,
             kind = "abs"}
verify.check{quantity = "servo:holds_the_target", sim = wall.stress(cyl), ref = 2 * S, tol = 1e-9}
verify.check{quantity = "servo:radius_closed_form", sim = wall.radius(cyl),
             ref = 0.09 - 2 * S * A / (36 * kn), tol = 1e-9}

-- 3
cyl = rings(0.09)
local rate, dt, steps = -1e-3, 1e-5, 200
wall.radial_vel(cyl, rate)
energy.track(true)
model.cycle(steps)
local e = energy.get()
local one_step = 36 * kn * (-rate * dt * steps) * (-rate * dt)
verify.check{quantity = "energy:wall_work_vs_strain", sim = e.wall_work, ref = e.strain,
             tol = one_step, kind = "abs"}
