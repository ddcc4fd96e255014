import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
# examples run as scripts in subprocesses import this checkout's package too
os.environ["PYTHONPATH"] = os.pathsep.join(
    p for p in (os.path.join(ROOT, "python"), os.environ.get("PYTHONPATH")) if p)
os.environ.setdefault("MPLBACKEND", "Agg")


@pytest.fixture
def root():
    return ROOT


@pytest.fixture
def cli():
    """The cairn command of this build."""
    path = os.environ.get("CAIRN_CLI") or os.path.join(ROOT, "build", "cairn")
    if not os.path.exists(path):
        pytest.skip("the cairn command is not built")
    return path


def run_cli(cli, *args, cwd=None):
    return subprocess.run([cli, *args], capture_output=True, text=True, cwd=cwd)
