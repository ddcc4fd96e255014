#!/bin/sh
# Render the packing written by write.lua to PNGs with VTK under one virtual X server, and check
# that PNGs came out: the last snapshot, the whole series coloured by force, and a 2D snapshot.
# Skipped (77) where VTK's Python module or xvfb-run is missing.
out="$1"
here="$(cd "$(dirname "$0")" && pwd)"
command -v xvfb-run >/dev/null || { echo "skipped: xvfb-run not installed (Debian: xvfb)"; exit 77; }
/usr/bin/python3 -c "import vtkmodules.vtkRenderingOpenGL2" 2>/dev/null ||
  { echo "skipped: VTK's Python module not installed (Debian: python3-vtk9)"; exit 77; }
rm -f "$out/box.png" "$out"/frame_*.png "$out/disks.png"
render="/usr/bin/python3 $here/../../examples/render_vtk.py"
xvfb-run -a -s "-screen 0 1280x1024x24 -noreset" sh -c "$render '$out/box.pvd' '$out/box.png' &&
  $render '$out/box.pvd' '$out/frame' --all --color force &&
  $render '$out/disks.pvd' '$out/disks.png'" || exit 1
for f in box.png frame_0000.png frame_0001.png frame_0002.png disks.png; do
  head -c 4 "$out/$f" | od -c | grep -q "P   N   G" || { echo "FAILED: no PNG $f"; exit 1; }
done
echo "rendered $out/box.png, 3 frames and $out/disks.png"
