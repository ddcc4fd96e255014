/* Clump templates from a closed triangle surface (a scanned grain): the solid's own mass
   properties, exact for the polyhedron, and pebbles filling it by the distance-transform method
   (as Taghavi's clump generator): the solid is voxelised, every inside voxel gets its distance
   to the outside, and pebbles are placed one by one at the uncovered voxel farthest from the
   outside, as large as that distance, until the count is reached or the next one would be
   smaller than the least radius asked for. A voxel is covered once it lies within
   (1 - overlap) of a placed pebble's radius from its centre, so 'overlap' sets how far pebbles
   may reach into each other. */
#include <stdlib.h>
#include <string.h>

#include "world/clump.h"

void clump_surface_properties(const double (*tri)[3][3], size_t n, clump_template *t) {
  /* each triangle with the origin makes a tetrahedron of signed volume a . (b x c) / 6; its
     second moments are V / 20 (sum of p p^T over its corners + s s^T, s their sum) */
  double o[3] = {0, 0, 0};
  for (size_t k = 0; k < n; k++) /* (an origin near the solid keeps the sums well scaled) */
    for (int i = 0; i < 3; i++) v3_add(o, tri[k][i], o);
  v3_scale(o, 1.0 / (3.0 * (double)n), o);
  double V = 0, S[3] = {0, 0, 0}, Q[3][3] = {{0}};
  for (size_t k = 0; k < n; k++) {
    double a[3], b[3], c[3], bc[3];
    v3_sub(tri[k][0], o, a), v3_sub(tri[k][1], o, b), v3_sub(tri[k][2], o, c);
    v3_cross(b, c, bc);
    double v = v3_dot(a, bc) / 6.0, s[3];
    for (int i = 0; i < 3; i++) s[i] = a[i] + b[i] + c[i];
    V += v;
    for (int i = 0; i < 3; i++) {
      S[i] += v * s[i] / 4.0;
      for (int j = 0; j < 3; j++)
        Q[i][j] += v / 20.0 * (a[i] * a[j] + b[i] * b[j] + c[i] * c[j] + s[i] * s[j]);
    }
  }
  double sign = V < 0 ? -1.0 : 1.0; /* (a surface oriented inwards) */
  V *= sign;
  for (int i = 0; i < 3; i++) {
    S[i] *= sign;
    for (int j = 0; j < 3; j++) Q[i][j] *= sign;
  }
  double cen[3], cc[3][3], tens[3][3];
  for (int i = 0; i < 3; i++) cen[i] = S[i] / V;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) cc[i][j] = Q[i][j] - V * cen[i] * cen[j];
  double tr = cc[0][0] + cc[1][1] + cc[2][2];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) tens[i][j] = (i == j ? tr : 0.0) - cc[i][j];
  t->volume = V;
  v3_add(cen, o, t->centre);
  clump_principal(tens, t->inertia, t->axes);
  clump_axes_quat(t->axes, t->q_axes);
  t->vol_err = t->centre_err = t->inertia_err = 0;
}

/* One dimension of the exact squared Euclidean distance transform (Felzenszwalb and
   Huttenlocher, the lower envelope of parabolas): f (n values at 'stride', 0 at outside voxels,
   a number beyond any squared distance inside) becomes min_q (f(q) + (p - q)^2). v (n), z (n + 1)
   and g (n) are scratch. The values are whole numbers below 2^53: every step is exact. */
static void edt_1d(double *f, size_t n, size_t stride, int *v, double *z, double *g) {
  for (size_t i = 0; i < n; i++) g[i] = f[i * stride];
  int k = 0;
  v[0] = 0, z[0] = -INFINITY, z[1] = INFINITY;
  for (int q = 1; q < (int)n; q++) {
    double s = ((g[q] + (double)q * q) - (g[v[k]] + (double)v[k] * v[k])) / (2.0 * (q - v[k]));
    while (s <= z[k]) {
      k--;
      s = ((g[q] + (double)q * q) - (g[v[k]] + (double)v[k] * v[k])) / (2.0 * (q - v[k]));
    }
    k++;
    v[k] = q, z[k] = s, z[k + 1] = INFINITY;
  }
  k = 0;
  for (int q = 0; q < (int)n; q++) {
    while (z[k + 1] < q) k++;
    double dq = (double)(q - v[k]);
    f[(size_t)q * stride] = dq * dq + g[v[k]];
  }
}

typedef struct hit {
  size_t col;
  double z;
} hit;

static int hit_cmp(const void *a, const void *b) {
  const hit *x = a, *y = b;
  if (x->col != y->col) return x->col < y->col ? -1 : 1;
  return x->z < y->z ? -1 : x->z > y->z;
}

cairn_status clump_fill(const double (*tri)[3][3], size_t n, const clump_fill_opts *o,
                        double (**peb_out)[4], int *np_out, clump_fill_report *rep, cairn_diag *d) {
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (size_t k = 0; k < n; k++)
    for (int i = 0; i < 3; i++)
      for (int a = 0; a < 3; a++) {
        lo[a] = fmin(lo[a], tri[k][i][a]);
        hi[a] = fmax(hi[a], tri[k][i][a]);
      }
  double ext = fmax(hi[0] - lo[0], fmax(hi[1] - lo[1], hi[2] - lo[2]));
  double h = ext * o->resolution;
  size_t nn[3];
  for (int a = 0; a < 3; a++) {
    nn[a] = (size_t)ceil((hi[a] - lo[a]) / h) + 2; /* a layer of outside voxels around */
    lo[a] -= h;
  }
  size_t nx = nn[0], ny = nn[1], nz = nn[2], nvox = nx * ny * nz;
  CAIRN_CHECK(nvox <= (size_t)1 << 28, d, CAIRN_EINVAL,
              "a resolution of %g makes %zu voxels, too many; use a coarser resolution",
              o->resolution, nvox);
  double *dist = mem_realloc(NULL, 0, nvox * sizeof *dist, "clump:fill");
  uint8_t *covered = mem_realloc(NULL, 0, nvox, "clump:fill");
  size_t cap_hits = 0, n_hits = 0, big = nx > ny ? (nx > nz ? nx : nz) : (ny > nz ? ny : nz);
  hit *hits = NULL;
  int *v = mem_realloc(NULL, 0, big * sizeof *v, "clump:fill");
  double *z = mem_realloc(NULL, 0, (big + 1) * sizeof *z, "clump:fill");
  double *g = mem_realloc(NULL, 0, big * sizeof *g, "clump:fill");
  double(*peb)[4] = NULL;
  cairn_status s = CAIRN_OK;
  if (!dist || !covered || !v || !z || !g) {
    s = diag_set(d, CAIRN_ENOMEM, "out of memory filling a surface with pebbles");
    goto done;
  }
  /* inside: the voxel centres between pairs of crossings of the vertical line through them
     (the lines put off the grid's symmetry by an irrational fraction of a voxel, so that none
     runs through an edge or a vertex of the surface in practice) */
  const double jx = 0.5 + 1e-4 * M_SQRT2, jy = 0.5 + 1e-4 * M_PI / 3;
  for (size_t k = 0; k < n; k++) {
    const double(*p)[3] = tri[k];
    double bx0 = fmin(p[0][0], fmin(p[1][0], p[2][0])), bx1 = fmax(p[0][0], fmax(p[1][0], p[2][0]));
    double by0 = fmin(p[0][1], fmin(p[1][1], p[2][1])), by1 = fmax(p[0][1], fmax(p[1][1], p[2][1]));
    long i0 = (long)floor((bx0 - lo[0]) / h - jx), i1 = (long)ceil((bx1 - lo[0]) / h - jx);
    long j0 = (long)floor((by0 - lo[1]) / h - jy), j1 = (long)ceil((by1 - lo[1]) / h - jy);
    double det =
        (p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) - (p[2][0] - p[0][0]) * (p[1][1] - p[0][1]);
    if (det == 0) continue; /* (seen edge-on from above: no crossing) */
    for (long j = j0 < 0 ? 0 : j0; j <= j1 && j < (long)ny; j++)
      for (long i = i0 < 0 ? 0 : i0; i <= i1 && i < (long)nx; i++) {
        double x = lo[0] + ((double)i + jx) * h, y = lo[1] + ((double)j + jy) * h;
        double l1 = ((p[1][0] - x) * (p[2][1] - y) - (p[2][0] - x) * (p[1][1] - y)) / det;
        double l2 = ((p[2][0] - x) * (p[0][1] - y) - (p[0][0] - x) * (p[2][1] - y)) / det;
        double l3 = 1 - l1 - l2;
        if (l1 < 0 || l2 < 0 || l3 < 0) continue;
        if (n_hits == cap_hits) {
          s = mem_grow((void **)&hits, &cap_hits, n_hits + 1, sizeof *hits, "clump:fill", d);
          if (s) goto done;
        }
        hits[n_hits].col = (size_t)j * nx + (size_t)i;
        hits[n_hits].z = l1 * p[0][2] + l2 * p[1][2] + l3 * p[2][2];
        n_hits++;
      }
  }
  qsort(hits, n_hits, sizeof *hits, hit_cmp);
  const double far = 3.0 * (double)big * (double)big + 1; /* beyond any squared distance */
  for (size_t q = 0; q < nvox; q++) dist[q] = 0;
  for (size_t q = 0; q < n_hits;) {
    size_t r = q;
    while (r < n_hits && hits[r].col == hits[q].col) r++;
    size_t col = hits[q].col;
    for (size_t e = q; e + 1 < r; e += 2) { /* inside from one crossing to the next */
      long k0 = (long)ceil((hits[e].z - lo[2]) / h - 0.5);
      long k1 = (long)floor((hits[e + 1].z - lo[2]) / h - 0.5);
      for (long kk = k0 < 0 ? 0 : k0; kk <= k1 && kk < (long)nz; kk++)
        dist[(size_t)kk * nx * ny + col] = far;
    }
    q = r;
  }
  /* squared distance (in voxels) to the nearest outside voxel, along x, y, z in turn */
  for (size_t kk = 0; kk < nz; kk++)
    for (size_t j = 0; j < ny; j++) edt_1d(dist + (kk * ny + j) * nx, nx, 1, v, z, g);
  for (size_t kk = 0; kk < nz; kk++)
    for (size_t i = 0; i < nx; i++) edt_1d(dist + kk * nx * ny + i, ny, nx, v, z, g);
  for (size_t j = 0; j < ny; j++)
    for (size_t i = 0; i < nx; i++) edt_1d(dist + j * nx + i, nz, nx * ny, v, z, g);
  /* pebbles: greedily at the uncovered voxel farthest inside */
  memset(covered, 0, nvox);
  peb = mem_realloc(NULL, 0, (size_t)o->max_pebbles * sizeof *peb, "clump:fill");
  if (!peb) {
    s = diag_set(d, CAIRN_ENOMEM, "out of memory filling a surface with pebbles");
    goto done;
  }
  int np = 0;
  double reach = 1 - o->overlap;
  while (np < o->max_pebbles) {
    size_t best = SIZE_MAX;
    double bd = 0;
    for (size_t q = 0; q < nvox; q++)
      if (!covered[q] && dist[q] > bd) bd = dist[q], best = q;
    if (best == SIZE_MAX) break;
    /* the voxel's centre is sqrt(bd) voxels from an outside one's centre: the surface lies
       about half a voxel nearer */
    double rad = (sqrt(bd) - 0.5) * h;
    if (rad < o->min_radius || rad <= 0) break;
    size_t bi = best % nx, bj = best / nx % ny, bk = best / (nx * ny);
    double c[3] = {lo[0] + ((double)bi + 0.5) * h, lo[1] + ((double)bj + 0.5) * h,
                   lo[2] + ((double)bk + 0.5) * h};
    peb[np][0] = c[0], peb[np][1] = c[1], peb[np][2] = c[2], peb[np][3] = rad;
    np++;
    double rc = reach * rad, rc2 = rc * rc;
    long span = (long)ceil(rc / h) + 1;
    for (long kk = (long)bk - span; kk <= (long)bk + span; kk++)
      for (long j = (long)bj - span; j <= (long)bj + span; j++)
        for (long i = (long)bi - span; i <= (long)bi + span; i++) {
          if (i < 0 || j < 0 || kk < 0 || i >= (long)nx || j >= (long)ny || kk >= (long)nz)
            continue;
          double dx = ((double)i - (double)bi) * h, dy = ((double)j - (double)bj) * h,
                 dz = ((double)kk - (double)bk) * h;
          if (dx * dx + dy * dy + dz * dz <= rc2)
            covered[((size_t)kk * ny + (size_t)j) * nx + (size_t)i] = 1;
        }
    covered[best] = 1;
  }
  if (np == 0) {
    s = diag_set(d, CAIRN_EINVAL,
                 "no pebble fits the surface at a resolution of %g with a least radius of %g; "
                 "use a finer resolution or a smaller least radius",
                 o->resolution, o->min_radius);
    goto done;
  }
  /* how far the surface lies from the pebbles: over the surface's vertices and the triangles'
     centres, the distance to the nearest pebble's surface (> 0 outside the pebbles) */
  double worst = 0, sum = 0;
  size_t cnt = 0;
  for (size_t k = 0; k < n; k++)
    for (int i = 0; i < 4; i++) {
      double p[3];
      if (i < 3)
        v3_copy(tri[k][i], p);
      else
        for (int a = 0; a < 3; a++) p[a] = (tri[k][0][a] + tri[k][1][a] + tri[k][2][a]) / 3;
      double best_d = INFINITY;
      for (int q = 0; q < np; q++) {
        double e[3] = {p[0] - peb[q][0], p[1] - peb[q][1], p[2] - peb[q][2]};
        best_d = fmin(best_d, v3_norm(e) - peb[q][3]);
      }
      worst = fmax(worst, fabs(best_d));
      sum += fabs(best_d);
      cnt++;
    }
  rep->surface_max = worst;
  rep->surface_mean = sum / (double)cnt;
  rep->voxel = h;
  *peb_out = peb, *np_out = np;
  peb = NULL;
done:
  mem_free(dist, 0), mem_free(covered, 0), mem_free(hits, 0);
  mem_free(v, 0), mem_free(z, 0), mem_free(g, 0), mem_free(peb, 0);
  return s;
}
