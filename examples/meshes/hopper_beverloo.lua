-- ctest: full
-- A flat-bottomed hopper discharging spheres through a circular orifice, against Beverloo's law
-- (docs/meshes.md). The bin is a cylinder wall; its floor is a mesh wall, a plate with a hole
-- of diameter D (an annulus of triangles written to an STL file here). Glass-like spheres
-- (diameter d = 4 mm +- 5 %, 2 500 kg/m^3, friction 0.5) are poured onto a closed floor and
-- settled once (saved); then for each orifice the settled model is restored, the plate put in
-- the floor's place and the floor taken away, and the mass left above the plate is recorded as
-- the hopper empties. The mass flow rate W is the slope of a line fitted to that mass over
-- the steady part of the discharge, compared with Beverloo's law
--     W = C rho_b sqrt(g) (D - k d)^(5/2)
-- with rho_b the bulk density of the settled fill (measured), C = 0.58 and k = 1.5 (Nedderman's
-- values for spheres), and with the band that experiments give, C from 0.55 to 0.65 and k from
-- 1.3 to 2.9. At the full size (four orifices, D/d = 5 to 8) C and k are also fitted, from the
-- line W^(2/5) against D.
-- Writes hopper_beverloo/hopper_beverloo.csv and .png in the current folder.
-- Sizes: MESH_SIZE=small (default; one orifice, D = 6 d, about 1 500 spheres, tens of seconds)
-- or full (four orifices, about 6 000 spheres, a few minutes).
-- Run: cairn run examples/meshes/hopper_beverloo.lua
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local shapes = dofile(here .. "shapes.lua")
local full = os.getenv("MESH_SIZE") == "full"
local d = 0.004                              -- mean diameter (m)
local rmin, rmax = 0.95 * d / 2, 1.05 * d / 2
local Rc = full and 0.045 or 0.03            -- the bin's radius (m)
local N = full and 6000 or 1500
local ratios = full and {5, 6, 7, 8} or {6}  -- D / d
local T_flow = full and 0.8 or 0.4           -- discharge time recorded (s)
local t_fit = 0.1                            -- the fit starts here: the flow has formed by then
local g = 9.81
local C_ref, k_ref = 0.58, 1.5
local C_band, k_band = {0.55, 0.65}, {1.3, 2.9}

local seed = 2026 -- deterministic jitter and radii (a 32-bit linear congruential generator)
local function rand()
  seed = (1664525 * seed + 1013904223) % 4294967296
  return seed / 4294967296
end

os.execute("mkdir -p hopper_beverloo")
model.new{dim = 3}
model.gravity{0, 0, -g}
-- kn = 2e4 N/m: a column of 20 spheres presses ~0.02 N, an overlap of 1 um against 2 mm radii,
-- at a timestep near 4e-5 s. dp_nratio 0.3: a restitution of about 0.37.
contact.cmat_default{model = "linear", kn = 2e4, ks = 1e4, fric = 0.5, dp_nratio = 0.3}
wall.create{id = 1, kind = "cylinder", point = {0, 0, 0}, axis = {0, 0, 1}, radius = Rc}
wall.create{id = 2, kind = "plane", point = {0, 0, 0}, normal = {0, 0, 1}}  -- the closed floor
-- spheres that have fallen 5 cm below the plate are out of the test: deleted
model.domain{min = {-Rc - 0.01, -Rc - 0.01, -0.05}, max = {Rc + 0.01, Rc + 0.01, 1}, condition = "destroy"}
model.timestep{auto = true}

-- A loose lattice inside the bin, filled from the bottom, each sphere nudged sideways.
local pitch = 2 * rmax + 0.0006
local n, layer = 0, 0
while n < N do
  for i = -20, 20 do
    for j = -20, 20 do
      local x, y = i * pitch, j * pitch
      if n < N and x * x + y * y <= (Rc - rmax - 0.0005) ^ 2 then
        n = n + 1
        ball.create{id = n, rad = rmin + (rmax - rmin) * rand(), density = 2500,
                    pos = {x + (rand() - 0.5) * 2e-4, y + (rand() - 0.5) * 2e-4,
                           rmax + 0.0005 + layer * pitch}}
      end
    end
  end
  layer = layer + 1
end
model.solve{time = 0.45}

-- The fill: its height (the mean of the top 5 % of centres) and its bulk density, the spheres'
-- mass whose centres lie in the middle half of it over that slice's volume.
local zs = {}
for _, id in ipairs(ball.list()) do zs[#zs + 1] = ball.pos(id)[3] end
table.sort(zs)
local top = 0
for i = math.floor(0.95 * #zs), #zs do top = top + zs[i] / (#zs - math.floor(0.95 * #zs) + 1) end
local z1, z2 = 0.25 * top, 0.75 * top
local m_slice = 0
for _, id in ipairs(ball.list{in_cylinder = {from = {0, 0, z1}, to = {0, 0, z2}, radius = Rc}}) do
  m_slice = m_slice + ball.mass(id)
end
local rho_b = m_slice / (math.pi * Rc * Rc * (z2 - z1))
print(string.format("hopper_beverloo: %d spheres settled, fill %.1f mm high, bulk density %.0f kg/m^3 (solid fraction %.3f)",
                    ball.count(), top * 1000, rho_b, rho_b / 2500))
model.save("hopper_beverloo/settled.cairn")

local function mass_above()
  local m = 0
  for _, id in ipairs(ball.list{in_box = {min = {-1, -1, 0}, max = {1, 1, 1}}}) do
    m = m + ball.mass(id)
  end
  return m
end

local function beverloo(C, k, D) return C * rho_b * math.sqrt(g) * math.max(D - k * d, 0) ^ 2.5 end

local rows = {}
for _, ratio in ipairs(ratios) do
  local D = ratio * d
  model.restore("hopper_beverloo/settled.cairn")
  -- the plate: an annulus from D/2 to beyond the bin's wall, 64 sectors and 8 rings of
  -- triangles (its hole is a 64-gon inscribed in the circle of diameter D: its edges are
  -- D cos(pi/64) = 0.9988 D apart, a difference left out here)
  shapes.annulus("hopper_beverloo/plate.stl", D / 2, Rc + 0.005, 0, 64, 8)
  wall.mesh{file = "hopper_beverloo/plate.stl", id = 3}
  wall.delete(2)
  local t0, ts, ms = model.time(), {}, {}
  while model.time() - t0 < T_flow do
    model.solve{time = model.time() + 0.005}
    ts[#ts + 1], ms[#ms + 1] = model.time() - t0, mass_above()
  end
  -- least squares over t >= t_fit: W = - dM/dt
  local sx, sy, sxx, sxy, k = 0, 0, 0, 0, 0
  for i = 1, #ts do
    if ts[i] >= t_fit then
      sx, sy, sxx, sxy, k = sx + ts[i], sy + ms[i], sxx + ts[i] ^ 2, sxy + ts[i] * ms[i], k + 1
    end
  end
  local W = -(k * sxy - sx * sy) / (k * sxx - sx * sx)
  local lo, hi = beverloo(C_band[1], k_band[2], D), beverloo(C_band[2], k_band[1], D)
  rows[#rows + 1] = {ratio = ratio, D = D, W = W, ref = beverloo(C_ref, k_ref, D), lo = lo, hi = hi,
                     left = ms[#ms] / ms[1]}
  print(string.format("hopper_beverloo: D/d = %d: W = %.4f kg/s; Beverloo (C = %.2f, k = %.1f) %.4f kg/s, ratio %.2f; band %.4f to %.4f kg/s; %.0f %% of the fill left",
                      ratio, W, C_ref, k_ref, rows[#rows].ref, W / rows[#rows].ref, lo, hi,
                      100 * rows[#rows].left))
  if not (W >= lo and W <= hi) then
    error(string.format("hopper_beverloo: the flow rate %.4f kg/s at D/d = %d is outside the band Beverloo's law gives (%.4f to %.4f kg/s)",
                        W, ratio, lo, hi))
  end
end

-- Fitted constants (two orifices or more): W^(2/5) = (C rho_b sqrt g)^(2/5) (D - k d)
local C_fit, k_fit
if #rows >= 2 then
  local sx, sy, sxx, sxy = 0, 0, 0, 0
  for _, r in ipairs(rows) do
    local y = r.W ^ 0.4
    sx, sy, sxx, sxy = sx + r.D, sy + y, sxx + r.D ^ 2, sxy + r.D * y
  end
  local slope = (#rows * sxy - sx * sy) / (#rows * sxx - sx * sx)
  local icpt = (sy - slope * sx) / #rows
  C_fit, k_fit = slope ^ 2.5 / (rho_b * math.sqrt(g)), -icpt / slope / d
  print(string.format("hopper_beverloo: fitted C = %.3f, k = %.2f (experiments: C %.2f to %.2f, k %.1f to %.1f)",
                      C_fit, k_fit, C_band[1], C_band[2], k_band[1], k_band[2]))
end

-- The figure: W against D / d, with Beverloo's law (Nedderman's constants and the fit) on a
-- fine line of D / d.
local f = assert(io.open("hopper_beverloo/hopper_beverloo.csv", "w"))
f:write("step,time,D_over_d,W_cairn,W_beverloo_ref,W_beverloo_fit,W_band_low,W_band_high\n")
local step = 0
local x0, x1 = ratios[1] - 1, ratios[#ratios] + 1
for j = 0, 40 do
  local x = x0 + (x1 - x0) * j / 40
  local D = x * d
  local cairn = ""
  for _, r in ipairs(rows) do
    if math.abs(r.ratio - x) < 1e-9 then cairn = string.format("%.6g", r.W) end
  end
  step = step + 1
  f:write(string.format("%d,0,%.6g,%s,%.6g,%s,%.6g,%.6g\n", step, x, cairn,
                        beverloo(C_ref, k_ref, D),
                        C_fit and string.format("%.6g", beverloo(C_fit, k_fit, D)) or "",
                        beverloo(C_band[1], k_band[2], D), beverloo(C_band[2], k_band[1], D)))
end
f:close()
local ys = {"W_cairn", "W_beverloo_ref", "W_band_low", "W_band_high"}
local labels = {"cairn", string.format("Beverloo, C = %.2f, k = %.1f", C_ref, k_ref),
                "C = 0.55, k = 2.9", "C = 0.65, k = 1.3"}
local styles = {"points", "line", "dashed", "dashed"}
if C_fit then
  table.insert(ys, 3, "W_beverloo_fit")
  table.insert(labels, 3, string.format("fit, C = %.2f, k = %.2f", C_fit, k_fit))
  table.insert(styles, 3, "line")
end
plot.history{csv = "hopper_beverloo/hopper_beverloo.csv", out = "hopper_beverloo/hopper_beverloo.png",
             x = "D_over_d", y = ys, labels = labels, styles = styles,
             title = string.format("hopper discharge, %d spheres of d = 4 mm, bulk density %.0f kg/m^3",
                                   N, rho_b),
             xlabel = "orifice diameter D / d [-]", ylabel = "mass flow rate W [kg/s]"}
os.remove("hopper_beverloo/plate.stl")
os.remove("hopper_beverloo/settled.cairn")
