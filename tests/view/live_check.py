"""The live view (docs/viewing.md), as a user's browser would use it, run by ctest as view.live:
cairn runs a pour with --view; the address it prints holds the token; every request without it
(or with another) is refused; the status, geometry and histories read back whole; pause holds the
step, save writes a file that restores, resume goes on; the run's result is bitwise that of a run
without the view; cairn view shows the saved files as frames; a second run stopped from the
page ends cleanly (status 0) at once. With
Debian's chromium, the page itself is opened headless: the model and a chart appear (image
statistics of a screenshot, and the page's own status element), and the screenshot is kept for
docs/viewing.md. Skipped (77) where cairn was built without libmicrohttpd.

Usage: live_check.py CAIRN WORKDIR"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import time
import urllib.error
import urllib.request

cairn, work = sys.argv[1], sys.argv[2]
here = os.path.dirname(os.path.abspath(__file__))
os.makedirs(work, exist_ok=True)
os.chdir(work)
for f in os.listdir("."):
    if f.startswith("view_step_") or f.endswith(".png"):
        os.remove(f)
for d in ("frames", "series"):  # (what an earlier run of the test left)
    shutil.rmtree(d, ignore_errors=True)
failures = []


def fail(msg):
    failures.append(msg)


def start(steps, *extra):
    env = dict(os.environ, STEPS=str(steps), OMP_NUM_THREADS="1")
    p = subprocess.Popen([cairn, "run", "--view", *extra, os.path.join(here, "pour.lua")],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    line = p.stderr.readline()
    m = re.search(r"(http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{32}))", line)
    if not m:
        out, err = p.communicate(timeout=60)
        if "built without libmicrohttpd" in line + err:
            print("skipped: " + (line + err).strip())
            sys.exit(77)
        print("FAILED: no address on stderr: %r" % (line + err))
        sys.exit(1)
    return p, m.group(1), int(m.group(2)), m.group(3)


def get(port, path, token=None, method="GET"):
    u = "http://127.0.0.1:%d%s" % (port, path)
    if token is not None:
        u += ("&" if "?" in u else "?") + "token=" + token
    req = urllib.request.Request(u, method=method)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()
    except OSError as e:  # (a closed connection: the answer is missing)
        return -1, repr(e).encode()


def stop_view(v, port, token, what):
    """The page's stop ends cairn view (v) with status 0."""
    get(port, "/control?cmd=stop", token, "POST")
    try:
        v.wait(timeout=20)
    except subprocess.TimeoutExpired:
        v.kill()
        fail("%s did not stop" % what)
    if v.returncode != 0:
        fail("%s ended with %d" % (what, v.returncode))


def status(port, token):
    for _ in range(100):  # (the first snapshot comes with the first steps)
        code, body = get(port, "/status.json", token)
        if code == 200:
            return json.loads(body)
        time.sleep(0.05)
    fail("no status: %d %r" % (code, body))
    return {}


def wait_state(port, token, state, seconds=10):
    end = time.time() + seconds
    while time.time() < end:
        s = status(port, token)
        if s.get("state") == state:
            return s
        time.sleep(0.05)
    fail("the state never became %r (last %r)" % (state, s))
    return s


# the reference: the same pour without the view
ref = subprocess.run([cairn, "run", os.path.join(here, "pour.lua")], capture_output=True, text=True,
                     env=dict(os.environ, STEPS="20000", OMP_NUM_THREADS="1"))
want = re.search(r"hash (\S+)", ref.stdout)

p, address, port, token = start(20000)
# the token keeps others out
for path, tok in (("/", None), ("/status.json", None), ("/status.json", "0" * 32),
                  ("/geometry.bin", token[:-1] + ("0" if token[-1] != "0" else "1")),
                  ("/control?cmd=stop", None)):
    code, _ = get(port, path, tok, "POST" if "control" in path else "GET")
    if code != 403:
        fail("%s with token %r: %d, not 403" % (path, tok, code))
code, page = get(port, "/", token)
if code != 200 or token.encode() not in page or b"view.js" not in page:
    fail("the page: %d, token written in: %s" % (code, token.encode() in page))
code, js = get(port, "/view.js", token)
if code != 200 or b"readGeometry" not in js:
    fail("view.js: %d" % code)
for lib in ("/lib/three.min.js", "/lib/OrbitControls.js", "/lib/chart.min.js"):
    code, body = get(port, lib, token)
    if code != 200 or len(body) < 1000:
        fail("%s: %d %r" % (lib, code, body[:80]))
# status, geometry, histories (once the model has cycled: before, the status says "idle")
end = time.time() + 30
s = status(port, token)
while s.get("step", 0) == 0 and time.time() < end:
    time.sleep(0.05)
    s = status(port, token)
for key in ("state", "dim", "step", "time", "balls", "contacts", "rate", "fraction"):
    if key not in s:
        fail("status lacks %r: %r" % (key, s))
code, g = get(port, "/geometry.bin", token)
magic, version, dim, nb, nc, nw, ncr, _ = struct.unpack("<8I", g[:32])
if magic != 0x564E5243 or dim != 3 or nb < 500 or nw < 16:  # (planes crossing the box)
    fail("geometry header: %x %d %d %d %d" % (magic, dim, nb, nw, ncr))
if len(g) != 72 + 4 * (8 * nb + 7 * nc + 6 * nw + 4 * ncr):
    fail("geometry length %d for %d balls, %d chains, %d wall segments" % (len(g), nb, nc, nw))
code, h = get(port, "/histories.json", token)
try:
    h = json.loads(h)
except ValueError:
    fail("histories: %d %r" % (code, h[:200]))
    h = {}
if h.get("names") != ["zmean"] or h.get("units") != ["m"] or len(h["values"][0]) != len(h["time"]):
    fail("histories: %r" % {k: h.get(k) for k in ("names", "units")})
# pause holds the step; save writes a file; resume goes on
get(port, "/control?cmd=pause", token, "POST")
s1 = wait_state(port, token, "paused")
time.sleep(0.6)
s2 = status(port, token)
if s2.get("step") != s1.get("step"):
    fail("paused, yet the step went from %s to %s" % (s1.get("step"), s2.get("step")))
get(port, "/control?cmd=save", token, "POST")
saved = "view_step_%d.sav" % s1.get("step", -1)
end = time.time() + 10
while not os.path.exists(saved) and time.time() < end:
    time.sleep(0.05)
if not os.path.exists(saved):
    fail("save now wrote no %s" % saved)
else:
    s3 = status(port, token)
    if "saved " + saved not in s3.get("note", ""):
        fail("the status does not say what was saved: %r" % s3)
get(port, "/control?cmd=resume", token, "POST")
wait_state(port, token, "running")
code, body = get(port, "/control?cmd=dance", token, "POST")
if code != 400:
    fail("an unknown command: %d" % code)

p.wait(timeout=300)
out = p.stdout.read()
got = re.search(r"hash (\S+)", out)
if not want or not got or got.group(1) != want.group(1):
    fail("with the view the pour ended at %s, without at %s" % (got and got.group(1),
                                                                 want and want.group(1)))
if p.returncode != 0:
    fail("the run with the view ended with status %d: %s" % (p.returncode, p.stderr.read()))
# the saved state restores
if os.path.exists(saved):
    with open("restore.lua", "w") as f:
        f.write('model.restore("%s")\nprint("restored", ball.count())\n' % saved)
    r = subprocess.run([cairn, "run", "restore.lua"], capture_output=True, text=True)
    if "restored" not in r.stdout:
        fail("the saved file does not restore: %s" % r.stderr)

# after the run: cairn view FOLDER on two save files (the one saved from the page, and one
# made 100 steps later), a frame each, the last shown first
if os.path.exists(saved):
    os.makedirs("frames", exist_ok=True)
    shutil.copy(saved, "frames/" + saved)
    with open("later.lua", "w") as f:
        f.write('model.restore("%s")\nhistory.add("zmean", function() return 0 end)\n'
                'model.cycle(100)\nmodel.save("frames/later.sav")\n' % saved)
    subprocess.run([cairn, "run", "later.lua"], capture_output=True, text=True)
    v = subprocess.Popen([cairn, "view", "frames"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    m = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{32})", v.stderr.readline())
    if not m:
        fail("cairn view printed no address")
    else:
        vport, vtok = int(m.group(1)), m.group(2)
        s = status(vport, vtok)
        step0 = s1.get("step")
        if s.get("state") != "saved" or s.get("frames") != 2 or s.get("frame") != 1 or \
                s.get("step") != step0 + 100:
            fail("cairn view's first status: %r" % s)
        get(vport, "/control?cmd=frame&k=0", vtok, "POST")
        end = time.time() + 10
        while status(vport, vtok).get("frame") != 0 and time.time() < end:
            time.sleep(0.05)
        s = status(vport, vtok)
        code, g = get(vport, "/geometry.bin", vtok)
        if s.get("step") != step0 or struct.unpack("<I", g[12:16])[0] != s.get("balls"):
            fail("cairn view's frame 0: %r" % s)
        if get(vport, "/status.json")[0] != 403:
            fail("cairn view answers without the token")
        stop_view(v, vport, vtok, "cairn view")
    # a folder of a VTK series and a history CSV (no save file): listed and served as files
    os.makedirs("series", exist_ok=True)
    with open("series.lua", "w") as f:
        f.write('model.restore("%s")\nhistory.add("zmean", function() return 0 end, "m")\n'
                'vtk.every{steps = 50, prefix = "series/pour"}\nmodel.cycle(100)\n'
                'history.export("series/pour.csv")\n' % saved)
    subprocess.run([cairn, "run", "series.lua"], capture_output=True, text=True)
    v = subprocess.Popen([cairn, "view", "series"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    m = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{32})", v.stderr.readline())
    if not m:
        fail("cairn view of a series printed no address")
    else:
        vport, vtok = int(m.group(1)), m.group(2)
        code, body = get(vport, "/files.json", vtok)
        listed = json.loads(body) if code == 200 else {}
        if listed != {"saves": [], "series": ["pour.pvd"], "csv": ["pour.csv"]}:
            fail("cairn view's files: %d %r" % (code, body))
        code, body = get(vport, "/file/pour.pvd", vtok)
        if code != 200 or b"pour_balls_" not in body:
            fail("cairn view's series file: %d" % code)
        for bad in ("..%2Fpour.lua", ".hidden", "nosuch.csv", "pour%2F..%2F..%2Fetc"):
            if get(vport, "/file/" + bad, vtok)[0] != 404:
                fail("cairn view served /file/%s" % bad)
        if get(vport, "/file/pour.csv")[0] != 403:
            fail("cairn view served a file without the token")
        stop_view(v, vport, vtok, "cairn view of a series")
    r = subprocess.run([cairn, "view", "nosuchfolder"], capture_output=True, text=True)
    if r.returncode != 1 or "cannot read the folder 'nosuchfolder'" not in r.stderr:
        fail("cairn view of a missing folder: %d %r" % (r.returncode, r.stderr))

def browse(args):
    """Headless Chromium run to its end. Its virtual-time budget now and then never runs out
    while the page draws in software on a loaded machine (two such runs in a row were seen with
    other long runs sharing the two cores): such a run is stopped after 120 s and tried again,
    three times in all."""
    for attempt in (1, 2, 3):
        try:
            return subprocess.run(args, capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:
            if attempt == 3:
                fail("headless Chromium did not finish in 120 s, three times: %s" %
                     " ".join(args[-2:]))
                return subprocess.CompletedProcess(args, 1, "", "")


def scene_ink(path):
    """The share of the scene's pixels (the left part of the page, below its top bar, without the
    colour bar) that are not white."""
    from PIL import Image
    img = Image.open(path).convert("L")
    w, h = img.size
    scene = img.crop((0, 80, int(0.5 * w), h))
    hist = scene.histogram()
    return 1 - sum(hist[235:]) / max(1, sum(hist))


# a long run: the page in a browser, then stop from the page
p, address, port, token = start(10 ** 7)
status(port, token)
# the page in a real browser, while a long run goes on
chromium = shutil.which("chromium") or shutil.which("chromium-browser")
if chromium:
    flags = [chromium, "--headless=new", "--no-sandbox", "--disable-gpu-sandbox",
             "--use-gl=angle", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
             "--window-size=1200,800", "--virtual-time-budget=6000", "--hide-scrollbars"]
    shot = os.path.abspath("view.png")
    r = browse(flags + ["--screenshot=" + shot, address])
    dom = browse(flags + ["--dump-dom", address]).stdout
    m = re.search(r'<pre id="status">(.*?)</pre>', dom, re.S)
    page = json.loads(m.group(1).replace("&quot;", '"')) if m and m.group(1).strip() else {}
    if page.get("drawn", 0) < 500:
        fail("the page drew %r balls (its status: %r)" % (page.get("drawn"), page))
    if page.get("contacts", 0) > 200 and page.get("chains", 0) < 1:
        fail("the page drew no force chains for %r contacts" % page.get("contacts"))
    if 0 < page.get("fps", 0) < 20 and page.get("renderer", "?") not in page.get("why", ""):
        fail("the page draws slowly and does not say why: %r" % page)
    if "<canvas" not in dom or dom.count("<canvas") < 3:
        fail("the page has no scene and charts (canvases: %d)" % dom.count("<canvas"))
    if not os.path.exists(shot):
        fail("no screenshot: %s" % r.stderr[-400:])
    else:  # the model appears: the scene's part of the picture is not blank
        share = scene_ink(shot)
        if share < 0.05:
            fail("the scene is nearly blank in the screenshot (%.3f of its pixels drawn)" % share)
    # the force chains alone (balls and walls hidden from the address): drawn, with widths
    chains_shot = os.path.abspath("view_chains.png")
    browse(flags + ["--screenshot=" + chains_shot, address + "&balls=0&walls=0"])
    if os.path.exists(chains_shot):
        share = scene_ink(chains_shot)
        if share < 0.01:
            fail("the force chains are not drawn (%.4f of the scene's pixels)" % share)
else:
    print("note: chromium not installed (Debian: chromium): the page was not opened in a browser")

# stop from the page: the run ends at once, cleanly
t0 = time.time()
get(port, "/control?cmd=stop", token, "POST")
try:
    out, err = p.communicate(timeout=30)
except subprocess.TimeoutExpired:
    p.kill()
    out, err = p.communicate()
    fail("stop did not end the run")
if p.returncode != 0 or "stopped from the live view at step" not in err or "hash" in out:
    fail("stop: status %d, stderr %r, stdout %r" % (p.returncode, err[-300:], out[-100:]))

for f in failures:
    print("FAILED: " + f)
if failures:
    sys.exit(1)
print("live view: token, status, geometry, histories, pause, save, resume, stop%s; bitwise; "
      "cairn view of two saved frames and of a series" % (", the page in chromium" if chromium else ""))
