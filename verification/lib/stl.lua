-- Closed triangle surfaces written as ASCII STL, for the cases and tests that make clump
-- templates from surfaces: an ellipsoid with semi-axes a, b, c (x, y, z), nlat rings from pole
-- to pole and nlon points around, its triangles turning outwards; every vertex is written once
-- as the same digits wherever it appears, so the surface is closed exactly.
local M = {}

function M.ellipsoid(path, a, b, c, nlat, nlon, drop)
  local function vert(i, j)
    if i == 0 then return {0, 0, c} end
    if i == nlat then return {0, 0, -c} end
    local th, ph = math.pi * i / nlat, 2 * math.pi * (j % nlon) / nlon
    return {a * math.sin(th) * math.cos(ph), b * math.sin(th) * math.sin(ph), c * math.cos(th)}
  end
  local tris = {}
  for i = 0, nlat - 1 do
    for j = 0, nlon - 1 do
      local p00, p01, p10, p11 = vert(i, j), vert(i, j + 1), vert(i + 1, j), vert(i + 1, j + 1)
      if i > 0 then tris[#tris + 1] = {p00, p10, p01} end
      if i < nlat - 1 then tris[#tris + 1] = {p01, p10, p11} end
    end
  end
  M.write(path, tris, drop)
  return tris
end

-- Write triangles (each three {x, y, z}) as ASCII STL; 'drop' (optional) leaves one out.
function M.write(path, tris, drop)
  local f = assert(io.open(path, "w"))
  f:write("solid surface\n")
  for k, t in ipairs(tris) do
    if k ~= drop then
      f:write("facet normal 0 0 0\nouter loop\n")
      for _, v in ipairs(t) do
        f:write(string.format("vertex %.17g %.17g %.17g\n", v[1], v[2], v[3]))
      end
      f:write("endloop\nendfacet\n")
    end
  end
  f:write("endsolid surface\n")
  f:close()
end

return M
