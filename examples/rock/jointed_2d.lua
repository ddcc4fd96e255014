-- ctest: full
-- A jointed rock mass in 2D: the flat-jointed granite of granite_2d.lua cut through its centre
-- by one smooth joint (unbonded, friction 0.6, no dilation), its plane at angles from 0 to 90
-- degrees to the platens, each specimen loaded in a biaxial test at 10 MPa of confinement with
-- frictionless walls. The strength against the joint's angle makes Jaeger's U: the intact
-- strength where the joint cannot slide, far less where it can, least near 45 + phi/2. Beside
-- it, Jaeger's single plane of weakness (1960): a plane whose normal is at beta to sigma_1 slides
-- at sigma_1 = sigma_3 + 2 (c_w + mu sigma_3) / ((1 - mu cot beta) sin 2 beta) (c_w = 0), where
-- that is below the intact strength. Writes jointed_2d/jointed_2d_strength.csv and .png.
-- The small size runs the angles 0, 60 and 90 degrees; ROCK_SIZE=full 0 to 90 by 15 degrees,
-- and 52.5 and 67.5 about the least strength.
-- JOINT_BOUNDARY=membrane confines the specimens with lab.rock_triaxial's membrane instead of the
-- rigid lateral walls (the files then end in _membrane).
-- Run: cairn run examples/rock/jointed_2d.lua
local size = os.getenv("ROCK_SIZE") or "small"
local membrane = os.getenv("JOINT_BOUNDARY") == "membrane"
local tag = membrane and "_membrane" or ""
os.execute("mkdir -p jointed_2d")
local mu, s3 = 0.6, 10
local angles = size == "full" and {0, 15, 30, 45, 52.5, 60, 67.5, 75, 90} or {0, 60, 90}
local intact -- the strength at 0 degrees, where the joint cannot slide
local rows = {}
for _, a in ipairs(angles) do
  local t = lab.rock_triaxial{dim = 2, seed = 1, size = size, material = "flatjoint",
                              confinement = s3 * 1e6,
                              joint = {angle = a, fric = mu}, membrane = membrane}
  if a == 0 then intact = t.peak_MPa end
  local b = math.rad(a)
  local slide = math.huge
  if a > math.deg(math.atan(mu)) and a < 90 then
    slide = s3 + 2 * mu * s3 / ((1 - mu / math.tan(b)) * math.sin(2 * b))
  end
  rows[#rows + 1] = {angle_deg = a, strength_MPa = t.peak_MPa,
                     jaeger_MPa = math.min(slide, intact or t.peak_MPa)}
  print(string.format("jointed_2d: joint at %5.1f deg: strength %.1f MPa; Jaeger %.1f MPa " ..
                      "(%d steps, %.0f s)", a, t.peak_MPa, rows[#rows].jaeger_MPa, t.steps,
                      t.cpu_s))
end
lab.rock.write_csv("jointed_2d/jointed_2d_strength" .. tag .. ".csv", {"angle_deg", "strength_MPa", "jaeger_MPa"},
               rows)
plot.history{csv = "jointed_2d/jointed_2d_strength" .. tag .. ".csv",
             out = "jointed_2d/jointed_2d_strength" .. tag .. ".png",
             x = "angle_deg", y = {"strength_MPa", "jaeger_MPa"},
             labels = {"flat-jointed granite, one smooth joint",
                       "Jaeger: one plane of weakness (mu = 0.6)"},
             styles = {"linespoints", "dashed"},
             title = "a jointed specimen, 2D, at 10 MPa of confinement" ..
                     (membrane and " (membrane)" or ""),
             xlabel = "angle of the joint to the platens [deg]",
             ylabel = "peak axial stress sigma_1 [MPa]"}
-- the U: the least strength lies between the ends, well below both
local least, at = math.huge, nil
for _, r in ipairs(rows) do
  if r.strength_MPa < least then least, at = r.strength_MPa, r.angle_deg end
end
if not (at > 0 and at < 90 and least < 0.5 * intact) then
  error(string.format("jointed_2d: no U: the least strength, %.1f MPa, is at %g degrees " ..
                      "(intact %.1f MPa)", least, at, intact))
end
