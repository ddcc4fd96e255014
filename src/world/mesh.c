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
  int dir; /* +1: the triangle runs a -> b; -1: b -> a */
} edge_key;

static int edge_cmp(const void *x, const void *y) {
  const edge_key *e = x, *f = y;
  if (e->a != f->a) return e->a < f->a ? -1 : 1;
  if (e->b != f->b) return e->b < f->b ? -1 : 1;
  return e->tri < f->tri ? -1 : e->tri > f->tri;
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
      e[3 * k + (size_t)i] = (edge_key){p < q ? p : q, p < q ? q : p, (uint32_t)k, p < q ? 1 : -1};
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
  mem_free(e, 0);
  if (s) return s;
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
      e[3 * k + (size_t)i] = (edge_key){p < q ? p : q, p < q ? q : p, (uint32_t)k, p < q ? 1 : -1};
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

cairn_status mesh_build(const double (*tri)[3][3], size_t n, const char *what, wall_mesh **out,
                        cairn_diag *d) {
  CAIRN_CHECK(n >= 1 && n < (1u << 30), d, CAIRN_EINVAL, "%s: a mesh needs 1 to 2^30 triangles",
              what);
  wall_mesh *m = mem_realloc(NULL, 0, sizeof *m, "mesh");
  CAIRN_CHECK(m, d, CAIRN_ENOMEM, "out of memory building the mesh of %s", what);
  memset(m, 0, sizeof *m);
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

cairn_status mesh_from_arrays(const double (*v)[3], size_t nv, const uint32_t (*t)[3], size_t nt,
                              const char *what, wall_mesh **out, cairn_diag *d) {
  wall_mesh *m = mem_realloc(NULL, 0, sizeof *m, "mesh");
  CAIRN_CHECK(m, d, CAIRN_ENOMEM, "out of memory building the mesh of %s", what);
  memset(m, 0, sizeof *m);
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

cairn_status mesh_list_add(wall_mesh *m, size_t slot, const double c[3], double cut,
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
