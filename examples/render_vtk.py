"""Render a cairn VTK series (PREFIX.pvd) to PNG: balls as spheres (disks seen from above in 2D)
of their radius, coloured by a field with a colour bar, contacts as lines coloured by normal
force (force chains), walls faint, and the cracks (broken bonds) so far as dots, red where the
bond broke in tension and blue in shear.

    xvfb-run -a /usr/bin/python3 examples/render_vtk.py out/box.pvd box.png
    xvfb-run -a /usr/bin/python3 examples/render_vtk.py out/box.pvd frames/box --all --mp4
    ... --color speed | radius | id | force | spin | none (the balls' colour; default: speed;
        none: grey, without a colour bar)
    ... --no-contacts (leave out the force chains: with --color none, the cracks stand out)

The first form renders the last snapshot to box.png. With --all every snapshot is rendered, to
PREFIX_0000.png, PREFIX_0001.png, ...; with --mp4 as well, and ffmpeg installed, they are also
joined into PREFIX.mp4 (10 frames a second). A 2D run (every ball at z = 0) is shown in 2D,
from above, with a parallel projection; a 3D run from an oblique view. The colour range is that
of the whole series, so frames compare.

Needs Debian's python3-vtk9 (make deps installs it); VTK renders through X, hence xvfb-run."""
import os
import re
import shutil
import subprocess
import sys

from vtkmodules.vtkIOXML import vtkXMLPolyDataReader
from vtkmodules.vtkFiltersSources import vtkSphereSource
from vtkmodules.vtkFiltersCore import vtkGlyph3D, vtkTubeFilter
from vtkmodules.vtkRenderingCore import (vtkActor, vtkPolyDataMapper, vtkRenderer,
                                         vtkRenderWindow, vtkWindowToImageFilter,
                                         vtkColorTransferFunction)
from vtkmodules.vtkRenderingAnnotation import vtkScalarBarActor
from vtkmodules.vtkIOImage import vtkPNGWriter
from vtkmodules.vtkCommonCore import vtkDoubleArray
import vtkmodules.vtkRenderingFreeType  # noqa: F401  (text of the colour bar)
import vtkmodules.vtkRenderingOpenGL2  # noqa: F401  (registers the OpenGL back end)

FIELDS = ("speed", "radius", "id", "force", "spin", "none")
PARTS = ("balls", "walls", "contacts", "cracks")


def snapshots(pvd):
    """The series' snapshots in time order: a dict part -> file for each."""
    text = open(pvd).read()
    base = os.path.dirname(pvd)
    steps = {}
    for t, f in re.findall(r'timestep="([^"]+)"[^>]*file="([^"]+)"', text):
        for part in PARTS:
            if f"_{part}_" in f:
                steps.setdefault(float(t), {})[part] = os.path.join(base, f)
    if not steps:  # no timesteps given: one snapshot of whatever files are named
        snap = {}
        for f in re.findall(r'file="([^"]+)"', text):
            for part in PARTS:
                if f"_{part}_" in f:
                    snap[part] = os.path.join(base, f)
        return [snap]
    return [steps[t] for t in sorted(steps)]


def read(path):
    r = vtkXMLPolyDataReader()
    r.SetFileName(path)
    r.Update()
    return r.GetOutput()


def magnitude(data, name):
    """A new point array, the magnitude of the 3-vector array 'name' (or the scalar itself)."""
    arr = data.GetPointData().GetArray(name)
    out = vtkDoubleArray()
    out.SetName("colour")
    for i in range(arr.GetNumberOfTuples()):
        v = arr.GetTuple(i)
        out.InsertNextValue(sum(c * c for c in v) ** 0.5 if len(v) > 1 else v[0])
    return out


def colour_values(balls, field):
    if field == "none":
        return magnitude(balls, "radius")
    src = {"speed": "velocity"}.get(field, field)
    if balls.GetPointData().GetArray(src) is None:
        sys.exit("render_vtk.py: the balls have no field '%s'; use one of %s" % (field,
                                                                                ", ".join(FIELDS)))
    return magnitude(balls, src)


def render(snap, out_png, field, crange, is2d, show_contacts=True):
    ren = vtkRenderer()
    ren.SetBackground(1, 1, 1)

    balls = read(snap["balls"])
    values = colour_values(balls, field)
    balls.GetPointData().AddArray(values)
    balls.GetPointData().SetActiveScalars("radius")
    sphere = vtkSphereSource()
    sphere.SetRadius(1.0)
    sphere.SetThetaResolution(24 if is2d else 16)
    sphere.SetPhiResolution(12)
    glyph = vtkGlyph3D()
    glyph.SetInputData(balls)
    glyph.SetSourceConnection(sphere.GetOutputPort())
    glyph.SetScaleModeToScaleByScalar()
    glyph.SetScaleFactor(1.0)
    glyph.SetColorModeToColorByScalar()
    glyph.SetInputArrayToProcess(0, 0, 0, 0, "radius")  # scale by radius
    glyph.SetInputArrayToProcess(3, 0, 0, 0, "colour")  # colour by the field
    lut = vtkColorTransferFunction()
    lut.AddRGBPoint(crange[0], 0.23, 0.30, 0.75)
    lut.AddRGBPoint(0.5 * (crange[0] + crange[1]), 0.87, 0.87, 0.87)
    lut.AddRGBPoint(crange[1], 0.71, 0.02, 0.15)
    m = vtkPolyDataMapper()
    m.SetInputConnection(glyph.GetOutputPort())
    m.SetScalarModeToUsePointFieldData()
    m.SelectColorArray("colour")
    m.SetLookupTable(lut)
    m.SetScalarRange(*crange)
    a = vtkActor()
    a.SetMapper(m)
    a.GetProperty().SetOpacity(0.9 if is2d else 0.6)
    if field == "none":
        m.ScalarVisibilityOff()
        a.GetProperty().SetColor(0.75, 0.75, 0.75)
    ren.AddActor(a)

    bar = vtkScalarBarActor()
    bar.SetLookupTable(lut)
    bar.SetTitle(field)
    bar.SetNumberOfLabels(5)
    bar.SetWidth(0.08)
    bar.SetHeight(0.6)
    bar.GetTitleTextProperty().SetColor(0, 0, 0)
    bar.GetLabelTextProperty().SetColor(0, 0, 0)
    if field != "none":
        ren.AddActor2D(bar)

    if "contacts" in snap and show_contacts:
        contacts = read(snap["contacts"])
        if contacts.GetNumberOfCells():
            contacts.GetCellData().SetActiveScalars("force_normal")
            tube = vtkTubeFilter()
            tube.SetInputData(contacts)
            rmax = balls.GetPointData().GetArray("radius").GetRange()[1]
            tube.SetRadius(0.12 * rmax)
            tube.SetNumberOfSides(8)
            cm = vtkPolyDataMapper()
            cm.SetInputConnection(tube.GetOutputPort())
            cm.SetScalarModeToUseCellData()
            lo, hi = contacts.GetCellData().GetArray("force_normal").GetRange()
            cm.SetScalarRange(0, max(hi, 1e-300))
            ca = vtkActor()
            ca.SetMapper(cm)
            if is2d:  # above the disks, seen from above
                ca.SetPosition(0, 0, 1.5 * rmax)
            ren.AddActor(ca)

    if "cracks" in snap:
        cracks = read(snap["cracks"])
        if cracks.GetNumberOfPoints():
            rmax = balls.GetPointData().GetArray("radius").GetRange()[1]
            dot = vtkSphereSource()
            dot.SetRadius(0.5 * rmax)
            dot.SetThetaResolution(12)
            dot.SetPhiResolution(8)
            cracks.GetPointData().SetActiveScalars("tension")
            cg = vtkGlyph3D()
            cg.SetInputData(cracks)
            cg.SetSourceConnection(dot.GetOutputPort())
            cg.SetScaleModeToDataScalingOff()
            cg.SetColorModeToColorByScalar()
            mode = vtkColorTransferFunction()  # 1 tension: red; 0 shear: blue
            mode.AddRGBPoint(0, 0.1, 0.3, 0.95)
            mode.AddRGBPoint(1, 0.9, 0.05, 0.05)
            km = vtkPolyDataMapper()
            km.SetInputConnection(cg.GetOutputPort())
            km.SetLookupTable(mode)
            km.SetScalarRange(0, 1)
            ka = vtkActor()
            ka.SetMapper(km)
            if is2d:  # above the disks and the force chains
                ka.SetPosition(0, 0, 3 * rmax)
            ren.AddActor(ka)

    ren.ResetCamera()  # frame the balls; walls are drawn around them
    cam = ren.GetActiveCamera()
    if is2d:  # from above: x to the right, y up
        cam.ParallelProjectionOn()
        fx, fy, fz = cam.GetFocalPoint()
        cam.SetPosition(fx, fy, fz + 10 * max(1e-300, cam.GetDistance()))
        cam.SetViewUp(0, 1, 0)
    else:
        cam.Elevation(25)
        cam.Azimuth(30)
    ren.ResetCamera()

    if "walls" in snap:
        walls = read(snap["walls"])
        wm = vtkPolyDataMapper()
        wm.SetInputData(walls)
        wm.ScalarVisibilityOff()
        wa = vtkActor()
        wa.SetMapper(wm)
        wa.GetProperty().SetColor(0.4, 0.4, 0.5)
        wa.GetProperty().SetOpacity(0.6 if is2d else 0.15)
        wa.GetProperty().SetLineWidth(3)
        ren.AddActor(wa)

    win = vtkRenderWindow()
    win.SetOffScreenRendering(1)
    win.AddRenderer(ren)
    win.SetSize(800, 600)
    win.Render()
    grab = vtkWindowToImageFilter()
    grab.SetInput(win)
    grab.Update()
    w = vtkPNGWriter()
    w.SetFileName(out_png)
    w.SetInputConnection(grab.GetOutputPort())
    w.Write()


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    flags = argv[:]
    field = "speed"
    if "--color" in flags:
        i = flags.index("--color")
        if i + 1 >= len(flags):
            sys.exit("render_vtk.py: --color needs a field: " + ", ".join(FIELDS))
        field = flags[i + 1]
        args.remove(field) if field in args else None
    if field not in FIELDS:
        sys.exit("render_vtk.py: unknown field '%s'; use one of %s" % (field, ", ".join(FIELDS)))
    if len(args) != 2:
        sys.exit("usage: render_vtk.py PREFIX.pvd OUT.png [--color FIELD] [--no-contacts]\n"
                 "       render_vtk.py PREFIX.pvd OUTPREFIX --all [--mp4] [--color FIELD] "
                 "[--no-contacts]")
    pvd, out = args
    every = "--all" in flags
    snaps = snapshots(pvd)
    if not every:
        snaps = snaps[-1:]
    # the colour range of the whole series, so frames compare; 2D when every ball lies at z = 0
    lo, hi, is2d = float("inf"), float("-inf"), True
    for snap in snaps:
        balls = read(snap["balls"])
        v = colour_values(balls, field)
        r = v.GetRange()
        lo, hi = min(lo, r[0]), max(hi, r[1])
        zr = balls.GetPoints().GetBounds()[4:6] if balls.GetNumberOfPoints() else (0, 0)
        is2d = is2d and zr[0] == 0 and zr[1] == 0
    if not hi > lo:
        hi = lo + 1.0
    if not every:
        render(snaps[0], out, field, (lo, hi), is2d, "--no-contacts" not in flags)
        print(out)
        return
    d = os.path.dirname(out)
    if d:
        os.makedirs(d, exist_ok=True)
    for k, snap in enumerate(snaps):
        render(snap, "%s_%04d.png" % (out, k), field, (lo, hi), is2d, "--no-contacts" not in flags)
    print("%s_0000.png ... %s_%04d.png" % (out, out, len(snaps) - 1))
    if "--mp4" in flags:
        if not shutil.which("ffmpeg"):
            print("render_vtk.py: ffmpeg not installed (Debian: apt-get install ffmpeg); "
                  "no MP4 written", file=sys.stderr)
            return
        subprocess.run(["ffmpeg", "-y", "-loglevel", "error", "-framerate", "10", "-i",
                        out + "_%04d.png", "-pix_fmt", "yuv420p", "-vf",
                        "pad=ceil(iw/2)*2:ceil(ih/2)*2", out + ".mp4"], check=True)
        print(out + ".mp4")


if __name__ == "__main__":
    main(sys.argv[1:])
