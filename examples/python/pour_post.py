"""A 3D pour driven and analysed from Python: spheres generated in a tall box fall under
gravity onto the floor and settle; Python records the settling (a history sampled by a Python
function), then reads the packing as numpy arrays and draws the figures a paper would show.

Run: python3 examples/python/pour_post.py            (POUR_SIZE=full: 4000 balls, a minute)
Writes, in pour_post_out/: settling.png (kinetic energy and mean height against time),
rose.png (contact normals in the x-z plane), fabric.txt, settling.csv and pour.sav."""
import os
import sys

import numpy as np

import cairn
from cairn import post

SIZE = os.environ.get("POUR_SIZE", "small")
if SIZE not in ("small", "full"):
    sys.exit(f"pour_post.py: POUR_SIZE must be 'small' or 'full' (got '{SIZE}')")
N = 400 if SIZE == "small" else 4000
L = 0.08 if SIZE == "small" else 0.16          # box side (m)
OUT = "pour_post_out"
os.makedirs(OUT, exist_ok=True)

m = cairn.Model(dim=3)
m.model.gravity((0, 0, -9.81))
# glass-like beads: kn = 2e4 N/m keeps overlaps a thousandth of a radius under the pile's
# weight; dp_nratio 0.3 is a restitution of about 0.37
m.contact.cmat_default(model="linear", kn=2e4, ks=1e4, fric=0.5, dp_nratio=0.3)
m.wall.create(kind="plane", point=(0, 0, 0), normal=(0, 0, 1))     # floor
for point, normal in (((0, 0, 0), (1, 0, 0)), ((L, 0, 0), (-1, 0, 0)),
                      ((0, 0, 0), (0, 1, 0)), ((0, L, 0), (0, -1, 0))):
    m.wall.create(kind="plane", point=point, normal=normal)
info = m.specimen.generate(shape="box", min=(0, 0, 0.01), max=(L, L, 0.01 + 3 * L), count=N,
                           seed=7, density=2500,
                           size={"kind": "uniform", "rmin": 0.0025, "rmax": 0.0035})
print(f"{info['count']} balls generated, porosity {info['porosity']:.3f}")


def kinetic():
    """Kinetic energy of translation, from the live views (no copy of the whole model)."""
    v = m.balls.vel
    return 0.5 * float(np.sum(m.balls.mass * np.sum(v * v, axis=1)))


m.history.interval(50)
m.history.add("kinetic", kinetic)                                    # a Python function
m.history.add("height", lambda: float(np.mean(m.balls.pos[:, 2])))
m.model.timestep(auto=True)
r = m.solve(ratio=1e-3, time=3.0)
print(f"settled: {r['reason']} after {r['steps']} steps, t = {m.time():.3f} s")
m.history.export(os.path.join(OUT, "settling.csv"))
m.save(os.path.join(OUT, "pour.sav"))

# ---- analysis: from the save file, as a reader of someone else's run would ------------------
s = post.read_save(os.path.join(OUT, "pour.sav"))
h = post.read_history(os.path.join(OUT, "settling.csv"))
fabric, nc = post.fabric(s)
z, nb = post.coordination(s)
zm, nm = post.coordination(s, mechanical=True)
top = np.max(s.balls.pos[:, 2] + s.balls.rad)
solid = np.sum(4 / 3 * np.pi * s.balls.rad ** 3)
porosity = 1 - solid / (L * L * top)
with open(os.path.join(OUT, "fabric.txt"), "w") as f:
    f.write(f"contacts {nc}\nfabric\n{np.array2string(fabric, precision=4)}\n"
            f"anisotropy {post.anisotropy(fabric):.4f}\n"
            f"coordination {z:.3f} ({nb} balls), mechanical {zm:.3f} ({nm} balls)\n"
            f"porosity up to the top ball {porosity:.3f}\n")
print(open(os.path.join(OUT, "fabric.txt")).read(), end="")

import matplotlib  # noqa: E402
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

fig, ax = plt.subplots(figsize=(6, 4))
ax.semilogy(h["time"], h["kinetic"], label="kinetic energy")
ax.set_xlabel("time (s)")
ax.set_ylabel("kinetic energy (J)")
ax2 = ax.twinx()
ax2.plot(h["time"], h["height"] * 1000, color="C1", label="mean height")
ax2.set_ylabel("mean ball height (mm)")
fig.legend(loc="upper center", ncol=2, bbox_to_anchor=(0.5, 1.02))
fig.tight_layout()
fig.savefig(os.path.join(OUT, "settling.png"), dpi=120)
post.rose(s, plane="xz", bins=36, path=os.path.join(OUT, "rose.png"),
          title="Contact normals of the pour")
print(f"figures in {OUT}/: settling.png, rose.png")
m.close()
