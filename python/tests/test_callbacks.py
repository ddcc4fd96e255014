"""Python functions that cairn calls: history functions, callbacks on cycle points and
events, and exceptions raised in them."""
import numpy as np
import pytest

import cairn


def drop():
    m = cairn.Model(dim=2, quiet=True)
    m.model.gravity((0, -9.81))
    m.contact.cmat_default(model="linear", kn=1e6, ks=5e5, fric=0.5, dp_nratio=0.2)
    m.wall.create(id=1, nodes=[(-1, 0), (1, 0)])
    m.ball.create(id=1, rad=0.05, pos=(0, 0.2), density=2600)
    m.model.timestep(fix=1e-4)
    return m


def test_history_functions_in_python_match_lua():
    with drop() as m:
        m.history.interval(5)
        m.history.add("y_py", lambda: m.ball.pos(1)[1])
        m.lua('history.add("y_lua", function() return ball.pos(1)[2] end)')
        m.cycle(3000)
        py, t_py, s_py = m.history.get("y_py")
        lua, t_lua, s_lua = m.history.get("y_lua")
        assert len(py) == 600 and py == lua and t_py == t_lua and s_py == s_lua
        assert m.history.names() == ["y_py", "y_lua"]


def test_callbacks_on_points_and_events():
    seen = []
    with drop() as m:
        m.callback.on("contact_created", lambda cp, mode: seen.append(("created", str(cp), mode)))
        m.callback.on("after_force", lambda: seen.append(("after", m.step())))
        m.callback.on("before_force", lambda: None)
        m.cycle(2000)
        created = [s for s in seen if s[0] == "created"]
        assert created == [("created", "contact ball 1 - wall 1", 0)]
        after = [s[1] for s in seen if s[0] == "after"]
        assert after == list(range(0, 2000))  # model.step() counts completed steps
        m.callback.off("after_force")
        m.cycle(5)
        assert len([s for s in seen if s[0] == "after"]) == 2000


def test_callback_can_change_the_model():
    with drop() as m:
        def push():
            if m.step() == 10:
                m.ball.vel(1, (1.0, 0.0))
        m.callback.on("before_force", push)
        m.cycle(20)
        assert m.ball.vel(1)[0] == pytest.approx(1.0)


def test_exception_in_callback_is_raised_with_its_type():
    with drop() as m:
        class Stop(Exception):
            pass

        def boom():
            if m.step() == 7:
                raise Stop("stop at 7")
        m.callback.on("after_force", boom)
        with pytest.raises(Stop, match="stop at 7") as e:
            m.cycle(100)
        notes = getattr(e.value, "__notes__", [])
        if hasattr(e.value, "add_note"):
            assert any("after_force callback" in n and "test_callbacks.py" in n for n in notes)
        assert m.step() == 7  # the run stopped in step 8, before its motion


def test_exception_in_history_function():
    with drop() as m:
        m.history.add("bad", lambda: 1 / 0)
        with pytest.raises(ZeroDivisionError):
            m.cycle(50)


def test_cairn_refusal_inside_callback():
    with drop() as m:
        m.callback.on("after_force", lambda: m.cycle(1))
        with pytest.raises(cairn.Error, match="model.cycle cannot be called inside an "
                                              "after_force callback"):
            m.cycle(3)


def test_bad_result_from_history_function():
    with drop() as m:
        m.history.add("bad", lambda: "high")
        with pytest.raises(cairn.Error, match="bad"):
            m.cycle(20)
        m.history.clear()
        m.history.add("vec", lambda: np.float32(2.5))
        m.cycle(20)
        assert m.history.get("vec")[0][-1] == 2.5


def test_python_function_called_from_lua_code():
    with cairn.Model(dim=2) as m:
        f = m.lua("return function(g, x) return g(x) * 2 end")
        assert f(lambda x: x + 1, 4) == 10
        assert f(lambda x: (x, x), 1) == 2  # Lua keeps the first of several results
        with pytest.raises(KeyError):
            f(lambda x: {}[x], "k")
