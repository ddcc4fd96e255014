#!/bin/sh
# Render the packing written by write.lua to a PNG with VTK under a virtual X server, and check
# that a PNG came out. Skipped (77) where VTK's Python module or xvfb-run is missing.
out="$1"
command -v xvfb-run >/dev/null || { echo "skipped: xvfb-run not installed (Debian: xvfb)"; exit 77; }
/usr/bin/python3 -c "import vtkmodules.vtkRenderingOpenGL2" 2>/dev/null ||
  { echo "skipped: VTK's Python module not installed (Debian: python3-vtk9)"; exit 77; }
rm -f "$out/box.png"
xvfb-run -a /usr/bin/python3 "$(dirname "$0")/../../examples/render_vtk.py" "$out/box.pvd" "$out/box.png" || exit 1
head -c 4 "$out/box.png" | od -c | grep -q "P   N   G" || { echo "FAILED: no PNG"; exit 1; }
# the whole series, numbered, coloured by the balls' force
rm -f "$out"/frame_*.png
xvfb-run -a /usr/bin/python3 "$(dirname "$0")/../../examples/render_vtk.py" "$out/box.pvd" \
  "$out/frame" --all --color force || exit 1
for k in 0000 0001 0002; do
  head -c 4 "$out/frame_$k.png" | od -c | grep -q "P   N   G" || { echo "FAILED: no frame $k"; exit 1; }
done
# a 2D snapshot, drawn from above
xvfb-run -a /usr/bin/python3 "$(dirname "$0")/../../examples/render_vtk.py" "$out/disks.pvd" \
  "$out/disks.png" || exit 1
head -c 4 "$out/disks.png" | od -c | grep -q "P   N   G" || { echo "FAILED: no 2D PNG"; exit 1; }
echo "rendered $out/box.png, 3 frames and $out/disks.png"
