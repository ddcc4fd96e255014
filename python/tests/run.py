"""Run one test file with pytest, or skip (exit 77, ctest's SKIP_RETURN_CODE) where numpy or
pytest is missing: the README's setup installs both (Debian's python3-numpy, python3-pytest)."""
import sys

try:
    import numpy  # noqa: F401
    import pytest
except ImportError as e:
    print(f"skipped: {e}; install Debian's python3-numpy and python3-pytest (make deps)")
    sys.exit(77)

sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", *sys.argv[1:]]))
