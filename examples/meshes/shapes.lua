-- Triangle meshes for the studies of examples/meshes/, written as ASCII STL files (library:
-- local shapes = dofile(here .. "shapes.lua")). Every quadrilateral of a grid is two triangles,
-- (i, j) (i + 1, j) (i + 1, j + 1) and (i, j) (i + 1, j + 1) (i, j + 1); coordinates are written
-- to 17 digits, so a mesh read back is the mesh computed here.
local shapes = {}

local function vertex(x, y, z) return string.format("vertex %.17g %.17g %.17g\n", x, y, z) end

local function facet(f, a, b, c)
  f:write("facet normal 0 0 0\nouter loop\n", a, b, c, "endloop\nendfacet\n")
end

-- A grid of ni x nj quadrilaterals, node (i, j) at v(i, j) (a vertex line).
local function grid(f, ni, nj, v)
  for i = 0, ni - 1 do
    for j = 0, nj - 1 do
      facet(f, v(i, j), v(i + 1, j), v(i + 1, j + 1))
      facet(f, v(i, j), v(i + 1, j + 1), v(i, j + 1))
    end
  end
end

local function open(path, name)
  local f = assert(io.open(path, "w"))
  f:write("solid ", name, "\n")
  return f
end

local function close(f, name)
  f:write("endsolid ", name, "\n")
  f:close()
end

-- A flat annulus at height z about the z axis, from radius a to b: nr rings of ns sectors.
function shapes.annulus(path, a, b, z, ns, nr)
  local f = open(path, "plate")
  grid(f, nr, ns, function(i, j)
    local r, th = a + (b - a) * i / nr, 2 * math.pi * j / ns
    return vertex(r * math.cos(th), r * math.sin(th), z)
  end)
  close(f, "plate")
end

-- A cylinder of radius R about the y axis, from y0 over a length len: ns sectors around, ny rows
-- along.
function shapes.shell(path, R, y0, len, ns, ny)
  local f = open(path, "shell")
  grid(f, ns, ny, function(i, j)
    local th, y = 2 * math.pi * i / ns, y0 + len * j / ny
    return vertex(R * math.cos(th), y, R * math.sin(th))
  end)
  close(f, "shell")
end

-- A cone of radius rc about the z axis with its apex at apex_z, pointing down, its apex angle
-- 2 * half_deg, on a shaft of the same radius and length 'shaft': ns sectors, the face's ns
-- triangles first in the file, then nz rows of the shaft. Returns the number of the face's
-- triangles.
function shapes.cone(path, rc, half_deg, apex_z, shaft, ns, nz)
  local f = open(path, "cone")
  local top = apex_z + rc / math.tan(math.rad(half_deg))
  local function ring(j, z)
    local th = 2 * math.pi * j / ns
    return vertex(rc * math.cos(th), rc * math.sin(th), z)
  end
  local apex = vertex(0, 0, apex_z)
  for j = 0, ns - 1 do facet(f, apex, ring(j + 1, top), ring(j, top)) end
  for k = 0, nz - 1 do
    local z0, z1 = top + shaft * k / nz, top + shaft * (k + 1) / nz
    for j = 0, ns - 1 do
      facet(f, ring(j, z0), ring(j + 1, z0), ring(j + 1, z1))
      facet(f, ring(j, z0), ring(j + 1, z1), ring(j, z1))
    end
  end
  close(f, "cone")
  return ns
end

return shapes
