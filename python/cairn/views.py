"""numpy views of a model's storage: ``m.balls``, ``m.contacts``, ``m.walls``.

A View reads cairn's memory in place every time it is used: after a step it shows the new
values, and it never points at memory cairn has freed or moved, because it looks the memory up
again at each use. What it hands out is numpy's own: indexing a View, ``np.asarray(view)`` and
arithmetic give new arrays (copies of what was read), and numpy functions called on a View
compute on cairn's memory and copy any result that would still point into it. Rows are in
cairn's storage order, which changes when balls are created, deleted or re-sorted (cairn sorts
balls by cell at neighbour-list rebuilds): pair a View's rows with ``ids`` read at the same
moment, or look balls up by id.
"""

import ctypes
import functools

import numpy as np
from numpy.lib.mixins import NDArrayOperatorsMixin

from ._lib import cairn_array, cairn_diag
from .errors import Error

_DTYPES = {ord("d"): np.float64, ord("q"): np.int64, ord("I"): np.uint32,
           ord("H"): np.uint16, ord("B"): np.uint8}


def _locked(f):
    """Run a method with the session's lock held (``session.entered``): the memory it reads
    stays where it is until it returns, whatever another thread does with the model."""
    @functools.wraps(f)
    def method(self, *args, **kwargs):
        with self._session.entered:
            return f(self, *args, **kwargs)
    return method


def _live(session, name):
    """A read-only ndarray over cairn's memory for the column 'name', valid until the next
    call into cairn and while the caller holds ``session.entered`` (used inside this module
    only)."""
    lib = session.lib
    a = cairn_array()
    d = cairn_diag()
    if lib.cairn_session_array(session.handle, name.encode(), ctypes.byref(a), ctypes.byref(d)):
        raise Error(d.msg.decode(errors="replace"))
    dtype = np.dtype(_DTYPES[a.type])
    shape = (a.n,) if a.ncomp == 1 else (a.n, a.ncomp)
    if a.n == 0 or not a.data:
        return np.zeros(shape, dtype)
    size = (a.n - 1) * a.stride + a.ncomp * dtype.itemsize
    buf = (ctypes.c_char * size).from_address(a.data)
    strides = (a.stride,) if a.ncomp == 1 else (a.stride, dtype.itemsize)
    arr = np.ndarray(shape, dtype, buffer=buf, strides=strides)
    arr.flags.writeable = False
    return arr


class View(NDArrayOperatorsMixin):
    """A live, read-only column of the model: ``m.balls.pos``, ``m.contacts.force``..."""

    __slots__ = ("_session", "_name")

    def __init__(self, session, name):
        self._session = session
        self._name = name

    def _arr(self):
        return _live(self._session, self._name)

    # numpy protocol: conversions copy, so nothing handed out points into cairn's memory
    @_locked
    def __array__(self, dtype=None):
        return np.array(self._arr(), dtype=dtype, copy=True)

    @_locked
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if any(isinstance(o, View) for o in kwargs.get("out", ())):
            raise TypeError(f"{self._name} is read-only: write through the script functions "
                            "(for example m.ball.vel(id, v))")
        args = [x._arr() if isinstance(x, View) else x for x in inputs]
        res = getattr(ufunc, method)(*args, **kwargs)
        return _own(res, args)

    @_locked
    def __array_function__(self, func, types, args, kwargs):
        live = []

        def unview(x):
            if isinstance(x, View):
                a = x._arr()
                live.append(a)
                return a
            if isinstance(x, (list, tuple)):
                return type(x)(unview(y) for y in x)
            return x

        res = func(*unview(args), **{k: unview(v) for k, v in kwargs.items()})
        return _own(res, live)

    @_locked
    def __getitem__(self, key):
        return np.array(self._arr()[key], copy=True)

    def __getattr__(self, name):
        """ndarray's methods and attributes (mean, sum, max, T, ...), computed on the live
        memory; a result that would point into it is copied."""
        if name.startswith("_") or not hasattr(np.ndarray, name):
            raise AttributeError(f"cairn.View has no attribute '{name}'")
        with self._session.entered:
            arr = self._arr()
            attr = getattr(arr, name)
            if not callable(attr):
                return _own(attr, [arr])

        def method(*args, **kwargs):
            with self._session.entered:
                a = self._arr()
                return _own(getattr(a, name)(*args, **kwargs), [a])
        method.__name__ = name
        return method

    def __setitem__(self, key, value):
        raise TypeError(f"{self._name} is read-only: write through the script functions (for "
                        "example m.ball.vel(id, v))")

    @_locked
    def __len__(self):
        return self._arr().shape[0]

    def __iter__(self):
        return iter(self.copy())

    @property
    @_locked
    def shape(self):
        return self._arr().shape

    @property
    @_locked
    def dtype(self):
        return self._arr().dtype

    @property
    @_locked
    def ndim(self):
        return self._arr().ndim

    @property
    @_locked
    def size(self):
        return self._arr().size

    @property
    def name(self):
        return self._name

    @_locked
    def copy(self):
        """A copy of the whole column, as a plain ndarray."""
        return np.array(self._arr(), copy=True)

    @_locked
    def tolist(self):
        return self._arr().tolist()

    @_locked
    def __repr__(self):
        a = self._arr()
        return f"cairn.View('{self._name}', shape={a.shape}):\n{a!r}"


def _own(res, bases):
    """Copy a result (or the arrays in a tuple result) that shares memory with cairn's."""
    if isinstance(res, tuple):
        return tuple(_own(r, bases) for r in res)
    if isinstance(res, np.ndarray) and any(
            isinstance(b, np.ndarray) and np.may_share_memory(res, b) for b in bases):
        return res.copy()
    return res


class _Columns:
    _prefix = ""
    _names = ()

    def __init__(self, session):
        self._session = session

    def __getattr__(self, name):
        if name in self._names:
            return View(self._session, f"{self._prefix}.{name}")
        raise AttributeError(f"{self._prefix}s has no column '{name}'; the columns are: "
                             + ", ".join(self._names))

    def __dir__(self):
        return list(self._names) + [k for k in type(self).__dict__ if not k.startswith("_")]

    def __len__(self):
        return len(View(self._session, self._count))


class Balls(_Columns):
    """Columns of every ball (``m.balls``): ``id``, ``pos``, ``vel``, ``spin`` (2D: about z,
    one number per ball), ``force`` and ``moment`` (the resultants of the last force
    computation, applied loads included), ``rad``, ``density``, ``mass``, ``inertia``,
    ``damp``, ``fix`` (bits: 1 x, 2 y, 4 z, 8 spin) and ``group`` (an index into
    ``group_names()``)."""

    _prefix = "ball"
    _count = "ball.id"
    _names = ("id", "pos", "vel", "spin", "force", "moment", "rad", "density", "mass",
              "inertia", "damp", "fix", "group")

    @_locked
    def group_names(self):
        """Group names by index (index 0 is "", no group)."""
        lib, names, g = self._session.lib, [], 0
        while True:
            s = lib.cairn_session_group_name(self._session.handle, g)
            if s is None:
                return names
            names.append(s.decode())
            g += 1

    @_locked
    def groups(self):
        """Each ball's group name ("" for none), a numpy array of str."""
        names = np.array(self.group_names() or [""], dtype=object)
        return names[self.group.copy().astype(np.intp)].astype(str)


class Clumps(_Columns):
    """Columns of every clump (``m.clumps``, docs/clumps.md): ``id``, ``pos`` (centre of
    mass), ``vel``, ``spin`` (2D: about z), ``force`` and ``moment`` (summed over its pebbles at
    the last step, about the centre of mass), ``mass``, ``inertia`` (principal moments; 2D: the
    polar one) and ``quat`` (w, x, y, z: turns the principal frame into the global one)."""

    _prefix = "clump"
    _count = "clump.id"
    _names = ("id", "pos", "vel", "spin", "force", "moment", "mass", "inertia", "quat")


class Walls(_Columns):
    """Columns of every wall (``m.walls``): ``id``, ``kind`` (0 segment, 1 plane, 2 polygon,
    3 cylinder), ``vel``, ``force`` (of the balls on the wall), ``disp`` (its translation since
    it was made), ``point`` and ``normal`` (a plane's; a cylinder's axis point and axis),
    ``radius`` (a cylinder's)."""

    _prefix = "wall"
    _count = "wall.id"
    _names = ("id", "kind", "vel", "force", "disp", "point", "normal", "radius")


class Contacts(_Columns):
    """Columns of every contact (``m.contacts``), from the last force computation: ``kind``
    (0 ball-ball, 1 ball-wall), ``normal`` (unit, side 1 to side 2), ``gap`` (negative when
    overlapping), ``force`` (global, on side 2), ``moment``, ``active``; and, gathered as
    copies: ``ends()``, ``end1``, ``end2``, ``fn``, ``model``, ``field(name)`` (any property or
    state field by name, also as ``m.contacts[name]``)."""

    _prefix = "contact"
    _count = "contact.kind"
    _names = ("kind", "normal", "gap", "force", "moment", "active")

    @_locked
    def ends(self):
        """(id1, id2): ball-ball, the lower and the higher ball id; ball-wall, the ball id and
        the wall id (as ``contact.ends``)."""
        n = len(self)
        id1 = np.zeros(n, np.int64)
        id2 = np.zeros(n, np.int64)
        self._gather(id1, id2, None)
        return id1, id2

    @property
    def end1(self):
        return self.ends()[0]

    @property
    def end2(self):
        return self.ends()[1]

    @property
    @_locked
    def model(self):
        """Each contact's model name, a numpy array of str."""
        n = len(self)
        idx = np.zeros(n, np.int32)
        self._gather(None, None, idx)
        lib, h = self._session.lib, self._session.handle
        names = {}
        for i in set(idx.tolist()):
            names[i] = lib.cairn_session_model_name(h, i).decode()
        return np.array([names[i] for i in idx.tolist()], dtype=str) if n else np.zeros(0, str)

    @property
    @_locked
    def fn(self):
        """The normal force of each contact (force along the normal; positive in
        compression)."""
        return np.einsum("ij,ij->i", self.force.copy(), self.normal.copy())

    @_locked
    def field(self, name):
        """A property or state field of every contact, by name: shape (n,) for a number,
        (n, 3) for a vector; NaN where a contact's model has no such field."""
        n = len(self)
        out = np.zeros((n, 3))
        k = ctypes.c_int()
        d = cairn_diag()
        lib = self._session.lib
        if lib.cairn_session_contact_field(self._session.handle, name.encode(),
                                           out.ctypes.data_as(ctypes.c_void_p), ctypes.byref(k),
                                           ctypes.byref(d)):
            raise Error(d.msg.decode(errors="replace"))
        return out[:, 0].copy() if k.value == 1 else out

    def __getitem__(self, name):
        return self.field(name)

    def _gather(self, id1, id2, model):
        def ptr(a):
            return None if a is None else a.ctypes.data_as(ctypes.c_void_p)

        d = cairn_diag()
        if self._session.lib.cairn_session_contact_ends(self._session.handle, ptr(id1),
                                                        ptr(id2), ptr(model), ctypes.byref(d)):
            raise Error(d.msg.decode(errors="replace"))
