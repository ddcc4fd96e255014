#!/usr/bin/env python3
"""tile_packing.py: a 512 000-ball packing for the n = 80 size of "settled-box-sc"
(../shared/bench/SPEC.md) from the kit's settled n = 40 one, for MPI scaling runs.

SPEC.md's n = 80 packing is settled by LAMMPS in 40 000 steps (about 20 minutes on two cores).
This makes one in seconds instead: eight copies of the n = 40 packing in a box twice as wide,
the upper four lifted onto the lower four's surface (0.0695 m up, leaving a gap of about
0.4 mm between the layers of copies, which closes in the warm-up). It is not settled as
SPEC's would be (the copies' faces met walls before), so it is only for comparing codes that all
start from this same file, as bench/compare.sh does (it and peers.sh take a packing already in
OUT/data). Usage: tile_packing.py settled_n40.data settled_n80.data
"""
import sys

src, dst = sys.argv[1], sys.argv[2]
lines = open(src).read().splitlines()
L = None
atoms, vels, section = [], [], None
for line in lines:
    w = line.split()
    if len(w) >= 4 and w[2:4] == ["xlo", "xhi"]:
        L = float(w[1])
    if line.startswith("Atoms"):
        section = "atoms"
        continue
    if line.startswith("Velocities"):
        section = "vel"
        continue
    if section and w:
        (atoms if section == "atoms" else vels).append(w)
assert L and len(atoms) == len(vels), "not a settled-box-sc data file"
zmax = max(float(a[6]) for a in atoms)
lift = 0.0695  # the upper copies' lowest centres 2.4 mm above the lower ones' highest
assert zmax + 0.002 < lift + 0.0009 < L, (zmax, lift)
n = len(atoms)
vel = {v[0]: v for v in vels}
out = [f"LAMMPS data file: eight copies of {src.split('/')[-1]} (bench/tile_packing.py)", "",
       f"{8 * n} atoms", "1 atom types", "", f"0 {2 * L!r} xlo xhi", f"0 {2 * L!r} ylo yhi",
       f"0 {2 * L!r} zlo zhi", "", "Atoms # sphere", ""]
vout = ["", "Velocities", ""]
k = 0
for cz in range(2):
    for cy in range(2):
        for cx in range(2):
            for a in atoms:
                k += 1
                x = float(a[4]) + cx * L
                y = float(a[5]) + cy * L
                z = float(a[6]) + cz * lift
                out.append(f"{k} {a[1]} {a[2]} {a[3]} {x!r} {y!r} {z!r} 0 0 0")
                v = vel[a[0]]
                vout.append(f"{k} " + " ".join(v[1:7]))
open(dst, "w").write("\n".join(out + vout) + "\n")
print(f"{dst}: {8 * n} balls in a box of side {2 * L}")
