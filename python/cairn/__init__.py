"""cairn from Python: drive a model through cairn's script modules and read its balls, walls
and contacts as numpy arrays (cairn.Model); read save files and histories without a live model
(cairn.post). See docs/python.md."""

from ._version import __version__
from .errors import ArgumentError, Error, InCallbackError, StaleObjectError
from ._lua import LuaRef
from .model import MODULES, Model, Module
from . import post  # noqa: E402 (cairn.post)


def library_version():
    """The version of the libcairn.so this package loaded (it must equal __version__)."""
    from . import _lib
    return _lib.lib().cairn_version().decode()


__all__ = ["__version__", "Model", "Module", "LuaRef", "Error", "ArgumentError",
           "InCallbackError", "StaleObjectError", "MODULES", "library_version", "post"]
