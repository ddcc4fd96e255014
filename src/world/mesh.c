/* Triangle meshes of mesh walls (world/mesh.h): building one (merging vertices, the checks, a grid
   of triangles) and the nearest point of a mesh to a ball's centre. */
#include <stdlib.h>
#include <string.h>

#include "world/mesh.h"

void mesh_free(wall_mesh *m) {
  if (!m) return;
  mem_free(m->v, 0), mem_free(m->t, 0), mem_free(m->n, 0), mem_free(m->ts, 0);
  mem_free(m->te, 0);
  mem_free(m->cell_start, 0), mem_free(m->cell_tri, 0), mem_free(m->hint, 0);
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

void mesh_shift(wall_mesh *m, const double e[3]) {
  for (size_t i = 0; i < m->nv; i++) v3_add(m->v[i], e, m->v[i]);
  for (size_t k = 0; k < m->nt; k++) v3_add(m->ts[k], e, m->ts[k]);
  v3_add(m->lo, e, m->lo);
  m->radius = 0;
  for (size_t i = 0; i < m->nv; i++) m->radius = fmax(m->radius, v3_norm(m->v[i]));
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
  m->te = mem_realloc(NULL, 0, nt * sizeof *m->te, "mesh:edges");
  edge_key *e = mem_realloc(NULL, 0, 3 * nt * sizeof *e, "mesh:check");
  if (!m->n || !m->ts || !m->te || !e) {
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
    if (!s)
      for (int i = 0; i < 3; i++) { /* n x edge points into the triangle */
        double ed[3], in[3];
        v3_sub(m->v[m->t[k][(i + 1) % 3]], m->v[m->t[k][i]], ed);
        v3_cross(m->n[k], ed, in);
        v3_scale(in, 1.0 / v3_norm(in), m->te[k][i]);
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

int mesh_closest(const wall_mesh *m, const double c[3], double reach, double q[3], uint32_t *tri) {
  int c0[3], c1[3];
  for (int a = 0; a < 3; a++) {
    c0[a] = (int)floor((c[a] - reach - m->lo[a]) / m->h);
    c1[a] = (int)floor((c[a] + reach - m->lo[a]) / m->h);
    if (c0[a] < 0) c0[a] = 0;
    if (c1[a] >= m->nc[a]) c1[a] = m->nc[a] - 1;
    if (c0[a] > c1[a]) return 0;
  }
  /* The nearest wins, and among equals (a point on a shared edge) the lowest triangle. The hint
     only sets a bound: a triangle is skipped when a lower bound of its distance is strictly
     beyond it (its bounding sphere, its plane, the edges the point lies outside), so the
     answer does not depend on the hint (a restored run, whose hints start empty, gives the same
     bits). */
  double bound = reach * reach, best = INFINITY;
  uint32_t best_k = UINT32_MAX, hint = *tri;
  if (hint < m->nt) {
    double p[3], e[3];
    closest_on_triangle(m->v[m->t[hint][0]], m->v[m->t[hint][1]], m->v[m->t[hint][2]], c, p);
    v3_sub(c, p, e);
    bound = fmin(bound, v3_dot(e, e));
  }
  double root = sqrt(bound) * (1 + 1e-12); /* (rounded up: a skip is always safe) */
  for (int z = c0[2]; z <= c1[2]; z++)
    for (int y = c0[1]; y <= c1[1]; y++)
      for (int x = c0[0]; x <= c1[0]; x++) {
        size_t cell = ((size_t)z * (size_t)m->nc[1] + (size_t)y) * (size_t)m->nc[0] + (size_t)x;
        for (uint32_t i = m->cell_start[cell]; i < m->cell_start[cell + 1]; i++) {
          uint32_t k = m->cell_tri[i];
          if (k == best_k) continue;
          double p[3], e[3];
          v3_sub(c, m->ts[k], e);
          double reach_k = m->ts[k][3] + root; /* (beyond its sphere by more than the bound) */
          if (v3_dot(e, e) > reach_k * reach_k) continue;
          /* the plane's distance, and how far outside an edge the point's projection lies */
          const double *v0 = m->v[m->t[k][0]];
          double r0[3];
          v3_sub(c, v0, r0);
          double h = v3_dot(r0, m->n[k]), out = 0;
          for (int j = 0; j < 3; j++) {
            double rj[3];
            v3_sub(c, m->v[m->t[k][j]], rj);
            double s = v3_dot(rj, m->te[k][j]); /* (the normal part drops out: te is in-plane) */
            if (-s > out) out = -s;
          }
          if (h * h + out * out > bound) continue;
          closest_on_triangle(v0, m->v[m->t[k][1]], m->v[m->t[k][2]], c, p);
          v3_sub(c, p, e);
          double d2 = v3_dot(e, e);
          if (d2 > bound) continue;
          bound = d2, root = sqrt(bound) * (1 + 1e-12);
          if (d2 < best || (d2 == best && k < best_k)) best = d2, best_k = k, v3_copy(p, q);
        }
      }
  if (best_k == UINT32_MAX) return 0;
  *tri = best_k;
  return 1;
}
