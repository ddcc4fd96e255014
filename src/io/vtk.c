/* VTK XML output for ParaView: balls as points (radius, id, velocity, spin, force, group, clump),
   walls as lines (2D) or polygons (3D) with id and velocity, contacts as lines between the two
   centres (or centre and contact point, for walls) with the contact force, model and slip state:
   force chains; the broken bonds as points; the clumps as points with their principal axes. Each
   output is five PolyData files (.vtp, base64-encoded binary) and a .pvd collection that lists
   every output with its model time. All files are written atomically. */
#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"
#include "contact/cracks.h"
#include "core/comm.h"
#include "core/xsum.h"
#include "io/io.h"
#include "measure/measure.h"
#include "par/par.h"

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

/* Where the writers write: a PolyData file, or (index) the .pvtp of a snapshot written as one
   piece per MPI rank, which declares the piece's arrays (no values) and lists the pieces. The
   writers below write either from the same calls. */
typedef struct vout {
  FILE *f;
  int index;              /* the .pvtp */
  int in_cells;           /* (index: inside Verts, Lines or Polys, which a .pvtp leaves out) */
  const char *piece_stem; /* (index: the pieces are STEM_RANK.vtp, ranks 0 to n_pieces - 1) */
  int n_pieces;
} vout;

/* One DataArray: 'get' writes element i's ncomp values into buf. */
typedef void (*elem_fn)(const void *ctx, size_t i, void *buf);

static void data_array(vout *o, const char *name, vtype t, int ncomp, size_t n, elem_fn get,
                       const void *ctx) {
  if (o->index) {
    if (!o->in_cells)
      fprintf(o->f, "        <PDataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\"/>\n",
              VT_NAME[t], name, ncomp);
    return;
  }
  FILE *f = o->f;
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

/* A section of a piece: PointData, CellData, Points (in the index PPointData, PCellData,
   PPoints), or a kind of cells (Verts, Lines, Polys: not in the index). attrs may be NULL. */
static void sec_open(vout *o, const char *name, const char *attrs) {
  int cells = name[0] != 'P' && name[0] != 'C'; /* (not PointData, Points, CellData) */
  if (o->index && cells) {
    o->in_cells = 1;
    return;
  }
  fprintf(o->f, "      <%s%s%s%s>\n", o->index ? "P" : "", name, attrs ? " " : "",
          attrs ? attrs : "");
}

static void sec_close(vout *o, const char *name) {
  if (o->index && o->in_cells) {
    o->in_cells = 0;
    return;
  }
  fprintf(o->f, "      </%s%s>\n", o->index ? "P" : "", name);
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
   before the first Piece (an index has none: its pieces hold it). */
static void head(vout *o, size_t npts, const char *cell_kind, size_t ncells,
                 void (*field)(FILE *, const cairn_world *), const cairn_world *w) {
  FILE *f = o->f;
  if (o->index) {
    fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"PPolyData\" version=\"1.0\" "
               "byte_order=\"LittleEndian\" header_type=\"UInt64\">\n  <PPolyData "
               "GhostLevel=\"0\">\n");
    return;
  }
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

static const char *base_name(const char *p) {
  const char *b = strrchr(p, '/');
  return b ? b + 1 : p;
}

static void tail(vout *o) {
  if (!o->index) {
    fprintf(o->f, "    </Piece>\n  </PolyData>\n</VTKFile>\n");
    return;
  }
  for (int r = 0; r < o->n_pieces; r++)
    fprintf(o->f, "    <Piece Source=\"%s_%d.vtp\"/>\n", base_name(o->piece_stem), r);
  fprintf(o->f, "  </PPolyData>\n</VTKFile>\n");
}

/* The end of a file of points (balls, cracks, clumps): the n points from 'get', each a vertex
   cell of its own, and the file's tail. */
static void points_as_verts(vout *o, size_t n, elem_fn get, const void *ctx) {
  cells one = {1};
  sec_open(o, "Points", NULL);
  data_array(o, "Points", T_F64, 3, n, get, ctx);
  sec_close(o, "Points");
  sec_open(o, "Verts", NULL);
  data_array(o, "connectivity", T_I64, 1, n, conn_i64, NULL);
  data_array(o, "offsets", T_I64, 1, n, offs_i64, &one);
  sec_close(o, "Verts");
  tail(o);
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

/* (a rank's own balls while the model is divided: the first balls_owned) */
static void write_balls(vout *o, const cairn_world *w) {
  size_t n = balls_owned(w);
  head(o, n, "Verts", n, NULL, w);
  sec_open(o, "PointData", "Scalars=\"radius\" Vectors=\"velocity\"");
  data_array(o, "radius", T_F64, 1, n, b_rad, w);
  data_array(o, "id", T_I64, 1, n, b_id, w);
  data_array(o, "velocity", T_F64, 3, n, b_vel, w);
  data_array(o, "spin", T_F64, 3, n, b_spin, w);
  data_array(o, "force", T_F64, 3, n, b_force, w);
  data_array(o, "group", T_I32, 1, n, b_group, w);
  data_array(o, "clump", T_I64, 1, n, b_clump, w);
  sec_close(o, "PointData");
  points_as_verts(o, n, b_pos, w);
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

/* Where the balls lie, for drawing the walls: their centroid (an exact sum, so that the same
   balls give the same bits in any order and on any rank count; the ranks' parts summed while the
   model is divided: collective) and their count; h: half the size of a plane's patch, 0.75 of the
   balls' largest extent (1 without balls). */
static void balls_spread(const cairn_world *w, double c[3], double *h, int64_t *count) {
  const ball_store *b = &w->balls;
  size_t n = balls_owned(w);
  xsum sum[3];
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {INFINITY, INFINITY, INFINITY};
  for (int k = 0; k < 3; k++) xsum_init(&sum[k]);
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < 3; k++) {
      xsum_add(&sum[k], b->pos[i][k]);
      lo[k] = fmin(lo[k], b->pos[i][k] - b->rad[i]);
      hi[k] = fmin(hi[k], -(b->pos[i][k] + b->rad[i])); /* (as a minimum: one reduction) */
    }
  *count = (int64_t)n;
  if (w->par) {
    double both[6] = {lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]};
    comm_min(both, 6);
    for (int k = 0; k < 3; k++) lo[k] = both[k], hi[k] = both[3 + k];
    comm_xsum(sum, 3);
    comm_sum_i64(count, 1);
  }
  *h = 0;
  for (int k = 0; k < 3; k++) {
    c[k] = *count ? xsum_value(&sum[k]) / (double)*count : 0;
    if (*count) *h = fmax(*h, 0.75 * (-hi[k] - lo[k]));
  }
  if (!(*h > 0)) *h = 1.0;
}

/* Two unit vectors u, v that make a right-handed frame with the unit vector n. */
static void frame_across(const double n[3], double u[3], double v[3]) {
  double ax[3] = {fabs(n[0]) < 0.9 ? 1.0 : 0.0, fabs(n[0]) < 0.9 ? 0.0 : 1.0, 0};
  v3_cross(n, ax, u);
  v3_scale(u, 1.0 / v3_norm(u), u);
  v3_cross(n, u, v);
}

/* Corners of a square patch of an infinite plane, centred at the projection of the balls'
   centroid 'mid' (NULL without balls: the plane's point), with half-size h. */
static void plane_patch(const double *mid, const wall *wl, double h, double out[4][3]) {
  double c[3], e[3], u[3], v[3];
  v3_copy(mid ? mid : wl->point, c);
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
static void cylinder_ring(const double *mid, const wall *wl, double out[RING][3]) {
  double c[3], e[3], u[3], v[3];
  v3_copy(mid ? mid : wl->point, c);
  v3_sub(c, wl->point, e);
  double along = v3_dot(e, wl->normal);
  for (int k = 0; k < 3; k++) c[k] = wl->point[k] + along * wl->normal[k];
  frame_across(wl->normal, u, v);
  for (int q = 0; q < RING; q++) {
    double t = 2.0 * M_PI * q / RING, cs = cos(t) * wl->radius, sn = sin(t) * wl->radius;
    for (int k = 0; k < 3; k++) out[q][k] = c[k] + cs * u[k] + sn * v[k];
  }
}

static cairn_status write_walls(vout *o, const cairn_world *w, cairn_diag *d) {
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
  double mid[3], h;
  int64_t nb;
  balls_spread(w, mid, &h, &nb);
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
      plane_patch(nb ? mid : NULL, wl, h, &wp.pts[at]);
      at += 4;
    } else if (wl->kind == WALL_CYLINDER) {
      cylinder_ring(nb ? mid : NULL, wl, &wp.pts[at]);
      at += RING;
    } else {
      for (int q = 0; q < wl->n_nodes; q++) v3_copy(wl->nodes[q], wp.pts[at++]);
    }
  }
  wp.start[ncell] = at;
  const char *kind = w->dim == 2 ? "Lines" : "Polys";
  head(o, np, kind, ncell, NULL, w);
  sec_open(o, "CellData", NULL);
  data_array(o, "id", T_I64, 1, ncell, w_id, &wp);
  data_array(o, "velocity", T_F64, 3, ncell, w_vel, &wp);
  data_array(o, "force", T_F64, 3, ncell, w_force, &wp);
  data_array(o, "triangle_force", T_F64, 3, ncell, w_tforce, &wp);
  data_array(o, "pressure", T_F64, 1, ncell, w_pressure, &wp);
  sec_close(o, "CellData");
  sec_open(o, "Points", NULL);
  data_array(o, "Points", T_F64, 3, np, wp_pt, &wp);
  sec_close(o, "Points");
  sec_open(o, kind, NULL);
  data_array(o, "connectivity", T_I64, 1, np, conn_i64, NULL);
  data_array(o, "offsets", T_I64, 1, ncell, wp_off, &wp);
  sec_close(o, kind);
  tail(o);
  mem_free(wp.pts, 0), mem_free(wp.start, 0), mem_free(wp.cell_wall, 0);
  mem_free(wp.tf, 0), mem_free(wp.pressure, 0);
  return CAIRN_OK;
}

/* ---- contacts: a line from side 1 (ball centre, or the contact point on a wall) to side 2 -- */

/* The contacts a file lists (this rank's, while the model is divided), in the order of their
   keys: the callbacks' i is an index of 'c'. */
typedef struct contact_sel {
  const cairn_world *w;
  uint32_t *c;
  size_t n;
} contact_sel;

static void c_pt(const void *c, size_t i, void *buf) {
  const contact_sel *cl = c;
  const cairn_world *w = cl->w;
  const contact_store *cs = w->contacts;
  uint32_t k = cl->c[i / 2];
  double pt[3];
  if (i % 2 == 1)
    v3_copy(w->balls.pos[cs->b[k]], pt);
  else if (cs->kind[k] == CAIRN_KIND_BALL_BALL && w->cell.on) {
    /* side 1 as side 2 sees it (its nearest image): the branch back from side 2's centre */
    double len = contact_branch_length(w, k);
    for (int q = 0; q < 3; q++) pt[q] = w->balls.pos[cs->b[k]][q] - len * cs->normal[k][q];
  } else if (cs->kind[k] == CAIRN_KIND_BALL_BALL)
    v3_copy(w->balls.pos[cs->a[k]], pt);
  else
    contact_point(w, k, pt);
  memcpy(buf, pt, 24);
}
static void c_fn(const void *c, size_t i, void *buf) {
  const contact_sel *cl = c;
  memcpy(buf, &cl->w->contacts->force[cl->c[i]][0], 8);
}
static void c_fs(const void *c, size_t i, void *buf) { /* shear magnitude */
  const contact_sel *cl = c;
  const double *f = cl->w->contacts->force[cl->c[i]];
  double s = sqrt(f[1] * f[1] + f[2] * f[2]);
  memcpy(buf, &s, 8);
}
static void c_fglob(const void *c, size_t i, void *buf) {
  const contact_sel *cl = c;
  double f[3];
  contact_force_global(cl->w, cl->c[i], f);
  memcpy(buf, f, 24);
}
static void c_model(const void *c, size_t i, void *buf) {
  const contact_sel *cl = c;
  int32_t m = cl->w->contacts->model[cl->c[i]];
  memcpy(buf, &m, 4);
}
static void c_kind(const void *c, size_t i, void *buf) {
  const contact_sel *cl = c;
  int32_t k = cl->w->contacts->kind[cl->c[i]];
  memcpy(buf, &k, 4);
}
static void c_active(const void *c, size_t i, void *buf) {
  const contact_sel *cl = c;
  int32_t a = cl->w->contacts->active[cl->c[i]];
  memcpy(buf, &a, 4);
}
/* Slip: the model's state field whose name ends in "slip" (lin_slip, bur_slip, ...), else 0. */
static void c_slip(const void *c, size_t i, void *buf) {
  const contact_sel *cl = c;
  const contact_store *cs = cl->w->contacts;
  uint32_t k = cl->c[i];
  const model_entry *e = &cl->w->reg->e[cs->model[k]];
  int32_t s = 0;
  for (int q = 0; q < e->m->n_state; q++) {
    const char *nm = e->m->state[q].name;
    size_t len = strlen(nm);
    if (len >= 4 && strcmp(nm + len - 4, "slip") == 0)
      s = pool_state(e, cs->blk[k])[e->state_off[q]] != 0;
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

typedef struct keyed_contact {
  uint64_t key;
  uint32_t c;
} keyed_contact;
static int keyed_contact_cmp(const void *x, const void *y) {
  const keyed_contact *a = x, *b = y;
  return (a->key > b->key) - (a->key < b->key);
}

/* The contacts this rank books (all of them on one process), in the order of their keys. */
static cairn_status select_contacts(const cairn_world *w, contact_sel *sel, cairn_diag *d) {
  const contact_store *cs = w->contacts;
  keyed_contact *k = mem_realloc(NULL, 0, (cs->n + 1) * sizeof *k, "vtk:contacts");
  sel->w = w, sel->n = 0;
  sel->c = mem_realloc(NULL, 0, (cs->n + 1) * sizeof *sel->c, "vtk:contacts");
  if (!k || !sel->c) {
    mem_free(k, 0), mem_free(sel->c, 0);
    sel->c = NULL;
    return diag_set(d, CAIRN_ENOMEM, "out of memory listing %zu contacts for VTK", cs->n);
  }
  for (size_t c = 0; c < cs->n; c++)
    if (rank_books_contact(w, cs->kind[c], cs->a[c], cs->b[c]))
      k[sel->n++] = (keyed_contact){contact_key_of(w, (uint32_t)c), (uint32_t)c};
  qsort(k, sel->n, sizeof *k, keyed_contact_cmp);
  for (size_t i = 0; i < sel->n; i++) sel->c[i] = k[i].c;
  mem_free(k, 0);
  return CAIRN_OK;
}

static cairn_status write_contacts(vout *o, const cairn_world *w, cairn_diag *d) {
  contact_sel sel;
  CAIRN_TRY(select_contacts(w, &sel, d));
  size_t n = sel.n;
  cells two = {2};
  head(o, 2 * n, "Lines", n, model_names, w);
  sec_open(o, "CellData", "Scalars=\"force_normal\"");
  data_array(o, "force_normal", T_F64, 1, n, c_fn, &sel);
  data_array(o, "force_shear", T_F64, 1, n, c_fs, &sel);
  data_array(o, "force", T_F64, 3, n, c_fglob, &sel);
  data_array(o, "model", T_I32, 1, n, c_model, &sel);
  data_array(o, "kind", T_I32, 1, n, c_kind, &sel);
  data_array(o, "active", T_I32, 1, n, c_active, &sel);
  data_array(o, "slip", T_I32, 1, n, c_slip, &sel);
  sec_close(o, "CellData");
  sec_open(o, "Points", NULL);
  data_array(o, "Points", T_F64, 3, 2 * n, c_pt, &sel);
  sec_close(o, "Points");
  sec_open(o, "Lines", NULL);
  data_array(o, "connectivity", T_I64, 1, 2 * n, conn_i64, NULL);
  data_array(o, "offsets", T_I64, 1, n, offs_i64, &two);
  sec_close(o, "Lines");
  tail(o);
  mem_free(sel.c, 0);
  return CAIRN_OK;
}

/* ---- cracks: the broken bonds, as points --------------------------------------------------- */

/* (the callbacks' ctx: the first crack the file lists) */
static void k_pt(const void *c, size_t i, void *buf) {
  memcpy(buf, ((const crack *)c)[i].pos, 24);
}
static void k_step(const void *c, size_t i, void *buf) {
  int64_t v = (int64_t)((const crack *)c)[i].step;
  memcpy(buf, &v, 8);
}
static void k_time(const void *c, size_t i, void *buf) {
  memcpy(buf, &((const crack *)c)[i].time, 8);
}
static void k_tension(const void *c, size_t i, void *buf) {
  int32_t v = ((const crack *)c)[i].tension;
  memcpy(buf, &v, 4);
}
static void k_id1(const void *c, size_t i, void *buf) {
  memcpy(buf, &((const crack *)c)[i].id1, 8);
}
static void k_id2(const void *c, size_t i, void *buf) {
  memcpy(buf, &((const crack *)c)[i].id2, 8);
}

/* (while the model is divided, this rank's: par_cracks_from) */
static void write_cracks(vout *o, const cairn_world *w) {
  size_t from = par_cracks_from(w), n = w->cracks->n - from;
  const crack *k0 = n ? w->cracks->c + from : NULL; /* (no list yet without cracks) */
  head(o, n, "Verts", n, NULL, w);
  sec_open(o, "PointData", "Scalars=\"tension\"");
  data_array(o, "tension", T_I32, 1, n, k_tension, k0); /* 1 tension, 0 shear */
  data_array(o, "step", T_I64, 1, n, k_step, k0);
  data_array(o, "time", T_F64, 1, n, k_time, k0);
  data_array(o, "id1", T_I64, 1, n, k_id1, k0);
  data_array(o, "id2", T_I64, 1, n, k_id2, k0);
  sec_close(o, "PointData");
  points_as_verts(o, n, k_pt, k0);
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

static void write_clumps(vout *o, const cairn_world *w) {
  size_t n = w->clumps.n;
  head(o, n, "Verts", n, NULL, w);
  sec_open(o, "PointData", "Scalars=\"id\" Vectors=\"velocity\"");
  data_array(o, "id", T_I64, 1, n, cl_id, w);
  data_array(o, "mass", T_F64, 1, n, cl_mass, w);
  data_array(o, "velocity", T_F64, 3, n, cl_vel, w);
  data_array(o, "spin", T_F64, 3, n, cl_spin, w);
  data_array(o, "axis1", T_F64, 3, n, cl_axis1, w); /* (the principal axes, least moment first) */
  data_array(o, "axis2", T_F64, 3, n, cl_axis2, w);
  data_array(o, "axis3", T_F64, 3, n, cl_axis3, w);
  sec_close(o, "PointData");
  points_as_verts(o, n, cl_pt, w);
}

/* ---- files ----------------------------------------------------------------------------- */

#define N_PARTS 5
#define VTK_STEM 4000            /* (a prefix is shorter than 3 900 bytes) */
#define VTK_PATH (VTK_STEM + 32) /* (a stem and "_RANK.vtp") */
static const char *const PARTS[N_PARTS] = {"balls", "walls", "contacts", "cracks", "clumps"};

/* (o->f set by the caller) */
static cairn_status write_part_to(vout *o, const cairn_world *w, int part, cairn_diag *d) {
  if (part == 0) write_balls(o, w);
  if (part == 1) return write_walls(o, w, d);
  if (part == 2) return write_contacts(o, w, d);
  if (part == 3) write_cracks(o, w);
  if (part == 4) write_clumps(o, w);
  return CAIRN_OK;
}

/* One part of a snapshot, STEM.vtp, written by rank 0 (every rank computes it alike and writes
   nowhere: io_atomic_open). */
static cairn_status write_whole(const cairn_world *w, int part, const char stem[VTK_STEM],
                                cairn_diag *d) {
  char path[VTK_PATH];
  snprintf(path, sizeof path, "%s.vtp", stem);
  atomic_file af;
  CAIRN_TRY(io_atomic_open(&af, path, d));
  vout o = {af.f, 0, 0, NULL, 0};
  cairn_status s = write_part_to(&o, w, part, d);
  if (s != CAIRN_OK) {
    io_atomic_abort(&af);
    return s;
  }
  return io_atomic_commit(&af, d);
}

/* One part of a snapshot of a divided model (balls, contacts, cracks): each rank writes its own
   as STEM_RANK.vtp, then rank 0 the index STEM.pvtp that names them all; collective. A failure
   on any rank leaves none of the pieces. */
static cairn_status write_pieces(const cairn_world *w, int part, const char stem[VTK_STEM],
                                 cairn_diag *d) {
  char path[VTK_PATH], index[VTK_PATH];
  snprintf(path, sizeof path, "%s_%d.vtp", stem, comm_rank());
  snprintf(index, sizeof index, "%s.pvtp", stem);
  atomic_file af;
  cairn_status s = io_atomic_open_own(&af, path, d);
  vout o = {af.f, 0, 0, NULL, 0};
  if (s == CAIRN_OK) s = write_part_to(&o, w, part, d);
  if (s == CAIRN_OK)
    s = io_atomic_commit_own(&af, d);
  else if (af.f)
    io_atomic_abort(&af);
  int mine = s == CAIRN_OK; /* (this rank's piece is in place) */
  s = comm_agree(s, d);
  if (s == CAIRN_OK) s = io_atomic_open(&af, index, d);
  if (s == CAIRN_OK) {
    vout ix = {af.f, 1, 0, stem, comm_size()};
    s = write_part_to(&ix, w, part, d);
    if (s == CAIRN_OK)
      s = io_atomic_commit(&af, d);
    else
      io_atomic_abort(&af);
  }
  if (s != CAIRN_OK && mine) remove(path);
  return s;
}

cairn_status io_vtk_write(const cairn_world *w, vtk_series *vs, const char *prefix, cairn_diag *d) {
  CAIRN_CHECK(prefix && prefix[0] && strlen(prefix) < 3900, d, CAIRN_EINVAL,
              "vtk: give a file prefix such as \"out/pack\"");
  CAIRN_CHECK(prefix[strlen(prefix) - 1] != '/', d, CAIRN_EINVAL,
              "'%s' names a folder, not a file prefix; give a prefix in it, for example '%spack'",
              prefix, prefix);
  /* (a cache the world keeps: the balls' clumps for the 'clump' array) */
  if (w->clumps.n) CAIRN_TRY(clump_slots((cairn_world *)w, d));
  /* A divided model's balls, contacts and cracks are written by their ranks, one piece each
     (walls and clumps, which every rank holds whole, by rank 0 as one file) */
  int pieces = w->par ? comm_size() : 0;
  char stem[VTK_STEM];
  size_t k = vs ? vs->n : 0;
  for (int part = 0; part < N_PARTS; part++) {
    if (vs)
      snprintf(stem, sizeof stem, "%s_%s_%05zu", prefix, PARTS[part], k);
    else
      snprintf(stem, sizeof stem, "%s_%s", prefix, PARTS[part]);
    if (pieces && (part == 0 || part == 2 || part == 3))
      CAIRN_TRY(write_pieces(w, part, stem, d));
    else
      CAIRN_TRY(write_whole(w, part, stem, d));
  }
  if (!vs) return CAIRN_OK;
  /* The collection lists every output so far, with its time, for ParaView's time slider. */
  CAIRN_TRY(mem_grow((void **)&vs->frame, &vs->cap, vs->n + 1, sizeof *vs->frame, "vtk:times", d));
  vs->frame[vs->n++] = (vtk_frame){w->time, pieces > 0};
  char path[4096];
  snprintf(path, sizeof path, "%s.pvd", prefix);
  atomic_file af;
  CAIRN_TRY(io_atomic_open(&af, path, d));
  fprintf(af.f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"1.0\" "
                "byte_order=\"LittleEndian\">\n  <Collection>\n");
  for (size_t i = 0; i < vs->n; i++)
    for (int part = 0; part < N_PARTS; part++) {
      int pvtp = vs->frame[i].pieces && (part == 0 || part == 2 || part == 3);
      fprintf(af.f, "    <DataSet timestep=\"%.17g\" part=\"%d\" file=\"%s_%s_%05zu.%s\"/>\n",
              vs->frame[i].time, part, base_name(prefix), PARTS[part], i, pvtp ? "pvtp" : "vtp");
    }
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
  vout out = {af.f, 0, 0, NULL, 0}, *o = &out;
  head(o, np, kind, net->n, NULL, NULL);
  sec_open(o, "CellData", NULL);
  data_array(o, "set", T_I32, 1, net->n, j_set, &jp);
  data_array(o, "radius", T_F64, 1, net->n, j_radius, &jp);
  data_array(o, "normal", T_F64, 3, net->n, j_normal, &jp);
  sec_close(o, "CellData");
  sec_open(o, "Points", NULL);
  data_array(o, "Points", T_F64, 3, np, j_pt, &jp);
  sec_close(o, "Points");
  sec_open(o, kind, NULL);
  data_array(o, "connectivity", T_I64, 1, np, conn_i64, NULL);
  data_array(o, "offsets", T_I64, 1, net->n, offs_i64, &each);
  sec_close(o, kind);
  tail(o);
  return io_atomic_commit(&af, d);
}
