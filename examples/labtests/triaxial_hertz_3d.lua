-- The drained triaxial test of triaxial_3d.lua with Hertz-Mindlin grains (quartz: G = 29 GPa,
-- Poisson's ratio 0.25): one specimen, consolidated once (and saved), sheared twice: without
-- rolling resistance and with the rolling add-on of the hertz model (rr_fric = LAB_RR_FRIC,
-- default 0.1, given to the grains' contacts once consolidated; docs/contact-models.md, "Rolling
-- and twisting resistance"). Prints the two friction angles as a table (docs/labtests.md). Each
-- run writes its folder as triaxial_3d.lua does. The axial strain rate is 1 /s, twice
-- triaxial_3d.lua's, so that the two shears run in the test suite in well under a minute; the
-- inertial number stays below 1e-3 (quasi-static: lab.check checks it).
-- Run: cairn run examples/labtests/triaxial_hertz_3d.lua  (LAB_SIZE=full for the full size)
local mu_r = tonumber(os.getenv("LAB_RR_FRIC") or "0.1")
local rows = {}
local save = "triaxial_hertz_3d_consolidated.sav"
os.remove(save) -- consolidated afresh by the first run, restored by the second
for _, rr in ipairs{0, mu_r} do
  local r = lab.triaxial{name = string.format("triaxial_hertz_3d_rr%g", rr),
                         title = string.format("drained triaxial test, hertz, rr_fric = %g", rr),
                         size = os.getenv("LAB_SIZE"), rate = 1.0,
                         grain = {model = "hertz", hz_shear = 29e9, hz_poiss = 0.25},
                         test = rr > 0 and {rr_fric = rr} or nil, consolidated = save}
  lab.check(r.name, r)
  rows[#rows + 1] = {rr, r}
end
print("| rr_fric | spheres | peak phi | residual phi | volumetric strain at the end |")
print("| --- | --- | --- | --- | --- |")
for _, row in ipairs(rows) do
  local rr, r = row[1], row[2]
  print(string.format("| %g | %d | %.1f deg | %.1f deg | %.4f |", rr, r.balls, r.peak, r.residual,
                      r.ev_end))
end
if not (rows[2][2].peak > rows[1][2].peak) then
  error("triaxial_hertz_3d: rolling resistance did not raise the peak friction angle")
end
