#!/usr/bin/env python3
"""A mesh wall's cost against the analytic plane's (bench/mesh_cost.lua, docs/meshes.md): the user
CPU seconds per ball-step of the timed steps, taken as the difference of a run of SHORT and one of
LONG timed steps (so that writing and building the mesh and making the balls drop out), for the
plane and the mesh in turn, REP times; prints a table of each pair and their median ratio.

With --instructions it also counts instructions per ball-step under callgrind (valgrind), which
a shared machine does not disturb: the difference of a 150- and a 50-step run, 10 000 balls.

Usage: bench/mesh_cost.py [CAIRN] [--rep REP] [--n N] [--instructions] [--docs]
  CAIRN   the binary (default build/cairn); one thread (OMP_NUM_THREADS=1)
  --n     balls per side (default 316: 99 856 balls on 99 458 triangles)
  --docs  also write the tables into docs/meshes.md between its mesh-cost markers
"""
import os
import resource
import statistics
import subprocess
import sys

SHORT, LONG = 100, 600


def group(k):
    return f"{k:,}".replace(",", " ")


def user_seconds(cairn, floor, n, timed):
    env = dict(os.environ, CAIRN_BENCH_FLOOR=floor, CAIRN_BENCH_N=str(n),
               CAIRN_BENCH_TIMED=str(timed), OMP_NUM_THREADS="1")
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    out = subprocess.run([cairn, "run", "bench/mesh_cost.lua"], env=env, check=True,
                         capture_output=True, text=True).stdout
    balls = int(out.split("balls")[1].split()[0])
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before, balls


def instructions(cairn, floor, timed):
    env = dict(os.environ, CAIRN_BENCH_FLOOR=floor, CAIRN_BENCH_N="100", CAIRN_BENCH_WARM="20",
               CAIRN_BENCH_TIMED=str(timed), OMP_NUM_THREADS="1")
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", cairn,
                          "run", "bench/mesh_cost.lua"], env=env, check=True,
                         capture_output=True, text=True).stderr
    refs = [line for line in out.splitlines() if "refs:" in line][-1]
    return int(refs.split()[-1].replace(",", ""))


def per_ball_step(cairn, floor, n):
    a, balls = user_seconds(cairn, floor, n, SHORT)
    b, _ = user_seconds(cairn, floor, n, LONG)
    return (b - a) / (balls * (LONG - SHORT)), balls


def main():
    args = sys.argv[1:]
    docs = "--docs" in args
    rep, n = 3, 316
    if "--rep" in args:
        rep = int(args[args.index("--rep") + 1])
    if "--n" in args:
        n = int(args[args.index("--n") + 1])
    rest = [a for i, a in enumerate(args)
            if not a.startswith("--") and (i == 0 or args[i - 1] not in ("--rep", "--n"))]
    cairn = rest[0] if rest else "build/cairn"
    rows, ratios = [], []
    for r in range(rep):
        plane, balls = per_ball_step(cairn, "plane", n)
        mesh, _ = per_ball_step(cairn, "mesh", n)
        ratios.append(mesh / plane)
        rows.append(f"| {r + 1} | {plane * 1e9:.1f} | {mesh * 1e9:.1f} | {mesh / plane:.2f} |")
    m = int(round((n * n / 2) ** 0.5))
    table = "\n".join(
        ["| pair | plane, ns per ball-step | mesh, ns per ball-step | mesh / plane |",
         "| ---: | ---: | ---: | ---: |"] + rows +
        [f"| median | | | **{statistics.median(ratios):.2f}** |", "",
         f"({group(balls)} balls on {group(2 * m * m)} triangles, one thread, user CPU time of "
         f"{LONG} less {SHORT} timed steps.)"])
    if "--instructions" in args:
        per = {}
        for floor in ("plane", "mesh"):
            per[floor] = (instructions(cairn, floor, 150) - instructions(cairn, floor, 50)) / 1e6
        mi = int(round((100 * 100 / 2) ** 0.5))
        table += (f"\n\nInstructions (callgrind; 10 000 balls on {group(2 * mi * mi)} triangles, "
                  "100 steps): "
                  f"{per['plane']:.0f} per ball-step on the plane, {per['mesh']:.0f} on the mesh, "
                  f"**{per['mesh'] / per['plane']:.2f}** times.")
    print(table)
    if docs:
        path = "docs/meshes.md"
        with open(path) as f:
            page = f.read()
        a, b = "<!-- mesh-cost:begin -->\n", "<!-- mesh-cost:end -->"
        i, j = page.index(a) + len(a), page.index(b)
        with open(path, "w") as f:
            f.write(page[:i] + table + "\n" + page[j:])


if __name__ == "__main__":
    main()
