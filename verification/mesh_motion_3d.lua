-- A moving mesh wall (docs/meshes.md): it drags a ball as the analytic turning wall does, and
-- its work balances the energy books.
-- 1. Turning: a square plate of side 1 (two triangles) as a mesh wall and as a polygon wall
--    (the analytic convex polygon), each translating at 0.1 m/s along x and turning at 4 rad/s
--    about its centre's vertical axis, carries a ball (radius 0.05 m, friction 0.1) resting on it
--    off the axis under gravity, for 50 000 steps of 1e-5 s: the turning flings the ball outwards
--    (omega^2 r = 2 m/s^2 against mu g = 1 m/s^2), sliding it across the plate. The
--    polygon's contact is its face's projection of the ball's centre, the mesh's the same point
--    reached through the mesh's frame (turned by a quaternion, vertices fixed in it): both
--    the same plane to a few ulps of its coordinates (order 1), so the runs differ by rounding,
--    about 1e-16 per step in the contact's position, not growing faster than the steps (no
--    instability on a flat plate): 1e-12 m and 1e-11 m/s, rad/s after 50 000 steps leave a
--    factor 20 over a linear accumulation. [observed: 7e-17 m, 4e-16 m/s, 2e-14 rad/s]
-- 2. Energy: a fixed ball pressed on a mesh floor (overlap 1e-4 m, kn = 1e5 N/m, friction 0.3,
--    shear dashpot) while the floor is driven by motion tables, sliding (speeding up, then
--    slowing to rest), then turning about a vertical axis through a point off the ball (the
--    same): its shear spring loads, slips and is damped, and all the wall's work (force, then
--    torque) goes into the contact's books. Then the same floor slides and turns at once: the
--    contact sees each turn with the lever arm from the wall's centre after its slide, which the
--    wall books as its contacts saw it (forces.c, turning_work: without that the books closed
--    to first order only, 4.9e-7 of the work at dt = 1e-5, half that at 5e-6). The books close
--    exactly when the wall starts and ends at rest (the contact sees the wall's motion over the
--    step before its force pass, as energy_drag_wall_3d explains): |balance| / wall_work below
--    1e-12, round-off of about 3 000 terms; each of the turning's work, strain, slip and dashpot
--    above 1 % of the work.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local stl = dofile(here .. "lib/stl.lua")
local path = os.tmpname()
local sq = {{-0.5, -0.5, 0}, {0.5, -0.5, 0}, {0.5, 0.5, 0}, {-0.5, 0.5, 0}}
stl.write(path, {{sq[1], sq[2], sq[3]}, {sq[1], sq[3], sq[4]}})

-- 1. the turning plate
local function turn(mesh)
  model.new{dim = 3}
  model.gravity{0, 0, -9.81}
  contact.cmat_default{model = "linear", kn = 1e5, ks = 5e4, fric = 0.1, dp_nratio = 0.2}
  if mesh then
    wall.mesh{file = path, id = 1, vel = {0.1, 0, 0}, spin = {0, 0, 4}, centre = {0, 0, 0}}
  else
    wall.create{id = 1, kind = "polygon", nodes = sq, vel = {0.1, 0, 0}, spin = {0, 0, 4},
                centre = {0, 0, 0}}
  end
  ball.create{id = 1, rad = 0.05, pos = {0.12, -0.05, 0.0499}, density = 2500}
  model.timestep{fix = 1e-5}
  model.cycle(50000)
  return ball.pos(1), ball.vel(1), ball.spin(1)
end
local pm, vm, wm = turn(true)
local pp, vp, wp = turn(false)
local function dist(a, b) return math.sqrt((a[1] - b[1]) ^ 2 + (a[2] - b[2]) ^ 2 + (a[3] - b[3]) ^ 2) end
local r = math.sqrt(pp[1] ^ 2 + pp[2] ^ 2)
print(string.format("mesh_motion_3d: the turning plate carried the ball to (%.4f, %.4f) m, %.3f m from the start; mesh against polygon: %.2g m, %.2g m/s, %.2g rad/s",
                    pp[1], pp[2], dist(pp, {0.12, -0.05, 0.0499}), dist(pm, pp), dist(vm, vp), dist(wm, wp)))
verify.check{quantity = "turning:position", sim = dist(pm, pp), ref = 0, tol = 1e-12, kind = "abs"}
verify.check{quantity = "turning:velocity", sim = dist(vm, vp), ref = 0, tol = 1e-11, kind = "abs"}
verify.check{quantity = "turning:spin", sim = dist(wm, wp), ref = 0, tol = 1e-11, kind = "abs"}
-- the ball did move with the plate (else the comparison says little)
verify.check{quantity = "turning:ball moved more than 0.05 m", sim = dist(pp, {0.12, -0.05, 0.0499}) > 0.05 and 1 or 0,
             ref = 1, tol = 0, kind = "abs"}

-- 2. the energy books of a driven mesh
-- a fixed ball pressed on the floor; tracking starts once the contact has formed (with the
-- normal spring's energy); returns the floor's id
local function pressed(dt)
  model.new{dim = 3}
  contact.cmat_default{model = "linear", kn = 1e5, ks = 5e4, fric = 0.3, dp_sratio = 0.2}
  local floor = wall.mesh{file = path, centre = {0.2, 0, 0}}
  ball.create{id = 1, rad = 0.1, pos = {0, 0, 0.1 - 1e-4}, density = 2000}
  ball.fix{"velocity", "spin"}
  model.timestep{fix = dt}
  model.cycle(1)
  energy.track(true)
  return floor
end
local function drag(dt)
  local floor = pressed(dt)
  local t0 = model.time()
  -- slide (speeding up, then slowing to rest), then turn (the same), one after the other
  wall.motion{id = floor, time = {t0, t0 + 0.005, t0 + 0.01, t0 + 0.015},
              vel = {{0, 0, 0}, {0.01, 0, 0}, {0.03, 0.005, 0}, {0, 0, 0}}}
  model.solve{time = t0 + 0.016}
  local slid = energy.get().wall_work
  t0 = model.time()
  wall.motion{id = floor, time = {t0, t0 + 0.005, t0 + 0.01}, spin = {{0, 0, 0}, {0, 0, 0.1}, {0, 0, 0}}}
  model.solve{time = t0 + 0.012}
  local e = energy.get()
  e.turned = e.wall_work - slid
  return e
end
-- the same floor sliding and turning at once
local function both(dt)
  local floor = pressed(dt)
  local t0 = model.time()
  wall.motion{id = floor, time = {t0, t0 + 0.005, t0 + 0.01, t0 + 0.015},
              vel = {{0, 0, 0}, {0.01, 0, 0}, {0.03, 0.005, 0}, {0, 0, 0}},
              spin = {{0, 0, 0}, {0, 0, 0.1}, {0, 0, 0.3}, {0, 0, 0}}}
  model.solve{time = t0 + 0.016}
  return energy.get()
end
for _, dt in ipairs{1e-5, 5e-6} do
  local e = both(dt)
  verify.check{quantity = string.format("energy:sliding and turning at once: |balance| / wall_work, dt = %g", dt),
               sim = math.abs(e.balance) / e.wall_work, ref = 0, tol = 1e-12, kind = "abs"}
end
local e1, e2 = drag(1e-5), drag(5e-6)
local r1, r2 = math.abs(e1.balance) / e1.wall_work, math.abs(e2.balance) / e2.wall_work
print(string.format("mesh_motion_3d: driven mesh: wall work %.6g J; strain %.4g, slip %.4g, dashpot %.4g; balance %.3g (dt/2: %.3g)",
                    e1.wall_work, e1.strain, e1.slip, e1.dashpot, e1.balance, e2.balance))
verify.check{quantity = "energy:|balance| / wall_work, dt = 1e-5", sim = r1, ref = 0, tol = 1e-12, kind = "abs"}
verify.check{quantity = "energy:|balance| / wall_work, dt = 5e-6", sim = r2, ref = 0, tol = 1e-12, kind = "abs"}
for _, part in ipairs{"turned", "strain", "slip", "dashpot"} do
  verify.check{quantity = "energy:" .. part .. " > 1 % of the wall's work",
               sim = e1[part] / e1.wall_work > 0.01 and 1 or 0, ref = 1, tol = 0, kind = "abs"}
end
os.remove(path)
