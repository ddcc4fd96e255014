/* Triangle meshes of mesh walls (world/mesh.h): building one (merging vertices, the checks, a grid
   of triangles) and the nearest point of a mesh to a ball's centre. */
#include <stdlib.h>
#include <string.h>

#include "world/mesh.h"

void mesh_free(wall_mesh *m) {
  if (!m) return;
  mem_free(m->v, 0), mem_free(m->t, 0), mem_free(m->n, 0), mem_free(m->ts, 0);
  mem_free(m->face, 0);
  mem_free(m->cell_start, 0), mem_free(m->cell_tri, 0), mem_free(m->hint, 0);
  mem_free(m->list_start, 0), mem_free(m->list_at, 0), mem_free(m->list, 0);
  mem_free(m->stamp, 0);
  mem_free(m->nb, 0), mem_free(m->vt_start, 0), mem_free(m->vt, 0);
  mem_free(m->pick, 0), mem_free(m->pick_of, 0);
  mem_free(m, 0);
}

cairn_status mesh_hints(wall_mesh *m, size_t n, cairn_diag *d) {
  if (n <= m->n_hint) return CAIRN_OK;
  size_t cap = mem_next_cap(m->n_hint, n);
  CAIRN_TRY(mem_resize_raw((void **)&m->hint, m->n_hint, cap, sizeof *m->hint, "mesh:hints", d));
  for (size_t i = m->n_hint; i < cap; i++) m->hint[i] = UINT32_MAX;
  m->n_hint = cap;
  return CAIRN_OK;
}

/* The planes' offsets of face k (mesh.h, wall_mesh.face) from its vertices. */
static void face_offsets(wall_mesh *m, size_t k) {
  double *f = m->face[k];
  f[3] = v3_dot(f, m->v[m->t[k][0]]);
  for (int i = 0; i < 3; i++) f[7 + 4 * i] = v3_dot(f + 4 + 4 * i, m->v[m->t[k][i]]);
}

void mesh_shift(wall_mesh *m, const double e[3]) {
  for (size_t i = 0; i < m->nv; i++) v3_add(m->v[i], e, m->v[i]);
  for (size_t k = 0; k < m->nt; k++) v3_add(m->ts[k], e, m->ts[k]), face_offsets(m, k);
  v3_add(m->lo, e, m->lo);
  m->radius = 0;
  for (size_t i = 0; i < m->nv; i++) m->radius = fmax(m->radius, v3_norm(m->v[i]));
  m->slack = 1e-12 * m->radius;
  m->list_next = 0; /* (the lists were in the old frame) */
}

typedef struct corner {
  double x[3];
  uint32_t at; /* 3 triangle + corner */
} corner;

static int corner_cmp(const void *a, const void *b) {
  const double *x = ((const corner *)a)->x, *y = ((const corner *)b)->x;
  for (int k = 0; k < 3; k++)
    if (x[k] != y[k]) return x[k] < y[k] ? -1 : 1;
  return 0;
}

typedef struct edge_key {
  uint32_t a, b, tri;
  int dir;  /* +1: the triangle runs a -> b; -1: b -> a */
  int side; /* the triangle's edge: from its corner 'side' to the next */
} edge_key;

static int edge_cmp(const void *x, const void *y) {
  const edge_key *e = x, *f = y;
  if (e->a != f->a) return e->a < f->a ? -1 : 1;
  if (e->b != f->b) return e->b < f->b ? -1 : 1;
  return e->tri < f->tri ? -1 : e->tri > f->tri;
}

/* The neighbour tables' room (nb, vt_start, vt) for elements of 'corners' distinct corners (a
   triangle 3, a segment 2), nb all none. */
static cairn_status neighbour_room(wall_mesh *m, int corners, const char *what, cairn_diag *d) {
  size_t nt = m->nt, nv = m->nv;
  m->nb = mem_realloc(NULL, 0, nt * sizeof *m->nb, "mesh:neighbours");
  m->vt_start = mem_realloc(NULL, 0, (nv + 1) * sizeof *m->vt_start, "mesh:neighbours");
  m->vt = mem_realloc(NULL, 0, (size_t)corners * nt * sizeof *m->vt, "mesh:neighbours");
  CAIRN_CHECK(m->nb && m->vt_start && m->vt, d, CAIRN_ENOMEM,
              "out of memory building the mesh of %s", what);
  memset(m->nb, 0xff, nt * sizeof *m->nb);
  return CAIRN_OK;
}

/* Each vertex's elements (vt), in increasing order, from their first 'corners' corners. */
static void vertex_lists(wall_mesh *m, int corners) {
  size_t nt = m->nt, nv = m->nv;
  memset(m->vt_start, 0, (nv + 1) * sizeof *m->vt_start);
  for (size_t k = 0; k < nt; k++)
    for (int i = 0; i < corners; i++) m->vt_start[m->t[k][i] + 1]++;
  for (size_t v = 0; v < nv; v++) m->vt_start[v + 1] += m->vt_start[v];
  for (size_t k = 0; k < nt; k++)
    for (int i = 0; i < corners; i++) m->vt[m->vt_start[m->t[k][i]]++] = (uint32_t)k;
  for (size_t v = nv; v > 0; v--) m->vt_start[v] = m->vt_start[v - 1];
  m->vt_start[0] = 0;
}

/* Each triangle's neighbours across its edges (from the edges e, sorted, each shared by one or
   two triangles) and each vertex's triangles: what tells whether a point on an edge or at a
   corner is a local minimum of a ball's distance (mesh_points). */
static cairn_status adjacency(wall_mesh *m, const edge_key *e, const char *what, cairn_diag *d) {
  CAIRN_TRY(neighbour_room(m, 3, what, d));
  for (size_t i = 0; i + 1 < 3 * m->nt; i++)
    if (e[i].a == e[i + 1].a && e[i].b == e[i + 1].b) {
      m->nb[e[i].tri][e[i].side] = e[i + 1].tri;
      m->nb[e[i + 1].tri][e[i + 1].side] = e[i].tri;
    }
  vertex_lists(m, 3);
  return CAIRN_OK;
}

static cairn_status grid(wall_mesh *m, const char *what, cairn_diag *d);

/* A polyline's checks and planes (mesh.h, wall_mesh.segments): segment k is (p, q, q); its face
   plane is its line, with the unit normal (dy, -dx, 0) / length, and its 'edges' the two ends
   (an end plane through p facing along p -> q, one through q facing back) and a third plane that
   every point is inside (zero normal and offset), so that mesh_tri_point gives a point inside
   the segment's span its foot on the line, and any other its nearer end. */
static cairn_status segment_planes(wall_mesh *m, const char *what, cairn_diag *d) {
  size_t nt = m->nt, nv = m->nv;
  CAIRN_TRY(neighbour_room(m, 2, what, d));
  for (size_t k = 0; k < nt; k++) {
    const double *p = m->v[m->t[k][0]], *q = m->v[m->t[k][1]];
    double u[3], len;
    v3_sub(q, p, u);
    len = v3_norm(u);
    if (m->t[k][1] != m->t[k][2] || p[2] != 0 || q[2] != 0)
      return diag_set(d, CAIRN_EINVAL,
                      "%s: element %zu is not a segment of a 2D polyline (three corners, or a "
                      "point off the plane z = 0)",
                      what, k + 1);
    if (m->t[k][0] == m->t[k][1] || !(len > 0))
      return diag_set(d, CAIRN_EINVAL,
                      "%s: segment %zu has no length (its two ends are the same point); remove "
                      "the repeated vertex",
                      what, k + 1);
    v3_scale(u, 1.0 / len, u);
    double *f = m->face[k];
    memset(f, 0, sizeof m->face[k]);
    f[0] = u[1], f[1] = -u[0];
    v3_copy(f, m->n[k]);
    v3_copy(u, f + 4);
    v3_scale(u, -1.0, f + 8);
    face_offsets(m, k);
    for (int i = 0; i < 3; i++) m->ts[k][i] = 0.5 * (p[i] + q[i]);
    m->ts[k][3] = 0.5 * len * (1 + 1e-12); /* (room for the rounding of the test) */
  }
  vertex_lists(m, 2);
  for (size_t v = 0; v < nv; v++)
    if (m->vt_start[v + 1] - m->vt_start[v] > 2)
      return diag_set(d, CAIRN_EINVAL,
                      "%s: segment %u's end (%g, %g) is shared by %u segments (a polyline may "
                      "not branch: at most two segments meet at a vertex); split it into "
                      "polylines that meet at no vertex",
                      what, m->vt[m->vt_start[v]] + 1, m->v[v][0], m->v[v][1],
                      m->vt_start[v + 1] - m->vt_start[v]);
  return CAIRN_OK;
}

/* The checks, the normals, the radius and the grid of a mesh whose v and t are set. */
static cairn_status finish(wall_mesh *m, const char *what, cairn_diag *d) {
  size_t nt = m->nt;
  m->n = mem_realloc(NULL, 0, nt * sizeof *m->n, "mesh:normals");
  m->ts = mem_realloc(NULL, 0, nt * sizeof *m->ts, "mesh:spheres");
  m->face = mem_realloc(NULL, 0, nt * sizeof *m->face, "mesh:faces");
  edge_key *e = mem_realloc(NULL, 0, 3 * nt * sizeof *e, "mesh:check");
  if (!m->n || !m->ts || !m->face || !e) {
    mem_free(e, 0);
    return diag_set(d, CAIRN_ENOMEM, "out of memory building the mesh of %s", what);
  }
  cairn_status s = CAIRN_OK;
  if (m->segments) {
    mem_free(e, 0);
    CAIRN_TRY(segment_planes(m, what, d));
    return grid(m, what, d);
  }
  for (size_t k = 0; k < nt && !s; k++) {
    const double *a = m->v[m->t[k][0]], *b = m->v[m->t[k][1]], *c = m->v[m->t[k][2]];
    double e1[3], e2[3], x[3];
    v3_sub(b, a, e1), v3_sub(c, a, e2), v3_cross(e1, e2, x);
    double area2 = v3_norm(x), l2 = fmax(v3_dot(e1, e1), v3_dot(e2, e2));
    if (!(area2 > 1e-12 * l2) || m->t[k][0] == m->t[k][1] || m->t[k][1] == m->t[k][2] ||
        m->t[k][0] == m->t[k][2])
      s = diag_set(d, CAIRN_EINVAL,
                   "%s: triangle %zu has no area (its corners are on one line or the same point); "
                   "remove it from the mesh",
                   what, k + 1);
    else
      v3_scale(x, 1.0 / area2, m->n[k]);
    double rad = 0;
    for (int i = 0; i < 3; i++) m->ts[k][i] = (a[i] + b[i] + c[i]) / 3;
    for (int i = 0; i < 3; i++) {
      double q[3];
      v3_sub(m->v[m->t[k][i]], m->ts[k], q);
      rad = fmax(rad, v3_norm(q));
    }
    m->ts[k][3] = rad * (1 + 1e-12); /* (room for the rounding of the test) */
    if (!s) {
      v3_copy(m->n[k], m->face[k]);
      for (int i = 0; i < 3; i++) { /* n x edge points into the triangle */
        double ed[3], in[3];
        v3_sub(m->v[m->t[k][(i + 1) % 3]], m->v[m->t[k][i]], ed);
        v3_cross(m->n[k], ed, in);
        v3_scale(in, 1.0 / v3_norm(in), m->face[k] + 4 + 4 * i);
      }
      face_offsets(m, k);
    }
    for (int i = 0; i < 3; i++) {
      uint32_t p = m->t[k][i], q = m->t[k][(i + 1) % 3];
      e[3 * k + (size_t)i] =
          (edge_key){p < q ? p : q, p < q ? q : p, (uint32_t)k, p < q ? 1 : -1, i};
    }
  }
  if (!s) {
    qsort(e, 3 * nt, sizeof *e, edge_cmp);
    for (size_t i = 0; i < 3 * nt && !s;) {
      size_t j = i + 1;
      while (j < 3 * nt && e[j].a == e[i].a && e[j].b == e[i].b) j++;
      if (j - i > 2)
        s = diag_set(d, CAIRN_EINVAL,
                     "%s: an edge of triangle %u is shared by %zu triangles (at most two may "
                     "share an edge); the mesh is not a surface there: remove the extra faces",
                     what, e[i].tri + 1, j - i);
      i = j;
    }
  }
  if (!s) s = adjacency(m, e, what, d);
  mem_free(e, 0);
  if (s) return s;
  return grid(m, what, d);
}

/* The radius, the slack and the grid of a checked mesh. */
static cairn_status grid(wall_mesh *m, const char *what, cairn_diag *d) {
  size_t nt = m->nt;
  /* the grid: about one triangle per cell, cells no smaller than the mean edge */
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  double edge = 0;
  m->radius = 0;
  for (size_t i = 0; i < m->nv; i++) {
    for (int k = 0; k < 3; k++) lo[k] = fmin(lo[k], m->v[i][k]), hi[k] = fmax(hi[k], m->v[i][k]);
    m->radius = fmax(m->radius, v3_norm(m->v[i]));
  }
  m->slack = 1e-12 * m->radius;
  for (size_t k = 0; k < nt; k++) {
    double e1[3];
    v3_sub(m->v[m->t[k][1]], m->v[m->t[k][0]], e1);
    edge += v3_norm(e1);
  }
  edge /= (double)nt;
  double ext = fmax(hi[0] - lo[0], fmax(hi[1] - lo[1], hi[2] - lo[2]));
  double h = fmax(edge, ext / 256);
  size_t cells = 1;
  for (int k = 0; k < 3; k++) {
    m->nc[k] = (int)floor((hi[k] - lo[k]) / h) + 1;
    m->lo[k] = lo[k];
    cells *= (size_t)m->nc[k];
  }
  m->h = h;
  m->cell_start = mem_realloc(NULL, 0, (cells + 1) * sizeof *m->cell_start, "mesh:grid");
  CAIRN_CHECK(m->cell_start, d, CAIRN_ENOMEM, "out of memory building the mesh of %s", what);
  memset(m->cell_start, 0, (cells + 1) * sizeof *m->cell_start);
  /* two passes: count each cell's triangles, then fill */
  for (int pass = 0; pass < 2; pass++) {
    if (pass == 1) {
      for (size_t c = 0; c < cells; c++) m->cell_start[c + 1] += m->cell_start[c];
      m->cell_tri =
          mem_realloc(NULL, 0, (m->cell_start[cells] + 1) * sizeof *m->cell_tri, "mesh:grid");
      CAIRN_CHECK(m->cell_tri, d, CAIRN_ENOMEM, "out of memory building the mesh of %s", what);
    }
    for (size_t k = 0; k < nt; k++) {
      int c0[3], c1[3];
      for (int a = 0; a < 3; a++) {
        double tlo = INFINITY, thi = -INFINITY;
        for (int i = 0; i < 3; i++)
          tlo = fmin(tlo, m->v[m->t[k][i]][a]), thi = fmax(thi, m->v[m->t[k][i]][a]);
        c0[a] = (int)floor((tlo - lo[a]) / h), c1[a] = (int)floor((thi - lo[a]) / h);
        if (c0[a] < 0) c0[a] = 0;
        if (c1[a] >= m->nc[a]) c1[a] = m->nc[a] - 1;
      }
      for (int z = c0[2]; z <= c1[2]; z++)
        for (int y = c0[1]; y <= c1[1]; y++)
          for (int x = c0[0]; x <= c1[0]; x++) {
            size_t c = ((size_t)z * (size_t)m->nc[1] + (size_t)y) * (size_t)m->nc[0] + (size_t)x;
            if (pass == 0)
              m->cell_start[c + 1]++;
            else
              m->cell_tri[m->cell_start[c]++] = (uint32_t)k;
          }
    }
  }
  for (size_t c = cells; c > 0; c--) m->cell_start[c] = m->cell_start[c - 1];
  m->cell_start[0] = 0;
  return CAIRN_OK;
}

cairn_status mesh_check_closed(const wall_mesh *m, const char *what, cairn_diag *d) {
  size_t n = 3 * m->nt;
  edge_key *e = mem_realloc(NULL, 0, n * sizeof *e, "mesh:check");
  CAIRN_CHECK(e, d, CAIRN_ENOMEM, "out of memory checking the surface %s", what);
  for (size_t k = 0; k < m->nt; k++)
    for (int i = 0; i < 3; i++) {
      uint32_t p = m->t[k][i], q = m->t[k][(i + 1) % 3];
      e[3 * k + (size_t)i] =
          (edge_key){p < q ? p : q, p < q ? q : p, (uint32_t)k, p < q ? 1 : -1, i};
    }
  qsort(e, n, sizeof *e, edge_cmp);
  cairn_status s = CAIRN_OK;
  for (size_t i = 0; i < n && !s;) {
    size_t j = i + 1;
    while (j < n && e[j].a == e[i].a && e[j].b == e[i].b) j++;
    if (j - i != 2)
      s = diag_set(d, CAIRN_EINVAL,
                   "%s is not a closed surface: an edge of triangle %u is shared by %zu "
                   "triangle%s (a closed surface shares each edge between exactly two); close the "
                   "holes or remove the extra faces",
                   what, e[i].tri + 1, j - i, j - i == 1 ? "" : "s");
    else if (e[i].dir == e[i + 1].dir)
      s = diag_set(d, CAIRN_EINVAL,
                   "%s: triangles %u and %u run the wrong way round to each other (their shared "
                   "edge goes the same way in both); orient the surface's triangles consistently",
                   what, e[i].tri + 1, e[i + 1].tri + 1);
    i = j;
  }
  mem_free(e, 0);
  return s;
}

/* mesh_build and mesh_build_segments (a polyline's segments as triangles (p, q, q)). */
static cairn_status build(const double (*tri)[3][3], size_t n, int segments, const char *what,
                          wall_mesh **out, cairn_diag *d) {
  CAIRN_CHECK(n >= 1 && n < (1u << 30), d, CAIRN_EINVAL, "%s: a mesh needs 1 to 2^30 %s", what,
              segments ? "segments" : "triangles");
  wall_mesh *m = mem_realloc(NULL, 0, sizeof *m, "mesh");
  CAIRN_CHECK(m, d, CAIRN_ENOMEM, "out of memory building the mesh of %s", what);
  memset(m, 0, sizeof *m);
  m->segments = segments;
  corner *cs = mem_realloc(NULL, 0, 3 * n * sizeof *cs, "mesh:corners");
  m->t = mem_realloc(NULL, 0, n * sizeof *m->t, "mesh:triangles");
  m->v = mem_realloc(NULL, 0, 3 * n * sizeof *m->v, "mesh:vertices");
  if (!cs || !m->t || !m->v) {
    mem_free(cs, 0), mesh_free(m);
    return diag_set(d, CAIRN_ENOMEM, "out of memory building the mesh of %s", what);
  }
  /* a vertex for each distinct point (an STL file repeats them per triangle) */
  for (size_t k = 0; k < n; k++)
    for (int i = 0; i < 3; i++) {
      v3_copy(tri[k][i], cs[3 * k + (size_t)i].x);
      cs[3 * k + (size_t)i].at = (uint32_t)(3 * k + (size_t)i);
    }
  qsort(cs, 3 * n, sizeof *cs, corner_cmp);
  size_t nv = 0;
  for (size_t i = 0; i < 3 * n; i++) {
    if (i == 0 || corner_cmp(&cs[i], &cs[i - 1])) v3_copy(cs[i].x, m->v[nv++]);
    m->t[cs[i].at / 3][cs[i].at % 3] = (uint32_t)(nv - 1);
  }
  mem_free(cs, 0);
  m->nv = nv, m->nt = n;
  cairn_status s = finish(m, what, d);
  if (s) {
    mesh_free(m);
    return s;
  }
  *out = m;
  return CAIRN_OK;
}

cairn_status mesh_build(const double (*tri)[3][3], size_t n, const char *what, wall_mesh **out,
                        cairn_diag *d) {
  return build(tri, n, 0, what, out, d);
}

cairn_status mesh_build_segments(const double (*seg)[2][3], size_t n, const char *what,
                                 wall_mesh **out, cairn_diag *d) {
  double(*tri)[3][3] = mem_realloc(NULL, 0, (n + 1) * sizeof *tri, "mesh:segments");
  CAIRN_CHECK(tri, d, CAIRN_ENOMEM, "out of memory building the polyline of %s", what);
  for (size_t k = 0; k < n; k++) {
    v3_copy(seg[k][0], tri[k][0]);
    v3_copy(seg[k][1], tri[k][1]);
    v3_copy(seg[k][1], tri[k][2]);
  }
  cairn_status s = build((const double(*)[3][3])tri, n, 1, what, out, d);
  mem_free(tri, 0);
  return s;
}

cairn_status mesh_from_arrays(const double (*v)[3], size_t nv, const uint32_t (*t)[3], size_t nt,
                              int segments, const char *what, wall_mesh **out, cairn_diag *d) {
  wall_mesh *m = mem_realloc(NULL, 0, sizeof *m, "mesh");
  CAIRN_CHECK(m, d, CAIRN_ENOMEM, "out of memory building the mesh of %s", what);
  memset(m, 0, sizeof *m);
  m->segments = segments;
  m->v = mem_realloc(NULL, 0, nv * sizeof *m->v, "mesh:vertices");
  m->t = mem_realloc(NULL, 0, nt * sizeof *m->t, "mesh:triangles");
  if (!m->v || !m->t) {
    mesh_free(m);
    return diag_set(d, CAIRN_ENOMEM, "out of memory building the mesh of %s", what);
  }
  memcpy(m->v, v, nv * sizeof *m->v);
  memcpy(m->t, t, nt * sizeof *m->t);
  m->nv = nv, m->nt = nt;
  cairn_status s = finish(m, what, d);
  if (s) {
    mesh_free(m);
    return s;
  }
  *out = m;
  return CAIRN_OK;
}

/* The point of triangle (a, b, c) nearest to p (Ericson, Real-Time Collision Detection, 5.1.5:
   by the Voronoi regions of the corners, edges and face). */
static void closest_on_triangle(const double a[3], const double b[3], const double c[3],
                                const double p[3], double q[3]) {
  double ab[3], ac[3], ap[3], bp[3], cp[3];
  v3_sub(b, a, ab), v3_sub(c, a, ac), v3_sub(p, a, ap);
  double d1 = v3_dot(ab, ap), d2 = v3_dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) {
    v3_copy(a, q);
    return;
  }
  v3_sub(p, b, bp);
  double d3 = v3_dot(ab, bp), d4 = v3_dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) {
    v3_copy(b, q);
    return;
  }
  double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    double t = d1 / (d1 - d3);
    for (int k = 0; k < 3; k++) q[k] = a[k] + t * ab[k];
    return;
  }
  v3_sub(p, c, cp);
  double d5 = v3_dot(ab, cp), d6 = v3_dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) {
    v3_copy(c, q);
    return;
  }
  double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    double t = d2 / (d2 - d6);
    for (int k = 0; k < 3; k++) q[k] = a[k] + t * ac[k];
    return;
  }
  double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
    double t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    for (int k = 0; k < 3; k++) q[k] = b[k] + t * (c[k] - b[k]);
    return;
  }
  double den = 1.0 / (va + vb + vc), v = vb * den, w = vc * den;
  for (int k = 0; k < 3; k++) q[k] = a[k] + ab[k] * v + ac[k] * w;
}

void mesh_closest_on_triangle(const wall_mesh *m, uint32_t k, const double c[3], double q[3]) {
  closest_on_triangle(m->v[m->t[k][0]], m->v[m->t[k][1]], m->v[m->t[k][2]], c, q);
}

static inline double tri_point(const wall_mesh *m, uint32_t k, const double c[3], double limit,
                               double q[3], double *hf) {
  return mesh_tri_point(m, k, m->face[k], c, limit, q, hf);
}

/* The running state of a nearest-triangle search. A triangle is skipped when a lower bound of
   its distance is beyond 'root' (the bound's root, rounded up by a relative and an absolute
   slack: the lower bounds are computed otherwise than the distance itself and may round above
   it, so a skip must leave that room), or when its distance's square is beyond 'bound'. */
typedef struct nearest {
  double bound, root, best, q[3], h; /* h: the best's signed plane distance (NAN: not its face) */
  uint32_t best_k;
} nearest;

static inline void nearest_bound(const wall_mesh *m, nearest *s, double bound) {
  s->bound = bound;
  s->root = sqrt(bound) * (1 + 1e-12) + m->slack;
}

static inline void nearest_start_at(const wall_mesh *m, nearest *s, double bound, uint32_t hint,
                                    double d2, const double p[3], double hp) {
  s->best = INFINITY, s->best_k = UINT32_MAX, s->h = NAN;
  v3_zero(s->q);
  /* the hint, where near enough, is the first best: the rest must beat it (the answer does not
     depend on the hint: the least distance wins, ties to the lowest triangle) */
  if (d2 <= bound) bound = d2, s->best = d2, s->best_k = hint, s->h = hp, v3_copy(p, s->q);
  nearest_bound(m, s, bound);
}

static inline void nearest_start(const wall_mesh *m, nearest *s, double bound, uint32_t hint,
                                 const double c[3]) {
  double p[3] = {0, 0, 0}, hp = NAN;
  double d2 = hint < m->nt ? tri_point(m, hint, c, INFINITY, p, &hp) : INFINITY;
  nearest_start_at(m, s, bound, hint, d2, p, hp);
}

/* Triangle k against the search (its bounding sphere tested first where 'sphere'). */
static inline void nearest_try(const wall_mesh *m, uint32_t k, const double c[3], nearest *s,
                               int sphere) {
  if (k == s->best_k) return;
  double p[3], e[3], hp = NAN;
  if (sphere) {
    v3_sub(c, m->ts[k], e);
    double reach_k = m->ts[k][3] + s->root; /* (beyond its sphere by more than the bound) */
    if (v3_dot(e, e) > reach_k * reach_k) return;
  }
  double d2 = tri_point(m, k, c, s->root * s->root, p, &hp);
  if (d2 > s->bound) return;
  nearest_bound(m, s, d2);
  if (d2 < s->best || (d2 == s->best && k < s->best_k))
    s->best = d2, s->best_k = k, s->h = hp, v3_copy(p, s->q);
}

/* The cells of the grid within distance 'reach' of c (0: none). Compared as doubles before any
   conversion: a ball far outside the grid (or a non-finite position read from a file) must not
   reach an out-of-range int conversion. */
static int cell_range(const wall_mesh *m, const double c[3], double reach, int c0[3], int c1[3]) {
  for (int a = 0; a < 3; a++) {
    double f0 = floor((c[a] - reach - m->lo[a]) / m->h);
    double f1 = floor((c[a] + reach - m->lo[a]) / m->h);
    if (!(f0 <= f1) || f1 < 0 || f0 >= m->nc[a]) return 0;
    c0[a] = f0 < 0 ? 0 : (int)f0;
    c1[a] = f1 >= m->nc[a] ? m->nc[a] - 1 : (int)f1;
  }
  return 1;
}

int mesh_closest(const wall_mesh *m, const double c[3], double reach, double q[3], uint32_t *tri,
                 double *hf) {
  int c0[3], c1[3];
  if (!cell_range(m, c, reach, c0, c1)) return 0;
  nearest s;
  nearest_start(m, &s, reach * reach, *tri, c);
  for (int z = c0[2]; z <= c1[2]; z++)
    for (int y = c0[1]; y <= c1[1]; y++)
      for (int x = c0[0]; x <= c1[0]; x++) {
        size_t cell = ((size_t)z * (size_t)m->nc[1] + (size_t)y) * (size_t)m->nc[0] + (size_t)x;
        for (uint32_t i = m->cell_start[cell]; i < m->cell_start[cell + 1]; i++)
          nearest_try(m, m->cell_tri[i], c, &s, 1);
      }
  if (s.best_k == UINT32_MAX) return 0;
  v3_copy(s.q, q);
  *tri = s.best_k, *hf = s.h;
  return 1;
}

/* Whether the listed triangles list[i0 .. i1) (k1 the nearest) may give a ball near c more than
   one contact before the next rebuild (mesh_near.multi): where every normal, turned towards c,
   is within half the crease angle of the nearest one's, any two minima's normals (each within
   the cone of its triangles' normals) are within the crease angle, so one contact stands. */
static int list_multi(const wall_mesh *m, const double c[3], double margin, uint32_t i0,
                      uint32_t i1, uint32_t k1) {
  if (k1 >= m->nt) return 0;
  const double half_cos = 0.98480775301220802; /* cos 10 degrees: half the crease angle */
  double o1[3], h1 = v3_dot(c, m->face[k1]) - m->face[k1][3];
  v3_scale(m->face[k1], h1 > 0 ? 1.0 : -1.0, o1);
  for (uint32_t i = i0; i < i1; i++) {
    const double *f = m->face[m->list[i].k];
    double h = v3_dot(c, f) - f[3];
    if (!(fabs(h) > margin)) return 1; /* (the ball may reach its plane: either side) */
    if ((h > 0 ? 1.0 : -1.0) * v3_dot(f, o1) < half_cos) return 1;
  }
  return 0;
}

cairn_status mesh_lists_begin(wall_mesh *m, size_t n, cairn_diag *d) {
  if (n + 1 > m->cap_slots) {
    size_t cap = mem_next_cap(m->cap_slots, n + 1);
    CAIRN_TRY(mem_resize_raw((void **)&m->list_start, m->cap_slots, cap, sizeof *m->list_start,
                             "mesh:lists", d));
    CAIRN_TRY(mem_resize_raw((void **)&m->list_at, m->cap_slots, cap, sizeof *m->list_at,
                             "mesh:lists", d));
    m->cap_slots = cap;
  }
  if (!m->stamp) {
    m->stamp = mem_realloc(NULL, 0, m->nt * sizeof *m->stamp, "mesh:lists");
    CAIRN_CHECK(m->stamp, d, CAIRN_ENOMEM, "out of memory listing a mesh's triangles");
    memset(m->stamp, 0, m->nt * sizeof *m->stamp);
  }
  m->list_start[0] = 0;
  m->list_next = 0;
  return CAIRN_OK;
}

cairn_status mesh_list_add(wall_mesh *m, size_t slot, const double c[3], double cut, double margin,
                           cairn_diag *d) {
  if (slot < m->list_next || slot + 1 >= m->cap_slots || !(cut >= 0)) return CAIRN_OK;
  uint32_t end = m->list_start[m->list_next]; /* (the slots between: no list) */
  for (; m->list_next < slot; m->list_next++) m->list_start[m->list_next + 1] = end;
  uint32_t i0 = m->list_start[slot], n = i0, k1 = UINT32_MAX;
  double first = INFINITY, second = INFINITY;
  int c0[3], c1[3];
  if (++m->stamp_now == 0) { /* (wrapped: every stamp is stale again) */
    memset(m->stamp, 0, m->nt * sizeof *m->stamp);
    m->stamp_now = 1;
  }
  if (cell_range(m, c, cut, c0, c1))
    for (int z = c0[2]; z <= c1[2]; z++)
      for (int y = c0[1]; y <= c1[1]; y++)
        for (int x = c0[0]; x <= c1[0]; x++) {
          size_t cell = ((size_t)z * (size_t)m->nc[1] + (size_t)y) * (size_t)m->nc[0] + (size_t)x;
          for (uint32_t i = m->cell_start[cell]; i < m->cell_start[cell + 1]; i++) {
            uint32_t k = m->cell_tri[i];
            if (m->stamp[k] == m->stamp_now) continue;
            m->stamp[k] = m->stamp_now;
            double p[3], hp = NAN, d2 = tri_point(m, k, c, INFINITY, p, &hp);
            if (d2 > cut * cut) continue;
            /* the nearest and the next nearest, for the answer without a search */
            if (d2 < first || (d2 == first && k < k1))
              second = first, first = d2, k1 = k;
            else if (d2 < second)
              second = d2;
            if (n >= m->cap_list) {
              size_t cap = mem_next_cap(m->cap_list, (size_t)n + 1);
              CAIRN_TRY(mem_resize_raw((void **)&m->list, m->cap_list, cap, sizeof *m->list,
                                       "mesh:lists", d));
              m->cap_list = cap;
            }
            /* kept in increasing order (the ties' rule): a short list, so insertion */
            uint32_t j = n++;
            while (j > i0 && m->list[j - 1].k > k) m->list[j] = m->list[j - 1], j--;
            m->list[j] = (mesh_listed){sqrt(d2), k};
          }
        }
  mesh_near *nr = &m->list_at[slot];
  v3_copy(c, nr->at);
  nr->cut = cut, nr->k1 = k1, nr->kf = UINT32_MAX, nr->slack = 1e-12 * cut + 2 * m->slack;
  nr->d1 = sqrt(first), nr->d2 = sqrt(fmin(second, cut * cut));
  nr->multi = list_multi(m, c, margin, i0, n, k1);
  m->list_start[slot + 1] = n;
  m->list_next = slot + 1;
  return CAIRN_OK;
}

int mesh_closest_listed_search(const wall_mesh *m, size_t slot, const double c[3], double moved,
                               double slack, uint32_t h, double dh, const double p[3], double hp,
                               double q[3], uint32_t *tri, double *d2, double *hf) {
  const mesh_near *nr = &m->list_at[slot];
  uint32_t i0 = m->list_start[slot], i1 = m->list_start[slot + 1];
  /* every triangle left out was beyond 'cut' from 'at', so beyond 'sure' from c */
  double sure = nr->cut - moved - slack;
  if (!(sure > 0)) return 0;
  nearest s;
  nearest_start_at(m, &s, sure * sure, h, dh, p, hp);
  /* (a triangle beyond the bound by its distance from 'at' is skipped: a tighter test than its
     sphere, and one that reads the list only) */
  for (uint32_t i = i0; i < i1; i++)
    if (m->list[i].d0 - moved - slack <= s.root) nearest_try(m, m->list[i].k, c, &s, 0);
  if (s.best_k == UINT32_MAX) return 0;
  v3_copy(s.q, q);
  *tri = s.best_k;
  *d2 = s.best, *hf = s.h;
  return 1;
}

/* Whether q, the point of triangle k nearest to c (off its face: on an edge or at a corner), at
   d2, is a local minimum of the distance over the mesh: no triangle at that edge or corner comes
   nearer. (Where two triangles' points of one edge round apart, the nearer one stands.) */
static int boundary_minimum(const wall_mesh *m, uint32_t k, const double c[3], const double q[3],
                            double d2) {
  double p[3], hp;
  for (int i = 0; i < 3; i++) {
    const double *v = m->v[m->t[k][i]];
    if (q[0] != v[0] || q[1] != v[1] || q[2] != v[2]) continue;
    uint32_t vi = m->t[k][i]; /* a corner: every triangle there */
    for (uint32_t j = m->vt_start[vi]; j < m->vt_start[vi + 1]; j++)
      if (m->vt[j] != k && tri_point(m, m->vt[j], c, d2, p, &hp) < d2) return 0;
    return 1;
  }
  int side = 0; /* an edge: the one q lies nearest to */
  double best = INFINITY;
  for (int i = 0; i < 3; i++) {
    const double *f = m->face[k] + 4 + 4 * i;
    double off = fabs(v3_dot(q, f) - f[3]);
    if (off < best) best = off, side = i;
  }
  uint32_t j = m->nb[k][side];
  return j == UINT32_MAX || !(tri_point(m, j, c, d2, p, &hp) < d2);
}

/* Triangle k's point nearest to c, within reach (its square r2), appended to the points cand
   (n of cap, kept nearest first, ties to the lower triangle; a full list drops its farthest),
   marked where it is a local minimum. */
static void point_try(const wall_mesh *m, uint32_t k, const double c[3], double r2, mesh_min *cand,
                      int *n, int cap) {
  mesh_min x;
  x.d2 = tri_point(m, k, c, r2, x.q, &x.hf);
  if (!(x.d2 <= r2)) return;
  if (!isnan(x.hf)) {
    if (x.hf == 0) return; /* the centre on the plane: no normal */
    v3_scale(m->face[k], x.hf > 0 ? 1.0 : -1.0, x.n);
    x.min = 1;
  } else {
    double e[3];
    v3_sub(c, x.q, e);
    double len = v3_norm(e);
    if (!(len > 0)) return;
    v3_scale(e, 1.0 / len, x.n);
    x.min = boundary_minimum(m, k, c, x.q, x.d2);
  }
  x.tri = k;
  int j = *n;
  for (int i = 0; i < *n; i++)
    if (cand[i].tri == k) return; /* (found twice: the grid lists a triangle in each cell) */
  if (j == cap) {
    if (x.d2 > cand[cap - 1].d2 || (x.d2 == cand[cap - 1].d2 && k > cand[cap - 1].tri)) return;
    j = cap - 1;
  } else
    (*n)++;
  while (j > 0 && (cand[j - 1].d2 > x.d2 || (cand[j - 1].d2 == x.d2 && cand[j - 1].tri > k)))
    cand[j] = cand[j - 1], j--;
  cand[j] = x;
}

int mesh_points(const wall_mesh *m, size_t slot, const double c[3], double reach, mesh_min *out,
                int cap) {
  int n = 0;
  double r2 = reach * reach;
  const mesh_near *nr = slot < m->list_next ? &m->list_at[slot] : NULL;
  double moved = INFINITY;
  if (nr && m->list_start[slot] != m->list_start[slot + 1]) {
    double e[3];
    v3_sub(c, nr->at, e);
    moved = sqrt(v3_dot(e, e));
  }
  if (nr && nr->cut - moved - nr->slack > reach) { /* the list holds every triangle in reach */
    for (uint32_t i = m->list_start[slot]; i < m->list_start[slot + 1]; i++)
      if (m->list[i].d0 - moved - nr->slack <= reach)
        point_try(m, m->list[i].k, c, r2, out, &n, cap);
    return n;
  }
  int c0[3], c1[3];
  if (!cell_range(m, c, reach, c0, c1)) return 0;
  double root = reach * (1 + 1e-12) + m->slack;
  for (int z = c0[2]; z <= c1[2]; z++)
    for (int y = c0[1]; y <= c1[1]; y++)
      for (int x = c0[0]; x <= c1[0]; x++) {
        size_t cell = ((size_t)z * (size_t)m->nc[1] + (size_t)y) * (size_t)m->nc[0] + (size_t)x;
        for (uint32_t i = m->cell_start[cell]; i < m->cell_start[cell + 1]; i++) {
          uint32_t k = m->cell_tri[i];
          double e[3], rk = m->ts[k][3] + root;
          v3_sub(c, m->ts[k], e);
          if (v3_dot(e, e) <= rk * rk) point_try(m, k, c, r2, out, &n, cap);
        }
      }
  return n;
}

int mesh_minima_of(const mesh_min *pts, int n, mesh_min *out, int max) {
  int kept = 0;
  for (int i = 0; i < n && kept < max; i++) {
    if (!pts[i].min) continue;
    int near = 0;
    for (int j = 0; j < kept && !near; j++) near = v3_dot(pts[i].n, out[j].n) >= MESH_CREASE_COS;
    if (!near) out[kept++] = pts[i];
  }
  return kept;
}

cairn_status mesh_picks_begin(wall_mesh *m, size_t n, cairn_diag *d) {
  if (n > m->cap_pick_of) {
    size_t cap = mem_next_cap(m->cap_pick_of, n);
    CAIRN_TRY(mem_resize_raw((void **)&m->pick_of, m->cap_pick_of, cap, sizeof *m->pick_of,
                             "mesh:picks", d));
    for (size_t i = m->cap_pick_of; i < cap; i++) m->pick_of[i] = UINT32_MAX;
    m->cap_pick_of = cap;
  }
  m->n_pick = 0;
  if (++m->pick_now == 0) { /* (wrapped: no old entry may pass for a new one) */
    for (size_t j = 0; j < m->cap_pick; j++) m->pick[j].stamp = 0;
    m->pick_now = 1;
  }
  return CAIRN_OK;
}

cairn_status mesh_pick_add(wall_mesh *m, size_t slot, mesh_pick **out, cairn_diag *d) {
  CAIRN_CHECK(slot < m->cap_pick_of, d, CAIRN_ESTATE, "a mesh's pick for ball slot %zu has no room",
              slot);
  CAIRN_TRY(
      mem_grow((void **)&m->pick, &m->cap_pick, m->n_pick + 1, sizeof *m->pick, "mesh:picks", d));
  mesh_pick *p = &m->pick[m->n_pick];
  memset(p, 0, sizeof *p);
  p->slot = (uint32_t)slot, p->stamp = m->pick_now;
  m->pick_of[slot] = (uint32_t)m->n_pick++;
  *out = p;
  return CAIRN_OK;
}
