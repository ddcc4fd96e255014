-- Mass properties of 2D clumps (disks of unit thickness) against the exact union: two disks of
-- radii 1 and 0.7, centres 1.2 apart along x, and three disks of radius 1 in a row, 1.5 apart.
-- Each disk owns the stretch of x between the lines where it meets its neighbours
-- (x0 = (d^2 + r1^2 - r2^2) / 2d from the first centre), where the union's chord is the disk's,
-- 2 sqrt(r^2 - u^2) with u = x - c. Area, first and second moments are then closed forms in u:
-- int 2 rho du = u rho + r^2 asin(u / r); int u 2 rho du = -2/3 rho^3;
-- int u^2 2 rho du = (u (2u^2 - r^2) rho + r^4 asin(u / r)) / 4; and for the y^2 moment
-- int 2/3 rho^3 du = (u (5r^2 - 2u^2) rho + 3 r^4 asin(u / r)) / 12, with rho = sqrt(r^2 - u^2).
-- cairn's polar moment about the centroid and its area are checked against them within the
-- error it reports with the template (docs/clumps.md), and that estimate against 1e-5 of the
-- value at the default resolution (it is about 1e-6 here).
model.new{dim = 2}

local function prims(r, u)
  local rho = math.sqrt(math.max(r * r - u * u, 0))
  local as = math.asin(math.max(-1, math.min(1, u / r)))
  return u * rho + r * r * as, -2 / 3 * rho ^ 3, (u * (2 * u * u - r * r) * rho + r ^ 4 * as) / 4,
         (u * (5 * r * r - 2 * u * u) * rho + 3 * r ^ 4 * as) / 12
end

local function union(sp)
  local A, Sx, Sxx, Syy = 0, 0, 0, 0
  for i, s in ipairs(sp) do
    local c, r = s[1], s[2]
    local lo, hi = c - r, c + r
    if i > 1 then
      local p = sp[i - 1]
      local d = c - p[1]
      lo = p[1] + (d * d + p[2] * p[2] - r * r) / (2 * d)
    end
    if i < #sp then
      local q = sp[i + 1]
      local d = q[1] - c
      hi = c + (d * d + r * r - q[2] * q[2]) / (2 * d)
    end
    local a0, a1, a2, a3 = prims(r, hi - c)
    local b0, b1, b2, b3 = prims(r, lo - c)
    local F0, F1, F2, F3 = a0 - b0, a1 - b1, a2 - b2, a3 - b3
    A = A + F0
    Sx = Sx + F1 + c * F0
    Sxx = Sxx + F2 + 2 * c * F1 + c * c * F0
    Syy = Syy + F3
  end
  local cx = Sx / A
  return A, cx, Sxx - A * cx * cx + Syy
end

local function case(tag, sp)
  local A, cx, J = union(sp)
  local peb = {}
  for i, s in ipairs(sp) do peb[i] = {s[1], 0, s[2]} end
  local t = clump.template{name = tag, pebbles = peb}
  verify.check{quantity = tag .. ":area", sim = t.area, ref = A, tol = t.area_error, kind = "abs"}
  verify.check{quantity = tag .. ":area_estimate", sim = t.area_error / A, ref = 0, tol = 1e-5,
               kind = "abs"}
  verify.check{quantity = tag .. ":centroid", sim = t.centroid[1], ref = cx,
               tol = t.centroid_error, kind = "abs"}
  verify.check{quantity = tag .. ":polar_moment", sim = t.inertia, ref = J,
               tol = t.inertia_error, kind = "abs"}
  verify.check{quantity = tag .. ":inertia_estimate", sim = t.inertia_error / J, ref = 0,
               tol = 1e-5, kind = "abs"}
end

case("two", {{0, 1.0}, {1.2, 0.7}})
case("three", {{0, 1.0}, {1.5, 1.0}, {3.0, 1.0}})
