-- ctest: full
-- A Brazilian disk test of a bonded-particle rock in 2D: a disk 40 mm across, cut from a square
-- specimen packed and bonded as in ucs_2d.lua (the same micro properties), loaded between two
-- flat platens closing at a constant speed. Writes brazilian_2d/brazilian_2d_curve.csv and .png
-- (the nominal tensile stress 2F/(pi D t) and the crack count against the platen
-- displacement), the cracks as CSV and VTK frames, and prints the peak load and the tensile
-- strength. About 550 disks (ROCK_SIZE=full: about 2 200). docs/rock.md gives the results.
-- Run: cairn run examples/rock/brazilian_2d.lua
local r = lab.brazilian{seed = 1, size = os.getenv("ROCK_SIZE"),
                        out = "brazilian_2d/brazilian_2d"}
print(string.format("brazilian_2d: %d disks, porosity %.3f, seating stress %.2f MPa, %d bonds " ..
                    "(%d unbonded disks removed)", r.balls, r.porosity, r.sigma0 / 1e6, r.bonds,
                    r.unbonded))
print(string.format("brazilian_2d: peak load %.3f kN per metre of thickness at %.4f mm; tensile " ..
                    "strength 2F/(pi D t) = %.2f MPa; %d cracks (%d at the peak)", r.peak_kN,
                    r.peak_displacement_mm, r.tensile_MPa, r.cracks, r.cracks_at_peak))
print(string.format("brazilian_2d: %d steps of %.3g s, %.1f s of CPU", r.steps, r.dt, r.cpu_s))
lab.check("brazilian_2d", r)
