/* Mass properties of a union of pebbles (overlaps counted once) and principal axes.

   3D: along every column of a square grid over the pebbles' xy bounds the union meets the column
   in a union of z intervals, which is exact (each pebble's chord, merged); the volume, first and
   second moments of those intervals are integrated exactly in z and by the midpoint rule over the
   grid. 2D: the same with y chords over a row of x cells. The integrand has square-root edges at
   the pebbles' outlines, where the midpoint rule's error depends on where the outline falls
   between the grid's points and no difference of two grids bounds it. So the grid is laid down
   CLUMP_SHIFTS times, each shifted by a pseudo-random fraction of a cell (fixed seed: the same
   result every time): each shifted grid's sum is an unbiased estimate of the integral (the mean
   over a uniform shift is the integral exactly), their mean is the result, and four standard
   errors of that mean are the error reported. */
#include <stdlib.h>
#include <string.h>

#include "world/clump.h"
#include "world/specimen.h"

typedef struct grid_sums {
  double v, s[3], ss[3][3]; /* volume, first moments, second moments (x_i x_j) */
} grid_sums;

typedef struct chord {
  double lo, hi;
} chord;

static int chord_cmp(const void *a, const void *b) {
  double x = ((const chord *)a)->lo, y = ((const chord *)b)->lo;
  return x < y ? -1 : x > y;
}

/* The union of the chords ch[0 .. n) (sorted here): its length and its integrals of t and t^2. */
static void chord_union(chord *ch, int n, double *len, double *m1, double *m2) {
  *len = *m1 = *m2 = 0;
  if (n == 0) return;
  if (n > 1) qsort(ch, (size_t)n, sizeof *ch, chord_cmp);
  double lo = ch[0].lo, hi = ch[0].hi;
  for (int i = 1; i <= n; i++) {
    if (i < n && ch[i].lo <= hi) {
      if (ch[i].hi > hi) hi = ch[i].hi;
      continue;
    }
    *len += hi - lo;
    *m1 += 0.5 * (hi * hi - lo * lo);
    *m2 += (hi * hi * hi - lo * lo * lo) / 3.0;
    if (i < n) lo = ch[i].lo, hi = ch[i].hi;
  }
}

/* The moments on a grid of cells of side h whose first point is lo (nx by ny points; 2D: ny = 1,
   a row along x), added to m. 'cand' (n) and 'ch' (n) are scratch. */
static void integrate(int dim, const double (*p)[4], int n, const double lo[2], double h, int nx,
                      int ny, int *cand, chord *ch, grid_sums *m) {
  double area = dim == 3 ? h * h : h;
  for (int j = 0; j < ny; j++) {
    double y = lo[1] + j * h;
    int nc = 0; /* the pebbles whose extent in y holds this row (3D) */
    for (int k = 0; k < n; k++)
      if (dim == 2 || fabs(y - p[k][1]) < p[k][3]) cand[nc++] = k;
    for (int i = 0; i < nx; i++) {
      double x = lo[0] + i * h;
      int c = 0;
      for (int q = 0; q < nc; q++) {
        const double *b = p[cand[q]];
        double dx = x - b[0], dy = dim == 3 ? y - b[1] : 0.0;
        double h2 = b[3] * b[3] - dx * dx - dy * dy;
        if (h2 <= 0) continue;
        double half = sqrt(h2), mid = dim == 3 ? b[2] : b[1];
        ch[c].lo = mid - half, ch[c].hi = mid + half, c++;
      }
      if (!c) continue;
      double len, t1, t2;
      chord_union(ch, c, &len, &t1, &t2);
      double cell = len * area;
      if (dim == 3) {
        m->v += cell;
        m->s[0] += x * cell, m->s[1] += y * cell, m->s[2] += t1 * area;
        m->ss[0][0] += x * x * cell;
        m->ss[1][1] += y * y * cell;
        m->ss[2][2] += t2 * area;
        m->ss[0][1] += x * y * cell;
        m->ss[0][2] += x * t1 * area;
        m->ss[1][2] += y * t1 * area;
      } else { /* x along the row, y along the chord */
        m->v += cell;
        m->s[0] += x * cell, m->s[1] += t1 * area;
        m->ss[0][0] += x * x * cell;
        m->ss[1][1] += t2 * area;
        m->ss[0][1] += x * t1 * area;
      }
    }
  }
}

/* The inertia tensor about the centroid from the moments. */
static void inertia_tensor(const grid_sums *m, const double c[3], double t[3][3]) {
  double cc[3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) cc[i][j] = m->ss[i][j] - m->v * c[i] * c[j];
  double tr = cc[0][0] + cc[1][1] + cc[2][2];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) t[i][j] = (i == j ? tr : 0.0) - cc[i][j];
}

void clump_principal(const double tensor[3][3], double mom[3], double axes[3][3]) {
  double a[3][3], v[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  memcpy(a, tensor, sizeof a);
  for (int sweep = 0; sweep < 50; sweep++) { /* cyclic Jacobi: quadratic convergence */
    double off = fabs(a[0][1]) + fabs(a[0][2]) + fabs(a[1][2]);
    double scale = fabs(a[0][0]) + fabs(a[1][1]) + fabs(a[2][2]);
    if (off <= 1e-300 || off <= 1e-17 * scale) break;
    for (int p = 0; p < 2; p++)
      for (int q = p + 1; q < 3; q++) {
        if (a[p][q] == 0) continue;
        double theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        double t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1));
        double c = 1 / sqrt(t * t + 1), s = t * c;
        for (int k = 0; k < 3; k++) { /* A' = J^T A J */
          double akp = a[k][p], akq = a[k][q];
          a[k][p] = c * akp - s * akq, a[k][q] = s * akp + c * akq;
        }
        for (int k = 0; k < 3; k++) {
          double apk = a[p][k], aqk = a[q][k];
          a[p][k] = c * apk - s * aqk, a[q][k] = s * apk + c * aqk;
        }
        for (int k = 0; k < 3; k++) {
          double vkp = v[k][p], vkq = v[k][q];
          v[k][p] = c * vkp - s * vkq, v[k][q] = s * vkp + c * vkq;
        }
      }
  }
  int order[3] = {0, 1, 2}; /* ascending */
  for (int i = 0; i < 3; i++)
    for (int j = i + 1; j < 3; j++)
      if (a[order[j]][order[j]] < a[order[i]][order[i]]) {
        int t = order[i];
        order[i] = order[j], order[j] = t;
      }
  for (int i = 0; i < 3; i++) {
    mom[i] = a[order[i]][order[i]];
    for (int k = 0; k < 3; k++) axes[i][k] = v[k][order[i]];
  }
  v3_cross(axes[0], axes[1], axes[2]); /* right-handed */
}

/* Shifted grids laid down (CLUMP_SHIFTS >= 8: their spread estimates the error). */
#define CLUMP_SHIFTS 16

/* The moments on CLUMP_SHIFTS grids of 'cells' cells along the larger side of the bounds, each
   shifted by a pseudo-random fraction of a cell: each one's sums into m[k]. */
static cairn_status grid_moments(int dim, const double (*p)[4], int n, int cells,
                                 grid_sums m[CLUMP_SHIFTS], cairn_diag *d) {
  double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
  for (int k = 0; k < n; k++)
    for (int a = 0; a < 2; a++) {
      if (p[k][a] - p[k][3] < lo[a]) lo[a] = p[k][a] - p[k][3];
      if (p[k][a] + p[k][3] > hi[a]) hi[a] = p[k][a] + p[k][3];
    }
  double ext = hi[0] - lo[0];
  if (dim == 3 && hi[1] - lo[1] > ext) ext = hi[1] - lo[1];
  double h = ext / cells;
  /* points from lo - h + shift: every shift in [0, h) covers the bounds */
  int nx = (int)ceil((hi[0] - lo[0]) / h) + 2,
      ny = dim == 3 ? (int)ceil((hi[1] - lo[1]) / h) + 2 : 1;
  int *cand = mem_realloc(NULL, 0, (size_t)n * sizeof *cand, "clump:mass");
  chord *ch = mem_realloc(NULL, 0, (size_t)n * sizeof *ch, "clump:mass");
  if (!cand || !ch) {
    mem_free(cand, 0), mem_free(ch, 0);
    return diag_set(d, CAIRN_ENOMEM, "out of memory computing the mass of %d pebbles", n);
  }
  uint64_t x = 0x9E3779B97F4A7C15u; /* splitmix64 from a fixed seed */
  for (int k = 0; k < CLUMP_SHIFTS; k++) {
    double u[2];
    for (int a = 0; a < 2; a++) {
      u[a] = (double)(spec_splitmix64(&x) >> 11) * 0x1p-53;
    }
    double at[2] = {lo[0] - h + u[0] * h, lo[1] - h + u[1] * h};
    memset(&m[k], 0, sizeof m[k]);
    integrate(dim, p, n, at, h, nx, ny, cand, ch, &m[k]);
    m[k].ss[1][0] = m[k].ss[0][1], m[k].ss[2][0] = m[k].ss[0][2], m[k].ss[2][1] = m[k].ss[1][2];
  }
  mem_free(cand, 0), mem_free(ch, 0);
  return CAIRN_OK;
}

/* The principal frame of a 2D area's in-plane second moments: a turn about z. */
static void principal_2d(const double t[3][3], double mom[3], double axes[3][3]) {
  /* t[0][0] = int y^2, t[1][1] = int x^2 (as moments about x and y), t[0][1] = -int x y */
  double a = 0.5 * atan2(2 * t[0][1], t[0][0] - t[1][1]), c = cos(a), s = sin(a);
  double axx = c * c * t[0][0] + 2 * c * s * t[0][1] + s * s * t[1][1];
  double ayy = s * s * t[0][0] - 2 * c * s * t[0][1] + c * c * t[1][1];
  double ax[3][3] = {{c, s, 0}, {-s, c, 0}, {0, 0, 1}};
  memcpy(axes, ax, sizeof ax);
  mom[0] = axx, mom[1] = ayy, mom[2] = t[2][2];
}

/* Mean and four standard errors of the mean of v[0 .. k). */
static void mean_err(const double *v, int k, double *mean, double *err) {
  double s = 0, q = 0;
  for (int i = 0; i < k; i++) s += v[i];
  s /= k;
  for (int i = 0; i < k; i++) q += (v[i] - s) * (v[i] - s);
  *mean = s;
  *err = 4 * sqrt(q / (k - 1) / k);
}

cairn_status clump_mass_properties(int dim, const double (*peb)[4], int n, double rel,
                                   clump_template *t, cairn_diag *d) {
  int cells = (int)ceil(1.0 / rel);
  if (cells < 8) cells = 8;
  grid_sums m[CLUMP_SHIFTS], mean;
  CAIRN_TRY(grid_moments(dim, peb, n, cells, m, d));
  /* the results from the mean sums; their errors from each shift's own results' spread */
  memset(&mean, 0, sizeof mean);
  double vol[CLUMP_SHIFTS], tens[3][3][CLUMP_SHIFTS], cen[3][CLUMP_SHIFTS];
  for (int k = 0; k < CLUMP_SHIFTS; k++) {
    double c[3] = {0, 0, 0}, tk[3][3];
    for (int a = 0; a < dim; a++) c[a] = m[k].s[a] / m[k].v;
    inertia_tensor(&m[k], c, tk);
    vol[k] = m[k].v;
    for (int a = 0; a < 3; a++) {
      cen[a][k] = c[a];
      for (int b = 0; b < 3; b++) tens[a][b][k] = tk[a][b];
    }
    mean.v += m[k].v / CLUMP_SHIFTS;
    for (int a = 0; a < 3; a++) {
      mean.s[a] += m[k].s[a] / CLUMP_SHIFTS;
      for (int b = 0; b < 3; b++) mean.ss[a][b] += m[k].ss[a][b] / CLUMP_SHIFTS;
    }
  }
  double tf[3][3], err = 0, e, unused;
  mean_err(vol, CLUMP_SHIFTS, &unused, &t->vol_err);
  t->volume = mean.v;
  for (int a = 0; a < 3; a++) t->centre[a] = a < dim ? mean.s[a] / mean.v : 0.0;
  inertia_tensor(&mean, t->centre, tf);
  for (int a = 0; a < 3; a++) {
    mean_err(cen[a], CLUMP_SHIFTS, &unused, &e);
    t->centre_err = fmax(t->centre_err, e);
    for (int b = 0; b < 3; b++) {
      mean_err(tens[a][b], CLUMP_SHIFTS, &unused, &e);
      if (e > err) err = e;
    }
  }
  if (dim == 2) t->centre[2] = 0;
  /* a principal moment moves by at most the tensor's largest change times its dimension */
  t->inertia_err = 3 * err;
  if (dim == 3)
    clump_principal(tf, t->inertia, t->axes);
  else
    principal_2d(tf, t->inertia, t->axes);
  clump_axes_quat(t->axes, t->q_axes);
  return CAIRN_OK;
}
