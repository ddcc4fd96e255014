#!/usr/bin/python3
"""Reference solutions of Chung & Ooi's (2011) tests 4-8 for the hertz model.

Each impact is planar (x-y, spins about z), so the contact law of the hertz model reduces to
scalars in the contact frame (n, t), t = (-n_y, n_x):
  - normal: F_n = K d^(3/2) + dashpot, K = (4/3) E* sqrt(R*), d the overlap; the dashpot is
    c u, c = 2 beta sqrt(m* k_n), k_n = (3/2) K sqrt(d), u the approach speed, beta the damping
    ratio that gives the restitution asked for; with no tension (dp_mode 1) F_n >= 0;
  - tangential: the spring force F_s changes at dF_s/dt = -k_t v_s, k_t = 8 G* sqrt(R* d), v_s
    the sliding speed of the contact point, while |F_s| < mu K d^(3/2); at the limit it slides,
    F_s = s mu K d^(3/2) with s its sign, until the spring would unload
    (-k_t v_s s < mu dF_spring/dt). The in-plane shear vector turned onto each new plane with
    its length kept (cairn_cm_turn) is, in a plane, this scalar in the turning frame.
  - the contact point lies in the middle of the overlap: arms r_i - d/2 from the centres, as in
    the engine.
The motion of both bodies (or of the ball, against a fixed floor y = 0) is integrated from first
touch to separation with scipy's DOP853 at rtol 1e-12, with events for first touch of the
friction limit, the end of sliding and separation. The inputs and the velocities and spins after
the impact are written, a row per impact, to verification/reference/hertz_oblique.csv, which
the hertz_co4..8 cases read (they run the same inputs in cairn). Run it to regenerate:
    /usr/bin/python3 verification/reference/hertz_oblique.py
"""
import csv
import math
import os
import sys

import numpy as np
from scipy.integrate import solve_ivp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hertz_restitution import beta_for as _beta_for  # noqa: E402

_BETA = {}


def beta_for(e, no_tension):
    """beta_for of hertz_restitution.py, each value solved once."""
    if (e, no_tension) not in _BETA:
        _BETA[(e, no_tension)] = _beta_for(e, no_tension)
    return _BETA[(e, no_tension)]

HERE = os.path.dirname(os.path.abspath(__file__))


def effective(E1, nu1, E2, nu2):
    """E*, G* of two materials; E2 = None: a rigid second body."""
    G1 = E1 / (2 * (1 + nu1))
    ie, ig = (1 - nu1**2) / E1, (2 - nu1) / G1
    if E2 is not None:
        G2 = E2 / (2 * (1 + nu2))
        ie, ig = ie + (1 - nu2**2) / E2, ig + (2 - nu2) / G2
    return 1 / ie, 1 / ig


def mass(dim, rho, r):
    return rho * 4 / 3 * math.pi * r**3 if dim == 3 else rho * math.pi * r * r


def inertia(dim, m, r):
    return (0.4 if dim == 3 else 0.5) * m * r * r


def impact(c):
    """One impact; c holds the inputs (see CASES). Returns the velocities and spins after."""
    dim, wall = c["dim"], c["r1"] == 0
    r1, r2 = c["r1"], c["r2"]
    m2 = mass(dim, c["rho2"], r2)
    I2 = inertia(dim, m2, r2)
    if wall:
        m1 = I1 = math.inf
        Rs, ms = r2, m2
        Es, Gs = effective(c["E2"], c["nu2"], None, None)
    else:
        m1 = mass(dim, c["rho1"], r1)
        I1 = inertia(dim, m1, r1)
        Rs, ms = r1 * r2 / (r1 + r2), m1 * m2 / (m1 + m2)
        Es, Gs = effective(c["E1"], c["nu1"], c["E2"], c["nu2"])
    K = 4 / 3 * Es * math.sqrt(Rs)
    mu = c["mu"]
    no_tension = c["dp_mode"] & 1
    beta = beta_for(c["e"], no_tension) if c["e"] < 1 else 0.0

    # y = [x1, y1, vx1, vy1, w1, x2, y2, vx2, vy2, w2, Fs], positions as displacements from
    # where the bodies touch: ball 1 at the origin, ball 2 at (r1 + r2, 0) or at (0, r2) above
    # the floor
    y0 = [0, 0, c["v1x"], c["v1y"], c["w1"], 0, 0, c["v2x"], c["v2y"], c["w2"], 0.0]

    def geometry(y):
        # positions are displacements from first touch (the overlap from them without the
        # cancellation of r1 + r2 - |distance| at tiny overlaps)
        if wall:
            n = np.array([0.0, 1.0])
            d = -y[6]
        else:
            L = r1 + r2
            dx, dy = y[5] - y[0], y[6] - y[1]
            dist = math.hypot(L + dx, dy)
            n = np.array([L + dx, dy]) / dist
            d = -(2 * L * dx + dx * dx + dy * dy) / (L + dist)
        t = np.array([-n[1], n[0]])
        a1, a2 = r1 - d / 2, r2 - d / 2
        vrel = np.array([y[7] - y[2], y[8] - y[3]])
        vn = vrel @ n
        vs = vrel @ t - ((0.0 if wall else a1 * y[4]) + a2 * y[9])
        return n, t, d, a1, a2, vn, vs

    def forces(y):
        n, t, d, a1, a2, vn, vs = geometry(y)
        dp = max(d, 0.0)
        fspring = K * dp**1.5
        kn = 1.5 * K * math.sqrt(dp)
        kt = 8 * Gs * math.sqrt(Rs * dp)
        fn = fspring + 2 * beta * math.sqrt(ms * kn) * (-vn)
        if no_tension and fn < 0:
            fn = 0.0
        return n, t, d, a1, a2, vn, vs, fspring, kn, kt, fn

    # t0: the start of the current segment; its events wait a moment ("wait", 1e-9 of the duration)
    # so that the switch that began it is not found again in the rounding of the first step
    state = {"slide": 0, "t0": 0.0, "wait": 0.0}  # 0 stick, +1 / -1 sliding with F_s at +/- the limit

    def rhs(time, y):
        n, t, d, a1, a2, vn, vs, fspring, kn, kt, fn = forces(y)
        if state["slide"]:
            dfs = state["slide"] * mu * kn * (-vn)  # F_s = s mu F_spring
        else:
            dfs = -kt * vs
        fs = y[10]
        F = fn * n + fs * t  # on body 2; body 1 gets -F
        out = np.zeros(11)
        out[0:2] = y[2:4]
        out[5:7] = y[7:9]
        out[7:9] = F / m2
        out[9] = -a2 * fs / I2
        if not wall:
            out[2:4] = -F / m1
            out[4] = -a1 * fs / I1
        out[10] = dfs
        return out

    def separated(time, y):
        return geometry(y)[2] if time > state["t0"] + state["wait"] else 1.0

    separated.terminal, separated.direction = True, -1

    def limit(time, y):  # stick: |F_s| reaches mu F_spring
        fspring = forces(y)[7]
        return mu * fspring - abs(y[10]) if time > state["t0"] + state["wait"] else 1.0

    limit.terminal, limit.direction = True, -1

    def unload(time, y):  # slide: the spring would unload below the limit
        if time <= state["t0"] + state["wait"]:
            return 1.0
        n, t, d, a1, a2, vn, vs, fspring, kn, kt, fn = forces(y)
        return -kt * vs * state["slide"] - mu * kn * (-vn)

    unload.terminal, unload.direction = True, -1

    # The first instants: slide when the trial increment outgrows the limit's growth,
    # 8 G* |v_s| > 2 mu E* u (both grow as sqrt(d)); else stick.
    n, t, d, a1, a2, vn, vs = geometry(y0)
    if mu > 0 and 8 * Gs * abs(vs) > 2 * mu * Es * (-vn):
        state["slide"] = -1 if vs > 0 else 1
    time, y = 0.0, np.array(y0, dtype=float)
    tc = 10 * (ms**2 / (Rs * Es**2 * max(-vn, 1e-12))) ** 0.2
    state["wait"] = 1e-10 * tc
    # absolute tolerances at 1e-14 of each component's scale (positions: the peak overlap;
    # speeds: the approach speed; spins: that over the radius; force: the peak force)
    u = max(-vn, 1e-12)
    dmax = (15 * ms * u * u / (16 * Es * math.sqrt(Rs))) ** 0.4
    rmin = min(r for r in (r1, r2) if r > 0)
    sc = [dmax, dmax, u, u, u / rmin, dmax, dmax, u, u, u / rmin, K * dmax**1.5]
    atol = [1e-14 * x for x in sc]
    for _ in range(1000):
        state["t0"] = time
        events = [separated, unload] if state["slide"] else [separated, limit]
        s = solve_ivp(rhs, [time, time + tc], y, method="DOP853", rtol=1e-12, atol=atol,
                      events=events, max_step=tc / 200, first_step=tc * 1e-8)
        time, y = s.t[-1], s.y[:, -1]
        if os.environ.get("DEBUG"): print(state, s.status, s.message, time, [len(e) for e in s.t_events], y)
        if s.status != 1:
            raise RuntimeError("no separation within the time span: " + str(c))
        if len(s.t_events[0]):
            break
        if state["slide"]:
            state["slide"] = 0
        else:
            state["slide"] = 1 if y[10] > 0 else -1
            y[10] = state["slide"] * mu * forces(y)[7]
    return {"v1x_out": y[2], "v1y_out": y[3], "w1_out": y[4],
            "v2x_out": y[7], "v2y_out": y[8], "w2_out": y[9]}


AL_OXIDE = (3.8e11, 0.23, 4000)
AL_ALLOY = (7.0e10, 0.33, 2700)
STEEL = (2.08e11, 0.30, 7850)
POLYETHYLENE = (1.0e9, 0.40, 1400)
NYLON = (2.5e9, 0.40, 1000)
COPPER = (1.2e11, 0.35, 8900)
ANGLES = list(range(5, 90, 5))  # incident angles, degrees
TANGENTIAL_5 = [0.15, 0.3, 0.6, 0.9, 1.5, 2.1, 3.0, 4.5, 6.0, 7.5, 9.0, 10.5, 12.0, 15.0, 18.0,
                21.0]


def cases():
    """The inputs, a dict per impact. r1 = 0: a rigid floor under ball 2."""
    out = []
    for dim in (3, 2):
        def add(test, name, sample, **k):
            row = {"test": test, "material": name, "dim": dim, "sample": sample,
                   "r1": 0.0, "rho1": 0.0, "E1": 0.0, "nu1": 0.0, "v1x": 0.0, "v1y": 0.0,
                   "w1": 0.0, "w2": 0.0, "dp_mode": 0}
            row.update(k)
            out.append(row)
        # Test 4: speed 3.9 m/s at incident angle theta from the normal, no spin.
        for name, (E, nu, rho) in (("aluminium_oxide", AL_OXIDE), ("aluminium_alloy", AL_ALLOY)):
            for a in ANGLES:
                th = math.radians(a)
                add(4, name, a, r2=0.0025, rho2=rho, E2=E, nu2=nu, mu=0.092, e=0.98,
                    v2x=3.9 * math.sin(th), v2y=-3.9 * math.cos(th))
        # Test 5: normal speed 5 m/s, tangential speeds as listed, no spin, elastic.
        # In 2D a disk of radius 10 um and unit thickness is 3 / (4 r) = 75 000 times heavier
        # than the sphere for the same contact law: polyethylene's peak overlap would be 2.4
        # radii (steel's 0.58), so 2D runs steel only.
        for name, (E, nu, rho) in (("steel", STEEL), ("polyethylene", POLYETHYLENE)):
            if dim == 2 and name == "polyethylene":
                continue
            for vt in TANGENTIAL_5:
                add(5, name, vt, r2=1e-5, rho2=rho, E2=E, nu2=nu, mu=0.3, e=1.0,
                    v2x=vt, v2y=-5.0)
        # Test 6: normal speed 0.2 m/s, no tangential speed, spin R w / Vn = tan(theta).
        for name, (E, nu, rho) in (("aluminium_alloy", AL_ALLOY), ("nylon", NYLON)):
            for a in ANGLES:
                w = 0.2 * math.tan(math.radians(a)) / 0.1
                add(6, name, a, r2=0.1, rho2=rho, E2=E, nu2=nu, mu=0.4, e=0.5, v2x=0.0,
                    v2y=-0.2, w2=w)
        # Test 7: two identical spheres at 0.2 m/s each, both spinning at w in the same sense
        # (their surfaces slide against each other at 2 R w), R w / Vn = tan(theta).
        for name, (E, nu, rho) in (("aluminium_alloy", AL_ALLOY), ("copper", COPPER)):
            for a in ANGLES:
                w = 0.2 * math.tan(math.radians(a)) / 0.1
                add(7, name, a, r1=0.1, rho1=rho, E1=E, nu1=nu, r2=0.1, rho2=rho, E2=E, nu2=nu,
                    mu=0.4, e=0.5, v1x=0.2, v2x=-0.2, w1=w, w2=w, v1y=0.0, v2y=0.0)
        # Test 8: a sphere (R 0.1) spinning as in test 6 onto a sphere of R 0.5 at rest, 1000
        # times as dense; case A: the large sphere 1000 times as stiff; case B: the same material.
        for name, (E, nu, rho) in (("aluminium_alloy", AL_ALLOY), ("nylon", NYLON)):
            for case, stiff in (("A", 1000.0), ("B", 1.0)):
                for a in ANGLES:
                    w = 0.2 * math.tan(math.radians(a)) / 0.1
                    add(8, name + "_" + case, a, r1=0.1, rho1=rho, E1=E, nu1=nu, r2=0.5,
                        rho2=1000 * rho, E2=stiff * E, nu2=nu, mu=0.4, e=0.5, v1x=0.2,
                        v1y=0.0, w1=w, v2x=0.0, v2y=0.0, w2=0.0)
    return out


def main():
    rows = []
    for c in cases():
        c = dict(c)
        c.update(impact(c))
        rows.append(c)
    path = os.path.join(HERE, "hertz_oblique.csv")
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()), lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow({k: (repr(v) if isinstance(v, float) else v) for k, v in r.items()})
    print("wrote %d impacts to %s" % (len(rows), path))


if __name__ == "__main__":
    main()
