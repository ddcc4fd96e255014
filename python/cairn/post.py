"""Post-processing without a live model: save files and histories into numpy, the fabric tensor
and coordination of the contacts, a rose diagram of contact normals and a 2D force-chain plot.

Every analysis function takes either a ``cairn.Model`` (its current state) or a ``Snapshot``
(from ``read_save``)."""

import csv
import math
import os
import types

import numpy as np

BALL_COLUMNS = ("id", "pos", "vel", "spin", "force", "moment", "rad", "density", "mass",
                "inertia", "damp", "fix", "group")
WALL_COLUMNS = ("id", "kind", "vel", "force", "disp", "point", "normal", "radius")
CONTACT_COLUMNS = ("kind", "normal", "gap", "force", "moment", "active")


class Snapshot:
    """A model's state as plain numpy arrays: ``dim``, ``time``, ``step``; ``balls``,
    ``walls`` and ``contacts``, each with the columns of ``m.balls``, ``m.walls`` and
    ``m.contacts`` as attributes (copies), and ``balls.group_name`` (each ball's group),
    ``contacts.end1``, ``end2``, ``fn``, ``model`` (names) and ``contacts.fields`` (every
    property and state field of the contacts' models, by name; NaN where a contact's model
    has none)."""

    def __init__(self, dim, time, step, balls, walls, contacts):
        self.dim, self.time, self.step = dim, time, step
        self.balls, self.walls, self.contacts = balls, walls, contacts

    def __repr__(self):
        return (f"<cairn.post.Snapshot {self.dim}D at step {self.step} (t = {self.time:g}): "
                f"{len(self.balls.id)} balls, {len(self.walls.id)} walls, "
                f"{len(self.contacts.kind)} contacts>")


def snapshot(model):
    """The current state of a live cairn.Model as a Snapshot (copies)."""
    balls = types.SimpleNamespace(**{c: getattr(model.balls, c).copy() for c in BALL_COLUMNS})
    balls.group_name = model.balls.groups()
    walls = types.SimpleNamespace(**{c: getattr(model.walls, c).copy() for c in WALL_COLUMNS})
    cs = model.contacts
    contacts = types.SimpleNamespace(**{c: getattr(cs, c).copy() for c in CONTACT_COLUMNS})
    contacts.end1, contacts.end2 = cs.ends()
    contacts.fn = cs.fn
    contacts.model = cs.model
    names = set()
    for cp in _first_contact_of_each_model(model):
        names.update(model.contact.props(cp).keys())
    contacts.fields = {name: cs.field(name) for name in sorted(names)}
    return Snapshot(model.dim, model.time(), model.step(), balls, walls, contacts)


def _first_contact_of_each_model(model):
    models = model.contacts.model
    if len(models) == 0:
        return []
    handles = []
    end1, end2 = model.contacts.ends()
    kinds = model.contacts.kind.copy()
    for name in sorted(set(models.tolist())):
        i = int(np.flatnonzero(models == name)[0])
        kind = "ball-ball" if kinds[i] == 0 else "ball-wall"
        cp = model.contact.find(kind, int(end1[i]), int(end2[i]))
        if cp is not None:
            handles.append(cp)
    return handles


def read_save(path, plugins=()):
    """Read a save file (``model.save``) into a Snapshot. A save that uses plugin models needs
    those plugins (paths or names)."""
    from .model import Model
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"cairn.post.read_save: no file '{path}'")
    with Model(plugins=plugins, quiet=True) as m:
        m.restore(path)
        return snapshot(m)


class History(dict):
    """A history CSV (``history.export``) as numpy arrays by column name: ``step`` (int64),
    ``time`` and every history (float64; NaN before a history was added)."""

    def frame(self):
        """The same as a pandas DataFrame (needs pandas)."""
        try:
            import pandas as pd
        except ImportError as e:
            raise ImportError("cairn.post: History.frame() needs pandas (Debian: "
                              "apt-get install python3-pandas); the numpy arrays are "
                              "in the History itself") from e
        return pd.DataFrame(dict(self))


def read_history(path):
    """Read a history CSV written by ``history.export`` (or ``m.history.export``)."""
    path = os.fspath(path)
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows or rows[0][:2] != ["step", "time"]:
        raise ValueError(f"cairn.post.read_history: '{path}' is not a cairn history CSV (its "
                         "first line must start with step,time)")
    names = rows[0]
    try:
        data = np.array([[float(x) for x in r] for r in rows[1:] if r], dtype=float)
    except ValueError as e:
        raise ValueError(f"cairn.post.read_history: '{path}': {e}") from None
    data = data.reshape(-1, len(names))
    h = History()
    for k, name in enumerate(names):
        h[name] = data[:, k].astype(np.int64) if name == "step" else data[:, k].copy()
    return h


def read_history_frame(path):
    """A history CSV as a pandas DataFrame (needs pandas)."""
    return read_history(path).frame()


# ---- contacts' statistics ----------------------------------------------------------------

def _state(src):
    """Arrays of a Model or a Snapshot, as a Snapshot."""
    if isinstance(src, Snapshot):
        return src
    if hasattr(src, "balls") and hasattr(src, "contacts") and hasattr(src, "_session"):
        return snapshot(src)
    raise TypeError(f"expected a cairn.Model or a cairn.post.Snapshot (got "
                    f"{type(src).__name__})")


def _select(s, kind, active):
    c = s.contacts
    keep = np.ones(len(c.kind), bool)
    if kind in ("ball-ball", "ball-wall"):
        keep &= c.kind == (0 if kind == "ball-ball" else 1)
    elif kind not in (None, "all"):
        raise ValueError(f"kind must be 'ball-ball', 'ball-wall' or 'all' (got {kind!r})")
    if active:
        keep &= c.active != 0
    return keep


def fabric(src, kind="ball-ball", active=True, weight=None):
    """The fabric tensor of the contact normals: the mean of n ⊗ n over the contacts (dim x
    dim, trace 1). ``weight="fn"`` weights each contact by its normal force (a force fabric).
    Returns (tensor, number of contacts used)."""
    s = _state(src)
    keep = _select(s, kind, active)
    n = s.contacts.normal[keep][:, :s.dim]
    if len(n) == 0:
        return np.zeros((s.dim, s.dim)), 0
    if weight is None:
        w = np.ones(len(n))
    elif weight == "fn":
        w = np.abs(s.contacts.fn[keep])
    else:
        raise ValueError(f"weight must be None or 'fn' (got {weight!r})")
    if w.sum() == 0:
        return np.zeros((s.dim, s.dim)), len(n)
    t = np.einsum("k,ki,kj->ij", w, n, n) / w.sum()
    return t, len(n)


def anisotropy(tensor):
    """The scalar anisotropy a of a fabric tensor, for contact-normal densities of the form
    E(n) ∝ 1 + a_ij n_i n_j: in 2D, a_ij = 4 φ'_ij and a = sqrt(a_ij a_ij / 2), so that
    E(θ) ∝ 1 + a cos 2(θ − θ0) (Rothenburg and Bathurst; a = 2(λ1 − λ2)); in 3D,
    a_ij = (15/2) φ'_ij and a = sqrt(3/2 a_ij a_ij). φ' is the deviator of the fabric tensor
    normalised to trace 1. 0 for an isotropic fabric."""
    t = np.asarray(tensor, float)
    dim = t.shape[0]
    tr = np.trace(t)
    if tr == 0:
        return 0.0
    dev = t / tr - np.eye(dim) / dim
    if dim == 2:
        a = 4.0 * dev
        return float(math.sqrt(np.sum(a * a) / 2.0))
    a = 7.5 * dev
    return float(math.sqrt(1.5 * np.sum(a * a)))


def coordination(src, mechanical=False):
    """The mean number of active contacts per ball, as measure's ``m:coordination()`` counts
    them (a ball-ball contact for both balls, a ball-wall contact for its ball). With
    ``mechanical=True``, Thornton's mechanical coordination number: balls with no contact or
    one are left out, with the contacts they carry. Returns (Z, balls counted)."""
    s = _state(src)
    nb = len(s.balls.id)
    if nb == 0:
        return 0.0, 0
    keep = _select(s, "all", True)
    c = s.contacts
    index = {int(i): k for k, i in enumerate(s.balls.id.tolist())}
    count = np.zeros(nb, np.int64)
    for kind, a, b in zip(c.kind[keep].tolist(), c.end1[keep].tolist(),
                          c.end2[keep].tolist()):
        count[index[a]] += 1
        if kind == 0:
            count[index[b]] += 1
    if not mechanical:
        return float(count.sum()) / nb, nb
    n0 = int(np.sum(count == 0))
    n1 = int(np.sum(count == 1))
    used = nb - n0 - n1
    if used <= 0:
        return 0.0, 0
    return float(count.sum() - n1) / used, used


# ---- figures -----------------------------------------------------------------------------

def _pyplot():
    import matplotlib
    if not os.environ.get("DISPLAY") and matplotlib.get_backend().lower() not in (
            "agg", "module://matplotlib_inline.backend_inline"):
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def rose(src, bins=36, kind="ball-ball", plane=None, weight=None, path=None, ax=None,
         title="Contact normals"):
    """A rose diagram of contact normal directions (a polar histogram; each normal counted in
    both of its directions). 2D: the angle in the x-y plane. 3D: the normals projected on
    ``plane`` ("xy", "xz" or "yz"; default "xz", the vertical plane when gravity is along
    z), each counted with the square of its length in that plane, so that a normal across the
    plane adds nothing and the rose matches the fabric tensor's components in the plane.
    ``weight="fn"`` sums normal forces instead of counting. Saves to ``path`` if given;
    returns the matplotlib Axes."""
    s = _state(src)
    keep = _select(s, kind, True)
    n = s.contacts.normal[keep]
    axes = {"xy": (0, 1), "xz": (0, 2), "yz": (1, 2)}
    if s.dim == 2:
        i, j = 0, 1
    else:
        plane = plane or "xz"
        if plane not in axes:
            raise ValueError(f"plane must be 'xy', 'xz' or 'yz' (got {plane!r})")
        i, j = axes[plane]
    theta = np.arctan2(n[:, j], n[:, i]) if len(n) else np.zeros(0)
    theta = np.concatenate([theta, theta + np.pi]) % (2 * np.pi)
    if weight == "fn":
        w = np.abs(s.contacts.fn[keep])
    elif weight is None:
        w = np.ones(len(n))
    else:
        raise ValueError(f"weight must be None or 'fn' (got {weight!r})")
    if s.dim == 3:
        w = w * (n[:, i] ** 2 + n[:, j] ** 2)
    w = np.concatenate([w, w])
    counts, edges = np.histogram(theta, bins=bins, range=(0, 2 * np.pi), weights=w)
    plt = _pyplot()
    if ax is None:
        fig = plt.figure(figsize=(5, 5))
        ax = fig.add_subplot(projection="polar")
    ax.bar(edges[:-1], counts, width=edges[1] - edges[0], align="edge", edgecolor="k",
           linewidth=0.4, color="#4c72b0")
    names = "xyz"
    ax.set_title(f"{title} ({names[i]}-{names[j]} plane, {int(keep.sum())} contacts)")
    if path:
        ax.figure.savefig(os.fspath(path), dpi=120, bbox_inches="tight")
    return ax


def force_chains(src, path=None, ax=None, width=4.0, balls=True, title="Force chains"):
    """A 2D force-chain plot: a line between the centres of every ball-ball contact in
    compression (in a periodic cell, to the nearest image), its width proportional to the
    normal force (``width`` points for the largest), over the balls' outlines. Saves to ``path`` if given; returns the Axes."""
    s = _state(src)
    if s.dim != 2:
        raise ValueError("cairn.post.force_chains draws 2D models; for 3D, render the VTK "
                         "contacts file (cairn render)")
    plt = _pyplot()
    from matplotlib.collections import LineCollection, PatchCollection
    from matplotlib.patches import Circle
    if ax is None:
        fig, ax = plt.subplots(figsize=(6, 6))
    pos = s.balls.pos[:, :2]
    index = {int(i): k for k, i in enumerate(s.balls.id.tolist())}
    if balls and len(pos):
        ax.add_collection(PatchCollection(
            [Circle(p, r) for p, r in zip(pos, s.balls.rad)], facecolor="none",
            edgecolor="0.7", linewidth=0.3))
    c = s.contacts
    keep = _select(s, "ball-ball", True) & (c.fn > 0)
    if keep.any():
        a = np.array([index[int(i)] for i in c.end1[keep]])
        b = np.array([index[int(i)] for i in c.end2[keep]])
        # from side 2's centre back along the branch (its length from the contact's gap), so a
        # contact across a periodic cell's face is drawn to side 1's image, not across the cell
        length = s.balls.rad[a] + s.balls.rad[b] + c.gap[keep]
        seg = np.stack([pos[b] - length[:, None] * c.normal[keep][:, :2], pos[b]], axis=1)
        f = c.fn[keep]
        lw = width * f / f.max()
        ax.add_collection(LineCollection(seg, linewidths=lw, colors="k"))
    if len(pos):
        r = s.balls.rad.max()
        ax.set_xlim(pos[:, 0].min() - r, pos[:, 0].max() + r)
        ax.set_ylim(pos[:, 1].min() - r, pos[:, 1].max() + r)
    ax.set_aspect("equal")
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    ax.set_title(f"{title} ({int(keep.sum())} contacts in compression)")
    if path:
        ax.figure.savefig(os.fspath(path), dpi=120, bbox_inches="tight")
    return ax
