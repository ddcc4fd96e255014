"""The one step pyproject.toml cannot say: put a copy of the built library into the package.

The library is the file named by CAIRN_LIB, else the checkout's build/libcairn.so (made by
`make build`). Without it the install stops with a message saying so, instead of installing a
package that cannot load."""
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        lib = os.environ.get("CAIRN_LIB") or os.path.join(HERE, "..", "build", "libcairn.so")
        lib = os.path.normpath(lib)
        if not os.path.isfile(lib):
            raise SystemExit(f"cairn: {lib} does not exist; run 'make build' in the cairn checkout "
                             "first (or set CAIRN_LIB to a built libcairn.so), then install again")
        target = os.path.join(self.build_lib, "cairn", "libcairn.so")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(lib, target)


setup(cmdclass={"build_py": BuildWithLibrary})
