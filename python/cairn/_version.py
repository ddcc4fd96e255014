# The package's version; the library it loads must report the same (tests/test_model.py).
__version__ = "0.1.0"
