#!/usr/bin/env python3
"""Print docs/performance.md's tables from a bench/compare.sh session (its OUT/medians.txt), and
the instruction table from a bench/instructions.sh output, in the page's format, so that a new
measurement replaces the page's figures instead of adding rows beside them.

Usage: bench/performance_tables.py throughput OUT [T]    (compare.sh's OUT: medians.txt; T: only
                                                          the rows of T threads)
       bench/performance_tables.py memory OUT            (marginal bytes per particle, 2 sizes)
       bench/performance_tables.py instructions FILE     (instructions.sh's stdout)
"""
import sys


def medians(out):
    rows = {}
    with open(f"{out}/medians.txt") as f:
        head = f.readline().split()
        for line in f:
            r = dict(zip(head, line.split()))
            rows[(r["code"], int(r["N"]), int(r["ranks"]))] = r
    return rows


def sci(x):
    m, e = f"{float(x):.2e}".split("e")
    return f"{m}e{int(e)}"


def group(n):
    return f"{int(n):,}".replace(",", " ")


def throughput(out, only=None):
    rows = medians(out)
    keys = sorted({(n, t) for (c, n, t) in rows if c == "cairn" and only in (None, t)})
    print("| N | threads (ranks) | cairn | LAMMPS | LIGGGHTS | cairn / LAMMPS | cairn / LIGGGHTS "
          "| z_pp (cairn, LAMMPS) |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for n, t in keys:
        c, l, g = (rows.get((code, n, t)) for code in ("cairn", "lammps", "liggghts"))
        pc = float(c["pstep_s"])
        lam = f"{sci(l['pstep_s'])}" if l else "-"
        lig = f"{sci(g['pstep_s'])}" if g else "-"
        rl = f"{pc / float(l['pstep_s']):.2f}" if l else "-"
        rg = f"{pc / float(g['pstep_s']):.2f}" if g else "-"
        z = f"{float(c['z_pp']):.3f}, {float(l['z_pp']):.3f}" if l else f"{float(c['z_pp']):.3f}"
        print(f"| {group(n)} | {t} | {sci(pc)} | {lam} | {lig} | {rl} | {rg} | {z} |")


def memory(out):
    rows = medians(out)
    sizes = sorted({n for (c, n, t) in rows})
    if len(sizes) < 2:
        sys.exit("memory: needs a session with two sizes")
    lo, hi = sizes[0], sizes[-1]
    print(f"| threads (ranks) | cairn | LAMMPS | LIGGGHTS | cairn / LAMMPS |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    for t in sorted({t for (c, n, t) in rows if c == "cairn"}):
        b = {}
        for code in ("cairn", "lammps", "liggghts"):
            a, z = rows.get((code, lo, t)), rows.get((code, hi, t))
            if a and z:
                b[code] = (float(z["rss_mib"]) - float(a["rss_mib"])) * 1048576 / (hi - lo)
        fmt = lambda k: f"{group(round(b[k]))} B" if k in b else "-"
        r = f"{b['cairn'] / b['lammps']:.2f}" if "cairn" in b and "lammps" in b else "-"
        print(f"| {t} | {fmt('cairn')} | {fmt('lammps')} | {fmt('liggghts')} | {r} |")


def instructions(path):
    rows = [l.split() for l in open(path) if l.strip() and not l.startswith("#")]
    rows = [r for r in rows if r[0] in ("cairn", "lammps", "liggghts")]
    by = {(r[0], int(r[1])): r[2] for r in rows}
    print("| N | cairn | LAMMPS | LIGGGHTS | cairn / LAMMPS |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    for n in sorted({n for (c, n) in by}):
        v = {c: by.get((c, n)) for c in ("cairn", "lammps", "liggghts")}
        fmt = lambda x: group(round(float(x))) if x not in (None, "-") else "-"
        r = (f"{float(v['cairn']) / float(v['lammps']):.2f}"
             if v["cairn"] not in (None, "-") and v["lammps"] not in (None, "-") else "-")
        print(f"| {group(n)} | {fmt(v['cairn'])} | {fmt(v['lammps'])} | {fmt(v['liggghts'])} | {r} |")


if __name__ == "__main__":
    if not 3 <= len(sys.argv) <= 4 or sys.argv[1] not in ("throughput", "memory", "instructions"):
        sys.exit(__doc__)
    if sys.argv[1] == "throughput":
        throughput(sys.argv[2], int(sys.argv[3]) if len(sys.argv) == 4 else None)
    elif len(sys.argv) == 3:
        {"memory": memory, "instructions": instructions}[sys.argv[1]](sys.argv[2])
    else:
        sys.exit(__doc__)
