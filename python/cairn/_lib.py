"""Loading libcairn.so and declaring the C functions the package calls through ctypes.

The library is looked for in this order: the path in the environment variable CAIRN_LIB; the
copy `pip install` put beside this file (python/setup.py); the build folder of the checkout this
package sits in (python/../build/libcairn.so); the system's library path. The Lua functions come from liblua5.4, which libcairn.so links: looking them up
through libcairn's handle finds the same copy of Lua that cairn itself uses.
"""

import ctypes
import ctypes.util
import os

_HERE = os.path.dirname(os.path.abspath(__file__))


class cairn_diag(ctypes.Structure):
    _fields_ = [("msg", ctypes.c_char * 1024)]


class cairn_array(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("n", ctypes.c_int64),
        ("ncomp", ctypes.c_int32),
        ("type", ctypes.c_int32),
        ("stride", ctypes.c_int64),
    ]


# lua_CFunction: int (*)(lua_State *)
LUA_CFUNCTION = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)

# Lua 5.4 constants (lua.h, luaconf.h)
LUA_REGISTRYINDEX = -1000000 - 1000
LUA_MULTRET = -1
LUA_TNIL, LUA_TBOOLEAN, LUA_TLIGHTUSERDATA, LUA_TNUMBER, LUA_TSTRING = 0, 1, 2, 3, 4
LUA_TTABLE, LUA_TFUNCTION, LUA_TUSERDATA, LUA_TTHREAD = 5, 6, 7, 8


def upvalue_index(i):
    return LUA_REGISTRYINDEX - i


def _candidates():
    env = os.environ.get("CAIRN_LIB")
    if env:
        yield env
    yield os.path.join(_HERE, "libcairn.so")
    yield os.path.normpath(os.path.join(_HERE, "..", "..", "build", "libcairn.so"))
    found = ctypes.util.find_library("cairn")
    if found:
        yield found


_lib = None

# OpenMP threads that wait for work sleep instead of spinning unless the user chose otherwise, as
# the cairn command does (docs/scripting.md, model.threads): libgomp reads this once, as it is
# loaded with libcairn.so, so it is set before the library is loaded.
if "OMP_WAIT_POLICY" not in os.environ and "GOMP_SPINCOUNT" not in os.environ:
    os.environ["OMP_WAIT_POLICY"] = "passive"


def lib():
    """The loaded library, with its functions declared (loaded on first use)."""
    global _lib
    if _lib is not None:
        return _lib
    tried = []
    for path in _candidates():
        if os.path.sep in path and not os.path.exists(path):
            tried.append(path)
            continue
        try:
            handle = ctypes.CDLL(path)
        except OSError as e:
            tried.append(f"{path} ({e})")
            continue
        _declare(handle)
        _lib = handle
        return _lib
    raise ImportError(
        "cairn: libcairn.so was not found (tried: " + ", ".join(tried or ["the library path"]) +
        "); build it with 'make build' in the cairn checkout, or set CAIRN_LIB to its path")


def _fn(h, name, restype, *argtypes):
    f = getattr(h, name)
    f.restype = restype
    f.argtypes = list(argtypes)


def _declare(h):
    P, I, D, S = ctypes.c_void_p, ctypes.c_int, ctypes.c_double, ctypes.c_char_p
    I64, SZ = ctypes.c_int64, ctypes.c_size_t
    diag = ctypes.POINTER(cairn_diag)
    # cairn
    _fn(h, "cairn_version", S)
    _fn(h, "cairn_session_open", I, I, ctypes.POINTER(P), diag)
    _fn(h, "cairn_session_close", None, ctypes.POINTER(P))
    _fn(h, "cairn_session_lua", P, P)
    _fn(h, "cairn_session_pcall", I, P, I, I, diag)
    _fn(h, "cairn_session_run_file", I, P, S, diag)
    _fn(h, "cairn_session_dim", I, P)
    _fn(h, "cairn_session_array", I, P, S, ctypes.POINTER(cairn_array), diag)
    _fn(h, "cairn_session_contact_ends", I, P, P, P, P, diag)
    _fn(h, "cairn_session_contact_field", I, P, S, P, ctypes.POINTER(I), diag)
    _fn(h, "cairn_session_model_name", S, P, I)
    _fn(h, "cairn_session_group_name", S, P, I)
    # Lua (liblua5.4, through libcairn's dependencies)
    _fn(h, "lua_gettop", I, P)
    _fn(h, "lua_settop", None, P, I)
    _fn(h, "lua_absindex", I, P, I)
    _fn(h, "lua_checkstack", I, P, I)
    _fn(h, "lua_pushvalue", None, P, I)
    _fn(h, "lua_copy", None, P, I, I)
    _fn(h, "lua_type", I, P, I)
    _fn(h, "lua_isinteger", I, P, I)
    _fn(h, "lua_tonumberx", D, P, I, P)
    _fn(h, "lua_tointegerx", I64, P, I, P)
    _fn(h, "lua_toboolean", I, P, I)
    _fn(h, "lua_tolstring", P, P, I, ctypes.POINTER(SZ))
    _fn(h, "lua_rawlen", ctypes.c_uint64, P, I)
    _fn(h, "lua_pushnil", None, P)
    _fn(h, "lua_pushnumber", None, P, D)
    _fn(h, "lua_pushinteger", None, P, I64)
    _fn(h, "lua_pushlstring", P, P, ctypes.c_char_p, SZ)
    _fn(h, "lua_pushboolean", None, P, I)
    _fn(h, "lua_pushcclosure", None, P, LUA_CFUNCTION, I)
    _fn(h, "lua_createtable", None, P, I, I)
    _fn(h, "lua_rawget", I, P, I)
    _fn(h, "lua_rawgeti", I, P, I, I64)
    _fn(h, "lua_rawset", None, P, I)
    _fn(h, "lua_rawseti", None, P, I, I64)
    _fn(h, "lua_getglobal", I, P, S)
    _fn(h, "lua_next", I, P, I)
    _fn(h, "lua_getmetatable", I, P, I)
    _fn(h, "luaL_ref", I, P, I)
    _fn(h, "luaL_unref", None, P, I, I)
    _fn(h, "luaL_loadstring", I, P, S)
