"""The session: a cairn Lua state, Python values to and from Lua, calls, and Python functions
that Lua calls back (history functions, callbacks)."""

import ctypes
import numbers
import os
import threading
import traceback

from . import _lib
from ._lib import (LUA_MULTRET, LUA_REGISTRYINDEX, LUA_TBOOLEAN, LUA_TNIL, LUA_TNUMBER,
                   LUA_TSTRING, LUA_TTABLE, cairn_diag)
from .errors import ArgumentError, Error, InCallbackError, StaleObjectError, from_message

try:
    import numpy as _np
except ImportError:  # numpy is needed for views, not for driving a model
    _np = None

# Lua code that turns the C closure of a Python function into a Lua function that raises the
# Python exception's message as a Lua error (a C error cannot cross Python's frames).
_WRAP = b"""
local function check(ok, ...)
  if ok then return ... end
  error((...), 0)
end
return function(f) return function(...) return check(f(...)) end end
"""

_HERE = os.path.dirname(os.path.abspath(__file__))
_CLOSED = "this cairn model was closed; make a new cairn.Model"
# How much of a Python exception's message identifies it in cairn's message (which is cut at
# 1023 bytes): enough to tell it from another, short enough to survive the cut.
_KEY = 160


class LuaRef:
    """A Lua value Python cannot copy: a contact handle, a Lua function or a table with
    methods. It can be passed back to any cairn function; ``str()`` gives Lua's tostring; a
    function can be called."""

    __slots__ = ("_session", "_ref", "__weakref__")

    def __init__(self, session, ref):
        self._session = session
        self._ref = ref

    def _push(self, L, session):
        if self._session is not session:
            raise ArgumentError("this Lua object belongs to another cairn model; pass it only "
                                "to the model that gave it")
        session.lib.lua_rawgeti(L, LUA_REGISTRYINDEX, self._ref)

    def __str__(self):
        return self._session.call_global("tostring", (self,))

    def __repr__(self):
        return f"<cairn {self._session.call_global('type', (self,))} {self}>"

    def __eq__(self, other):
        if not isinstance(other, LuaRef) or other._session is not self._session:
            return NotImplemented
        return self._session.call_global("rawequal", (self, other)) or str(self) == str(other)

    def __hash__(self):
        return hash(str(self))

    def __call__(self, *args, **kwargs):
        return self._session.call_value(self, args, kwargs, "Lua function")

    def __del__(self):
        s = self._session
        if s._state is None or s.lib is None:
            return
        if s._lock.acquire(blocking=False):  # this thread, or no thread, is in the model
            try:
                if s._state is not None:
                    s.lib.luaL_unref(s.L, LUA_REGISTRYINDEX, self._ref)
            finally:
                s._lock.release()
        else:  # another thread is in the model: the next call frees the reference
            s._dead.append(self._ref)


class _Entered:
    """``with session.entered as state:`` holds the session's lock (re-entrant: a Python
    function that Lua calls may call the same model again from the same thread) and checks
    that the session is still open; every call into the library goes through it."""

    __slots__ = ("_s",)

    def __init__(self, session):
        self._s = session

    def __enter__(self):
        s = self._s
        s._lock.acquire()
        if s._state is None:
            s._lock.release()
            raise StaleObjectError(_CLOSED)
        s._depth += 1
        if s._dead and s._depth == 1:
            s._free_dead()
        return s._state

    def __exit__(self, *exc):
        s = self._s
        s._depth -= 1
        try:
            if s._depth == 0 and s._close_soon:
                s._close()
        finally:
            s._lock.release()


class Session:
    """One cairn Lua state with its model. Every cairn.Model owns one."""

    def __init__(self, quiet=False):
        self.lib = _lib.lib()
        d = cairn_diag()
        p = ctypes.c_void_p()
        self._lock = threading.RLock()  # held by every call into the library
        self._depth = 0  # calls into the library under way (nested: Python functions Lua calls)
        self._close_soon = False  # close when the outermost call returns (Model.__del__)
        self._dead = []  # registry references of LuaRefs freed while another thread held the lock
        self.entered = _Entered(self)
        if self.lib.cairn_session_open(1 if quiet else 0, ctypes.byref(p), ctypes.byref(d)):
            raise Error(d.msg.decode(errors="replace"))
        self._state = p
        self.L = self.lib.cairn_session_lua(p)
        self._funcs = {}  # key -> Python function that Lua may call
        self._next_key = 1
        self._pending = None  # (exception, message) raised by a Python function called from Lua
        self._tramp = _lib.LUA_CFUNCTION(self._trampoline)
        lib, L = self.lib, self.L
        if lib.luaL_loadstring(L, _WRAP) != 0:
            raise Error("cairn: internal error loading the callback wrapper")
        self._check(lib.cairn_session_pcall(p, 0, 1, ctypes.byref(d)), d)
        self._wrap_ref = lib.luaL_ref(L, LUA_REGISTRYINDEX)

    # ---- life ------------------------------------------------------------------------------
    def close(self):
        """Free the session; waits for another thread's call to return; refused from inside a
        call of this model (a Python function that Lua calls, in this thread)."""
        with self._lock:
            if self._state is None:
                return
            if self._depth:
                raise InCallbackError(
                    "cairn.Model.close cannot be called from the model's own history function "
                    "or callback (the call that runs it is still using the model); close the "
                    "model after that call (m.cycle, m.solve, ...) returns")
            self._close()

    def close_soon(self):
        """Close now if no call of this model is under way, else when the outermost call
        returns (for Model.__del__, which must neither raise nor wait)."""
        if not self._lock.acquire(blocking=False):
            self._close_soon = True
            return
        try:
            if self._depth:
                self._close_soon = True
            elif self._state is not None:
                self._close()
        finally:
            self._lock.release()

    def _close(self):
        state = self._state
        self._state = None
        self._close_soon = False
        self._dead.clear()
        self.lib.cairn_session_close(ctypes.byref(state))
        self._funcs.clear()

    def _free_dead(self):
        while self._dead:
            self.lib.luaL_unref(self.L, LUA_REGISTRYINDEX, self._dead.pop())

    @property
    def handle(self):
        """The session's pointer, for a call made with ``entered`` held."""
        if self._state is None:
            raise StaleObjectError(_CLOSED)
        return self._state

    def _check(self, status, d, what=None):
        if status:
            msg = d.msg.decode(errors="replace")
            if what:  # Lua cannot name a function called from C: "bad argument #1 to '?'"
                msg = msg.replace(" to '?'", f" to '{what}'")
            pend, self._pending = self._pending, None
            if pend is not None and pend[1] in msg:  # the exception of a Python function
                exc = pend[0]
                if hasattr(exc, "add_note"):
                    exc.add_note("cairn: " + msg)
                raise exc
            raise from_message(msg)

    # ---- Python to Lua -------------------------------------------------------------------
    def push(self, L, v, what, outer=()):
        """Push v; outer: the ids of the lists, tuples and dicts v sits in (a list that
        contains itself is refused, not followed for ever)."""
        lib = self.lib
        t = type(v)  # the common exact types first: a callback pushes a few every step
        if t is float:
            lib.lua_pushnumber(L, v)
            return
        if t is int and -(1 << 63) <= v < (1 << 63):
            lib.lua_pushinteger(L, v)
            return
        if t is str:
            b = self._utf8(v, what)
            lib.lua_pushlstring(L, b, len(b))
            return
        if lib.lua_checkstack(L, 4) == 0:
            raise Error(f"{what}: too deeply nested for Lua's stack")
        if v is None:
            lib.lua_pushnil(L)
        elif isinstance(v, bool) or (_np is not None and isinstance(v, _np.bool_)):
            lib.lua_pushboolean(L, 1 if v else 0)
        elif isinstance(v, numbers.Integral):
            iv = int(v)
            if -(1 << 63) <= iv < (1 << 63):
                lib.lua_pushinteger(L, iv)
            elif abs(iv) < (1 << 1024):
                lib.lua_pushnumber(L, float(iv))
            else:
                raise ArgumentError(f"{what}: an integer of {iv.bit_length()} bits is beyond a "
                                    "double's range (about 1.8e308); give a smaller number")
        elif isinstance(v, numbers.Real):
            lib.lua_pushnumber(L, self._real(v, what))
        elif isinstance(v, str):
            b = self._utf8(v, what)
            lib.lua_pushlstring(L, b, len(b))
        elif isinstance(v, (bytes, bytearray)):
            lib.lua_pushlstring(L, bytes(v), len(v))
        elif isinstance(v, LuaRef):
            v._push(L, self)
        elif isinstance(v, dict):
            outer = self._enclose(v, what, outer)
            lib.lua_createtable(L, 0, len(v))
            for k, x in v.items():
                if not isinstance(k, (str, numbers.Integral)) or isinstance(k, bool):
                    raise ArgumentError(f"{what}: a table key must be a string or an integer "
                                    f"(got {type(k).__name__} {k!r})")
                self.push(L, k, what)
                self.push(L, x, f"{what}[{k!r}]", outer)
                lib.lua_rawset(L, -3)
        elif isinstance(v, (list, tuple)) or (_np is not None and isinstance(v, _np.ndarray)) \
                or hasattr(v, "__array__"):
            outer = self._enclose(v, what, outer)
            seq = v if isinstance(v, (list, tuple)) else self._array_items(v, what)
            lib.lua_createtable(L, len(seq), 0)
            for i, x in enumerate(seq):
                self.push(L, x, f"{what}[{i}]", outer)
                lib.lua_rawseti(L, -2, i + 1)
        elif callable(v):
            self.push_function(L, v)
        else:
            raise ArgumentError(f"{what} cannot be given to cairn: a {type(v).__name__} "
                            "(give a number, a string, a bool, None, a sequence, a dict or "
                            "a function)")

    @staticmethod
    def _utf8(v, what):
        try:
            return v.encode()
        except UnicodeEncodeError as e:
            raise ArgumentError(f"{what}: the string {v!r} cannot be written as UTF-8 ({e.reason} "
                                f"at character {e.start}); remove that character") from None

    @staticmethod
    def _real(v, what):
        """float(v) for a Real that is not a float (a Fraction, a numpy scalar, a user type)."""
        try:
            return float(v)
        except (OverflowError, ValueError, TypeError) as e:
            raise ArgumentError(f"{what}: the number {type(v).__name__} {v!r} cannot be turned "
                                f"into a double ({e}); give a float") from None

    @staticmethod
    def _array_items(v, what):
        """The items of a numpy array or of an object with __array__, as Python values."""
        try:
            return v.tolist() if hasattr(v, "tolist") else _np.asarray(v).tolist()
        except Exception as e:  # noqa: BLE001 - whatever the object raises, it is not an array
            raise ArgumentError(f"{what}: a {type(v).__name__} that could not be read as an "
                                f"array ({type(e).__name__}: {e}); give a list or a numpy "
                                "array") from None

    @staticmethod
    def _enclose(v, what, outer):
        if id(v) in outer:
            raise ArgumentError(f"{what} contains itself, which Lua cannot be given; pass a "
                                "list, tuple or dict that does not hold itself")
        if len(outer) >= 64:
            raise ArgumentError(f"{what} is nested more than 64 deep, which cairn does not "
                                "take; flatten it")
        return outer + (id(v),)

    def push_function(self, L, fn):
        lib = self.lib
        key = self._next_key
        self._next_key += 1
        self._funcs[key] = fn
        lib.lua_rawgeti(L, LUA_REGISTRYINDEX, self._wrap_ref)
        lib.lua_pushinteger(L, key)
        lib.lua_pushcclosure(L, self._tramp, 1)
        d = cairn_diag()
        self._check(lib.cairn_session_pcall(self.handle, 1, 1, ctypes.byref(d)), d)

    def _trampoline(self, L):
        """Lua calls a Python function: returns true and its results, or false and the
        exception's message (the Lua wrapper raises it as a Lua error)."""
        lib = self.lib
        try:
            key = lib.lua_tointegerx(L, _lib.upvalue_index(1), None)
            fn = self._funcs[key]
            n = lib.lua_gettop(L)
            args = [self.to_py(L, i) for i in range(1, n + 1)]
            res = fn(*args)
            lib.lua_settop(L, 0)
            lib.lua_pushboolean(L, 1)
            if res is None:
                return 1
            res = res if isinstance(res, tuple) else (res,)
            if lib.lua_checkstack(L, len(res) + 8) == 0:
                raise Error("too many results for Lua's stack")
            for k, r in enumerate(res):
                self.push(L, r, f"result {k + 1} of {getattr(fn, '__name__', 'a function')}")
            return 1 + len(res)
        except BaseException as e:  # noqa: B902 - every exception goes back to Lua, then here
            where = ""
            tb = traceback.extract_tb(e.__traceback__)
            # the innermost frame outside this package: the line of the user's function
            mine = [f for f in tb if os.path.dirname(os.path.abspath(f.filename)) != _HERE]
            if tb:
                last = (mine or tb)[-1]
                where = f"{os.path.basename(last.filename)}:{last.lineno}: "
            b = f"{where}{type(e).__name__}: {e}".encode(errors="replace")
            # cairn's message may be cut: its start identifies the exception
            self._pending = (e, b[:_KEY].decode(errors="ignore"))
            lib.lua_settop(L, 0)
            lib.lua_pushboolean(L, 0)
            lib.lua_pushlstring(L, b, len(b))
            return 2

    # ---- Lua to Python -------------------------------------------------------------------
    def to_py(self, L, idx, depth=0):
        lib = self.lib
        idx = lib.lua_absindex(L, idx)
        t = lib.lua_type(L, idx)
        if t == LUA_TNIL or t < 0:
            return None
        if t == LUA_TBOOLEAN:
            return bool(lib.lua_toboolean(L, idx))
        if t == LUA_TNUMBER:
            if lib.lua_isinteger(L, idx):
                return int(lib.lua_tointegerx(L, idx, None))
            return lib.lua_tonumberx(L, idx, None)
        if t == LUA_TSTRING:
            n = ctypes.c_size_t()
            p = lib.lua_tolstring(L, idx, ctypes.byref(n))
            return ctypes.string_at(p, n.value).decode(errors="replace")
        if t == LUA_TTABLE and depth < 32:
            if lib.lua_getmetatable(L, idx):
                lib.lua_settop(L, -2)
            else:
                return self._table(L, idx, depth)
        lib.lua_pushvalue(L, idx)
        return LuaRef(self, lib.luaL_ref(L, LUA_REGISTRYINDEX))

    def _table(self, L, idx, depth):
        """A sequence 1..n becomes a list, anything else a dict (an empty table: a list)."""
        lib = self.lib
        n = lib.lua_rawlen(L, idx)
        keys = 0
        lib.lua_pushnil(L)
        items = {}
        while lib.lua_next(L, idx):
            k = self.to_py(L, -2, depth + 1)
            items[k] = self.to_py(L, -1, depth + 1)
            keys += 1
            lib.lua_settop(L, -2)
        if keys == n:
            return [items[i] for i in range(1, n + 1)]
        return items

    # ---- calls ---------------------------------------------------------------------------
    def _call_pushed(self, L, top, nargs, what):
        d = cairn_diag()
        self._pending = None
        self._check(self.lib.cairn_session_pcall(self.handle, nargs, LUA_MULTRET,
                                                 ctypes.byref(d)), d, what)
        n = self.lib.lua_gettop(L) - top
        res = tuple(self.to_py(L, top + 1 + i) for i in range(n))
        self.lib.lua_settop(L, top)
        return None if n == 0 else res[0] if n == 1 else res

    def _push_args(self, L, args, kwargs, what):
        if self.lib.lua_checkstack(L, len(args) + 8) == 0:
            raise Error(f"{what}: too many arguments for Lua's stack")
        for i, a in enumerate(args):
            self.push(L, a, f"{what}: argument {i + 1}")
        if kwargs:
            self.lib.lua_createtable(L, 0, len(kwargs))
            for k, v in kwargs.items():
                self.push(L, k, what)
                self.push(L, v, f"{what}: argument '{k}'")
                self.lib.lua_rawset(L, -3)
        return len(args) + (1 if kwargs else 0)

    def call(self, module, name, args=(), kwargs=None):
        """Call module.name(args..., {kwargs}) and return its results (None, one, or a
        tuple)."""
        with self.entered:
            lib, L = self.lib, self.L
            what = f"{module}.{name}"
            top = lib.lua_gettop(L)
            try:
                if not self._get_field(L, module, name):
                    raise AttributeError(f"cairn has no function {what}")
                nargs = self._push_args(L, args, kwargs, what)
                return self._call_pushed(L, top, nargs, what)
            finally:
                lib.lua_settop(L, top)

    def call_global(self, name, args=()):
        with self.entered:
            lib, L = self.lib, self.L
            top = lib.lua_gettop(L)
            try:
                lib.lua_getglobal(L, name.encode())
                nargs = self._push_args(L, args, None, name)
                return self._call_pushed(L, top, nargs, name)
            finally:
                lib.lua_settop(L, top)

    def call_value(self, ref, args, kwargs, what):
        with self.entered:
            lib, L = self.lib, self.L
            top = lib.lua_gettop(L)
            try:
                ref._push(L, self)
                nargs = self._push_args(L, args, kwargs, what)
                return self._call_pushed(L, top, nargs, what)
            finally:
                lib.lua_settop(L, top)

    def load(self, code):
        """A piece of Lua code compiled into a function (a LuaRef)."""
        with self.entered:
            lib, L = self.lib, self.L
            if lib.luaL_loadstring(L, code.encode()) != 0:
                msg = self.to_py(L, -1)
                lib.lua_settop(L, -2)
                raise Error(str(msg))
            return LuaRef(self, lib.luaL_ref(L, LUA_REGISTRYINDEX))

    def _get_field(self, L, module, name):
        """Push module.name if it is a function; leave nothing and return False if not."""
        lib = self.lib
        if lib.lua_getglobal(L, module.encode()) != LUA_TTABLE:
            lib.lua_settop(L, -2)
            return False
        b = name.encode()
        lib.lua_pushlstring(L, b, len(b))
        if lib.lua_rawget(L, -2) != _lib.LUA_TFUNCTION:
            lib.lua_settop(L, -3)
            return False
        lib.lua_copy(L, -1, -2)  # the function over the module table
        lib.lua_settop(L, -2)
        return True

    def functions(self, module):
        """The names of a module's functions."""
        with self.entered:
            lib, L = self.lib, self.L
            top = lib.lua_gettop(L)
            names = []
            if lib.lua_getglobal(L, module.encode()) == LUA_TTABLE:
                lib.lua_pushnil(L)
                while lib.lua_next(L, top + 1):
                    if lib.lua_type(L, -2) == LUA_TSTRING and \
                            lib.lua_type(L, -1) == _lib.LUA_TFUNCTION:
                        names.append(self.to_py(L, -2))
                    lib.lua_settop(L, -2)
            lib.lua_settop(L, top)
            return sorted(names)

    def run_file(self, path):
        with self.entered as state:
            d = cairn_diag()
            self._pending = None
            self._check(self.lib.cairn_session_run_file(state, os.fsencode(path),
                                                        ctypes.byref(d)), d)

    def dim(self):
        with self.entered as state:
            return self.lib.cairn_session_dim(state)

