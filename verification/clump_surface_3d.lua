-- A clump template made from a closed surface (an ellipsoid of semi-axes 20, 12 and 8 mm written
-- as an STL file of 7 080 triangles, 3 degrees apart in both angles), against the ellipsoid.
-- 1. The solid's mass properties are exact for the polyhedron the file describes: checked to
--    round-off (1e-12) against the same sums of tetrahedra done here, from the triangles.
-- 2. That polyhedron is inscribed in the ellipsoid; a great-circle step of 3 degrees leaves a
--    gap of at most R (1 - cos 1.5 deg) along each angle, so the volume is short by at most
--    3 x 2 (1 - cos 1.5 deg) = 2.1e-3 of the ellipsoid's (a sphere's deficit 3 delta / R, both
--    directions), and the principal moments (r^5) by 5 x 2 (1 - cos 1.5 deg) = 3.4e-3:
--    the tolerances. The ellipsoid's: V = 4/3 pi a b c, I_x = V (b^2 + c^2) / 5 and so on.
-- 3. The pebbles (30, by the distance-transform fill) lie inside the ellipsoid, to within one
--    voxel (the fill's resolution, 1/64 of the extent): checked at 26 points of each pebble.
-- 4. What the fill reports: the pebbles' union holds at least 75 % of the solid's volume
--    (observed 81 %), and the reported volume is the union's mass property.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local stl = dofile(here .. "lib/stl.lua")
model.new{dim = 3}
local a, b, c = 0.02, 0.012, 0.008
local path = os.tmpname()
local tris = stl.ellipsoid(path, a, b, c, 60, 120)
local t = clump.template_from_surface{file = path, name = "ellipsoid", pebbles = 30}
os.remove(path)

-- 1. the polyhedron's own sums (about its first vertex, as the engine does not)
local o = tris[1][1]
local V, S, Q = 0, {0, 0, 0}, {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}
for _, tr in ipairs(tris) do
  local p = {}
  for k = 1, 3 do p[k] = {tr[k][1] - o[1], tr[k][2] - o[2], tr[k][3] - o[3]} end
  local bc = {p[2][2] * p[3][3] - p[2][3] * p[3][2], p[2][3] * p[3][1] - p[2][1] * p[3][3],
              p[2][1] * p[3][2] - p[2][2] * p[3][1]}
  local v = (p[1][1] * bc[1] + p[1][2] * bc[2] + p[1][3] * bc[3]) / 6
  local s = {p[1][1] + p[2][1] + p[3][1], p[1][2] + p[2][2] + p[3][2], p[1][3] + p[2][3] + p[3][3]}
  V = V + v
  for i = 1, 3 do
    S[i] = S[i] + v * s[i] / 4
    for j = 1, 3 do
      Q[i][j] = Q[i][j] + v / 20 * (p[1][i] * p[1][j] + p[2][i] * p[2][j] + p[3][i] * p[3][j] +
                                    s[i] * s[j])
    end
  end
end
local cen = {S[1] / V, S[2] / V, S[3] / V}
-- the axes are the ellipsoid's (by symmetry): the moments about x, y, z through the centroid
local Ix = Q[2][2] + Q[3][3] - V * (cen[2] ^ 2 + cen[3] ^ 2)
local Iy = Q[1][1] + Q[3][3] - V * (cen[1] ^ 2 + cen[3] ^ 2)
local Iz = Q[1][1] + Q[2][2] - V * (cen[1] ^ 2 + cen[2] ^ 2)
verify.check{quantity = "polyhedron_volume", sim = t.volume, ref = V, tol = 1e-12}
verify.check{quantity = "polyhedron_I1", sim = t.inertia[1], ref = Ix, tol = 1e-12}
verify.check{quantity = "polyhedron_I2", sim = t.inertia[2], ref = Iy, tol = 1e-12}
verify.check{quantity = "polyhedron_I3", sim = t.inertia[3], ref = Iz, tol = 1e-12}
local off = math.max(math.abs(t.centroid[1] - cen[1] - o[1]), math.abs(t.centroid[2] - cen[2] - o[2]),
                     math.abs(t.centroid[3] - cen[3] - o[3]))
verify.check{quantity = "polyhedron_centroid", sim = off, ref = 0, tol = 1e-12 * a, kind = "abs"}

-- 2. against the ellipsoid
local Ve = 4 / 3 * math.pi * a * b * c
local gap = 2 * (1 - math.cos(math.rad(1.5)))
verify.check{quantity = "ellipsoid_volume", sim = t.volume, ref = Ve, tol = 3 * gap}
verify.check{quantity = "ellipsoid_I_x", sim = t.inertia[1], ref = Ve * (b * b + c * c) / 5,
             tol = 5 * gap}
verify.check{quantity = "ellipsoid_I_y", sim = t.inertia[2], ref = Ve * (a * a + c * c) / 5,
             tol = 5 * gap}
verify.check{quantity = "ellipsoid_I_z", sim = t.inertia[3], ref = Ve * (a * a + b * b) / 5,
             tol = 5 * gap}

-- 3. the pebbles inside the ellipsoid (to a voxel)
local cl = clump.create{template = "ellipsoid", pos = t.centroid, density = 1}
local worst = -math.huge
for _, id in ipairs(clump.pebbles(cl)) do
  local p, r = ball.pos(id), ball.rad(id)
  for dx = -1, 1 do
    for dy = -1, 1 do
      for dz = -1, 1 do
        if dx ~= 0 or dy ~= 0 or dz ~= 0 then
          local n = math.sqrt(dx * dx + dy * dy + dz * dz)
          local q = {p[1] + r * dx / n, p[2] + r * dy / n, p[3] + r * dz / n}
          -- how far out along the ray from the centre: (x/a)^2 + ... = (1 + e / R)^2 roughly
          local s = math.sqrt((q[1] / a) ^ 2 + (q[2] / b) ^ 2 + (q[3] / c) ^ 2)
          worst = math.max(worst, (s - 1) * math.sqrt(q[1] ^ 2 + q[2] ^ 2 + q[3] ^ 2) / s)
        end
      end
    end
  end
end
verify.check{quantity = "pebbles_inside(by_voxels)", sim = math.max(worst, 0) / t.voxel, ref = 0,
             tol = 1, kind = "abs"}

-- 4. the fill's report
verify.check{quantity = "pebble_volume_share(at_least_0.75)",
             sim = math.min(t.pebble_volume / t.surface_volume, 0.75), ref = 0.75, tol = 0,
             kind = "abs"}
verify.check{quantity = "pebbles", sim = t.pebbles, ref = 30, tol = 0, kind = "abs"}
