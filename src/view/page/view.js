// cairn's live view (docs/viewing.md): polls the run's status, geometry and histories from the
// server that cairn runs on this machine, and draws them: the balls as shaded sphere sprites
// coloured by an attribute with a colour bar, force chains as wide and as dark as their force,
// walls cut to the balls' box, cracks by mode, a section, a chart per history. The buttons send
// commands.
"use strict";

const q = (id) => document.getElementById(id);
const url = (path) => path + (path.includes("?") ? "&" : "?") + "token=" + TOKEN;
const problem = (s) => { q("problem").textContent = s; };
// an error in the page (a shader WebGL refuses, say) is shown, not only logged
window.addEventListener("error", (e) => problem("the page failed: " + e.message));
const logError = console.error.bind(console);
console.error = (...a) => { problem("the page failed: " + a.join(" ").slice(0, 400)); logError(...a); };

let status = null, geometry = null, lastStep = -1, charts = {};

// ---- the 3D (or 2D) scene ----
if (typeof THREE === "undefined") {
  problem("the 3D view needs Debian's libjs-three (make deps installs it)");
}
const host = q("scene");
const renderer = typeof THREE !== "undefined" ? new THREE.WebGLRenderer({antialias: false}) : null;
let scene, camera, controls, balls, chains, walls, cracks, framed = false;
const section = typeof THREE !== "undefined" ? new THREE.Plane(new THREE.Vector3(1, 0, 0), 0) : null;

const ballVertex = `
  attribute float radius;
  attribute vec3 colour;
  uniform float scale;
  varying vec3 vColour;
  #include <clipping_planes_pars_vertex>
  void main() {
    vec4 mvPosition = modelViewMatrix * vec4(position, 1.0);
    gl_PointSize = max(2.0, radius * scale / -mvPosition.z);
    gl_Position = projectionMatrix * mvPosition;
    vColour = colour;
    #include <clipping_planes_vertex>
  }`;
const ballFragment = `
  varying vec3 vColour;
  #include <clipping_planes_pars_fragment>
  void main() {
    #include <clipping_planes_fragment>
    vec2 p = gl_PointCoord * 2.0 - 1.0;
    float r2 = dot(p, p);
    if (r2 > 1.0) discard;
    float light = 0.35 + 0.65 * sqrt(1.0 - r2);
    gl_FragColor = vec4(vColour * light, 1.0);
  }`;

// Force chains as quads as wide in pixels as their force asks (WebGL draws lines one pixel wide):
// each chain is an instance with its two ends; the four corners of its quad are moved across the
// segment's direction on the screen by half its width.
const chainVertex = `
  attribute vec3 end1;
  attribute vec3 end2;
  attribute float width;   // pixels
  attribute float shade;
  uniform vec2 resolution; // pixels
  varying float vShade;
  #include <clipping_planes_pars_vertex>
  void main() {
    vec2 corner = position.xy; // x: 0 at the first end, 1 at the second; y: -1 or 1, the side
    vec4 m1 = modelViewMatrix * vec4(end1, 1.0), m2 = modelViewMatrix * vec4(end2, 1.0);
    vec4 c1 = projectionMatrix * m1, c2 = projectionMatrix * m2;
    vec2 along = (c2.xy / c2.w - c1.xy / c1.w) * resolution;
    along = dot(along, along) > 0.0 ? normalize(along) : vec2(1.0, 0.0);
    vec4 mvPosition = corner.x < 0.5 ? m1 : m2;
    vec4 c = corner.x < 0.5 ? c1 : c2;
    c.xy += vec2(-along.y, along.x) * corner.y * width / resolution * c.w;
    gl_Position = c;
    vShade = shade;
    #include <clipping_planes_vertex>
  }`;
const chainFragment = `
  varying float vShade;
  #include <clipping_planes_pars_fragment>
  void main() {
    #include <clipping_planes_fragment>
    gl_FragColor = vec4(vec3(vShade), 1.0);
  }`;

function chainMesh() {
  const g = new THREE.InstancedBufferGeometry();
  // (the corners as 'position': three.js draws nothing without one)
  g.setAttribute("position",
                 new THREE.BufferAttribute(new Float32Array([0, -1, 0, 1, -1, 0, 1, 1, 0, 0, 1, 0]), 3));
  g.setIndex([0, 1, 2, 0, 2, 3]);
  g.maxInstancedCount = 0;
  const mat = new THREE.ShaderMaterial({
    uniforms: {resolution: {value: new THREE.Vector2(1, 1)}}, vertexShader: chainVertex,
    fragmentShader: chainFragment, clipping: true, side: THREE.DoubleSide});
  const mesh = new THREE.Mesh(g, mat);
  mesh.frustumCulled = false; // the instances' ends are not the geometry's positions
  return mesh;
}

function setup(dim) {
  scene = new THREE.Scene();
  scene.background = new THREE.Color(0xffffff);
  camera = new THREE.PerspectiveCamera(35, 1, 1e-6, 1e6);
  // (up before the controls are made: they orbit about the up they find; 3D: z up, 2D: y up)
  camera.up.set(0, dim === 2 ? 1 : 0, dim === 2 ? 0 : 1);
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  renderer.localClippingEnabled = true;
  host.appendChild(renderer.domElement);
  controls = new THREE.OrbitControls(camera, renderer.domElement);
  const mat = new THREE.ShaderMaterial({
    uniforms: {scale: {value: 1}}, vertexShader: ballVertex, fragmentShader: ballFragment,
    clipping: true});
  balls = new THREE.Points(new THREE.BufferGeometry(), mat);
  chains = chainMesh();
  walls = new THREE.LineSegments(new THREE.BufferGeometry(),
                                 new THREE.LineBasicMaterial({color: 0x444455}));
  cracks = new THREE.Points(new THREE.BufferGeometry(),
                            new THREE.PointsMaterial({size: 6, sizeAttenuation: false,
                                                      vertexColors: THREE.VertexColors}));
  scene.add(balls, chains, walls, cracks);
  window.addEventListener("resize", resize);
  controls.addEventListener("change", () => { needsRender = true; });
  resize();
  animate();
}

function resize() {
  const w = host.clientWidth, h = host.clientHeight;
  renderer.setSize(w, h);
  camera.aspect = w / Math.max(h, 1);
  camera.updateProjectionMatrix();
  balls.material.uniforms.scale.value = h / Math.tan(camera.fov * Math.PI / 360);
  chains.material.uniforms.resolution.value.set(Math.max(w, 1), Math.max(h, 1));
  needsRender = true;
}

// What draws WebGL here (a software renderer such as SwiftShader: no GPU), for the page to say
// why it draws slowly.
function rendererName() {
  const gl = renderer.getContext(), ext = gl.getExtension("WEBGL_debug_renderer_info");
  return ext ? gl.getParameter(ext.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
}

// The scene is drawn when it changes (a snapshot, the camera, an option), not at every frame of
// the browser, so a page left open costs the machine little while the run goes on; 'fps' is
// how many frames a second it could draw, from the time the last frames took to be drawn (a
// pixel read back after each waits for the drawing to finish).
// A new snapshot is drawn at most once in 20 times the last frames' drawing time, so that a
// browser drawing in software (no GPU) spends at most a twentieth of a core on the page while
// the run goes on; the camera and the options draw at once.
let needsRender = true, snapshotPending = false, nextSnapshotAt = 0, drawMs = 0, fps = 0;
const pixel = new Uint8Array(4);
function animate() {
  requestAnimationFrame(animate);
  if (snapshotPending && performance.now() >= nextSnapshotAt) {
    snapshotPending = false;
    needsRender = true;
  }
  if (!needsRender) return;
  needsRender = false;
  const t0 = performance.now(), gl = renderer.getContext();
  renderer.render(scene, camera);
  gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
  const ms = performance.now() - t0;
  if (ms <= 0) return; // (the clock did not move: a headless browser's virtual time; fps unknown)
  drawMs = drawMs ? 0.7 * drawMs + 0.3 * ms : ms;
  nextSnapshotAt = performance.now() + 19 * drawMs;
  fps = 1000 / drawMs;
  showWhy();
}

// Below 20 frames a second, the page says why: how many balls, and what draws them.
function showWhy() {
  const n = geometry ? geometry.nb : 0, soft = /swiftshader|llvmpipe|software/i.test(rendererName());
  q("why").textContent = fps >= 20 || !n ? "" :
    `${n} balls at ${fps.toFixed(1)} frames per second: ` + (soft
      ? `this browser draws WebGL in software (${rendererName()}), without a GPU`
      : `the graphics (${rendererName()}) are slower than the drawing needs`);
}

// blue - white - red, as cairn render's colour bar
function diverging(f, out, i) {
  f = Math.min(1, Math.max(0, f));
  const lo = [0.23, 0.30, 0.75], mid = [0.87, 0.87, 0.87], hi = [0.71, 0.02, 0.15];
  const a = f < 0.5 ? lo : mid, b = f < 0.5 ? mid : hi, s = f < 0.5 ? 2 * f : 2 * f - 1;
  for (let k = 0; k < 3; k++) out[3 * i + k] = a[k] + (b[k] - a[k]) * s;
}

function drawBar(name, lo, hi) {
  const c = q("bar"), g = c.getContext("2d");
  const rgb = new Float32Array(3);
  for (let y = 0; y < c.height; y++) {
    diverging(1 - y / (c.height - 1), rgb, 0);
    g.fillStyle = `rgb(${255 * rgb[0]},${255 * rgb[1]},${255 * rgb[2]})`;
    g.fillRect(0, y, c.width, 1);
  }
  q("barlabel").innerHTML = `${name}<br>${hi.toPrecision(3)}` +
    `<br><span style="position:relative;top:240px">${lo.toPrecision(3)}</span>`;
}

// ---- the geometry snapshot (docs/viewing.md, "The page's data") ----
const BALL = 8; // floats per ball: x y z r, speed, spin, net force, group
const ATTRIBUTE = {speed: 4, spin: 5, force: 6, group: 7};
function readGeometry(buf) {
  const head = new Uint32Array(buf, 0, 8);
  if (head[0] !== 0x564e5243) throw new Error("not a cairn snapshot");
  const [dim, nb, nc, nw, ncr] = [head[2], head[3], head[4], head[5], head[6]];
  const st = new Float64Array(buf, 32, 2), box = new Float32Array(buf, 48, 6);
  let at = 72;
  const take = (n) => { const a = new Float32Array(buf, at, n); at += 4 * n; return a; };
  return {dim, step: st[0], time: st[1], box, balls: take(BALL * nb), chains: take(7 * nc),
          walls: take(6 * nw), cracks: take(4 * ncr), nb, nc, nw, ncr};
}

function showGeometry(g, snapshot) { // snapshot: a new one of the running model (drawn in turn)
  if (!renderer) return;
  if (!scene) setup(g.dim);
  const pos = new Float32Array(3 * g.nb), rad = new Float32Array(g.nb), col = new Float32Array(3 * g.nb);
  const what = q("colour").value, vals = new Float32Array(g.nb);
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < g.nb; i++) {
    for (let k = 0; k < 3; k++) pos[3 * i + k] = g.balls[BALL * i + k];
    rad[i] = g.balls[BALL * i + 3];
    vals[i] = what in ATTRIBUTE ? g.balls[BALL * i + ATTRIBUTE[what]]
              : what === "radius" ? rad[i] : g.balls[BALL * i + g.dim - 1];
    lo = Math.min(lo, vals[i]); hi = Math.max(hi, vals[i]);
  }
  if (!(hi > lo)) hi = lo + 1;
  for (let i = 0; i < g.nb; i++) diverging((vals[i] - lo) / (hi - lo), col, i);
  const bg = balls.geometry;
  bg.setAttribute("position", new THREE.BufferAttribute(pos, 3));
  bg.setAttribute("radius", new THREE.BufferAttribute(rad, 1));
  bg.setAttribute("colour", new THREE.BufferAttribute(col, 3));
  bg.computeBoundingSphere();
  drawBar(q("colour").selectedOptions[0].textContent, lo, hi);
  // force chains: from 1 to 7 pixels wide and from light grey to black as their normal force
  // goes from 0 to the largest
  let fmax = 0;
  for (let c = 0; c < g.nc; c++) fmax = Math.max(fmax, g.chains[7 * c + 6]);
  const e1 = new Float32Array(3 * g.nc), e2 = new Float32Array(3 * g.nc);
  const cw = new Float32Array(g.nc), cs = new Float32Array(g.nc);
  for (let c = 0; c < g.nc; c++) {
    for (let k = 0; k < 3; k++) {
      e1[3 * c + k] = g.chains[7 * c + k];
      e2[3 * c + k] = g.chains[7 * c + 3 + k];
    }
    const f = g.chains[7 * c + 6] / (fmax || 1);
    cw[c] = 1 + 6 * f;
    cs[c] = 0.85 * (1 - f);
  }
  const cg = chains.geometry;
  cg.setAttribute("end1", new THREE.InstancedBufferAttribute(e1, 3));
  cg.setAttribute("end2", new THREE.InstancedBufferAttribute(e2, 3));
  cg.setAttribute("width", new THREE.InstancedBufferAttribute(cw, 1));
  cg.setAttribute("shade", new THREE.InstancedBufferAttribute(cs, 1));
  cg.maxInstancedCount = g.nc;
  balls.visible = q("balls").checked;
  for (const id of ["bar", "barlabel"]) q(id).style.visibility = balls.visible ? "visible" : "hidden";
  chains.visible = q("chains").checked;
  walls.geometry.setAttribute("position", new THREE.BufferAttribute(g.walls.slice(), 3));
  walls.visible = q("walls").checked;
  const kp = new Float32Array(3 * g.ncr), kc = new Float32Array(3 * g.ncr);
  for (let k = 0; k < g.ncr; k++) {
    for (let j = 0; j < 3; j++) kp[3 * k + j] = g.cracks[4 * k + j];
    const t = g.cracks[4 * k + 3] > 0.5; // red: tension, blue: shear
    kc.set(t ? [0.9, 0.05, 0.05] : [0.1, 0.3, 0.95], 3 * k);
  }
  cracks.geometry.setAttribute("position", new THREE.BufferAttribute(kp, 3));
  cracks.geometry.setAttribute("color", new THREE.BufferAttribute(kc, 3));
  // walls cut to the balls' box grown by a little more than the outlines cairn sends (a tenth),
  // so that those stay whole; the section cuts balls, chains and cracks
  const b = g.box, grow = 0.12 * Math.max(b[3] - b[0], b[4] - b[1], b[5] - b[2]);
  const cut = [];
  for (let k = 0; k < 3; k++) {
    const n = new THREE.Vector3(k === 0, k === 1, k === 2);
    cut.push(new THREE.Plane(n.clone(), -(b[k] - grow)));
    cut.push(new THREE.Plane(n.clone().negate(), b[3 + k] + grow));
  }
  walls.material.clippingPlanes = cut;
  const axis = q("axis").value;
  if (axis) {
    const k = "xyz".indexOf(axis), at = b[k] + (b[3 + k] - b[k]) * q("cut").value;
    section.normal.set(k === 0 ? -1 : 0, k === 1 ? -1 : 0, k === 2 ? -1 : 0);
    section.constant = at;
  }
  for (const o of [balls, chains, cracks]) o.material.clippingPlanes = axis ? [section] : [];
  if (snapshot) snapshotPending = true; else needsRender = true;
  if (!framed) { // the camera once: 3D from the front and a little above, z up; 2D from above
    const c = new THREE.Vector3((b[0] + b[3]) / 2, (b[1] + b[4]) / 2, (b[2] + b[5]) / 2);
    const size = Math.max(b[3] - b[0], b[4] - b[1], b[5] - b[2]) || 1;
    controls.target.copy(c);
    if (g.dim === 2) {
      camera.position.set(c.x, c.y, c.z + 2.2 * size);
      controls.enableRotate = false;
    } else {
      camera.position.set(c.x + 0.8 * size, c.y - 2.2 * size, c.z + 0.9 * size);
    }
    camera.near = size * 1e-3; camera.far = size * 100;
    camera.updateProjectionMatrix();
    controls.update(); // (turns the camera to the target: the page draws no frame of its own)
    framed = true;
  }
}

// ---- histories ----
function showHistories(h) {
  if (typeof Chart === "undefined") { problem("the charts need Debian's libjs-chart.js"); return; }
  h.names.forEach((name, i) => {
    const label = h.units[i] ? `${name} [${h.units[i]}]` : name;
    const pts = h.time.map((t, r) => ({x: t, y: h.values[i][r]}));
    if (!charts[name]) {
      const canvas = document.createElement("canvas");
      q("charts").appendChild(canvas);
      charts[name] = new Chart(canvas, {
        type: "line",
        data: {datasets: [{label, data: pts, pointRadius: 0, borderWidth: 1.5,
                           borderColor: "#a33"}]},
        options: {animation: false, parsing: false, normalized: true,
                  scales: {x: {type: "linear", title: {display: true, text: "time"}},
                           y: {title: {display: true, text: label}}}}});
    } else {
      charts[name].data.datasets[0].data = pts;
      charts[name].update("none");
    }
  });
}

// ---- polling ----
async function get(path, kind) {
  const r = await fetch(url(path), {cache: "no-store"});
  if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  return kind === "bin" ? r.arrayBuffer() : r.json();
}

// ---- a finished run's folder (cairn view FOLDER): its save files (restored by cairn), VTK
// series and history CSVs (read here), a slider over the frames of the source chosen ----
let files = null, series = null;

function savedRun(s) {
  const saved = s.state === "saved";
  q("saved").hidden = !saved;
  for (const id of ["pause", "resume", "save"]) q(id).hidden = saved;
  if (!saved) return;
  if (!files) { files = {}; loadFiles(); }
  if (q("source").value === "saves" && s.frames > 0) {
    q("frame").max = s.frames - 1;
    if (document.activeElement !== q("frame")) q("frame").value = s.frame;
    q("frameinfo").textContent = `${s.frame + 1} of ${s.frames}: step ${s.step}`;
  }
}

async function loadFiles() {
  files = await get("/files.json");
  const sel = q("source");
  if (files.saves.length) sel.add(new Option(`save files (${files.saves.length})`, "saves"));
  for (const name of files.series) sel.add(new Option(`VTK series ${name}`, name));
  if (sel.options.length) await chooseSource();
  for (const name of files.csv) showCsv(name, await (await fetch(url("/file/" + name))).text());
}

async function chooseSource() {
  const name = q("source").value;
  if (name === "saves") { series = null; lastStep = -1; return; }
  const doc = new DOMParser().parseFromString(await (await fetch(url("/file/" + name))).text(),
                                               "application/xml");
  const byTime = new Map();
  for (const d of doc.getElementsByTagName("DataSet")) {
    const t = +d.getAttribute("timestep"), file = d.getAttribute("file");
    const part = ["balls", "walls", "contacts", "cracks"].find((p) => file.includes(`_${p}_`));
    if (!part) continue;
    if (!byTime.has(t)) byTime.set(t, {time: t});
    byTime.get(t)[part] = file;
  }
  series = [...byTime.values()].sort((a, b) => a.time - b.time);
  q("frame").max = Math.max(0, series.length - 1);
  q("frame").value = series.length - 1;
  await showSeriesFrame(series.length - 1);
}

// A VTK XML PolyData file as cairn writes it (src/io/vtk.c): each DataArray one base64 block, a
// 64-bit byte count then the values; keyed "Parent:Name" (PointData:radius, Points:Points, ...).
function vtpArrays(text) {
  const doc = new DOMParser().parseFromString(text, "application/xml"), out = {};
  for (const da of doc.getElementsByTagName("DataArray")) {
    const bin = atob(da.textContent.trim()), bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const body = bytes.buffer.slice(8), type = da.getAttribute("type");
    const arr = type === "Float64" ? new Float64Array(body) : type === "Int32" ? new Int32Array(body)
              : type === "Int64" ? Float64Array.from(new BigInt64Array(body), Number)
              : new Float32Array(body);
    out[`${da.parentNode.nodeName}:${da.getAttribute("Name")}`] = arr;
  }
  return out;
}

// A part of a snapshot: a .vtp, or the .pvtp of a divided MPI run's snapshot (one piece per
// rank, named by its Piece elements), its pieces' arrays joined end to end.
async function vtkPart(file) {
  const text = async (name) => (await fetch(url("/file/" + name))).text();
  if (!file.endsWith(".pvtp")) return vtpArrays(await text(file));
  const doc = new DOMParser().parseFromString(await text(file), "application/xml");
  const names = [...doc.getElementsByTagName("Piece")].map((p) => p.getAttribute("Source"));
  const pieces = await Promise.all(names.map(async (n) => vtpArrays(await text(n))));
  const out = {};
  for (const key of Object.keys(pieces[0] || {})) {
    const whole = new pieces[0][key].constructor(pieces.reduce((n, p) => n + p[key].length, 0));
    pieces.reduce((at, p) => (whole.set(p[key], at), at + p[key].length), 0);
    out[key] = whole;
  }
  return out;
}

async function showSeriesFrame(k) {
  const f = series[k];
  if (!f || !f.balls) return;
  const read = vtkPart;
  const b = await read(f.balls);
  const P = b["Points:Points"] || new Float64Array(0), nb = P.length / 3;
  const balls = new Float32Array(BALL * nb), box = [Infinity, Infinity, Infinity, -Infinity,
                                                    -Infinity, -Infinity];
  const mag = (a, i) => a ? Math.hypot(a[3 * i], a[3 * i + 1], a[3 * i + 2]) : 0;
  let flat = true;
  for (let i = 0; i < nb; i++) {
    const r = b["PointData:radius"][i];
    for (let k2 = 0; k2 < 3; k2++) {
      balls[BALL * i + k2] = P[3 * i + k2];
      box[k2] = Math.min(box[k2], P[3 * i + k2] - r);
      box[3 + k2] = Math.max(box[3 + k2], P[3 * i + k2] + r);
    }
    flat = flat && P[3 * i + 2] === 0;
    balls[BALL * i + 3] = r;
    balls[BALL * i + 4] = mag(b["PointData:velocity"], i);
    balls[BALL * i + 5] = mag(b["PointData:spin"], i);
    balls[BALL * i + 6] = mag(b["PointData:force"], i);
    balls[BALL * i + 7] = b["PointData:group"] ? b["PointData:group"][i] : 0;
  }
  const chains = [], walls = [], cracks = [];
  if (f.contacts) {
    const c = await read(f.contacts), cp = c["Points:Points"] || [], fn = c["CellData:force_normal"];
    for (let j = 0; fn && j < fn.length; j++)
      if (fn[j] > 0) chains.push(...cp.slice(6 * j, 6 * j + 6), fn[j]);
  }
  if (f.walls) {
    const w = await read(f.walls), wp = w["Points:Points"] || [];
    for (const kind of ["Polys", "Lines"]) {
      const conn = w[`${kind}:connectivity`], offs = w[`${kind}:offsets`];
      for (let cell = 0, from = 0; conn && cell < offs.length; from = offs[cell++]) {
        const to = offs[cell], closed = kind === "Polys";
        for (let e = from; e < to - (closed ? 0 : 1); e++) {
          const p = conn[e], q2 = conn[e + 1 < to ? e + 1 : from];
          walls.push(...wp.slice(3 * p, 3 * p + 3), ...wp.slice(3 * q2, 3 * q2 + 3));
        }
      }
    }
  }
  if (f.cracks) {
    const c = await read(f.cracks), kp = c["Points:Points"] || [], t = c["PointData:tension"];
    for (let j = 0; t && j < t.length; j++) cracks.push(...kp.slice(3 * j, 3 * j + 3), t[j]);
  }
  geometry = {dim: flat ? 2 : 3, step: -1, time: f.time, box: Float32Array.from(box),
              balls, chains: Float32Array.from(chains), walls: Float32Array.from(walls),
              cracks: Float32Array.from(cracks), nb, nc: chains.length / 7, nw: walls.length / 6,
              ncr: cracks.length / 4};
  showGeometry(geometry);
  q("frameinfo").textContent = `${k + 1} of ${series.length}: t = ${f.time.toPrecision(4)}`;
}

// A history CSV (history.export): a chart per column against time.
function showCsv(name, text) {
  const lines = text.trim().split("\n"), head = lines[0].split(",");
  const rows = lines.slice(1).map((l) => l.split(",").map(Number));
  const ti = head.indexOf("time");
  if (ti < 0 || (head.includes("id1") && head.includes("mode"))) return; // (a list of cracks)
  const stride = Math.max(1, Math.ceil(rows.length / 1000));
  const h = {names: [], units: [], time: [], values: []};
  for (let r = 0; r < rows.length; r += stride) h.time.push(rows[r][ti]);
  head.forEach((cell, i) => {
    if (cell === "step" || cell === "time") return;
    const m = cell.match(/^(.*) \[(.*)\]$/);
    h.names.push(`${name}: ${m ? m[1] : cell}`);
    h.units.push(m ? m[2] : "");
    const v = [];
    for (let r = 0; r < rows.length; r += stride) v.push(rows[r][i]);
    h.values.push(v);
  });
  showHistories(h);
}

function progressLine(s) {
  if (s.state === "saved")
    return `a finished run: ${geometry ? geometry.nb : 0} balls shown` +
           (fps ? `  ${fps.toFixed(0)} fps` : "");
  const parts = [`${s.state}`, `step ${s.step}`, `t = ${Number(s.time).toPrecision(4)}`,
                 `${Math.round(s.rate || 0)} steps/s`, `${s.balls} balls`, `${s.contacts} contacts`];
  if (s.ratio !== null && s.ratio !== undefined) parts.push(`ratio ${Number(s.ratio).toPrecision(3)}`);
  if (s.fraction !== null && s.fraction !== undefined && s.rate > 0) parts.push(
      `${(100 * s.fraction).toFixed(1)} %`);
  if (fps) parts.push(`${fps.toFixed(0)} fps`);
  return parts.join("  ");
}

async function poll() {
  try {
    status = await get("/status.json");
    q("progress").textContent = progressLine(status);
    savedRun(status);
    q("note").textContent = status.note || "";
    q("status").textContent = JSON.stringify(Object.assign({fps, drawn: geometry ? geometry.nb : 0,
      chains: geometry ? geometry.nc : 0, renderer: renderer ? rendererName() : "", why: q("why").textContent}, status));
    const key = `${status.step}/${status.frame}/${status.note || ""}`;
    if (key !== lastStep && status.balls >= 0 && !series && status.step >= 0 &&
        !(status.state === "saved" && status.frames === 0)) {
      lastStep = key;
      geometry = readGeometry(await get("/geometry.bin", "bin"));
      showGeometry(geometry, status.state === "running");
      showHistories(await get("/histories.json"));
    }
    problem(typeof THREE === "undefined" ? "the 3D view needs Debian's libjs-three" : "");
  } catch (e) {
    q("progress").textContent = "no answer from cairn: the run has ended or the view was closed";
    problem(String(e.message || e));
  }
  setTimeout(poll, 500);
}

for (const cmd of ["pause", "resume", "save", "stop"])
  q(cmd).addEventListener("click", () => fetch(url(`/control?cmd=${cmd}`), {method: "POST"}));
q("frame").addEventListener("change", () => {
  if (series) showSeriesFrame(+q("frame").value);
  else fetch(url(`/control?cmd=frame&k=${q("frame").value}`), {method: "POST"});
});
q("source").addEventListener("change", chooseSource);
// the check boxes may be set from the address: ?...&balls=0&chains=1&walls=0
for (const id of ["balls", "chains", "walls"]) {
  const v = new URLSearchParams(location.search).get(id);
  if (v !== null) q(id).checked = v !== "0";
}
for (const id of ["colour", "balls", "chains", "walls", "axis", "cut"])
  q(id).addEventListener("input", () => geometry && showGeometry(geometry));
// How fast this page draws, and on what, told to cairn every two seconds (the status's "page":
// what a script or bench reads without a browser's own tools).
setInterval(() => {
  if (!renderer || !geometry) return;
  fetch(url(`/report?fps=${fps.toFixed(2)}&drawn=${geometry.nb}&renderer=` +
            encodeURIComponent(rendererName())), {method: "POST"});
}, 2000);
poll();
