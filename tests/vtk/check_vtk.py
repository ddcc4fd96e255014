"""Reads every VTK file the test wrote with VTK's own XML readers and checks counts and values.
Exit 77 (ctest: skipped) where VTK's Python module is not installed."""
import os
import sys

try:
    from vtkmodules.vtkIOXML import vtkXMLPolyDataReader
except ImportError:
    print("skipped: VTK's Python module is not installed (Debian: python3-vtk9)")
    sys.exit(77)

out = sys.argv[1]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def values(arr):
    """The tuples of a VTK array as a list (plain Python: no numpy needed)."""
    n, k = arr.GetNumberOfTuples(), arr.GetNumberOfComponents()
    return [arr.GetTuple(i) if k > 1 else arr.GetTuple(i)[0] for i in range(n)]


def read(path):
    r = vtkXMLPolyDataReader()
    r.SetFileName(path)
    r.Update()
    check(r.GetErrorCode() == 0, f"{path}: reader error {r.GetErrorCode()}")
    return r.GetOutput()


# The series: three snapshots (steps 0, 500, 1000) in box.pvd, with their times.
pvd = open(os.path.join(out, "box.pvd")).read()
for step, t in ((0, 0.0), (1, 0.005), (2, 0.01)):
    for part in ("balls", "walls", "contacts", "cracks", "clumps"):
        name = f"box_{part}_{step:05d}.vtp"
        check(name in pvd, f"box.pvd lists {name}")
check(pvd.count("<DataSet") == 15, "box.pvd has 15 datasets")
cracks = read(os.path.join(out, "box_cracks_00002.vtp"))
check(cracks.GetNumberOfPoints() == 0, "no bond broke: an empty crack set")
clumps = read(os.path.join(out, "box_clumps_00002.vtp"))
check(clumps.GetNumberOfPoints() == 0, "no clump: an empty clump set")
import re
times = sorted({float(t) for t in re.findall(r'timestep="([^"]+)"', pvd)})
check(len(times) == 3 and abs(times[2] - 0.01) < 1e-15, f"times 0, 0.005, 0.01: {times}")

balls = read(os.path.join(out, "box_balls_00002.vtp"))
check(balls.GetNumberOfPoints() == 36, f"36 balls, got {balls.GetNumberOfPoints()}")
check(balls.GetNumberOfVerts() == 36, "one vertex cell per ball")
pd = balls.GetPointData()
rad = values(pd.GetArray("radius"))
check(all(abs(r - 0.005) < 1e-15 for r in rad), "radius 0.005")
ids = values(pd.GetArray("id"))
check(sorted(int(i) for i in ids) == list(range(1, 37)), "ids 1..36")
for name in ("velocity", "spin", "force"):
    a = pd.GetArray(name)
    check(a is not None and a.GetNumberOfComponents() == 3, f"{name} is a 3-vector")
check(all(c == 0 for c in values(pd.GetArray("clump"))), "no ball is a pebble")
grp = values(pd.GetArray("group"))
check(sum(1 for g in grp if g > 0) == 9, "9 balls in group 'bottom'")
pts = values(balls.GetPoints().GetData())
check(max(p[2] for p in pts) < 0.05, "balls inside the box")
vz = [v[2] for v in values(pd.GetArray("velocity"))]
check(min(vz) < 0, "the balls fall (negative z velocity somewhere)")

walls = read(os.path.join(out, "box_walls_00002.vtp"))
check(walls.GetNumberOfCells() == 2 and walls.GetNumberOfPolys() == 2, "two wall polygons")
wv = values(walls.GetCellData().GetArray("velocity"))
check(abs(wv[1][1] - 0.01) < 1e-15, "the second wall moves at 0.01 in y")
wpts = values(walls.GetPoints().GetData())
check(abs(min(p[1] for p in wpts[4:8]) - 0.01 * 0.01) < 1e-12, "the moving wall moved 1e-4 in y")

contacts = read(os.path.join(out, "box_contacts_00002.vtp"))
nc = contacts.GetNumberOfCells()
check(nc > 0 and contacts.GetNumberOfLines() == nc, f"contacts as lines ({nc})")
cd = contacts.GetCellData()
fn = values(cd.GetArray("force_normal"))
check(max(fn) > 0, "compressive normal forces present")
for name in ("force_shear", "force", "model", "kind", "active", "slip"):
    check(cd.GetArray(name) is not None, f"contact array {name}")
names = contacts.GetFieldData().GetAbstractArray("model_names")
check(names is not None and names.GetNumberOfValues() >= 2, "model_names field data")
if names is not None:
    vals = [names.GetValue(i) for i in range(names.GetNumberOfValues())]
    check("linear" in vals, f"model names include linear: {vals}")
    model = values(cd.GetArray("model"))
    check(all(vals[int(m)] == "linear" for m in model), "every contact's model is linear")

disks_b = read(os.path.join(out, "disks_balls_00000.vtp"))
check(disks_b.GetNumberOfPoints() == 2, "2 disks")
disks_w = read(os.path.join(out, "disks_walls_00000.vtp"))
check(disks_w.GetNumberOfLines() == 1, "a 2D wall is a line")
disks_c = read(os.path.join(out, "disks_contacts_00000.vtp"))
check(disks_c.GetNumberOfLines() == 3, f"3 contacts in 2D, got {disks_c.GetNumberOfLines()}")

if failures:
    print("FAILED:\n  " + "\n  ".join(failures))
    sys.exit(1)
print("VTK files read back by VTK: all checks passed")
