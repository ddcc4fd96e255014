"""Render the last snapshot of a cairn VTK series (PREFIX.pvd) to a PNG: balls as spheres of their
radius, contacts as lines coloured and thickened by normal force (force chains), walls faint.

    xvfb-run -a /usr/bin/python3 examples/render_vtk.py out/box.pvd box.png

Needs Debian's python3-vtk9 (make deps installs it); VTK renders through X, hence xvfb-run."""
import os
import re
import sys

from vtkmodules.vtkIOXML import vtkXMLPolyDataReader
from vtkmodules.vtkFiltersSources import vtkSphereSource
from vtkmodules.vtkFiltersCore import vtkGlyph3D, vtkTubeFilter
from vtkmodules.vtkRenderingCore import (vtkActor, vtkPolyDataMapper, vtkRenderer,
                                         vtkRenderWindow, vtkWindowToImageFilter)
from vtkmodules.vtkIOImage import vtkPNGWriter
import vtkmodules.vtkRenderingOpenGL2  # noqa: F401  (registers the OpenGL back end)


def last_snapshot(pvd):
    text = open(pvd).read()
    files = re.findall(r'file="([^"]+)"', text)
    base = os.path.dirname(pvd)
    parts = {}
    for f in files:
        for part in ("balls", "walls", "contacts"):
            if f"_{part}_" in f:
                parts[part] = os.path.join(base, f)  # later entries win: the last snapshot
    return parts


def read(path):
    r = vtkXMLPolyDataReader()
    r.SetFileName(path)
    r.Update()
    return r.GetOutput()


def main(pvd, png):
    parts = last_snapshot(pvd)
    ren = vtkRenderer()
    ren.SetBackground(1, 1, 1)

    balls = read(parts["balls"])
    balls.GetPointData().SetActiveScalars("radius")
    sphere = vtkSphereSource()
    sphere.SetRadius(1.0)
    sphere.SetThetaResolution(16)
    sphere.SetPhiResolution(12)
    glyph = vtkGlyph3D()
    glyph.SetInputData(balls)
    glyph.SetSourceConnection(sphere.GetOutputPort())
    glyph.SetScaleModeToScaleByScalar()
    glyph.SetScaleFactor(1.0)
    glyph.SetColorModeToColorByScale()
    m = vtkPolyDataMapper()
    m.SetInputConnection(glyph.GetOutputPort())
    m.ScalarVisibilityOff()
    a = vtkActor()
    a.SetMapper(m)
    a.GetProperty().SetColor(0.85, 0.75, 0.45)
    a.GetProperty().SetOpacity(0.35)
    ren.AddActor(a)

    contacts = read(parts["contacts"])
    if contacts.GetNumberOfCells():
        contacts.GetCellData().SetActiveScalars("force_normal")
        tube = vtkTubeFilter()
        tube.SetInputData(contacts)
        rmax = balls.GetPointData().GetArray("radius").GetRange()[1]
        tube.SetRadius(0.15 * rmax)
        tube.SetNumberOfSides(8)
        cm = vtkPolyDataMapper()
        cm.SetInputConnection(tube.GetOutputPort())
        cm.SetScalarModeToUseCellData()
        lo, hi = contacts.GetCellData().GetArray("force_normal").GetRange()
        cm.SetScalarRange(0, max(hi, 1e-300))
        ca = vtkActor()
        ca.SetMapper(cm)
        ren.AddActor(ca)

    ren.ResetCamera()  # frame the balls; walls are drawn around them
    cam = ren.GetActiveCamera()
    cam.Elevation(25)
    cam.Azimuth(30)
    ren.ResetCamera()

    walls = read(parts["walls"])
    wm = vtkPolyDataMapper()
    wm.SetInputData(walls)
    wm.ScalarVisibilityOff()
    wa = vtkActor()
    wa.SetMapper(wm)
    wa.GetProperty().SetColor(0.6, 0.6, 0.7)
    wa.GetProperty().SetOpacity(0.15)
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
    w.SetFileName(png)
    w.SetInputConnection(grab.GetOutputPort())
    w.Write()
    print(png)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: render_vtk.py PREFIX.pvd OUT.png")
    main(sys.argv[1], sys.argv[2])
