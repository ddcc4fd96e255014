"""The VTK series a script wrote on one rank and on NP ranks hold the same snapshots (run.sh).

Usage: vtk_same.py ONE_DIR NP_DIR NP

Every .pvd of ONE_DIR must have its twin in NP_DIR, listing the same snapshots at the same times.
A snapshot of a divided model is written in pieces (a .pvtp naming one .vtp per rank) for its
balls, contacts and cracks; those must hold, between them, the one-rank file's balls, contacts
and cracks, bit for bit (each an element whose values, the points included, are compared as
bytes; the order may differ, the files being pieces). Walls and clumps, written whole by rank 0,
must be the one-rank files byte for byte. At least one snapshot must have been written in
pieces, each .pvtp naming NP of them. Reads cairn's own VTK XML (base64 binary arrays with a
64-bit byte count) with the standard library alone, so that it needs no VTK."""
import base64
import os
import re
import sys
import xml.etree.ElementTree as ET

one, many, np = sys.argv[1], sys.argv[2], int(sys.argv[3])
SIZE = {"Float64": 8, "Int64": 8, "Int32": 4, "UInt8": 1}


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def arrays(path):
    """Each array of a .vtp as (section, name) -> (components, element size, bytes)."""
    root = ET.parse(path).getroot()
    out = {}
    for sec in root.iter():
        for da in sec.findall("DataArray"):
            if sec.tag not in ("PointData", "CellData", "Points"):
                continue
            raw = base64.b64decode(da.text.strip())
            count = int.from_bytes(raw[:8], "little")
            k = int(da.get("NumberOfComponents"))
            out[(sec.tag, da.get("Name"))] = (k, SIZE[da.get("type")], raw[8:8 + count])
    return out


def read(path):
    """The arrays of a .vtp, or of the pieces of a .pvtp end to end (and their count)."""
    if not path.endswith(".pvtp"):
        return arrays(path), 0
    root = ET.parse(path).getroot()
    names = [p.get("Source") for p in root.iter("Piece")]
    declared = {(s.tag[1:], d.get("Name")) for s in root.iter() for d in s.findall("PDataArray")}
    whole = {}
    for name in names:
        for key, (k, size, data) in arrays(os.path.join(os.path.dirname(path), name)).items():
            if key not in declared:
                fail(f"{path} does not declare {key}, which its piece {name} holds")
            whole[key] = (k, size, whole.get(key, (k, size, b""))[2] + data)
    return whole, len(names)


def rows(arr, per_point):
    """The elements as sorted rows of bytes: each point (balls, cracks) or each line with its
    two points (contacts)."""
    cell = [key for key in arr if key[0] == "CellData"]
    keys = sorted(cell) if cell else sorted(arr)
    k, size, pts = arr[("Points", "Points")]
    n = len(pts) // (k * size) // per_point
    out = []
    for i in range(n):
        row = b""
        for key in keys:
            k2, s2, data = arr[key]
            w = k2 * s2 * (per_point if key[0] == "Points" else 1)
            row += data[i * w:(i + 1) * w]
        if cell:
            row += pts[i * 2 * k * size:(i + 1) * 2 * k * size]
        out.append(row)
    return sorted(out)


def snapshots(pvd):
    text = open(pvd).read()
    return re.findall(r'timestep="([^"]+)" part="(\d)" file="([^"]+)"', text)


pieced = 0
pvds = sorted(f for f in os.listdir(one) if f.endswith(".pvd"))
if not pvds:
    fail(f"the one-rank run wrote no VTK series in {one}")
for pvd in pvds:
    if not os.path.exists(os.path.join(many, pvd)):
        fail(f"the run on {np} ranks wrote no {pvd}")
    a, b = snapshots(os.path.join(one, pvd)), snapshots(os.path.join(many, pvd))
    if [(t, p) for t, p, _ in a] != [(t, p) for t, p, _ in b]:
        fail(f"{pvd} lists other snapshots on {np} ranks")
    for (t, part, fa), (_, _, fb) in zip(a, b):
        pa, pb = os.path.join(one, fa), os.path.join(many, fb)
        if fb.endswith(".pvtp"):
            if part not in ("0", "2", "3"):
                fail(f"{fb}: only balls, contacts and cracks are written in pieces")
            (xa, _), (xb, n) = read(pa), read(pb)
            if n != np:
                fail(f"{fb} names {n} pieces, not {np}")
            pieced += 1
            per = 2 if part == "2" else 1
            if sorted(xa) != sorted(xb):
                fail(f"{fb} holds other arrays than {fa}: {sorted(set(xa) ^ set(xb))}")
            ra, rb = rows(xa, per), rows(xb, per)
            if ra != rb:
                fail(f"{fb} (at time {t}) holds {len(rb)} elements, the one-rank {fa} {len(ra)}; "
                     f"{sum(x != y for x, y in zip(ra, rb))} of them differ")
        elif open(pa, "rb").read() != open(pb, "rb").read():
            fail(f"{fb} on {np} ranks differs from the one-rank run's")
    print(f"ok: {pvd}: {len(a)} files on {np} ranks hold the one-rank run's snapshots")
if pieced == 0:
    fail(f"no snapshot on {np} ranks was written in pieces")
print(f"ok: {pieced} parts written in pieces, each the one-rank part's elements bit for bit")
