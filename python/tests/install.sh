#!/bin/sh
# `pip install ./python` into a fresh virtual environment (docs/python.md, Install): the package
# installed there, with its own copy of libcairn.so, must import and run a model from any folder,
# with no PYTHONPATH and no CAIRN_LIB. Skipped (77) where Debian's python3-venv is missing.
# Usage: install.sh PYTHON SOURCE_DIR BUILD_LIB WORK_DIR
set -eu
PY=$1 SRC=$2 LIB=$3 WORK=$4
unset PYTHONPATH CAIRN_LIB
rm -rf "$WORK" && mkdir -p "$WORK"
if ! "$PY" -m venv --system-site-packages "$WORK/venv" > "$WORK/venv.log" 2>&1; then
  cat "$WORK/venv.log"
  echo "skipped: python3 -m venv does not work here; install Debian's python3-venv (make deps)"
  exit 77
fi
# offline: setuptools from the environment, nothing from an index
CAIRN_LIB=$LIB "$WORK/venv/bin/pip" install --no-build-isolation --no-index "$SRC/python" \
  > "$WORK/pip.log" 2>&1 || { cat "$WORK/pip.log"; exit 1; }
cd "$WORK"
"$WORK/venv/bin/python" - "$WORK/venv" <<'PYEOF'
import os, sys
import cairn, cairn._lib
venv = sys.argv[1]
assert cairn.__file__.startswith(venv), f"imported {cairn.__file__}, not the installed package"
lib = cairn._lib.lib()._name
assert lib.startswith(venv), f"loaded {lib}, not the installed copy"
m = cairn.Model(dim=2, quiet=True)
m.contact.cmat_default(model="linear", kn=1e6, ks=1e6)
m.ball.create(id=1, rad=0.1, pos=(0, 0))
m.ball.create(id=2, rad=0.1, pos=(0.19, 0))
m.model.timestep(fix=1e-6)
m.cycle(10)
assert len(m.contacts) == 1 and cairn.library_version() == cairn.__version__
print("installed and working:", cairn.__file__)
PYEOF
