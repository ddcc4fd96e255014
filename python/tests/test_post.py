"""cairn.post: save files and histories into numpy, fabric, coordination, rose diagrams and
force chains, each against a closed form or cairn's own measurement."""
import math
import os

import numpy as np
import pytest

import cairn
from cairn import post


def hex_lattice(nx=8, ny=8, spacing=1.98):
    """Overlapping equal disks on a hexagonal lattice: every interior ball has 6 contacts at
    0, 60 and 120 degrees."""
    m = cairn.Model(dim=2, quiet=True)
    m.contact.cmat_default(model="linear", kn=1e6, ks=1e6)
    m.specimen.lattice(kind="hex", rad=1.0, n=(nx, ny), spacing=spacing)
    m.model.timestep(fix=1e-6)
    m.cycle(1)
    return m


def test_fabric_of_a_hex_lattice_is_isotropic():
    with hex_lattice() as m:
        t, n = post.fabric(m)
        # in a hexagonal lattice the three directions 60 degrees apart give exactly I/2
        # (round-off only); the boundary rows change the counts per direction, so compare
        # each direction's share with the closed form of those counts
        normals = m.contacts.normal.copy()
        ang = np.round(np.degrees(np.arctan2(normals[:, 1], normals[:, 0])) % 180).astype(int)
        counts = {a: int(np.sum(ang == a)) for a in (0, 60, 120)}
        assert sum(counts.values()) == n == len(normals)
        exact = sum(c * np.outer(d, d) for a, c in counts.items()
                    for d in [np.array([math.cos(math.radians(a)), math.sin(math.radians(a))])])
        assert np.allclose(t, exact / n, rtol=0, atol=1e-15)
        assert np.trace(t) == pytest.approx(1.0, abs=1e-15)


def test_fabric_of_a_chain_and_force_weights():
    with cairn.Model(dim=3, quiet=True) as m:
        m.contact.cmat_default(model="linear", kn=1e6, ks=1e6)
        for i in range(5):
            m.ball.create(id=i + 1, rad=1, pos=(1.9 * i, 0, 0))
        m.cycle(1)
        t, n = post.fabric(m)
        assert n == 4 and np.allclose(t, np.diag([1, 0, 0]), atol=1e-15)
        assert post.anisotropy(t) == pytest.approx(7.5, rel=1e-12)  # sqrt(3/2) * 7.5 * sqrt(2/3)
        tw, _ = post.fabric(m, weight="fn")
        assert np.allclose(tw, t, atol=1e-15)
        with pytest.raises(ValueError, match="weight"):
            post.fabric(m, weight="mass")
        with pytest.raises(ValueError, match="kind"):
            post.fabric(m, kind="wall")


def test_anisotropy_closed_forms():
    # 2D: E(theta) ~ 1 + a cos 2(theta - theta0) gives phi = I/2 + a/4 R(theta0)
    for a, th in ((0.0, 0.0), (0.3, 0.0), (0.5, 0.7)):
        c, s = math.cos(2 * th), math.sin(2 * th)
        phi = np.eye(2) / 2 + a / 4 * np.array([[c, s], [s, -c]])
        assert post.anisotropy(phi) == pytest.approx(a, abs=1e-15)
        assert post.anisotropy(3 * phi) == pytest.approx(a, abs=1e-15)  # any trace
    # 3D: phi = I/3 + (2/15) a_ij with a_ij = alpha diag(1, -1/2, -1/2): a = 1.5 alpha
    alpha = 0.4
    phi = np.eye(3) / 3 + 2 / 15 * alpha * np.diag([1, -0.5, -0.5])
    assert post.anisotropy(phi) == pytest.approx(1.5 * alpha, rel=1e-14)
    assert post.anisotropy(np.zeros((3, 3))) == 0.0


def test_coordination_matches_the_measurement():
    with hex_lattice() as m:
        z, nb = post.coordination(m)
        region = m.measure.create(shape="box", min=(-100, -100), max=(100, 100))
        z_cairn, n_cairn = m.measure.coordination(region)
        assert nb == n_cairn == 64 and z == pytest.approx(z_cairn, rel=1e-15)
        # 8 x 8 hex lattice: 7*8 row bonds + 7*15 between rows = 161 contacts
        assert z == pytest.approx(2 * 161 / 64, rel=1e-15)
        zm, used = post.coordination(m, mechanical=True)
        assert used == 64 and zm == z  # no ball has fewer than 2 contacts
    with cairn.Model(dim=2, quiet=True) as m:
        m.contact.cmat_default(model="linear", kn=1e6, ks=1e6)
        for i, x in enumerate((0, 1.9, 3.8, 20)):
            m.ball.create(id=i + 1, rad=1, pos=(x, 0))
        m.cycle(1)
        assert post.coordination(m) == (4 / 4, 4)
        # Thornton: (2C - N1) / (N - N0 - N1) = (4 - 2) / (4 - 1 - 2): ball 2 with its 2
        assert post.coordination(m, mechanical=True) == (2.0, 1)


def test_read_save_and_snapshot(tmp_path):
    with hex_lattice(4, 4) as m:
        m.ball.group(1, "corner")
        m.save(tmp_path / "lat.sav")
        live = post.snapshot(m)
    s = post.read_save(tmp_path / "lat.sav")
    assert s.dim == 2 and s.step == 1 and "16 balls" in repr(s)
    for col in post.BALL_COLUMNS:
        assert np.array_equal(getattr(s.balls, col), getattr(live.balls, col)), col
    for col in post.CONTACT_COLUMNS + ("end1", "end2", "fn", "model"):
        assert np.array_equal(getattr(s.contacts, col), getattr(live.contacts, col)), col
    assert s.balls.group_name[list(s.balls.id).index(1)] == "corner"
    assert set(s.contacts.fields) >= {"kn", "ks", "fric", "lin_force"}
    assert s.contacts.fields["lin_force"].shape == (len(s.contacts.kind), 3)
    with pytest.raises(FileNotFoundError):
        post.read_save(tmp_path / "none.sav")
    (tmp_path / "junk.sav").write_bytes(b"not a save file at all")
    with pytest.raises(cairn.Error, match="junk.sav"):
        post.read_save(tmp_path / "junk.sav")


def test_read_history(tmp_path):
    with hex_lattice(3, 3) as m:
        m.history.interval(2)
        m.history.add("t2", lambda: 2 * m.time())
        m.cycle(10)
        m.history.add("late", lambda: 1.0)
        m.cycle(4)
        m.history.export(str(tmp_path / "h.csv"))
        values, times, steps = m.history.get("t2")
    h = post.read_history(tmp_path / "h.csv")
    assert list(h) == ["step", "time", "t2", "late"]
    assert h["step"].dtype == np.int64 and h["step"].tolist() == steps
    assert h["time"].tolist() == times and h["t2"].tolist() == values  # %.17g: exact
    assert np.isnan(h["late"][:5]).all() and (h["late"][5:] == 1).all()
    try:
        import pandas  # noqa: F401
        df = h.frame()
        assert list(df.columns) == list(h) and len(df) == 7
        assert post.read_history_frame(tmp_path / "h.csv").equals(df)
    except ImportError:
        with pytest.raises(ImportError, match="python3-pandas"):
            h.frame()
    (tmp_path / "other.csv").write_text("a,b\n1,2\n")
    with pytest.raises(ValueError, match="not a cairn history"):
        post.read_history(tmp_path / "other.csv")
    (tmp_path / "bad.csv").write_text("step,time,x\n1,0.1,oops\n")
    with pytest.raises(ValueError, match="bad.csv"):
        post.read_history(tmp_path / "bad.csv")


def is_png(path):
    with open(path, "rb") as f:
        return f.read(8) == b"\x89PNG\r\n\x1a\n"


def test_rose_and_force_chains(tmp_path):
    with hex_lattice(6, 6) as m:
        ax = post.rose(m, path=tmp_path / "rose.png")
        assert is_png(tmp_path / "rose.png")
        heights = [p.get_height() for p in ax.patches]
        # 0, 60, 120 degrees and their opposites (each on a bin edge, so round-off may put
        # it on either side): at most 12 of the 36 bins hold every normal, twice
        assert sum(h > 0 for h in heights) <= 12 and sum(heights) == 2 * len(m.contacts)
        edges = [p.get_x() for p, h in zip(ax.patches, heights) if h > 0]
        assert all(min(abs(e - k * math.pi / 3) for k in range(7)) < 0.18 for e in edges)
        post.rose(m, weight="fn", bins=12)
        ax = post.force_chains(m, path=tmp_path / "chains.png")
        assert is_png(tmp_path / "chains.png")
        assert len(ax.collections[1].get_segments()) == int(np.sum(m.contacts.fn > 0))
        s = post.snapshot(m)
        post.force_chains(s, balls=False)
    with cairn.Model(dim=3, quiet=True) as m:
        m.specimen.lattice(kind="cubic", rad=1.0, n=(3, 3, 3), spacing=1.98)
        m.contact.cmat_default(model="linear", kn=1e6, ks=1e6)
        m.cycle(1)
        for plane in ("xy", "xz", "yz"):
            post.rose(m, plane=plane, path=tmp_path / f"rose_{plane}.png")
            assert is_png(tmp_path / f"rose_{plane}.png")
        with pytest.raises(ValueError, match="plane"):
            post.rose(m, plane="zz")
        with pytest.raises(ValueError, match="2D"):
            post.force_chains(m)
    with pytest.raises(TypeError, match="cairn.Model or a cairn.post.Snapshot"):
        post.fabric([1, 2, 3])
    assert os.path.exists(tmp_path / "rose.png")


def test_force_chains_in_a_periodic_cell(tmp_path):
    """A contact across a face is drawn to the nearest image: no line longer than a contact."""
    with cairn.Model(dim=2, quiet=True) as m:
        m.contact.cmat_default(model="linear", kn=1e6, ks=1e6)
        m.cell.create(min=(0, 0), max=(1, 1))
        m.ball.create(id=1, rad=0.1, pos=(0.05, 0.5))
        m.ball.create(id=2, rad=0.1, pos=(0.94, 0.5))
        m.model.timestep(fix=1e-6)
        m.cycle(1)
        assert len(m.contacts) == 1 and m.contacts.gap[0] == pytest.approx(-0.09)
        ax = post.force_chains(m, path=tmp_path / "p.png")
        (seg,) = ax.collections[1].get_segments()
        assert np.linalg.norm(seg[1] - seg[0]) == pytest.approx(0.11)
