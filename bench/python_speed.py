"""The cost of driving cairn from Python (issue: Python package, item 7).

1. model.cycle for 1000 steps called from Python and from Lua in the same process, on the same
   8k-ball model: the same C loop, so the same time within noise.
2. An after_force callback every step that reads one ball's position: a Python function
   against the same Lua function, on the 8k-ball model (the run's time with each).
3. The callback's own cost per call, measured where it is not lost in the step's cost: on a
   model of one ball, 20 000 steps with the Python callback, with the Lua one, and with none.

Run: OMP_NUM_THREADS=1 /usr/bin/python3 bench/python_speed.py [steps]   (Release build;
steps on the 8k model, default 1000)
Each timing is the best of 3 runs (the least disturbed by the machine)."""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import cairn  # noqa: E402

STEPS = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
SETUP = """
model.new{dim = 3}
model.gravity{0, 0, -9.81}
contact.cmat_default{model = "linear", kn = 1e5, ks = 5e4, fric = 0.5, dp_nratio = 0.2}
wall.create{kind = "plane", point = {0, 0, -0.6}, normal = {0, 0, 1}}
-- 13 x 13 x 12 fcc cells: 8112 balls touching their 12 neighbours
specimen.lattice{kind = "fcc", rad = 0.5, n = {13, 13, 12}, spacing = 0.999, density = 2600}
model.timestep{auto = true}
model.cycle(20)
"""


TINY = """
model.new{dim = 3}
ball.create{id = 1, rad = 0.5, pos = {0, 0, 0}}
model.timestep{fix = 1e-3}
"""


def fresh(setup=SETUP):
    m = cairn.Model(quiet=True)
    m.lua(setup)
    return m


def best(fn, reps=3, setup=SETUP):
    t = []
    for _ in range(reps):
        m = fresh(setup)
        t0 = time.perf_counter()
        fn(m)
        t.append(time.perf_counter() - t0)
        m.close()
    return min(t)


def main():
    global STEPS
    m = fresh()
    n = len(m.balls)
    m.close()
    print(f"model: {n} balls, {STEPS} steps, OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS')}")
    py = best(lambda m: m.cycle(STEPS))
    lua = best(lambda m: m.lua(f"model.cycle({STEPS})"))
    print(f"cycle from Python {py:8.3f} s   from Lua {lua:8.3f} s   ratio {py / lua:.3f}")

    def with_py(m):
        m.callback.on("after_force", lambda: m.ball.pos(1))
        m.cycle(STEPS)

    def with_lua(m):
        m.lua('callback.on("after_force", function() return ball.pos(1) end)')
        m.cycle(STEPS)

    cb_py = best(with_py)
    cb_lua = best(with_lua)
    print(f"8k model with a callback every step: Python {cb_py:8.3f} s   Lua {cb_lua:8.3f} s   "
          f"ratio {cb_py / cb_lua:.3f}")
    big, STEPS = STEPS, 20000
    bare = best(lambda m: m.cycle(STEPS), setup=TINY)
    t_py = best(with_py, setup=TINY)
    t_lua = best(with_lua, setup=TINY)
    per_py = (t_py - bare) / STEPS * 1e6
    per_lua = (t_lua - bare) / STEPS * 1e6
    step = py / big * 1e6
    print(f"a callback's own cost: Python {per_py:.2f} us, Lua {per_lua:.2f} us a call (one "
          f"step of the 8k model: {step:.0f} us, so +{per_py / step * 100:.2f} % and "
          f"+{per_lua / step * 100:.2f} %)")


if __name__ == "__main__":
    main()
