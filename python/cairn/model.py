"""cairn.Model: a model driven from Python through cairn's script modules."""

import os

from ._lua import Session

# The script modules (docs/scripting.md), reachable as m.<module>.<function>.
MODULES = ("model", "ball", "wall", "contact", "history", "measure", "energy", "plot", "vtk",
           "specimen", "callback", "verify", "cell", "clump", "dfn", "lab")


class Module:
    """One of cairn's script modules: ``m.ball.create(rad=0.1, pos=(0, 1))`` calls
    ``ball.create{rad = 0.1, pos = {0, 1}}``. Positional arguments are passed as they are;
    keyword arguments become one table, given last. Lua's results come back as Python values:
    numbers, strings, lists (arrays), dicts (tables with names), and cairn.LuaRef for contact
    handles and Lua functions."""

    def __init__(self, session, name):
        self._session = session
        self._name = name

    def __getattr__(self, fn):
        if fn.startswith("__"):
            raise AttributeError(fn)
        names = self._session.functions(self._name)
        if fn not in names:
            raise AttributeError(f"cairn's {self._name} module has no function '{fn}'; it has: "
                                 + ", ".join(names))
        session, module = self._session, self._name

        def call(*args, **kwargs):
            return session.call(module, fn, args, kwargs)

        call.__name__ = fn
        call.__qualname__ = f"{module}.{fn}"
        call.__doc__ = f"cairn's {module}.{fn} (docs/scripting.md)"
        self.__dict__[fn] = call  # found once; later lookups are plain attributes
        return call

    def __dir__(self):
        return self._session.functions(self._name)

    def __repr__(self):
        return f"<cairn module {self._name}: {', '.join(self._session.functions(self._name))}>"


class Model:
    """A cairn model driven from Python.

    ``cairn.Model(dim=3)`` opens a session and calls ``model.new{dim = 3}``; without ``dim``
    nothing is created yet (``run_lua`` or ``model.new`` will). ``plugins`` are loaded first
    (paths or names, as ``model.load``). ``quiet=True`` silences cairn's notes and status line.
    Use it in a ``with`` block, or call ``close()``, to free the model at once."""

    def __init__(self, dim=None, *, plugins=(), quiet=False):
        if dim is not None and (isinstance(dim, bool) or dim not in (2, 3)):
            raise ValueError(f"cairn.Model: dim must be 2 or 3 (got {dim!r})")
        if isinstance(plugins, (str, bytes, os.PathLike)):
            plugins = (plugins,)
        self._session = Session(quiet)
        for name in MODULES:
            setattr(self, name, Module(self._session, name))
        from .views import Balls, Clumps, Contacts, Walls
        self.balls = Balls(self._session)
        self.walls = Walls(self._session)
        self.contacts = Contacts(self._session)
        self.clumps = Clumps(self._session)
        for p in plugins:
            self.load(p)
        if dim is not None:
            self.model.new(dim=dim)

    # ---- the most used calls, as methods -------------------------------------------------
    def solve(self, **criteria):
        """``model.solve{...}``: returns its result (a dict with ``reason``)."""
        return self.model.solve(**criteria)

    def cycle(self, steps):
        """``model.cycle(steps)``."""
        return self.model.cycle(steps)

    def save(self, path):
        """``model.save(path)``."""
        return self.model.save(os.fspath(path))

    def restore(self, path):
        """``model.restore(path)``."""
        return self.model.restore(os.fspath(path))

    def load(self, plugin):
        """``model.load(plugin)``: a plugin library by path or name."""
        return self.model.load(os.fspath(plugin))

    def time(self):
        return self.model.time()

    def step(self):
        return self.model.step()

    @property
    def dim(self):
        """2 or 3; 0 before a model exists."""
        return self._session.dim()

    def run_lua(self, path):
        """Run a Lua script in this model's session: it sees the current model and may make a
        new one (``model.new``); what it leaves is then inspected from Python. An error in the
        script raises cairn.Error with its file and line."""
        self._session.run_file(os.fspath(path))

    def lua(self, code):
        """Run a piece of Lua code in the session and return what it returns."""
        with self._session.entered:  # the function is called before another thread comes in
            return self._session.load(code)()

    def close(self):
        """Free the model and its session; the Model cannot be used afterwards (its methods,
        views and Lua objects raise cairn.StaleObjectError). Closing again does nothing. It
        waits for a call that another thread is making to return, and is refused
        (cairn.InCallbackError) in one of the model's own history functions or callbacks."""
        self._session.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        s = getattr(self, "_session", None)
        if s is not None:
            s.close_soon()

    def __repr__(self):
        if self._session._state is None:
            return "<cairn.Model (closed)>"
        d = self.dim
        if not d:
            return "<cairn.Model (no model yet)>"
        return f"<cairn.Model {d}D: {len(self.balls)} balls, {len(self.walls)} walls, " \
               f"{len(self.contacts)} contacts, step {self.step()}>"
