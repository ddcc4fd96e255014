-- Turning walls (wall.create{spin = W, centre = C}, wall.spin, wall.torque), against closed forms
-- (3D: a square polygon; rotating_wall_2d.lua runs the same with a segment).
--  1. Kinematics: a wall turning at the constant angular velocity W about its centre is, after
--     time t, its first position turned by the angle |W| t about W (Rodrigues' formula): every
--     node to 1e-12 of its distance from the centre (each step turns exactly; rounding only).
--  2. Drag: a ball (radius r = 0.1 m) held still (velocity and spin fixed) touches, at x = 0 and
--     an overlap of 1e-6 m, a wall y = 0 that turns at w = 1e-3 rad/s about the point
--     (0, -R, 0), R = 0.5 m: the wall's surface at the contact moves at w R' along its tangent
--     (R' = R - overlap/2, the contact point being the middle of the overlap; the distance from
--     the centre to the turning wall stays R). With the linear model (ks = 5e4 N/m, friction
--     1000, so that it sticks) the shear force after n steps of dt = 1e-4 is ks w R' (n - 1) dt
--     (its magnitude, in the contact's frame): a contact sees a wall's motion over the step
--     before its force pass, as it sees a ball's, and at the n-th pass the wall has turned n - 1
--     steps. The wall turns by 1e-4 rad in the run, which changes this by its square: tolerance
--     1e-6.
--  3. Torque: the moment about the centre of the force the ball puts on the wall, about z, is
--     R' F_s - s F_n: the shear force times R', and the normal force kn overlap times the
--     distance s = (R + r - overlap) sin(theta) along the wall from the centre's foot to the
--     contact, theta = w (n - 1) dt the wall's turn at the last force pass. Tolerance 1e-6.
--  4. Energy, tracked from the start: the work of the turning wall's torque (in
--     energy.get().wall_work) equals what the contact stores (its springs; no slip). The books
--     pair each step's torque with the turn from the middle of the last step to the middle of
--     this one, which leaves half a step at the start unpaired: 1 / (2 n) = 5e-4 of the work at
--     most; tolerance 1e-3 of the stored energy. Observed 2.0e-4 (3D and 2D).
local dim = ROT_DIM or 3
local function vec(x, y, z) return dim == 3 and {x, y, z} or {x, y} end
local function rodrigues(v, k, a) -- v turned by angle a about unit axis k
  local c, s = math.cos(a), math.sin(a)
  local kv = k[1] * v[1] + k[2] * v[2] + k[3] * v[3]
  local kx = {k[2] * v[3] - k[3] * v[2], k[3] * v[1] - k[1] * v[3], k[1] * v[2] - k[2] * v[1]}
  local out = {}
  for i = 1, 3 do out[i] = v[i] * c + kx[i] * s + k[i] * kv * (1 - c) end
  return out
end

-- 1: kinematics
model.new{dim = dim}
local nodes = dim == 3 and {{-1, 0.2, -1}, {-1, 0.2, 1}, {1, 0.2, 1}, {1, 0.2, -1}} or
              {{-1, 0.2}, {1, 0.2}}
local W = dim == 3 and {0.1, 0.2, 0.25} or {0, 0, 0.3}
local C = {0.1, -0.3, 0.05}
wall.create{id = 1, kind = dim == 3 and "polygon" or "segment", nodes = nodes,
            centre = vec(C[1], C[2], C[3]), spin = dim == 3 and W or W[3]}
local dt, n = 1e-3, 1000
model.timestep{fix = dt}
model.cycle(n)
local wn = math.sqrt(W[1] ^ 2 + W[2] ^ 2 + W[3] ^ 2)
local axis = {W[1] / wn, W[2] / wn, W[3] / wn}
local worst = 0
for i, p in ipairs(wall.nodes(1)) do
  local e = {nodes[i][1] - C[1], nodes[i][2] - C[2], (nodes[i][3] or 0) - (dim == 3 and C[3] or 0)}
  local q = rodrigues(e, axis, wn * n * dt)
  local r = math.sqrt(e[1] ^ 2 + e[2] ^ 2 + e[3] ^ 2)
  for k = 1, dim do
    local ck = k == 3 and C[3] or C[k]
    worst = math.max(worst, math.abs(p[k] - (ck + q[k])) / r)
  end
end
verify.check{quantity = "nodes_after_turning", sim = worst, ref = 0, tol = 1e-12, kind = "abs"}

-- 2 to 4: the drag of a turning wall on a ball held still
model.new{dim = dim}
local R, r, ov, w, ks, kn = 0.5, 0.1, 1e-6, 1e-3, 5e4, 1e5
contact.cmat_default{model = "linear", kn = kn, ks = ks, fric = 1000}
wall.create{id = 1, kind = dim == 3 and "polygon" or "segment",
            nodes = dim == 3 and {{-1, 0, -1}, {-1, 0, 1}, {1, 0, 1}, {1, 0, -1}} or
                    {{-1, 0}, {1, 0}},
            centre = vec(0, -R, 0), spin = dim == 3 and {0, 0, w} or w}
ball.create{id = 1, rad = r, pos = vec(0, r - ov, 0), density = 1000}
ball.fix{"velocity", "spin"}
dt, n = 1e-4, 1000
model.timestep{fix = dt}
energy.track(true)
model.cycle(n)
local cp = contact.find("ball-wall", 1, 1)
local Rp = R - ov / 2
local f = contact.force(cp) -- (normal, s, t)
local fs = math.sqrt(f[2] ^ 2 + f[3] ^ 2)
verify.check{quantity = "shear_force_from_turning", sim = fs, ref = ks * w * Rp * (n - 1) * dt,
             tol = 1e-6}
local t = wall.torque(1)
local tz = type(t) == "table" and t[3] or t
local theta = w * (n - 1) * dt
local lever = (R + r - ov) * math.sin(theta)
verify.check{quantity = "torque_about_centre", sim = tz,
             ref = -Rp * ks * w * Rp * (n - 1) * dt - lever * f[1], tol = 1e-6}
local e = energy.get()
print(string.format("rotating_wall_%dd: wall work %.6g J, strain %.6g J, balance %.3g", dim,
                    e.wall_work, e.strain, e.balance))
verify.check{quantity = "|balance|/strain", sim = math.abs(e.balance) / e.strain, ref = 0,
             tol = 1e-3, kind = "abs"}
