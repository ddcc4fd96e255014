"""cairn render on the files write.lua wrote (run by ctest as vtk.render): pictures come out at
the size asked, the options change what is drawn (a view from the front is not the iso view,
walls off is not walls as outlines, a section is not the whole), a frame per snapshot with
--all, and every refusal is one line on stderr with exit status 2 and no picture. Skipped (77)
where VTK's Python modules or xvfb-run are missing.

Usage: render_check.py CAIRN OUTDIR"""
import os
import shutil
import struct
import subprocess
import sys

cairn, out = sys.argv[1], sys.argv[2]
if not shutil.which("xvfb-run") and not os.environ.get("DISPLAY"):
    print("skipped: xvfb-run not installed (Debian: xvfb)")
    sys.exit(77)
if subprocess.run(["/usr/bin/python3", "-c", "import vtkmodules.vtkRenderingOpenGL2"],
                  capture_output=True).returncode:
    print("skipped: VTK's Python modules not installed (Debian: python3-vtk9)")
    sys.exit(77)
failures = []


def render(*args):
    return subprocess.run([cairn, "render", *args], capture_output=True, text=True)


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">II", head[16:24])


def pixels(path):
    """The decoded pixels, to compare two pictures (zlib-compressed IDAT chunks joined)."""
    import zlib
    data, pos = open(path, "rb").read(), 8
    idat = b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + n]
        pos += 12 + n
    return zlib.decompress(idat)


def check(name, args, size=(1000, 800)):
    path = os.path.join(out, name)
    if os.path.exists(path):
        os.remove(path)
    r = render(args[0], path, *args[1:])
    if r.returncode != 0:
        failures.append("%s: exit %d: %s" % (name, r.returncode, r.stderr.strip()))
        return None
    got = png_size(path)
    if got != size:
        failures.append("%s: a %s picture, wanted %s" % (name, got, size))
        return None
    return pixels(path)


box = os.path.join(out, "box.pvd")
iso = check("iso.png", [box])
front = check("front.png", [box, "--view", "front"])
off = check("walls_off.png", [box, "--walls", "off"])
surface = check("walls_surface.png", [box, "--walls", "surface", "--color", "force"])
cut = check("section.png", [box, "--section", "y=0.015", "--keep", "above"])
small = check("small.png", [box, "--size", "320x240", "--color", "none", "--no-contacts"],
              size=(320, 240))
along = check("along.png", [box, "--view", "1,0.2,0.3"])
disks = check("disks.png", [os.path.join(out, "disks.pvd")])
for a, b, what in ((iso, front, "--view front"), (iso, off, "--walls off"),
                   (iso, cut, "--section"), (iso, along, "--view 1,0.2,0.3"),
                   (off, surface, "--walls surface")):
    if a is not None and b is not None and a == b:
        failures.append("%s drew the same picture as without it" % what)
# every snapshot of the series, as frames
for k in range(3):
    f = os.path.join(out, "frame_%04d.png" % k)
    if os.path.exists(f):
        os.remove(f)
r = render(box, os.path.join(out, "frame"), "--all", "--color", "force")
for k in range(3):
    if png_size(os.path.join(out, "frame_%04d.png" % k)) != (1000, 800):
        failures.append("--all: no frame %d (%s)" % (k, r.stderr.strip()))

# refusals: one line, exit status 2, no picture
bad = os.path.join(out, "bad.png")
for args, words in (
        ([box, bad, "--view", "sideways"], "unknown --view 'sideways'; use one of iso, front"),
        ([box, bad, "--view", "0,0,0"], "or a direction DX,DY,DZ (not 0,0,0)"),
        ([box, bad, "--walls", "dotted"], "unknown --walls 'dotted'; use one of outline"),
        ([box, bad, "--color", "heat"], "unknown --color 'heat'; use one of speed"),
        ([box, bad, "--section", "w=1"], "--section 'w=1' must be AXIS=VALUE, like y=0.01"),
        ([box, bad, "--section", "x=2", "--keep", "above"], "no ball to draw on this side"),
        ([box, bad, "--size", "10x10"], "--size '10x10' must be WxH in pixels"),
        ([box, os.path.join(out, "bad.jpg")], "must end in .png"),
        ([box, bad, "--mp4"], "--mp4 joins the frames of --all; give --all too"),
        ([os.path.join(out, "disks.pvd"), bad, "--view", "front"],
         "a 2D model is drawn from above"),
        ([os.path.join(out, "nosuch.pvd"), bad], "cannot read"),
):
    r = render(*args)
    lines = r.stderr.strip().splitlines()
    if r.returncode != 2 or len(lines) != 1 or words not in r.stderr or \
            not lines[0].startswith("cairn render: "):
        failures.append("%s: exit %d, %r (wanted exit 2 and one line with %r)"
                        % (" ".join(args[2:]) or args[0], r.returncode, r.stderr, words))
    if os.path.exists(bad):
        failures.append("%s: left a picture" % " ".join(args[2:]))
        os.remove(bad)
for f in failures:
    print("FAILED: " + f)
if failures:
    sys.exit(1)
print("cairn render: 8 pictures, 3 frames, 11 refusals")
