"""numpy views of balls, walls and contacts: shapes, live values, read-only, no dangling."""
import numpy as np
import pytest

import cairn

BALL = {"id": np.int64, "pos": np.float64, "vel": np.float64, "spin": np.float64,
        "force": np.float64, "moment": np.float64, "rad": np.float64, "density": np.float64,
        "mass": np.float64, "inertia": np.float64, "damp": np.float64, "fix": np.uint8,
        "group": np.uint16}


def pair(dim):
    m = cairn.Model(dim=dim, quiet=True)
    m.contact.cmat_default(model="linear", kn=1e6, ks=1e6, fric=0.5)
    z = (0,) if dim == 3 else ()
    m.ball.create(id=7, rad=1, pos=(0, 0) + z, density=2, group="left")
    m.ball.create(id=3, rad=1, pos=(1.9, 0) + z, vel=(1, 0) + z, group="right")
    if dim == 2:
        m.wall.create(id=1, nodes=[(-5, -0.99), (5, -0.99)])
    else:
        m.wall.create(id=1, kind="plane", point=(0, -0.99, 0), normal=(0, 1, 0))
    m.model.timestep(fix=1e-4)
    m.cycle(1)
    return m


@pytest.mark.parametrize("dim", [2, 3])
def test_ball_columns(dim):
    with pair(dim) as m:
        assert len(m.balls) == 2
        for name, dt in BALL.items():
            v = getattr(m.balls, name)
            assert isinstance(v, cairn.views.View) and v.name == f"ball.{name}"
            assert v.dtype == dt, name
            ncomp = dim if name in ("pos", "vel", "force") else \
                (1 if dim == 2 else 3) if name in ("spin", "moment") else 1
            assert v.shape == ((2,) if ncomp == 1 else (2, ncomp)), name
            assert v.ndim == len(v.shape) and v.size == np.prod(v.shape)
        ids = m.balls.id.copy()
        assert sorted(ids.tolist()) == [3, 7]
        for i, bid in enumerate(ids):
            assert m.balls.pos[i].tolist() == m.ball.pos(int(bid))
            assert m.balls.rad[i] == m.ball.rad(int(bid))
            assert m.balls.mass[i] == m.ball.mass(int(bid))
            assert m.balls.force[i].tolist() == m.ball.force(int(bid))
        assert m.balls.groups().tolist() == [m.ball.group(int(b)) for b in ids]
        assert m.balls.group_names() == ["", "left", "right"]
        with pytest.raises(AttributeError, match="columns are: id, pos"):
            m.balls.position


def test_view_reflects_a_step_and_new_balls():
    with pair(2) as m:
        x = m.balls.pos
        before = x.copy()
        m.cycle(10)
        after = x.copy()
        assert not np.array_equal(before, after)  # the same View shows the new state
        order = m.balls.id.copy()
        for i, bid in enumerate(order):
            assert after[i].tolist() == m.ball.pos(int(bid))
        for k in range(100):  # grows the storage: the View follows it
            m.ball.create(rad=0.1, pos=(10 + k, 10))
        assert len(x) == 102 and x.shape == (102, 2)
        m.ball.delete(int(order[0]))
        assert len(x) == 101


def test_views_never_dangle():
    with pair(2) as m:
        v = m.balls.pos
        a = np.asarray(v)
        s = v[0]
        mean = np.mean(v, axis=0)
        t = np.transpose(v)   # a numpy function whose result would point into cairn's memory
        plus = v + 1.0
        for arr in (a, s, mean, t, plus):
            assert arr.flags.owndata or arr.base is None or arr.base.flags.owndata
        # none of them changes when the model does
        keep = [x.copy() for x in (a, s, t, plus)]
        m.cycle(10)
        for x, k in zip((a, s, t, plus), keep):
            assert np.array_equal(x, k)
        with pytest.raises(TypeError, match="read-only"):
            v[0] = (1, 2)
        with pytest.raises(TypeError, match="read-only"):
            np.add(v, 1, out=v)
        assert "ball.pos" in repr(v)
        assert [list(r) for r in v] == v.copy().tolist()
    with pytest.raises(cairn.StaleObjectError):
        len(v)


@pytest.mark.parametrize("dim", [2, 3])
def test_contact_columns(dim):
    with pair(dim) as m:
        c = m.contacts
        n = len(c)
        assert n == 3  # ball-ball and both balls on the wall
        assert c.kind.shape == (n,) and c.normal.shape == (n, dim)
        assert c.force.shape == (n, dim) and c.gap.shape == (n,)
        assert c.moment.shape == ((n,) if dim == 2 else (n, 3)) and c.active.dtype == np.uint8
        id1, id2 = c.ends()
        assert c.end1.tolist() == id1.tolist() and c.end2.tolist() == id2.tolist()
        handles = m.contact.list()
        by_ends = {(m.contact.ends(h)[1], m.contact.ends(h)[2]): h for h in handles}
        fn, models, kn, lf = c.fn, c.model, c["kn"], c.field("lin_force")
        assert lf.shape == (n, 3)
        for i in range(n):
            h = by_ends[(int(id1[i]), int(id2[i]))]
            assert m.contact.ends(h)[0] == ("ball-ball" if c.kind[i] == 0 else "ball-wall")
            assert c.normal[i].tolist() == m.contact.normal(h)
            assert c.gap[i] == m.contact.gap(h)
            assert c.force[i].tolist() == m.contact.force_global(h)
            assert fn[i] == pytest.approx(m.contact.force(h)[0], rel=1e-12, abs=1e-9)
            assert models[i] == m.contact.model(h) == "linear"
            assert kn[i] == m.contact.prop(h, "kn")
            assert bool(c.active[i]) == m.contact.active(h)
        with pytest.raises(cairn.Error, match="no contact's model has.*'nope'"):
            c["nope"]


def test_contact_fields_of_two_models():
    with pair(2) as m:
        h = m.contact.find("ball-ball", 3, 7)
        m.contact.model(h, "hertz")
        c = m.contacts
        kn, models = c["kn"], c.model
        assert np.isnan(kn[models == "hertz"]).all()
        assert (kn[models == "linear"] == 1e6).all()


def test_wall_columns():
    with pair(3) as m:
        w = m.walls
        assert len(w) == 1
        assert w.id.tolist() == [1] and w.kind.tolist() == [1]  # a plane
        assert w.point.tolist() == [[0, -0.99, 0]] and w.normal.tolist() == [[0, 1, 0]]
        m.wall.vel(1, (0, 0.5, 0))
        m.cycle(4)
        assert w.vel.tolist() == [[0, 0.5, 0]]
        assert w.disp[0].tolist() == m.wall.disp(1)
        assert w.force[0].tolist() == m.wall.force(1)
        assert w.radius.shape == (1,)


def test_empty_model():
    with cairn.Model(dim=3) as m:
        assert m.balls.pos.shape == (0, 3) and len(m.contacts) == 0 and len(m.walls) == 0
        assert m.contacts.model.tolist() == [] and m.contacts.ends()[0].shape == (0,)
        assert m.contacts.field("kn").shape == (0,)
    with cairn.Model() as m:
        with pytest.raises(cairn.Error, match="no model yet"):
            len(m.balls)


def test_ndarray_methods_on_views():
    with pair(3) as m:
        v = m.balls.rad
        assert v.mean() == 1.0 and v.sum() == 2.0 and v.max() == 1.0 and v.argmax() == 0
        t = m.balls.pos.T
        assert t.shape == (3, 2)
        keep = t.copy()
        m.cycle(5)
        assert np.array_equal(t, keep)  # a copy, not cairn's memory
        with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
            v.nonsense
        with pytest.raises(ValueError, match="read-only"):
            v.sort()


def test_clump_views():
    with cairn.Model(dim=3) as m:
        assert m.clumps.pos.shape == (0, 3) and len(m.clumps) == 0
        m.clump.template(name="pair", pebbles=[[-0.04, 0, 0, 0.05], [0.04, 0, 0, 0.05]])
        c = m.clump.create(template="pair", pos=(1, 2, 3), density=1000, vel=(0.5, 0, 0),
                           spin=(0, 0, 2))
        assert len(m.clumps) == 1 and m.clumps.id.tolist() == [c]
        assert m.clumps.pos[0].tolist() == m.clump.pos(c)
        assert m.clumps.vel[0].tolist() == [0.5, 0, 0]
        assert m.clumps.mass[0] == m.clump.mass(c)
        assert m.clumps.inertia[0].tolist() == m.clump.inertia(c)
        q = m.clumps.quat[0]
        assert abs(np.dot(q, q) - 1) < 1e-12
        m.model.timestep(fix=1e-4)
        m.cycle(10)
        assert abs(m.clumps.pos[0][0] - (1 + 0.5 * 1e-3)) < 1e-12
    with cairn.Model(dim=2) as m:
        m.clump.template(name="bar", pebbles=[[-1, 0, 0.6], [1, 0, 0.6]])
        m.clump.create(template="bar", pos=(0, 0), spin=3)
        assert m.clumps.spin.shape == (1,) and m.clumps.spin[0] == 3.0
        assert m.clumps.inertia.shape == (1,)
