"""cairn render: pictures of a VTK series that cairn wrote (vtk.every, vtk.write), for a paper or
a film. Balls are drawn as spheres of their radius (disks seen from above in 2D), coloured by a
field with a colour bar and its unit; contacts as force chains, lines as wide as their normal
force; walls as outlines cut to the specimen's box (or surfaces, or not at all); the cracks so
far as dots, red where the bond broke in tension and blue in shear, with a legend.

    cairn render out/box.pvd box.png                      # the last snapshot
    cairn render out/box.pvd frames/box --all [--mp4]     # every snapshot (and a film)
    cairn render out/box.pvd box.png --view front --walls off --section y=0.01

Options (docs/scripting.md, "Pictures: cairn render"):
    --color speed | radius | id | group | force | spin | none   the balls' colour (default speed)
    --unit TEXT          the colour bar's unit (default: the field's SI unit)
    --view iso | front | back | left | right | top | bottom | DX,DY,DZ
                         3D: where the camera stands, seen from the specimen's centre (default
                         iso; z is up); 2D is drawn from above
    --walls outline | surface | off                          (default outline)
    --no-contacts        no force chains
    --section AXIS=VALUE keep the balls whose centre has AXIS (x, y or z) at most VALUE (with
                         --keep above: at least VALUE): a cut that shows the inside
    --size WxH           the picture's size in pixels (default 1000x800)

`cairn render` runs this file with Debian's /usr/bin/python3 (python3-vtk9) under xvfb-run when
no display is set; it can also be run by hand: xvfb-run -a /usr/bin/python3 render.py ARGS."""
import argparse
import os
import re
import shutil
import subprocess
import sys

FIELDS = {  # field: (the balls' array, its SI unit)
    "speed": ("velocity", "m/s"), "radius": ("radius", "m"), "id": ("id", ""),
    "group": ("group", ""), "force": ("force", "N"), "spin": ("spin", "rad/s"),
    "none": (None, ""),
}
VIEWS = {  # name: the camera's direction from the centre
    "iso": (1.0, -1.6, 0.9), "front": (0, -1, 0), "back": (0, 1, 0), "left": (-1, 0, 0),
    "right": (1, 0, 0), "top": (0, 0, 1), "bottom": (0, 0, -1),
}
WALLS = ("outline", "surface", "off")
PARTS = ("balls", "walls", "contacts", "cracks")
PROG = "cairn render"


def fail(msg):
    """One sentence on what is wrong and what to do, and exit status 2."""
    print("%s: %s" % (PROG, msg), file=sys.stderr)
    sys.exit(2)


def parse(argv):
    p = argparse.ArgumentParser(prog=PROG, add_help=True,
                                description="Pictures of a VTK series that cairn wrote.")
    p.add_argument("series", help="the series' .pvd file (vtk.every) or a snapshot's")
    p.add_argument("out", help="the picture (.png); with --all, a prefix for the frames")
    p.add_argument("--color", default="speed")
    p.add_argument("--unit")
    p.add_argument("--view")
    p.add_argument("--walls", default="outline")
    p.add_argument("--no-contacts", action="store_true")
    p.add_argument("--section")
    p.add_argument("--keep", default="below")
    p.add_argument("--size", default="1000x800")
    p.add_argument("--all", action="store_true")
    p.add_argument("--mp4", action="store_true")
    p.add_argument("--quiet", action="store_true", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.color not in FIELDS:
        fail("unknown --color '%s'; use one of %s" % (a.color, ", ".join(FIELDS)))
    if a.walls not in WALLS:
        fail("unknown --walls '%s'; use one of %s" % (a.walls, ", ".join(WALLS)))
    a.direction = None
    if a.view is not None:
        if a.view in VIEWS:
            a.direction = VIEWS[a.view]
        else:
            try:
                d = tuple(float(x) for x in a.view.split(","))
            except ValueError:
                d = ()
            if len(d) != 3 or not any(d):
                fail("unknown --view '%s'; use one of %s, or a direction DX,DY,DZ (not 0,0,0)"
                     % (a.view, ", ".join(VIEWS)))
            a.direction = d
    a.cut = None
    if a.section is not None:
        m = re.fullmatch(r"([xyz])=(.+)", a.section)
        try:
            a.cut = ("xyz".index(m.group(1)), float(m.group(2))) if m else None
        except ValueError:
            a.cut = None
        if a.cut is None:
            fail("--section '%s' must be AXIS=VALUE, like y=0.01" % a.section)
    if a.keep not in ("below", "above"):
        fail("unknown --keep '%s'; use below or above" % a.keep)
    if a.cut is not None and a.keep == "above":  # kept: -coordinate <= -value
        a.cut = (a.cut[0], a.cut[1], -1.0)
    elif a.cut is not None:
        a.cut = (a.cut[0], a.cut[1], 1.0)
    m = re.fullmatch(r"(\d+)x(\d+)", a.size)
    if not m or not (16 <= int(m.group(1)) <= 8192 and 16 <= int(m.group(2)) <= 8192):
        fail("--size '%s' must be WxH in pixels, like 1000x800 (16 to 8192 each)" % a.size)
    a.wh = (int(m.group(1)), int(m.group(2)))
    if not a.all and not a.out.endswith(".png"):
        fail("the picture '%s' must end in .png (or give --all and a prefix for the frames)"
             % a.out)
    if a.mp4 and not a.all:
        fail("--mp4 joins the frames of --all; give --all too")
    return a


def snapshots(pvd):
    """The series' snapshots in time order: a dict part -> file for each."""
    try:
        text = open(pvd).read()
    except OSError as e:
        fail("cannot read '%s' (%s); give the .pvd file that vtk.every or vtk.write made"
             % (pvd, e.strerror))
    base = os.path.dirname(pvd)
    steps = {}
    for t, f in re.findall(r'timestep="([^"]+)"[^>]*file="([^"]+)"', text):
        for part in PARTS:
            if "_%s_" % part in f:
                steps.setdefault(float(t), {})[part] = os.path.join(base, f)
    if not steps:  # no timesteps given: one snapshot of whatever files are named
        snap = {}
        for f in re.findall(r'file="([^"]+)"', text):
            for part in PARTS:
                if "_%s" % part in f:
                    snap[part] = os.path.join(base, f)
        if "balls" not in snap:
            fail("'%s' names no balls file; give the .pvd file that vtk.every or vtk.write made"
                 % pvd)
        return [snap]
    return [steps[t] for t in sorted(steps)]


def load_vtk():
    """VTK's modules (Debian's python3-vtk9), or a message saying how to install them."""
    try:
        import vtkmodules.vtkRenderingOpenGL2  # noqa: F401  (registers the OpenGL back end)
        import vtkmodules.vtkRenderingFreeType  # noqa: F401  (text)
    except ImportError:
        fail("VTK's Python modules are missing; install Debian's python3-vtk9 (make deps does)")
    global vtk
    import vtkmodules.all as vtk


def read(path):
    # (a .pvtp: a divided MPI run's snapshot, one piece per rank, read as one)
    r = vtk.vtkXMLPPolyDataReader() if path.endswith(".pvtp") else vtk.vtkXMLPolyDataReader()
    r.SetFileName(path)
    r.Update()
    return r.GetOutput()


def values(data, name):
    """A point array of data: the magnitude of array 'name' (3-vector) or the scalar itself."""
    arr = data.GetPointData().GetArray(name)
    out = vtk.vtkDoubleArray()
    out.SetName("colour")
    for i in range(arr.GetNumberOfTuples() if arr is not None else 0):  # (none: a cut of all)
        v = arr.GetTuple(i)
        out.InsertNextValue(sum(c * c for c in v) ** 0.5 if len(v) > 1 else v[0])
    return out


def balls_of(path, field, cut):
    """The balls of a snapshot with their colour array, less those beyond the section."""
    balls = read(path)
    src = FIELDS[field][0] or "radius"
    if balls.GetPointData().GetArray(src) is None:
        fail("the balls of '%s' have no array '%s' for --color %s; use another field"
             % (path, src, field))
    if cut is not None:
        axis, value, sign = cut
        keep = vtk.vtkIdTypeArray()
        for i in range(balls.GetNumberOfPoints()):
            if sign * balls.GetPoint(i)[axis] <= sign * value:
                keep.InsertNextValue(i)
        sel = vtk.vtkSelectionNode()
        sel.SetFieldType(vtk.vtkSelectionNode.POINT)
        sel.SetContentType(vtk.vtkSelectionNode.INDICES)
        sel.SetSelectionList(keep)
        s = vtk.vtkSelection()
        s.AddNode(sel)
        ex = vtk.vtkExtractSelection()
        ex.SetInputData(0, balls)
        ex.SetInputData(1, s)
        geo = vtk.vtkGeometryFilter()
        geo.SetInputConnection(ex.GetOutputPort())
        geo.Update()
        balls = geo.GetOutput()
    balls.GetPointData().AddArray(values(balls, src))
    return balls


def box_of(balls):
    """The balls' box (their centres' bounds grown by the largest radius)."""
    b = list(balls.GetBounds())
    r = balls.GetPointData().GetArray("radius").GetRange()[1] if balls.GetNumberOfPoints() else 0
    for k in range(3):
        b[2 * k] -= r
        b[2 * k + 1] += r
    return b


def grown(box, by=0.1):
    """The box grown by 'by' of its largest side on every side that has a size (2D: not across
    z): the camera frames a tenth more, walls are cut at a fiftieth more (so a plane at a face of
    the specimen is drawn as that face's outline)."""
    g = by * max(box[2 * k + 1] - box[2 * k] for k in range(3))
    out = []
    for k in range(3):
        flat = box[2 * k + 1] - box[2 * k] <= 0
        out += [box[2 * k] - (0 if flat else g), box[2 * k + 1] + (0 if flat else g)]
    return out


def diverging(lo, hi):
    lut = vtk.vtkColorTransferFunction()
    lut.AddRGBPoint(lo, 0.23, 0.30, 0.75)
    lut.AddRGBPoint(0.5 * (lo + hi), 0.87, 0.87, 0.87)
    lut.AddRGBPoint(hi, 0.71, 0.02, 0.15)
    return lut


def text(ren, s, x, y, size=16):
    t = vtk.vtkTextActor()
    t.SetInput(s)
    t.GetTextProperty().SetColor(0, 0, 0)
    t.GetTextProperty().SetFontSize(size)
    t.SetPosition(x, y)
    ren.AddActor2D(t)


def spheres(points, radius, theta, phi, active):
    """A sphere of the given radius at each point (glyphs), coloured by its array 'active'."""
    sphere = vtk.vtkSphereSource()
    sphere.SetRadius(radius)
    sphere.SetThetaResolution(theta)
    sphere.SetPhiResolution(phi)
    points.GetPointData().SetActiveScalars(active)
    glyph = vtk.vtkGlyph3D()
    glyph.SetInputData(points)
    glyph.SetSourceConnection(sphere.GetOutputPort())
    glyph.SetColorModeToColorByScalar()
    return glyph


def add_balls(ren, balls, a, crange, is2d):
    glyph = spheres(balls, 1.0, 24 if is2d else 16, 12, "radius")
    glyph.SetScaleModeToScaleByScalar()
    glyph.SetScaleFactor(1.0)
    glyph.SetInputArrayToProcess(0, 0, 0, 0, "radius")  # scale by radius
    glyph.SetInputArrayToProcess(3, 0, 0, 0, "colour")  # colour by the field
    lut = diverging(*crange)
    m = vtk.vtkPolyDataMapper()
    m.SetInputConnection(glyph.GetOutputPort())
    m.SetScalarModeToUsePointFieldData()
    m.SelectColorArray("colour")
    m.SetLookupTable(lut)
    m.SetScalarRange(*crange)
    actor = vtk.vtkActor()
    actor.SetMapper(m)
    # 2D: opaque disks under the chains; 3D: a little see-through, so chains inside show
    actor.GetProperty().SetOpacity(1.0 if is2d else 0.55)
    if a.color == "none":
        m.ScalarVisibilityOff()
        actor.GetProperty().SetColor(0.78, 0.78, 0.78)
    ren.AddActor(actor)
    if a.color != "none":
        unit = a.unit if a.unit is not None else FIELDS[a.color][1]
        bar = vtk.vtkScalarBarActor()
        bar.SetLookupTable(lut)
        bar.SetTitle("%s [%s]" % (a.color, unit) if unit else a.color)
        bar.SetNumberOfLabels(5)
        bar.SetWidth(0.09)
        bar.SetHeight(0.55)
        bar.SetPosition(0.89, 0.3)
        bar.UnconstrainedFontSizeOn()
        bar.GetTitleTextProperty().SetColor(0, 0, 0)
        bar.GetTitleTextProperty().SetFontSize(16)
        bar.GetLabelTextProperty().SetColor(0, 0, 0)
        bar.GetLabelTextProperty().SetFontSize(14)
        ren.AddActor2D(bar)


def lines_actor(source, colour, width):
    """An actor drawing a filter's output in one colour, its lines 'width' pixels wide."""
    m = vtk.vtkPolyDataMapper()
    m.SetInputConnection(source.GetOutputPort())
    m.ScalarVisibilityOff()
    actor = vtk.vtkActor()
    actor.SetMapper(m)
    actor.GetProperty().SetColor(*colour)
    actor.GetProperty().SetLineWidth(width)
    return actor


def add_chains(ren, path, rmax, is2d, cut):
    """Force chains: each contact a line from centre to centre, its width from 1 to 8 pixels in
    proportion to its normal force (compression), in five classes; none for tension or zero."""
    contacts = read(path)
    n = contacts.GetNumberOfCells()
    fn = contacts.GetCellData().GetArray("force_normal")
    if not n or fn is None:
        return None
    fmax = fn.GetRange()[1]
    if not fmax > 0:
        return None
    if cut is not None:  # the contacts of the kept half only
        axis, value, sign = cut
        plane = vtk.vtkPlane()
        origin, normal = [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]
        origin[axis], normal[axis] = value, sign
        plane.SetOrigin(origin)
        plane.SetNormal(normal)
        ext = vtk.vtkExtractPolyDataGeometry()
        ext.SetInputData(contacts)
        ext.SetImplicitFunction(plane)
        ext.ExtractInsideOn()
        ext.Update()
        contacts = ext.GetOutput()
    for k in range(5):
        lo, hi = fmax * k / 5.0, fmax * (k + 1) / 5.0
        th = vtk.vtkThreshold()
        th.SetInputData(contacts)
        th.SetInputArrayToProcess(0, 0, 0, vtk.vtkDataObject.FIELD_ASSOCIATION_CELLS,
                                  "force_normal")
        th.SetLowerThreshold(lo if k else 1e-300 * fmax)
        th.SetUpperThreshold(hi)
        th.SetThresholdFunction(vtk.vtkThreshold.THRESHOLD_BETWEEN)
        geo = vtk.vtkGeometryFilter()
        geo.SetInputConnection(th.GetOutputPort())
        actor = lines_actor(geo, (0.1, 0.1, 0.1), 1.0 + 7.0 * (k + 0.5) / 5.0)
        if is2d:  # above the disks, seen from above
            actor.SetPosition(0, 0, 1.5 * rmax)
        ren.AddActor(actor)
    return fmax


def add_cracks(ren, path, rmax, is2d, cut):
    cracks = read(path)
    if not cracks.GetNumberOfPoints():
        return 0
    if cut is not None:
        axis, value, sign = cut
        keep = vtk.vtkPolyData()
        pts, mode = vtk.vtkPoints(), vtk.vtkIntArray()
        mode.SetName("tension")
        arr = cracks.GetPointData().GetArray("tension")
        for i in range(cracks.GetNumberOfPoints()):
            p = cracks.GetPoint(i)
            if sign * p[axis] <= sign * value:
                pts.InsertNextPoint(p)
                mode.InsertNextValue(int(arr.GetTuple1(i)))
        keep.SetPoints(pts)
        keep.GetPointData().AddArray(mode)
        cracks = keep
    glyph = spheres(cracks, 0.5 * rmax, 12, 8, "tension")
    glyph.SetScaleModeToDataScalingOff()
    mode = vtk.vtkColorTransferFunction()  # 1 tension: red; 0 shear: blue
    mode.AddRGBPoint(0, 0.1, 0.3, 0.95)
    mode.AddRGBPoint(1, 0.9, 0.05, 0.05)
    m = vtk.vtkPolyDataMapper()
    m.SetInputConnection(glyph.GetOutputPort())
    m.SetLookupTable(mode)
    m.SetScalarRange(0, 1)
    actor = vtk.vtkActor()
    actor.SetMapper(m)
    if is2d:  # above the disks and the force chains
        actor.SetPosition(0, 0, 3 * rmax)
    ren.AddActor(actor)
    return cracks.GetNumberOfPoints()


def crack_legend(ren):
    legend = vtk.vtkLegendBoxActor()
    legend.SetNumberOfEntries(2)
    disk = vtk.vtkSphereSource()
    disk.Update()
    legend.SetEntry(0, disk.GetOutput(), "crack in tension", (0.9, 0.05, 0.05))
    legend.SetEntry(1, disk.GetOutput(), "crack in shear", (0.1, 0.3, 0.95))
    legend.GetEntryTextProperty().SetColor(0, 0, 0)
    legend.GetPositionCoordinate().SetCoordinateSystemToNormalizedViewport()
    legend.GetPositionCoordinate().SetValue(0.01, 0.86)
    legend.GetPosition2Coordinate().SetCoordinateSystemToNormalizedViewport()
    legend.GetPosition2Coordinate().SetValue(0.24, 0.12)
    legend.BorderOff()
    ren.AddActor2D(legend)


def add_walls(ren, path, box, how, is2d, rmax):
    """The walls cut to the specimen's box grown by a fiftieth: their outlines (the edges of the
    cut surfaces, a segment itself in 2D) or their surfaces, faint."""
    walls = read(path)
    if how == "off" or not walls.GetNumberOfCells():
        return
    bounds = grown(box, 0.02)
    # cut by the box's six planes in turn (a plane's function is linear along an edge, so a
    # segment or polygon reaching far past the box on both sides is cut where it crosses)
    clip = None
    for k in range(3):
        for side in (0, 1):
            if bounds[2 * k + 1] - bounds[2 * k] <= 0:
                continue  # (2D: no cut across z)
            plane = vtk.vtkPlane()
            origin, normal = [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]
            origin[k] = bounds[2 * k + side]
            normal[k] = 1.0 if side == 0 else -1.0  # keeps the side inside the box
            plane.SetOrigin(origin)
            plane.SetNormal(normal)
            c = vtk.vtkClipPolyData()
            if clip is None:
                c.SetInputData(walls)
            else:
                c.SetInputConnection(clip.GetOutputPort())
            c.SetClipFunction(plane)
            clip = c
    shape = clip
    if how == "outline" and walls.GetNumberOfPolys():
        edges = vtk.vtkFeatureEdges()
        edges.SetInputConnection(clip.GetOutputPort())
        edges.BoundaryEdgesOn()
        edges.FeatureEdgesOn()
        edges.SetFeatureAngle(20)
        edges.ManifoldEdgesOff()
        edges.NonManifoldEdgesOn()
        edges.ColoringOff()
        shape = edges
    actor = lines_actor(shape, (0.25, 0.25, 0.35), 2.5)
    if how == "surface":
        actor.GetProperty().SetOpacity(0.15)
    if is2d:  # above the disks, as the chains
        actor.SetPosition(0, 0, 2 * rmax)
    ren.AddActor(actor)


def place_camera(ren, box, direction, is2d):
    centre = [0.5 * (box[2 * k] + box[2 * k + 1]) for k in range(3)]
    cam = ren.GetActiveCamera()
    cam.SetFocalPoint(*centre)
    size = max(box[1] - box[0], box[3] - box[2], box[5] - box[4], 1e-300)
    if is2d:  # from above: x to the right, y up
        cam.ParallelProjectionOn()
        cam.SetPosition(centre[0], centre[1], centre[2] + 10 * size)
        cam.SetViewUp(0, 1, 0)
    else:
        d = direction or VIEWS["iso"]
        norm = sum(c * c for c in d) ** 0.5
        cam.SetPosition(*[centre[k] + 4 * size * d[k] / norm for k in range(3)])
        # z up, unless the camera looks along z: then y up
        cam.SetViewUp(*((0, 1, 0) if abs(d[2]) > 0.99 * norm else (0, 0, 1)))
    ren.ResetCamera(*grown(box))
    ren.ResetCameraClippingRange()


def render(snap, out_png, a, crange, is2d):
    ren = vtk.vtkRenderer()
    ren.SetBackground(1, 1, 1)
    balls = balls_of(snap["balls"], a.color, a.cut)
    rmax = balls.GetPointData().GetArray("radius").GetRange()[1] if balls.GetNumberOfPoints() \
        else 0
    box = box_of(balls)
    add_balls(ren, balls, a, crange, is2d)
    notes = []
    if "contacts" in snap and not a.no_contacts:
        fmax = add_chains(ren, snap["contacts"], rmax, is2d, a.cut)
        if fmax:
            notes.append("force chains: width in proportion to the normal force, "
                         "widest %.3g N" % fmax)
    if "cracks" in snap and add_cracks(ren, snap["cracks"], rmax, is2d, a.cut):
        crack_legend(ren)
    if "walls" in snap:
        add_walls(ren, snap["walls"], box, a.walls, is2d, rmax)
    if a.cut is not None:
        notes.append("section: balls with %s %s %g" % ("xyz"[a.cut[0]],
                                                        "<=" if a.cut[2] > 0 else ">=", a.cut[1]))
    for k, s in enumerate(notes):
        text(ren, s, 10, 10 + 22 * k, 14)
    place_camera(ren, box, a.direction, is2d)
    win = vtk.vtkRenderWindow()
    win.SetOffScreenRendering(1)
    win.AddRenderer(ren)
    win.SetSize(*a.wh)
    win.Render()
    grab = vtk.vtkWindowToImageFilter()
    grab.SetInput(win)
    grab.Update()
    tmp = out_png + ".tmp.png"
    w = vtk.vtkPNGWriter()
    w.SetFileName(tmp)
    w.SetInputConnection(grab.GetOutputPort())
    w.Write()
    if not os.path.exists(tmp):
        fail("cannot write '%s'; check the folder and free space" % out_png)
    os.replace(tmp, out_png)  # whole, or not at all


def main(argv):
    a = parse(argv)
    snaps = snapshots(a.series)
    load_vtk()
    if not a.all:
        snaps = snaps[-1:]
    # the colour range of the whole series, so frames compare; 2D when every ball lies at z = 0
    lo, hi, is2d = float("inf"), float("-inf"), True
    for snap in snaps:
        if "balls" not in snap:
            fail("a snapshot of '%s' has no balls file" % a.series)
        balls = balls_of(snap["balls"], a.color, a.cut)
        if balls.GetNumberOfPoints():
            r = balls.GetPointData().GetArray("colour").GetRange()
            lo, hi = min(lo, r[0]), max(hi, r[1])
            zr = balls.GetPoints().GetBounds()[4:6]
            is2d = is2d and zr[0] == 0 and zr[1] == 0
    if lo > hi:
        fail("no ball to draw%s" % (" on this side of --section" if a.cut else ""))
    if not hi > lo:
        hi = lo + 1.0
    if is2d and a.direction is not None and a.view != "top":
        fail("a 2D model is drawn from above; leave out --view (or give --view top)")
    if not a.all:
        render(snaps[0], a.out, a, (lo, hi), is2d)
        if not a.quiet:
            print(a.out)
        return
    d = os.path.dirname(a.out)
    if d:
        os.makedirs(d, exist_ok=True)
    for k, snap in enumerate(snaps):
        render(snap, "%s_%04d.png" % (a.out, k), a, (lo, hi), is2d)
    if not a.quiet:
        print("%s_0000.png ... %s_%04d.png" % (a.out, a.out, len(snaps) - 1))
    if a.mp4:
        if not shutil.which("ffmpeg"):
            print("%s: ffmpeg not installed (Debian: apt-get install ffmpeg); no MP4 written"
                  % PROG, file=sys.stderr)
            return
        subprocess.run(["ffmpeg", "-y", "-loglevel", "error", "-framerate", "10", "-i",
                        a.out + "_%04d.png", "-pix_fmt", "yuv420p", "-vf",
                        "pad=ceil(iw/2)*2:ceil(ih/2)*2", a.out + ".mp4"], check=True)
        if not a.quiet:
            print(a.out + ".mp4")


if __name__ == "__main__":
    main(sys.argv[1:])
