#!/usr/bin/env python3
"""What the live view costs a run (docs/viewing.md): the pour of tests/view/pour.lua (about
1 100 spheres, STEPS steps) run without the view, with the view and no page open, and with the
view and a client that polls as the page does (status every 0.5 s, geometry and histories when
the step changed), and, where Debian's chromium is installed, with the page open in headless
Chromium for the whole run; interleaved REPS times; prints the medians of the wall and CPU
seconds of cairn in each and the ratios to the run without the view.

Usage: bench/view_cost.py [CAIRN [STEPS [REPS]]]   (default build/cairn 40000 3; PIN=1 in the
environment runs cairn on the first core and the browser on the second, in a cpuset where it can
make one; MODES="off browser"
runs only those of off, view, page and browser). Also prints, for each mode, the ratio of its
wall time to the run without the view in the same repetition (runs a few seconds apart), whose
median and spread are less exposed to the machine's drift than the medians'."""
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import threading
import time
import urllib.request

cairn = sys.argv[1] if len(sys.argv) > 1 else "build/cairn"
steps = sys.argv[2] if len(sys.argv) > 2 else "40000"
reps = int(sys.argv[3]) if len(sys.argv) > 3 else 3
script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "view", "pour.lua")
env = dict(os.environ, STEPS=steps, OMP_NUM_THREADS="1")


def poll(address, stop):
    base, token = address.split("/?token=")
    last = None
    while not stop.is_set():
        try:
            s = urllib.request.urlopen("%s/status.json?token=%s" % (base, token)).read()
            step = re.search(rb'"step":(\d+)', s)
            if step and step.group(1) != last:
                last = step.group(1)
                for path in ("geometry.bin", "histories.json"):
                    urllib.request.urlopen("%s/%s?token=%s" % (base, path, token)).read()
        except OSError:
            pass
        time.sleep(0.5)


CHROMIUM = shutil.which("chromium")
# PIN=1: the run on the first core (taskset), the browser on the second, as on a machine where
# the browser has a core of its own or a GPU. taskset alone does not hold the browser: its
# software WebGL (SwiftShader) sets its drawing threads' affinity to every core, so where a
# cgroup-v1 cpuset can be made (root) the browser goes into one that holds the second core only.
PIN = os.environ.get("PIN") == "1" and shutil.which("taskset")
CPUSET = "/sys/fs/cgroup/cpuset/cairn_view_browser"


def browser_cage():
    try:
        os.makedirs(CPUSET, exist_ok=True)
        for name, value in (("cpuset.cpus", "1"), ("cpuset.mems", "0")):
            with open(os.path.join(CPUSET, name), "w") as f:
                f.write(value)
        return ["sh", "-c", 'echo $$ > %s/tasks && exec "$@"' % CPUSET, "sh"]
    except OSError:
        print("note: no cpuset for the browser (needs root and cgroup v1): taskset only, which "
              "SwiftShader's threads leave")
        return ["taskset", "-c", "1"]


PIN_RUN, PIN_BROWSER = (["taskset", "-c", "0"], browser_cage()) if PIN else ([], [])


def browser(address):
    """The page open in headless Chromium in real time (kept open by its debugging port) until
    killed: a user's browser tab, without a GPU here."""
    return subprocess.Popen(PIN_BROWSER + [CHROMIUM, "--headless=new", "--no-sandbox", "--use-gl=angle",
                             "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
                             "--window-size=1200,800", "--remote-debugging-port=0",
                             address], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def run(mode):
    args = PIN_RUN + [cairn, "run"] + (["--view"] if mode != "off" else []) + [script]
    t0 = time.monotonic()
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    stop = threading.Event()
    if mode != "off":
        line = p.stderr.readline()
        address = re.search(r"http://\S+", line).group(0)
        if mode == "page":
            threading.Thread(target=poll, args=(address, stop), daemon=True).start()
        if mode == "browser":
            b = browser(address)
    out = p.stdout.read()
    p.stderr.read()
    _, _, use = os.wait4(p.pid, 0)  # (cairn's own CPU, not the browser's)
    p.returncode = 0
    wall = time.monotonic() - t0
    stop.set()
    if mode == "browser":
        b.kill()
        b.wait()
    return wall, use.ru_utime + use.ru_stime, re.search(r"hash (\S+)", out).group(1)


modes = ("off", "view", "page") + (("browser",) if CHROMIUM else ())
if os.environ.get("MODES"):
    modes = ("off",) + tuple(m for m in os.environ["MODES"].split() if m in modes and m != "off")
results = {m: [] for m in modes}
for _ in range(reps):
    for m in results:
        results[m].append(run(m))
hashes = {r[2] for rs in results.values() for r in rs}
base_wall = statistics.median(r[0] for r in results["off"])
base_cpu = statistics.median(r[1] for r in results["off"])
print("mode     wall_s  cpu_s  wall_ratio  cpu_ratio   (%s steps, %d reps, medians)" % (steps, reps))
for m, rs in results.items():
    wall, cpu = statistics.median(r[0] for r in rs), statistics.median(r[1] for r in rs)
    print("%-7s %7.2f %6.2f %10.3f %10.3f" % (m, wall, cpu, wall / base_wall, cpu / base_cpu))
for m, rs in results.items():
    if m == "off":
        continue
    pair = sorted(r[0] / o[0] for r, o in zip(rs, results["off"]))
    print("%-7s wall / off in each repetition: %s; median %.3f" %
          (m, " ".join("%.3f" % x for x in pair), statistics.median(pair)))
    if len(pair) > 2:  # the geometric mean of the pairs' ratios, with its 95 % interval
        logs = [math.log(x) for x in pair]
        mean, se = statistics.mean(logs), statistics.stdev(logs) / math.sqrt(len(logs))
        print("%-7s wall / off, geometric mean of the pairs: %.4f, 95 %% interval %.4f to %.4f" %
              (m, math.exp(mean), math.exp(mean - 1.96 * se), math.exp(mean + 1.96 * se)))
print("results bitwise the same in every run: %s" % (len(hashes) == 1))
