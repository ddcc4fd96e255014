-- Mass properties of clumps of overlapping spheres against the exact union (overlaps counted
-- once): two spheres of radii 1 and 0.7, centres 1.2 apart, and three spheres of radius 1 in a
-- row, 1.5 apart (each overlaps only its neighbours). The union is axially symmetric about the
-- row; its cross-section at x is the disk of the sphere that owns x, each sphere owning the
-- stretch between the planes where it meets its neighbours (the plane of two spheres' circle of
-- intersection, x0 = (d^2 + r1^2 - r2^2) / 2d from the first). Volume and moments are then
-- integrals over x of rho^2 = r^2 - (x - c)^2 and its powers: polynomials of degree at most 4,
-- which three-point Gauss-Legendre integrates exactly, so the reference is exact to round-off.
-- cairn integrates the union on a grid (docs/clumps.md) and reports an error estimate with the
-- template (the change from a grid half as fine); the check is that the true error is within
-- that estimate, and that the estimate is below 1e-4 of the value at the default resolution.
-- The same template turned by an arbitrary rotation must give the same principal moments (to
-- the estimate: the grid's cells are aligned with the template's axes) and a centroid that is
-- the turned one.
model.new{dim = 3}

local gx = {-math.sqrt(3 / 5), 0, math.sqrt(3 / 5)}
local gw = {5 / 9, 8 / 9, 5 / 9}
local function gauss(f, a, b)
  local s, h, m = 0, 0.5 * (b - a), 0.5 * (a + b)
  for i = 1, 3 do s = s + gw[i] * f(m + h * gx[i]) end
  return s * h
end

-- spheres {c, r} along x, each owning [lo, hi]: volume, centroid x, axial and transverse
-- moments about the centroid (per unit density)
local function union(sp)
  local V, Sx, Sxx, Syy = 0, 0, 0, 0
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
    local function rho2(x) return r * r - (x - c) ^ 2 end
    V = V + gauss(function(x) return math.pi * rho2(x) end, lo, hi)
    Sx = Sx + gauss(function(x) return math.pi * x * rho2(x) end, lo, hi)
    Sxx = Sxx + gauss(function(x) return math.pi * x * x * rho2(x) end, lo, hi)
    Syy = Syy + gauss(function(x) return math.pi * rho2(x) ^ 2 / 4 end, lo, hi)
  end
  local cx = Sx / V
  local axial, trans = 2 * Syy, Syy + Sxx - V * cx * cx
  return V, cx, math.min(axial, trans), math.max(axial, trans)
end

local function rotate(q, v) -- unit quaternion {w, x, y, z} applied to v
  local w, x, y, z = q[1], q[2], q[3], q[4]
  local m = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
             {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
             {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}}
  local o = {}
  for i = 1, 3 do o[i] = m[i][1] * v[1] + m[i][2] * v[2] + m[i][3] * v[3] end
  return o
end

local function case(tag, sp)
  local V, cx, Imin, Imax = union(sp)
  local peb = {}
  for i, s in ipairs(sp) do peb[i] = {s[1], 0, 0, s[2]} end
  local t = clump.template{name = tag, pebbles = peb}
  verify.check{quantity = tag .. ":volume", sim = t.volume, ref = V,
               tol = t.volume_error, kind = "abs"}
  verify.check{quantity = tag .. ":volume_estimate", sim = t.volume_error / V, ref = 0,
               tol = 1e-4, kind = "abs"}
  verify.check{quantity = tag .. ":centroid", sim = t.centroid[1], ref = cx,
               tol = t.centroid_error, kind = "abs"}
  local I = t.inertia -- ascending; the two transverse ones equal
  verify.check{quantity = tag .. ":I_least", sim = I[1], ref = Imin, tol = t.inertia_error,
               kind = "abs"}
  verify.check{quantity = tag .. ":I_mid", sim = I[2], ref = Imax, tol = t.inertia_error,
               kind = "abs"}
  verify.check{quantity = tag .. ":I_most", sim = I[3], ref = Imax, tol = t.inertia_error,
               kind = "abs"}
  verify.check{quantity = tag .. ":inertia_estimate", sim = t.inertia_error / Imax, ref = 0,
               tol = 1e-4, kind = "abs"}
  -- the same pebbles turned: the same moments, the centroid turned
  local q = {0.8, 0.36, -0.48, 0}
  local n = math.sqrt(q[1] ^ 2 + q[2] ^ 2 + q[3] ^ 2 + q[4] ^ 2)
  for k = 1, 4 do q[k] = q[k] / n end
  local turned = {}
  for i, p in ipairs(peb) do
    local x = rotate(q, p)
    turned[i] = {x[1], x[2], x[3], p[4]}
  end
  local u = clump.template{name = tag .. "_turned", pebbles = turned}
  for k = 1, 3 do
    verify.check{quantity = tag .. ":turned_I" .. k, sim = u.inertia[k], ref = I[k],
                 tol = t.inertia_error + u.inertia_error, kind = "abs"}
  end
  local ct = rotate(q, {cx, 0, 0})
  local off = 0
  for k = 1, 3 do off = math.max(off, math.abs(u.centroid[k] - ct[k])) end
  verify.check{quantity = tag .. ":turned_centroid", sim = off, ref = 0,
               tol = u.centroid_error, kind = "abs"}
end

case("two", {{0, 1.0}, {1.2, 0.7}})
case("three", {{0, 1.0}, {1.5, 1.0}, {3.0, 1.0}})

-- the mass and moments of a clump are its template's times its density
local c = clump.create{template = "two", pos = {0, 0, 0}, density = 2650}
local t2 = clump.template{name = "two_again", pebbles = {{0, 0, 0, 1.0}, {1.2, 0, 0, 0.7}}}
verify.check{quantity = "clump_mass", sim = clump.mass(c), ref = 2650 * t2.volume, tol = 1e-15}
