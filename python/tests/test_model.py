"""cairn.Model: sessions, the script modules from Python, values both ways, errors, and the
3-disk test giving the Lua run's numbers bit for bit."""
import os
import runpy
import textwrap

import numpy as np
import pytest

import cairn
from conftest import run_cli


def test_version_matches_library():
    assert cairn.__version__ == cairn.library_version()
    assert cairn.__version__.count(".") == 2


def test_model_dims_and_repr():
    with cairn.Model(dim=3) as m:
        assert m.dim == 3
        assert "3D" in repr(m)
    m = cairn.Model()
    assert m.dim == 0 and "no model yet" in repr(m)
    m.model.new(dim=2)
    assert m.dim == 2
    m.close()
    assert "closed" in repr(m)
    with pytest.raises(cairn.StaleObjectError, match="closed"):
        m.ball.count()
    for bad in (1, 4, True, "2"):
        with pytest.raises(ValueError, match="dim must be 2 or 3"):
            cairn.Model(dim=bad)


def test_modules_are_the_lua_modules():
    with cairn.Model(dim=2) as m:
        for name in cairn.MODULES:
            mod = getattr(m, name)
            assert isinstance(mod, cairn.Module)
            assert len(dir(mod)) > 0, name
        assert "create" in dir(m.ball) and "solve" in dir(m.model)
        assert "ball" in repr(m.ball)
        with pytest.raises(AttributeError, match="has no function 'crate'.*create"):
            m.ball.crate
        f = m.ball.count
        assert f.__qualname__ == "ball.count" and f() == 0


def test_values_both_ways():
    with cairn.Model(dim=2) as m:
        # numbers, strings, bools, None, lists, dicts, tuples of results
        assert m.lua("return 1, 2.5, 'x', true, nil") == (1, 2.5, "x", True, None)
        assert m.lua("return {1, 2, 3}") == [1, 2, 3]
        assert m.lua("return {a = 1, b = {2, 3}}") == {"a": 1, "b": [2, 3]}
        assert m.lua("return {}") == []
        echo = m.lua("return function(...) return ... end")
        assert isinstance(echo, cairn.LuaRef) and "function" in repr(echo)
        assert echo(np.float64(1.5), np.int32(7), np.array([1.0, 2.0]), (1, (2, 3))) == \
            (1.5, 7, [1.0, 2.0], [1, [2, 3]])
        assert echo({"k": [1, 2]}) == {"k": [1, 2]}
        assert echo(b"bytes") == "bytes"
        assert echo(2 ** 70) == float(2 ** 70)
        # keyword arguments become one table given last
        assert echo(1, a=2) == (1, {"a": 2})
        with pytest.raises(TypeError, match=r"argument 'x'\[0\] cannot be given.*object"):
            echo(x=[object()])
        with pytest.raises(TypeError, match="table key"):
            echo({1.5: 2})


def test_script_errors_carry_file_and_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # Lua shortens long paths in messages ("...")
    script = tmp_path / "bad.lua"
    script.write_text("model.new{dim = 2}\n\nball.create{rad = -1, pos = {0, 0}}\n")
    with cairn.Model() as m:
        with pytest.raises(cairn.Error) as e:
            m.run_lua("bad.lua")
        assert e.value.file == "bad.lua" and e.value.line == 3
        assert "rad" in e.value.message
        assert m.dim == 2  # the model the script made before failing is there
        with pytest.raises(cairn.Error, match="check the script's path"):
            m.run_lua(tmp_path / "missing.lua")


def test_errors_from_calls():
    with cairn.Model(dim=2) as m:
        with pytest.raises(cairn.Error, match="rad") as e:
            m.ball.create(rad=-1, pos=(0, 0))
        assert not isinstance(e.value, TypeError)
        # a wrong type: a TypeError that names the argument, from cairn's check or Python's
        with pytest.raises(TypeError, match="'rad' must be a number"):
            m.ball.create(rad="0.1", pos=(0, 0))
        with pytest.raises(TypeError, match="pos"):
            m.ball.create(rad=0.1, pos=5)
        with pytest.raises(cairn.ArgumentError, match="argument 'pos'"):
            m.ball.create(rad=0.1, pos={1, 2})
        with pytest.raises(TypeError, match="contact"):
            m.contact.force(12)
        with pytest.raises(TypeError, match=r"bad argument #1 to 'ball.fix' \(table expected"):
            m.ball.fix("velocity")
        with pytest.raises(cairn.Error, match="ball 9"):
            m.ball.pos(9)


def test_solve_cycle_time_step_save_restore(tmp_path):
    with cairn.Model(dim=2, quiet=True) as m:
        m.model.gravity((0, -9.81))
        m.contact.cmat_default(model="linear", kn=1e6, ks=5e5, fric=0.5, dp_nratio=0.2)
        m.wall.create(id=1, nodes=[(-1, 0), (1, 0)])
        m.ball.create(id=1, rad=0.05, pos=(0, 0.5), density=2600)
        m.model.timestep(auto=True)
        assert m.cycle(10) is None and m.step() == 10 and m.time() > 0
        m.save(tmp_path / "a.sav")
        r = m.solve(ratio=1e-4, time=10)
        assert r["reason"] == "ratio"
        y_end, step_end = m.ball.pos(1)[1], m.step()
        # the same fall continued from the save: bit for bit
        m.restore(tmp_path / "a.sav")
        assert m.step() == 10
        m.cycle(step_end - 10)
        assert m.ball.pos(1)[1] == y_end
        fn = m.contact.force(m.contact.find("ball-wall", 1, 1))[0]
        assert fn == pytest.approx(2600 * np.pi * 0.05 ** 2 * 9.81, rel=1e-3)


def test_plugins_load(tmp_path):
    with cairn.Model(dim=2, plugins="cm1", quiet=True) as m:
        m.contact.cmat_default(model="cm1", cm1_kn=1e5, cm1_ks=1e5)
        m.ball.create(id=1, rad=1, pos=(0, 0))
        m.ball.create(id=2, rad=1, pos=(1.9, 0))
        m.cycle(1)
        assert m.contacts.model.tolist() == ["cm1"]
        assert m.contacts["cm1_kn"].tolist() == [1e5]
    with cairn.Model(dim=2, quiet=True) as m:
        m.load("cm1")
        m.contact.cmat_default(model="cm1", cm1_kn=1e5, cm1_ks=1e5)
        with pytest.raises(cairn.Error, match="no_such_plugin"):
            m.load("no_such_plugin")


def test_lua_refs_are_handles():
    with cairn.Model(dim=2) as m:
        m.contact.cmat_default(model="linear", kn=1e6, ks=1e6)
        m.ball.create(id=1, rad=1, pos=(0, 0))
        m.ball.create(id=2, rad=1, pos=(1.9, 0))
        m.cycle(1)
        cps = m.contact.list()
        assert len(cps) == 1
        cp = cps[0]
        assert str(cp) == "contact ball-ball 1-2"
        assert cp == m.contact.find("ball-ball", 1, 2) and hash(cp) == hash(str(cp))
        assert m.contact.ends(cp) == ("ball-ball", 1, 2)
        assert m.contact.prop(cp, "kn") == 1e6
    with pytest.raises(cairn.StaleObjectError):
        m.contact.ends(cp)


def test_lua_code_errors():
    with cairn.Model(dim=2) as m:
        with pytest.raises(cairn.Error, match="syntax|expected|near"):
            m.lua("return +")
        with pytest.raises(cairn.Error, match="boom"):
            m.lua("error('boom')")


def test_three_disks_same_bits_as_lua(root, tmp_path, cli):
    """The 3-disk example driven from Python gives the Lua example's numbers bit for bit: in
    this process (run_lua) and in the cairn command (a save at the end, read back)."""
    example = os.path.join(root, "examples", "python", "three_disks.py")
    run = runpy.run_path(example)["run"]
    with cairn.Model(dim=2, quiet=True) as py, cairn.Model(quiet=True) as lua:
        run(py)
        lua.run_lua(os.path.join(root, "examples", "three_disks.lua"))
        a, b = cairn.post.snapshot(py), cairn.post.snapshot(lua)
    script = tmp_path / "three.lua"
    lua_src = open(os.path.join(root, "examples", "three_disks.lua")).read()
    script.write_text(lua_src + '\nmodel.save("three.sav")\n')
    r = run_cli(cli, "run", "--quiet", str(script), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    c = cairn.post.read_save(tmp_path / "three.sav")
    for other in (b, c):
        assert a.step == other.step == 1200
        for col in ("id", "pos", "vel", "spin", "force", "moment"):
            assert getattr(a.balls, col).tobytes() == getattr(other.balls, col).tobytes(), col
        for col in ("normal", "force", "gap"):
            assert getattr(a.contacts, col).tobytes() == getattr(other.contacts, col).tobytes()
        for name, v in a.contacts.fields.items():
            assert v.tobytes() == other.contacts.fields[name].tobytes(), name
    # and the printed table is the Lua example's
    out = __import__("subprocess").run([__import__("sys").executable, example],
                                       capture_output=True, text=True)
    lua_out = run_cli(cli, "run", os.path.join(root, "examples", "three_disks.lua"))
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[-4:] == lua_out.stdout.split("\n")[-4:]


def test_lua_and_python_share_the_model(tmp_path):
    script = tmp_path / "mk.lua"
    script.write_text(textwrap.dedent("""\
        model.new{dim = 3}
        for i = 1, 5 do ball.create{id = i, rad = 0.1, pos = {i, 0, 0}} end
        """))
    with cairn.Model() as m:
        m.run_lua(script)
        assert m.dim == 3 and len(m.balls) == 5
        assert m.balls.pos[:, 0].tolist() == [1, 2, 3, 4, 5]
        m.ball.create(id=6, rad=0.1, pos=(6, 0, 0))
        assert m.lua("return ball.count()") == 6
