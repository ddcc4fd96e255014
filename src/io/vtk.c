/* VTK XML output for ParaView: balls as points (radius, id, velocity, spin, force, group, clump),
   walls as lines (2D) or polygons (3D) with id and velocity, contacts as lines between the two
   centres (or centre and contact point, for walls) with the contact force, model and slip state:
   force chains; the broken bonds as points; the clumps as points with their principal axes. Each
   output is five PolyData files (.vtp, base64-encoded binary) and a .pvd collection that lists
   every output with its model time. All files are written atomically. */
#include <string.h>

#include "contact/contact.h"
#include "contact/cracks.h"
#include "io/io.h"
#include "measure/measure.h"

/* ---- base64 binary arrays (VTK "binary" format with a UInt64 byte-count header) ---------- */

typedef struct b64 {
  FILE *f;
  unsigned char in[3];
  int n_in, col;
} b64;

static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void b64_flush3(b64 *e, int n) {
  unsigned v = (unsigned)e->in[0] << 16 | (unsigned)e->in[1] << 8 | e->in[2];
  char out[4] = {B64[v >> 18 & 63], B64[v >> 12 & 63], n > 1 ? B64[v >> 6 & 63] : '=',
                 n > 2 ? B64[v & 63] : '='};
  fwrite(out, 1, 4, e->f);
}

static void b64_put(b64 *e, const void *p, size_t n) {
  const unsigned char *c = p;
  for (size_t i = 0; i < n; i++) {
    e->in[e->n_in++] = c[i];
    if (e->n_in == 3) {
      b64_flush3(e, 3);
      e->n_in = 0;
    }
  }
}

static void b64_end(b64 *e) {
  if (e->n_in) {
    for (int i = e->n_in; i < 3; i++) e->in[i] = 0;
    b64_flush3(e, e->n_in);
  }
  e->n_in = 0;
}

typedef enum { T_F64, T_I64, T_I32, T_U8 } vtype;
static const char *const VT_NAME[] = {"Float64", "Int64", "Int32", "UInt8"};
static const size_t VT_SIZE[] = {8, 8, 4, 1};

/* One DataArray: 'get' writes element i's ncomp values into buf. */
typedef void (*elem_fn)(const void *ctx, size_t i, void *buf);

static void data_array(FILE *f, const char *name, vtype t, int ncomp, size_t n, elem_fn get,
                       const void *ctx) {
  fprintf(f,
          "        <DataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\" "
          "format=\"binary\">\n          ",
          VT_NAME[t], name, ncomp);
  b64 e = {f, {0, 0, 0}, 0, 0};
  uint64_t bytes = (uint64_t)n * (uint64_t)ncomp * VT_SIZE[t];
  b64_put(&e, &bytes, sizeof bytes);
  unsigned char buf[64];
  for (size_t i = 0; i < n; i++) {
    get(ctx, i, buf);
    b64_put(&e, buf, (size_t)ncomp * VT_SIZE[t]);
  }
  b64_end(&e);
  fprintf(f, "\n        </DataArray>\n");
}

/* Connectivity/offsets arrays of n cells with k points each, numbered consecutively. */
typedef struct cells {
  size_t k;
} cells;
static void conn_i64(const void *ctx, size_t i, void *buf) {
  int64_t v = (int64_t)i;
  (void)ctx;
  memcpy(buf, &v, 8);
}
static void offs_i64(const void *ctx, size_t i, void *buf) {
  int64_t v = (int64_t)((i + 1) * ((const cells *)ctx)->k);
  memcpy(buf, &v, 8);
}

/* The file's head; 'field' (may be NULL) writes dataset-level FieldData, which VTK reads only
   before the first Piece. */
static void head(FILE *f, size_t npts, const char *cell_kind, size_t ncells,
                 void (*field)(FILE *, const cairn_world *), const cairn_world *w) {
  fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"1.0\" "
             "byte_order=\"LittleEndian\" header_type=\"UInt64\">\n  <PolyData>\n");
  if (field) field(f, w);
  fprintf(f,
          "    <Piece NumberOfPoints=\"%zu\" NumberOfVerts=\"%zu\" NumberOfLines=\"%zu\" "
          "NumberOfStrips=\"0\" NumberOfPolys=\"%zu\">\n",
          npts, strcmp(cell_kind, "Verts") == 0 ? ncells : 0,
          strcmp(cell_kind, "Lines") == 0 ? ncells : 0,
          strcmp(cell_kind, "Polys") == 0 ? ncells : 0);
}

static void tail(FILE *f) {
  fprintf(f, "    </Piece>\n  </PolyData>\n</VTKFile>\n");
}

/* ---- balls ----------------------------------------------------------------------------- */

static void b_pos(const void *c, size_t i, void *buf) {
  memcpy(buf, ((const cairn_world *)c)->balls.pos[i], 24);
}
static void b_vel(const void *c, size_t i, void *buf) {
  memcpy(buf, ((const cairn_world *)c)->balls.vel[i], 24);
}
static void b_spin(const void *c, size_t i, void *buf) {
  memcpy(buf, ((const cairn_world *)c)->balls.spin[i], 24);
}
static void b_force(const void *c, size_t i, void *buf) {
  memcpy(buf, ((const cairn_world *)c)->balls.force[i], 24);
}
static void b_rad(const void *c, size_t i, void *buf) {
  memcpy(buf, &((const cairn_world *)c)->balls.rad[i], 8);
}
static void b_id(const void *c, size_t i, void *buf) {
  memcpy(buf, &((const cairn_world *)c)->balls.id[i], 8);
}
static void b_group(const void *c, size_t i, void *buf) {
  int32_t g = ((const cairn_world *)c)->balls.group[i];
  memcpy(buf, &g, 4);
}

/* the clump a ball is a pebble of (its id), or 0 (the slots made current by io_vtk_write) */
static void b_clump(const void *c, size_t i, void *buf) {
  const cairn_world *w = c;
  int64_t v = (w->balls.fix[i] & FIX_CLUMP) ? w->clumps.id[w->clumps.body_of[i]] : 0;
  memcpy(buf, &v, 8);
}

static void write_balls(FILE *f, const cairn_world *w) {
  size_t n = w->balls.n;
  cells one = {1};
  head(f, n, "Verts", n, NULL, w);
  fprintf(f, "      <PointData Scalars=\"radius\" Vectors=\"velocity\">\n");
  data_array(f, "radius", T_F64, 1, n, b_rad, w);
  data_array(f, "id", T_I64, 1, n, b_id, w);
  data_array(f, "velocity", T_F64, 3, n, b_vel, w);
  data_array(f, "spin", T_F64, 3, n, b_spin, w);
  data_array(f, "force", T_F64, 3, n, b_force, w);
  data_array(f, "group", T_I32, 1, n, b_group, w);
  data_array(f, "clump", T_I64, 1, n, b_clump, w);
  fprintf(f, "      </PointData>\n      <Points>\n");
  data_array(f, "Points", T_F64, 3, n, b_pos, w);
  fprintf(f, "      </Points>\n      <Verts>\n");
  data_array(f, "connectivity", T_I64, 1, n, conn_i64, NULL);
  data_array(f, "offsets", T_I64, 1, n, offs_i64, &one);
  fprintf(f, "      </Verts>\n");
  tail(f);
}

/* ---- walls: one cell per wall; a plane is drawn as a square patch of a given size ------- */

typedef struct wall_pts {
  const cairn_world *w;
  double (*pts)[3];
  size_t *start;       /* per cell: its first point (cells + 1) */
  uint32_t *cell_wall; /* per cell: its wall */
  double (*tf)[3];     /* per cell: a mesh triangle's force (0 for other walls) */
  double *pressure;    /* per cell: its normal force over its area (0 for other walls) */
} wall_pts;

static void wp_pt(const void *c, size_t i, void *buf) {
  memcpy(buf, ((const wall_pts *)c)->pts[i], 24);
}
static void wp_off(const void *c, size_t i, void *buf) {
  int64_t v = (int64_t)((const wall_pts *)c)->start[i + 1];
  memcpy(buf, &v, 8);
}
/* (cells: one per wall, a mesh wall's one per triangle; cell_wall[i] is cell i's wall) */
static void w_id(const void *c, size_t i, void *buf) {
  const wall_pts *wp = c;
  memcpy(buf, &wp->w->walls.w[wp->cell_wall[i]].id, 8);
}
static void w_vel(const void *c, size_t i, void *buf) {
  const wall_pts *wp = c;
  memcpy(buf, wp->w->walls.w[wp->cell_wall[i]].vel, 24);
}
static void w_force(const void *c, size_t i, void *buf) {
  const wall_pts *wp = c;
  memcpy(buf, wp->w->walls.w[wp->cell_wall[i]].force, 24);
}
static void w_tforce(const void *c, size_t i, void *buf) {
  memcpy(buf, ((const wall_pts *)c)->tf[i], 24);
}
static void w_pressure(const void *c, size_t i, void *buf) {
  memcpy(buf, &((const wall_pts *)c)->pressure[i], 8);
}

/* The balls' centroid, or 'fallback' with no balls. */
static void balls_centroid(const cairn_world *w, const double fallback[3], double c[3]) {
  v3_zero(c);
  for (size_t i = 0; i < w->balls.n; i++) v3_add(c, w->balls.pos[i], c);
  if (w->balls.n)
    v3_scale(c, 1.0 / (double)w->balls.n, c);
  else
    v3_copy(fallback, c);
}

/* Two unit vectors u, v that make a right-handed frame with the unit vector n. */
static void frame_across(const double n[3], double u[3], double v[3]) {
  double ax[3] = {fabs(n[0]) < 0.9 ? 1.0 : 0.0, fabs(n[0]) < 0.9 ? 0.0 : 1.0, 0};
  v3_cross(n, ax, u);
  v3_scale(u, 1.0 / v3_norm(u), u);
  v3_cross(n, u, v);
}

/* Corners of a square patch of an infinite plane, centred at the projection of the balls'
   centroid (or the plane's point), with half-size h. */
static void plane_patch(const cairn_world *w, const wall *wl, double h, double out[4][3]) {
  double c[3], e[3], u[3], v[3];
  balls_centroid(w, wl->point, c);
  v3_sub(c, wl->point, e);
  double dn = v3_dot(e, wl->normal);
  for (int k = 0; k < 3; k++) c[k] -= dn * wl->normal[k];
  frame_across(wl->normal, u, v);
  const double sg[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
  for (int q = 0; q < 4; q++)
    for (int k = 0; k < 3; k++) out[q][k] = c[k] + h * (sg[q][0] * u[k] + sg[q][1] * v[k]);
}

/* A cylinder is drawn as its circle (24 points) across the balls' middle along its axis. */
#define RING 24
static void cylinder_ring(const cairn_world *w, const wall *wl, double out[RING][3]) {
  double c[3], e[3], u[3], v[3];
  balls_centroid(w, wl->point, c);
  v3_sub(c, wl->point, e);
  double along = v3_dot(e, wl->normal);
  for (int k = 0; k < 3; k++) c[k] = wl->point[k] + along * wl->normal[k];
  frame_across(wl->normal, u, v);
  for (int q = 0; q < RING; q++) {
    double t = 2.0 * M_PI * q / RING, cs = cos(t) * wl->radius, sn = sin(t) * wl->radius;
    for (int k = 0; k < 3; k++) out[q][k] = c[k] + cs * u[k] + sn * v[k];
  }
}

static cairn_status write_walls(FILE *f, const cairn_world *w, cairn_diag *d) {
  walls_settle(w);
  size_t nw = w->walls.n, np = 0, ncell = 0;
  for (size_t i = 0; i < nw; i++) {
    const wall *wl = &w->walls.w[i];
    np += wl->kind == WALL_PLANE      ? 4
          : wl->kind == WALL_CYLINDER ? RING
          : wl->kind == WALL_MESH     ? (wl->mesh->segments ? 2 : 3) * wl->mesh->nt
                                      : (size_t)wl->n_nodes;
    ncell += wl->kind == WALL_MESH ? wl->mesh->nt : 1;
  }
  wall_pts wp = {w, NULL, NULL, NULL, NULL, NULL};
  wp.pts = mem_realloc(NULL, 0, (np + 1) * sizeof *wp.pts, "vtk:wall_points");
  wp.start = mem_realloc(NULL, 0, (ncell + 1) * sizeof *wp.start, "vtk:wall_cells");
  wp.cell_wall = mem_realloc(NULL, 0, (ncell + 1) * sizeof *wp.cell_wall, "vtk:wall_cells");
  wp.tf = mem_realloc(NULL, 0, (ncell + 1) * sizeof *wp.tf, "vtk:wall_cells");
  wp.pressure = mem_realloc(NULL, 0, (ncell + 1) * sizeof *wp.pressure, "vtk:wall_cells");
  if (!wp.pts || !wp.start || !wp.cell_wall || !wp.tf || !wp.pressure) {
    mem_free(wp.pts, 0), mem_free(wp.start, 0), mem_free(wp.cell_wall, 0);
    mem_free(wp.tf, 0), mem_free(wp.pressure, 0);
    return diag_set(d, CAIRN_ENOMEM, "out of memory writing walls to VTK");
  }
  memset(wp.tf, 0, (ncell + 1) * sizeof *wp.tf);
  memset(wp.pressure, 0, (ncell + 1) * sizeof *wp.pressure);
  /* The patch size of planes: the extent of the balls (or 1 with no balls). */
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (size_t i = 0; i < w->balls.n; i++)
    for (int k = 0; k < 3; k++) {
      lo[k] = fmin(lo[k], w->balls.pos[i][k] - w->balls.rad[i]);
      hi[k] = fmax(hi[k], w->balls.pos[i][k] + w->balls.rad[i]);
    }
  double h = 0;
  for (int k = 0; k < 3 && w->balls.n; k++) h = fmax(h, 0.75 * (hi[k] - lo[k]));
  if (!(h > 0)) h = 1.0;
  size_t at = 0, cell = 0;
  for (size_t i = 0; i < nw; i++) {
    const wall *wl = &w->walls.w[i];
    if (wl->kind == WALL_MESH) { /* a cell per triangle (segment), placed in the global frame */
      const wall_mesh *m = wl->mesh;
      double r[3][3];
      quat_matrix(wl->orient, r);
      cairn_status st = mesh_triangle_forces(w, (uint32_t)i, &wp.tf[cell], d);
      if (st) {
        mem_free(wp.pts, 0), mem_free(wp.start, 0), mem_free(wp.cell_wall, 0);
        mem_free(wp.tf, 0), mem_free(wp.pressure, 0);
        return st;
      }
      const int corners = m->segments ? 2 : 3;
      for (size_t t = 0; t < m->nt; t++) {
        const double *v0 = m->v[m->t[t][0]], *v1 = m->v[m->t[t][1]], *v2 = m->v[m->t[t][2]];
        double e1[3], e2[3], x[3], ng[3];
        v3_sub(v1, v0, e1), v3_sub(v2, v0, e2), v3_cross(e1, e2, x);
        for (int k = 0; k < 3; k++)
          ng[k] = r[k][0] * m->n[t][0] + r[k][1] * m->n[t][1] + r[k][2] * m->n[t][2];
        /* (a segment's 'area' its length: a force per length, as a 2D wall's stress) */
        double area = m->segments ? v3_norm(e1) : 0.5 * v3_norm(x);
        wp.pressure[cell] = fabs(v3_dot(wp.tf[cell], ng)) / area;
        wp.start[cell] = at, wp.cell_wall[cell++] = (uint32_t)i;
        for (int c = 0; c < corners; c++) {
          const double *v = m->v[m->t[t][c]];
          for (int k = 0; k < 3; k++)
            wp.pts[at][k] = wl->centre[k] + r[k][0] * v[0] + r[k][1] * v[1] + r[k][2] * v[2];
          at++;
        }
      }
      continue;
    }
    wp.start[cell] = at, wp.cell_wall[cell++] = (uint32_t)i;
    if (wl->kind == WALL_PLANE) {
      plane_patch(w, wl, h, &wp.pts[at]);
      at += 4;
    } else if (wl->kind == WALL_CYLINDER) {
      cylinder_ring(w, wl, &wp.pts[at]);
      at += RING;
    } else {
      for (int q = 0; q < wl->n_nodes; q++) v3_copy(wl->nodes[q], wp.pts[at++]);
    }
  }
  wp.start[ncell] = at;
  const char *kind = w->dim == 2 ? "Lines" : "Polys";
  head(f, np, kind, ncell, NULL, w);
  fprintf(f, "      <CellData>\n");
  data_array(f, "id", T_I64, 1, ncell, w_id, &wp);
  data_array(f, "velocity", T_F64, 3, ncell, w_vel, &wp);
  data_array(f, "force", T_F64, 3, ncell, w_force, &wp);
  data_array(f, "triangle_force", T_F64, 3, ncell, w_tforce, &wp);
  data_array(f, "pressure", T_F64, 1, ncell, w_pressure, &wp);
  fprintf(f, "      </CellData>\n      <Points>\n");
  data_array(f, "Points", T_F64, 3, np, wp_pt, &wp);
  fprintf(f, "      </Points>\n      <%s>\n", kind);
  data_array(f, "connectivity", T_I64, 1, np, conn_i64, NULL);
  data_array(f, "offsets", T_I64, 1, ncell, wp_off, &wp);
  fprintf(f, "      </%s>\n", kind);
  tail(f);
  mem_free(wp.pts, 0), mem_free(wp.start, 0), mem_free(wp.cell_wall, 0);
  mem_free(wp.tf, 0), mem_free(wp.pressure, 0);
  return CAIRN_OK;
}

/* ---- contacts: a line from side 1 (ball centre, or the contact point on a wall) to side 2 -- */

static void c_pt(const void *c, size_t i, void *buf) {
  const cairn_world *w = c;
  const contact_store *cs = w->contacts;
  size_t k = i / 2;
  double pt[3];
  if (i % 2 == 1)
    v3_copy(w->balls.pos[cs->b[k]], pt);
  else if (cs->kind[k] == CAIRN_KIND_BALL_BALL && w->cell.on) {
    /* side 1 as side 2 sees it (its nearest image): the branch back from side 2's centre */
    double len = contact_branch_length(w, (uint32_t)k);
    for (int q = 0; q < 3; q++) pt[q] = w->balls.pos[cs->b[k]][q] - len * cs->normal[k][q];
  } else if (cs->kind[k] == CAIRN_KIND_BALL_BALL)
    v3_copy(w->balls.pos[cs->a[k]], pt);
  else
    contact_point(w, (uint32_t)k, pt);
  memcpy(buf, pt, 24);
}
static void c_fn(const void *c, size_t i, void *buf) {
  memcpy(buf, &((const cairn_world *)c)->contacts->force[i][0], 8);
}
static void c_fs(const void *c, size_t i, void *buf) { /* shear magnitude */
  const double *f = ((const cairn_world *)c)->contacts->force[i];
  double s = sqrt(f[1] * f[1] + f[2] * f[2]);
  memcpy(buf, &s, 8);
}
static void c_fglob(const void *c, size_t i, void *buf) {
  double f[3];
  contact_force_global(c, (uint32_t)i, f);
  memcpy(buf, f, 24);
}
static void c_model(const void *c, size_t i, void *buf) {
  int32_t m = ((const cairn_world *)c)->contacts->model[i];
  memcpy(buf, &m, 4);
}
static void c_kind(const void *c, size_t i, void *buf) {
  int32_t k = ((const cairn_world *)c)->contacts->kind[i];
  memcpy(buf, &k, 4);
}
static void c_active(const void *c, size_t i, void *buf) {
  int32_t a = ((const cairn_world *)c)->contacts->active[i];
  memcpy(buf, &a, 4);
}
/* Slip: the model's state field whose name ends in "slip" (lin_slip, bur_slip, ...), else 0. */
static void c_slip(const void *c, size_t i, void *buf) {
  const cairn_world *w = c;
  const model_entry *e = &w->reg->e[w->contacts->model[i]];
  int32_t s = 0;
  for (int k = 0; k < e->m->n_state; k++) {
    const char *nm = e->m->state[k].name;
    size_t len = strlen(nm);
    if (len >= 4 && strcmp(nm + len - 4, "slip") == 0)
      s = pool_state(e, w->contacts->blk[i])[e->state_off[k]] != 0;
  }
  memcpy(buf, &s, 4);
}

/* The names of the models, indexed by the contacts' 'model' array (VTK's ascii strings:
   character codes, each string ended by 0). */
static void model_names(FILE *f, const cairn_world *w) {
  fprintf(f,
          "    <FieldData>\n      <DataArray type=\"String\" Name=\"model_names\" "
          "NumberOfTuples=\"%zu\" format=\"ascii\">\n       ",
          w->reg->n);
  for (size_t m = 0; m < w->reg->n; m++) {
    for (const char *p = w->reg->e[m].m->name; *p; p++) fprintf(f, " %d", (unsigned char)*p);
    fprintf(f, " 0");
  }
  fprintf(f, "\n      </DataArray>\n    </FieldData>\n");
}

static void write_contacts(FILE *f, const cairn_world *w) {
  size_t n = w->contacts->n;
  cells two = {2};
  head(f, 2 * n, "Lines", n, model_names, w);
  fprintf(f, "      <CellData Scalars=\"force_normal\">\n");
  data_array(f, "force_normal", T_F64, 1, n, c_fn, w);
  data_array(f, "force_shear", T_F64, 1, n, c_fs, w);
  data_array(f, "force", T_F64, 3, n, c_fglob, w);
  data_array(f, "model", T_I32, 1, n, c_model, w);
  data_array(f, "kind", T_I32, 1, n, c_kind, w);
  data_array(f, "active", T_I32, 1, n, c_active, w);
  data_array(f, "slip", T_I32, 1, n, c_slip, w);
  fprintf(f, "      </CellData>\n      <Points>\n");
  data_array(f, "Points", T_F64, 3, 2 * n, c_pt, w);
  fprintf(f, "      </Points>\n      <Lines>\n");
  data_array(f, "connectivity", T_I64, 1, 2 * n, conn_i64, NULL);
  data_array(f, "offsets", T_I64, 1, n, offs_i64, &two);
  fprintf(f, "      </Lines>\n");
  tail(f);
}

/* ---- cracks: the broken bonds, as points --------------------------------------------------- */

static void k_pt(const void *c, size_t i, void *buf) {
  memcpy(buf, ((const cairn_world *)c)->cracks->c[i].pos, 24);
}
static void k_step(const void *c, size_t i, void *buf) {
  int64_t v = (int64_t)((const cairn_world *)c)->cracks->c[i].step;
  memcpy(buf, &v, 8);
}
static void k_time(const void *c, size_t i, void *buf) {
  memcpy(buf, &((const cairn_world *)c)->cracks->c[i].time, 8);
}
static void k_tension(const void *c, size_t i, void *buf) {
  int32_t v = ((const cairn_world *)c)->cracks->c[i].tension;
  memcpy(buf, &v, 4);
}
static void k_id1(const void *c, size_t i, void *buf) {
  memcpy(buf, &((const cairn_world *)c)->cracks->c[i].id1, 8);
}
static void k_id2(const void *c, size_t i, void *buf) {
  memcpy(buf, &((const cairn_world *)c)->cracks->c[i].id2, 8);
}

static void write_cracks(FILE *f, const cairn_world *w) {
  size_t n = w->cracks->n;
  cells one = {1};
  head(f, n, "Verts", n, NULL, w);
  fprintf(f, "      <PointData Scalars=\"tension\">\n");
  data_array(f, "tension", T_I32, 1, n, k_tension, w); /* 1 tension, 0 shear */
  data_array(f, "step", T_I64, 1, n, k_step, w);
  data_array(f, "time", T_F64, 1, n, k_time, w);
  data_array(f, "id1", T_I64, 1, n, k_id1, w);
  data_array(f, "id2", T_I64, 1, n, k_id2, w);
  fprintf(f, "      </PointData>\n      <Points>\n");
  data_array(f, "Points", T_F64, 3, n, k_pt, w);
  fprintf(f, "      </Points>\n      <Verts>\n");
  data_array(f, "connectivity", T_I64, 1, n, conn_i64, NULL);
  data_array(f, "offsets", T_I64, 1, n, offs_i64, &one);
  fprintf(f, "      </Verts>\n");
  tail(f);
}

/* ---- clumps: a point per clump at its centre of mass, with its principal axes ------------- */

static void cl_pt(const void *c, size_t i, void *buf) {
  memcpy(buf, ((const cairn_world *)c)->clumps.pos[i], 24);
}
static void cl_id(const void *c, size_t i, void *buf) {
  memcpy(buf, &((const cairn_world *)c)->clumps.id[i], 8);
}
static void cl_vel(const void *c, size_t i, void *buf) {
  memcpy(buf, ((const cairn_world *)c)->clumps.vel[i], 24);
}
static void cl_spin(const void *c, size_t i, void *buf) {
  memcpy(buf, ((const cairn_world *)c)->clumps.spin[i], 24);
}
static void cl_mass(const void *c, size_t i, void *buf) {
  memcpy(buf, &((const cairn_world *)c)->clumps.mass[i], 8);
}
static void cl_axis(const cairn_world *w, size_t i, int k, void *buf) {
  double m[3][3], a[3];
  quat_matrix(w->clumps.q[i], m);
  for (int r = 0; r < 3; r++) a[r] = m[r][k];
  memcpy(buf, a, 24);
}
static void cl_axis1(const void *c, size_t i, void *buf) {
  cl_axis(c, i, 0, buf);
}
static void cl_axis2(const void *c, size_t i, void *buf) {
  cl_axis(c, i, 1, buf);
}
static void cl_axis3(const void *c, size_t i, void *buf) {
  cl_axis(c, i, 2, buf);
}

static void write_clumps(FILE *f, const cairn_world *w) {
  size_t n = w->clumps.n;
  cells one = {1};
  head(f, n, "Verts", n, NULL, w);
  fprintf(f, "      <PointData Scalars=\"id\" Vectors=\"velocity\">\n");
  data_array(f, "id", T_I64, 1, n, cl_id, w);
  data_array(f, "mass", T_F64, 1, n, cl_mass, w);
  data_array(f, "velocity", T_F64, 3, n, cl_vel, w);
  data_array(f, "spin", T_F64, 3, n, cl_spin, w);
  data_array(f, "axis1", T_F64, 3, n, cl_axis1, w); /* (the principal axes, least moment first) */
  data_array(f, "axis2", T_F64, 3, n, cl_axis2, w);
  data_array(f, "axis3", T_F64, 3, n, cl_axis3, w);
  fprintf(f, "      </PointData>\n      <Points>\n");
  data_array(f, "Points", T_F64, 3, n, cl_pt, w);
  fprintf(f, "      </Points>\n      <Verts>\n");
  data_array(f, "connectivity", T_I64, 1, n, conn_i64, NULL);
  data_array(f, "offsets", T_I64, 1, n, offs_i64, &one);
  fprintf(f, "      </Verts>\n");
  tail(f);
}

/* ---- files ----------------------------------------------------------------------------- */

#define N_PARTS 5
static const char *const PARTS[N_PARTS] = {"balls", "walls", "contacts", "cracks", "clumps"};

static cairn_status write_part(const cairn_world *w, int part, const char *path, cairn_diag *d) {
  atomic_file af;
  CAIRN_TRY(io_atomic_open(&af, path, d));
  cairn_status s = CAIRN_OK;
  if (part == 0) write_balls(af.f, w);
  if (part == 1) s = write_walls(af.f, w, d);
  if (part == 2) write_contacts(af.f, w);
  if (part == 3) write_cracks(af.f, w);
  if (part == 4) write_clumps(af.f, w);
  if (s != CAIRN_OK) {
    io_atomic_abort(&af);
    return s;
  }
  return io_atomic_commit(&af, d);
}

static const char *base_name(const char *p) {
  const char *b = strrchr(p, '/');
  return b ? b + 1 : p;
}

cairn_status io_vtk_write(const cairn_world *w, vtk_series *vs, const char *prefix, cairn_diag *d) {
  CAIRN_CHECK(prefix && prefix[0] && strlen(prefix) < 3900, d, CAIRN_EINVAL,
              "vtk: give a file prefix such as \"out/pack\"");
  CAIRN_CHECK(prefix[strlen(prefix) - 1] != '/', d, CAIRN_EINVAL,
              "'%s' names a folder, not a file prefix; give a prefix in it, for example '%spack'",
              prefix, prefix);
  /* (a cache the world keeps: the balls' clumps for the 'clump' array) */
  if (w->clumps.n) CAIRN_TRY(clump_slots((cairn_world *)w, d));
  char path[4096];
  size_t k = vs ? vs->n : 0;
  for (int part = 0; part < N_PARTS; part++) {
    if (vs)
      snprintf(path, sizeof path, "%s_%s_%05zu.vtp", prefix, PARTS[part], k);
    else
      snprintf(path, sizeof path, "%s_%s.vtp", prefix, PARTS[part]);
    CAIRN_TRY(write_part(w, part, path, d));
  }
  if (!vs) return CAIRN_OK;
  /* The collection lists every output so far, with its time, for ParaView's time slider. */
  CAIRN_TRY(mem_grow((void **)&vs->time, &vs->cap, vs->n + 1, sizeof *vs->time, "vtk:times", d));
  vs->time[vs->n++] = w->time;
  snprintf(path, sizeof path, "%s.pvd", prefix);
  atomic_file af;
  CAIRN_TRY(io_atomic_open(&af, path, d));
  fprintf(af.f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"1.0\" "
                "byte_order=\"LittleEndian\">\n  <Collection>\n");
  for (size_t i = 0; i < vs->n; i++)
    for (int part = 0; part < N_PARTS; part++)
      fprintf(af.f, "    <DataSet timestep=\"%.17g\" part=\"%d\" file=\"%s_%s_%05zu.vtp\"/>\n",
              vs->time[i], part, base_name(prefix), PARTS[part], i);
  fprintf(af.f, "  </Collection>\n</VTKFile>\n");
  return io_atomic_commit(&af, d);
}

/* ---- joints of a fracture network: a polygon of RING sides per disk (2D: a segment) ----- */

typedef struct joint_pts {
  const dfn_net *net;
  int dim, k; /* points per joint */
} joint_pts;
static void j_pt(const void *c, size_t i, void *buf) {
  const joint_pts *jp = c;
  const dfn_joint *j = &jp->net->j[i / (size_t)jp->k];
  const int q = (int)(i % (size_t)jp->k);
  double p[3], u[3], v[3];
  if (jp->dim == 2) { /* the segment along (-n_y, n_x) */
    const double s = q == 0 ? -j->radius : j->radius;
    p[0] = j->centre[0] - s * j->normal[1], p[1] = j->centre[1] + s * j->normal[0], p[2] = 0;
  } else {
    frame_across(j->normal, u, v);
    const double a = 2.0 * 3.14159265358979323846 * q / RING;
    for (int k = 0; k < 3; k++) p[k] = j->centre[k] + j->radius * (cos(a) * u[k] + sin(a) * v[k]);
  }
  memcpy(buf, p, sizeof p);
}
static void j_set(const void *c, size_t i, void *buf) {
  int32_t s = ((const joint_pts *)c)->net->j[i].set;
  memcpy(buf, &s, 4);
}
static void j_radius(const void *c, size_t i, void *buf) {
  memcpy(buf, &((const joint_pts *)c)->net->j[i].radius, 8);
}
static void j_normal(const void *c, size_t i, void *buf) {
  memcpy(buf, ((const joint_pts *)c)->net->j[i].normal, 24);
}

cairn_status io_vtk_joints(const char *path, int dim, const dfn_net *net, cairn_diag *d) {
  atomic_file af;
  CAIRN_TRY(io_atomic_open(&af, path, d));
  joint_pts jp = {net, dim, dim == 2 ? 2 : RING};
  cells each = {(size_t)jp.k};
  const size_t np = net->n * (size_t)jp.k;
  const char *kind = dim == 2 ? "Lines" : "Polys";
  head(af.f, np, kind, net->n, NULL, NULL);
  fprintf(af.f, "      <CellData>\n");
  data_array(af.f, "set", T_I32, 1, net->n, j_set, &jp);
  data_array(af.f, "radius", T_F64, 1, net->n, j_radius, &jp);
  data_array(af.f, "normal", T_F64, 3, net->n, j_normal, &jp);
  fprintf(af.f, "      </CellData>\n      <Points>\n");
  data_array(af.f, "Points", T_F64, 3, np, j_pt, &jp);
  fprintf(af.f, "      </Points>\n      <%s>\n", kind);
  data_array(af.f, "connectivity", T_I64, 1, np, conn_i64, NULL);
  data_array(af.f, "offsets", T_I64, 1, net->n, offs_i64, &each);
  fprintf(af.f, "      </%s>\n", kind);
  tail(af.f);
  return io_atomic_commit(&af, d);
}
