"""What Python must not be able to do to the process: close a model from its own callback,
use a closed model or its Lua objects, race two threads in one model; and the error details
docs/python.md promises. A case that crashed runs in a subprocess, so that a crash fails the
test instead of killing pytest."""
import os
import subprocess
import sys
import textwrap

import pytest

import cairn

PYTHON_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


SETUP = """
import cairn
m = cairn.Model(dim=2, quiet=True)
m.contact.cmat_default(model="linear", kn=1e6, ks=1e6)
m.ball.create(id=1, rad=0.1, pos=(0, 0))
m.ball.create(id=2, rad=0.1, pos=(0.19, 0))
m.model.timestep(fix=1e-6)
"""


def run_py(code, timeout=120):
    """Run SETUP and then code in a fresh Python with this checkout's package; return (rc,
    stdout, stderr)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (PYTHON_DIR, env.get("PYTHONPATH")) if p)
    r = subprocess.run([sys.executable, "-c", SETUP + textwrap.dedent(code)], capture_output=True,
                       text=True, timeout=timeout, env=env)
    return r.returncode, r.stdout, r.stderr


def assert_ok(rc, out, err):
    assert rc == 0, f"exit code {rc} (a crash is negative), stderr:\n{err[-3000:]}"
    assert out.strip().endswith("ok"), out + err
    assert "Traceback" not in err and "Fatal" not in err, err




def test_close_in_own_callback_is_refused():
    rc, out, err = run_py("""
    m.callback.on("after_force", lambda: m.close())
    try:
        m.cycle(3)
    except cairn.InCallbackError as e:
        assert "close" in str(e) and "returns" in str(e), e
    else:
        raise SystemExit("close in a callback was not refused")
    m.callback.off("after_force")
    m.cycle(2)                           # the model is still there and usable
    assert m.step() == 2, m.step()
    m.history.interval(1)
    m.history.add("h", lambda: m.close())
    try:
        m.cycle(3)
    except cairn.InCallbackError:
        pass
    else:
        raise SystemExit("close in a history function was not refused")
    m.close()
    m.close()                            # closing again does nothing
    print("ok")
    """)
    assert_ok(rc, out, err)


def test_every_method_of_a_closed_model_raises_stale():
    rc, out, err = run_py("""
    m.cycle(1)
    m.ball.pos(1)                        # a module function found before the close
    balls, contacts = m.balls, m.contacts
    m.close()
    calls = [
        lambda: m.lua("return 1"), lambda: m.run_lua("x.lua"), lambda: m.cycle(1),
        lambda: m.solve(time=1), lambda: m.save("x.sav"), lambda: m.restore("x.sav"),
        lambda: m.load("x"), lambda: m.time(), lambda: m.step(), lambda: m.dim,
        lambda: m.ball.pos(1), lambda: m.wall.count(), lambda: dir(m.ball),
        lambda: balls.pos, lambda: len(balls), lambda: balls.pos.copy(),
        lambda: balls.pos.mean(), lambda: balls.group_names(), lambda: contacts.ends(),
        lambda: contacts.model, lambda: contacts["kn"],
    ]
    for i, c in enumerate(calls):
        try:
            r = c()
            if type(r).__name__ == "View":
                r.copy()
        except cairn.StaleObjectError as e:
            assert str(e).count(".") <= 2 and "closed" in str(e), e
        else:
            raise SystemExit(f"call {i} did not raise StaleObjectError")
    assert repr(m) == "<cairn.Model (closed)>"
    print("ok")
    """)
    assert_ok(rc, out, err)


def test_lua_objects_of_a_closed_model_raise_stale():
    rc, out, err = run_py("""
    f = m.lua("return function(x) return x + 1 end")
    assert f(1) == 2
    m.cycle(1)
    cp = m.contact.find("ball-ball", 1, 2)
    assert isinstance(cp, cairn.LuaRef)
    m.close()
    for c in (lambda: f(1), lambda: str(f), lambda: repr(cp), lambda: cp == f, lambda: hash(cp)):
        try:
            c()
        except cairn.StaleObjectError:
            pass
        else:
            raise SystemExit("a Lua object of a closed model did not raise StaleObjectError")
    del f, cp                            # freeing them after the close touches nothing
    import gc
    gc.collect()
    print("ok")
    """)
    assert_ok(rc, out, err)


def test_two_threads_share_a_model():
    rc, out, err = run_py("""
    import threading
    import numpy as np
    m.specimen.lattice(kind="hex", rad=0.05, n=(12, 12), spacing=0.099, origin=(2, 2))
    seen = []
    # a callback that calls the model again, from the thread that runs the cycle
    m.callback.on("after_force", lambda: seen.append(m.ball.count()))
    errors = []

    def cycler():
        try:
            for _ in range(40):
                m.cycle(5)
        except BaseException as e:
            errors.append(e)

    def reader(y):
        try:
            for k in range(400):
                pos, ids = m.balls.pos, m.balls.id
                assert np.isfinite(pos.sum())
                id1, id2 = m.contacts.ends()
                assert len(id1) == len(id2)
                m.ball.pos(1)
                if k % 50 == 0:
                    m.ball.create(rad=0.05, pos=(5 + k, y))
                    m.lua("return ball.count()")
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=cycler), threading.Thread(target=reader, args=(5,)),
               threading.Thread(target=reader, args=(7,))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert m.step() == 200 and len(seen) == 200, (m.step(), len(seen))
    # a close from another thread waits for the running call, then the model is closed
    started = threading.Event()
    m.callback.on("before_force", lambda: started.set())
    t = threading.Thread(target=lambda: m.cycle(200))
    t.start()
    started.wait()
    m.close()
    t.join()
    assert repr(m) == "<cairn.Model (closed)>"
    print("ok")
    """, timeout=120)
    assert_ok(rc, out, err)


def test_self_containing_arguments_are_type_errors():
    with cairn.Model(dim=2, quiet=True) as m:
        a = [0.0]
        a.append(a)
        with pytest.raises(TypeError, match=r"ball.create: argument 'pos'\[1\] contains itself"):
            m.ball.create(rad=0.1, pos=a)
        d = {"rad": 0.1}
        d["pos"] = d
        with pytest.raises(cairn.ArgumentError, match="contains itself"):
            m.ball.create(d)
        deep = [0.0]
        for _ in range(200):
            deep = [deep]
        with pytest.raises(TypeError, match="nested"):
            m.ball.create(rad=0.1, pos=deep)
        m.ball.create(id=1, rad=0.1, pos=(0, 0))  # the model is untouched and usable
        assert m.ball.count() == 1
        s = (0.0, 1.0)
        assert m.lua("return function(a, b) return #a + #b end")(s, s) == 4  # shared, not cyclic


def test_error_in_a_python_history_function_keeps_its_details():
    with cairn.Model(dim=2, quiet=True) as m:
        m.ball.create(id=1, rad=0.1, pos=(0, 0))
        m.model.timestep(fix=1e-6)
        m.history.interval(1)

        def missing_ball():
            return m.ball.pos(99)[1]
        m.history.add("y", missing_ball)
        with pytest.raises(cairn.Error) as info:
            m.cycle(2)
        e = info.value
        assert e.file is None and e.line is None and e.message.startswith("ball 99")
        assert any("test_safety.py" in n and "(in history 'y')" in n for n in e.__notes__), \
            e.__notes__

    for exc in (ValueError("x" * 3000), cairn.Error("y" * 3000)):  # longer than cairn's 1023
        with cairn.Model(dim=2, quiet=True) as m:
            m.ball.create(id=1, rad=0.1, pos=(0, 0))
            m.model.timestep(fix=1e-6)
            m.history.interval(1)

            def fails():
                raise exc
            m.history.add("y", fails)
            with pytest.raises(type(exc)) as info:
                m.cycle(2)
            assert info.value is exc
            if isinstance(exc, cairn.Error):
                assert info.value.file is None and info.value.line is None


def test_lua_object_of_another_model_is_refused():
    with cairn.Model(dim=2, quiet=True) as a, cairn.Model(dim=2, quiet=True) as b:
        f = a.lua("return function() return 1 end")
        with pytest.raises(TypeError, match="another cairn model"):
            b.lua("return function(g) return g end")(f)
        assert f() == 1
