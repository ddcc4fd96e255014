/* Specimen generation: random numbers, size distributions, random sequential placement over a
   cell grid (largest balls first) in a box, disk, cylinder or sphere, and regular lattices.
   Everything is decided before the first ball is created, so a failure leaves the world as is. */
#include <stdlib.h>
#include <string.h>

#include "world/specimen.h"

/* ---- random numbers ---------------------------------------------------------------------- */

uint64_t spec_splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void spec_rng_seed(spec_rng *r, uint64_t seed) {
  /* splitmix64 spreads any seed (0 included) over the 256-bit state, as Vigna recommends. */
  for (int k = 0; k < 4; k++) r->s[k] = spec_splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

uint64_t spec_rng_next(spec_rng *r) {
  uint64_t *s = r->s;
  uint64_t out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return out;
}

double spec_rng_uniform(spec_rng *r) {
  return (double)(spec_rng_next(r) >> 11) * 0x1.0p-53;
}

/* ---- size distributions ------------------------------------------------------------------ */

static double phi(double x) { /* standard normal cumulative distribution */
  return 0.5 * erfc(-x / sqrt(2.0));
}

cairn_status spec_size_check(const spec_size *z, cairn_diag *d) {
  switch (z->kind) {
  case SIZE_UNIFORM:
  case SIZE_NORMAL:
    CAIRN_CHECK(isfinite(z->rmin) && isfinite(z->rmax) && z->rmin > 0 && z->rmax >= z->rmin, d,
                CAIRN_EINVAL,
                "size: the radius bounds must satisfy 0 < rmin <= rmax (got rmin = %g, rmax = %g); "
                "give both as positive lengths",
                z->rmin, z->rmax);
    if (z->kind == SIZE_NORMAL) {
      CAIRN_CHECK(isfinite(z->mean) && isfinite(z->std) && z->std > 0, d, CAIRN_EINVAL,
                  "size: a normal distribution needs a finite mean and std > 0 (got mean = %g, "
                  "std = %g)",
                  z->mean, z->std);
      /* Rejection sampling from the untruncated normal: refuse a window it would rarely hit. */
      double p = phi((z->rmax - z->mean) / z->std) - phi((z->rmin - z->mean) / z->std);
      CAIRN_CHECK(p >= 1e-3, d, CAIRN_EINVAL,
                  "size: the bounds [%g, %g] hold only a fraction %.3g of the normal distribution "
                  "(mean %g, std %g); widen the bounds or move the mean between them",
                  z->rmin, z->rmax, p, z->mean, z->std);
    }
    return CAIRN_OK;
  case SIZE_CURVE:
    CAIRN_CHECK(z->n_pts >= 2 && z->n_pts <= SPEC_CURVE_MAX, d, CAIRN_EINVAL,
                "size: a size curve needs 2 to %d points (got %d)", SPEC_CURVE_MAX, z->n_pts);
    for (int i = 0; i < z->n_pts; i++) {
      CAIRN_CHECK(isfinite(z->diam[i]) && z->diam[i] > 0, d, CAIRN_EINVAL,
                  "size: curve point %d: diameter must be > 0 (got %g)", i + 1, z->diam[i]);
      CAIRN_CHECK(isfinite(z->frac[i]) && z->frac[i] >= 0 && z->frac[i] <= 1, d, CAIRN_EINVAL,
                  "size: curve point %d: percent passing must be in [0, 100] (got %g)", i + 1,
                  100 * z->frac[i]);
      if (i)
        CAIRN_CHECK(z->diam[i] > z->diam[i - 1] && z->frac[i] >= z->frac[i - 1], d, CAIRN_EINVAL,
                    "size: curve point %d: diameters must increase and percent passing must not "
                    "decrease (diameter %g after %g, passing %g after %g)",
                    i + 1, z->diam[i], z->diam[i - 1], 100 * z->frac[i], 100 * z->frac[i - 1]);
    }
    CAIRN_CHECK(z->frac[0] == 0 && z->frac[z->n_pts - 1] == 1, d, CAIRN_EINVAL,
                "size: the curve must start at 0 %% passing and end at 100 %% (got %g and %g); "
                "add the diameters below which nothing and above which everything passes",
                100 * z->frac[0], 100 * z->frac[z->n_pts - 1]);
    return CAIRN_OK;
  }
  return diag_set(d, CAIRN_EINVAL, "size: unknown distribution kind %d", (int)z->kind);
}

/* The curve's mass fraction is linear in the diameter between points, so its mass density is
   constant on each bin; a ball's mass goes as d^q (q = 3, or 2 for unit-thickness disks), so the
   number density on bin k is c_k d^-q with c_k = dP_k / (d_{k+1} - d_k). By number: c_k d^0. */
static int curve_q(const spec_size *z, int dim) {
  return z->by_number ? 0 : dim;
}

/* Integral of d^-q from a to b. */
static double ipow_int(double a, double b, int q) {
  if (q == 0) return b - a;
  return (pow(a, 1.0 - q) - pow(b, 1.0 - q)) / (q - 1);
}

static double bin_weight(const spec_size *z, int q, int k, double upto) {
  double dp = z->frac[k + 1] - z->frac[k];
  if (dp <= 0) return 0;
  return dp / (z->diam[k + 1] - z->diam[k]) * ipow_int(z->diam[k], upto, q);
}

static double curve_total(const spec_size *z, int q) {
  double t = 0;
  for (int k = 0; k + 1 < z->n_pts; k++) t += bin_weight(z, q, k, z->diam[k + 1]);
  return t;
}

double spec_size_cdf(const spec_size *z, int dim, double r) {
  switch (z->kind) {
  case SIZE_UNIFORM:
    if (r < z->rmin) return 0;
    if (r >= z->rmax) return 1;
    return (r - z->rmin) / (z->rmax - z->rmin);
  case SIZE_NORMAL: {
    if (r < z->rmin) return 0;
    if (r >= z->rmax) return 1;
    double a = phi((z->rmin - z->mean) / z->std), b = phi((z->rmax - z->mean) / z->std);
    return (phi((r - z->mean) / z->std) - a) / (b - a);
  }
  case SIZE_CURVE: {
    int q = curve_q(z, dim);
    double dd = 2 * r, acc = 0;
    if (dd <= z->diam[0]) return 0;
    for (int k = 0; k + 1 < z->n_pts; k++) {
      if (dd >= z->diam[k + 1]) {
        acc += bin_weight(z, q, k, z->diam[k + 1]);
      } else {
        acc += bin_weight(z, q, k, dd);
        break;
      }
    }
    return acc / curve_total(z, q);
  }
  }
  return NAN;
}

double spec_size_draw(const spec_size *z, int dim, spec_rng *g) {
  switch (z->kind) {
  case SIZE_UNIFORM:
    return z->rmin + spec_rng_uniform(g) * (z->rmax - z->rmin);
  case SIZE_NORMAL:
    for (;;) { /* Box-Muller, rejecting draws outside the bounds (acceptance >= 1e-3, checked) */
      double u1 = 1.0 - spec_rng_uniform(g), u2 = spec_rng_uniform(g);
      double x = z->mean + z->std * sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
      if (x >= z->rmin && x <= z->rmax) return x;
    }
  case SIZE_CURVE: {
    /* Inverse of the number CDF: find the bin, then invert the integral of c_k d^-q on it. */
    int q = curve_q(z, dim);
    double u = spec_rng_uniform(g) * curve_total(z, q);
    int k = 0, last = 0;
    for (; k + 1 < z->n_pts; k++) {
      double wk = bin_weight(z, q, k, z->diam[k + 1]);
      if (wk > 0) last = k;
      if (u < wk) break;
      u -= wk;
    }
    if (k + 1 >= z->n_pts) k = last, u = bin_weight(z, q, k, z->diam[k + 1]); /* round-off */
    double d0 = z->diam[k], d1 = z->diam[k + 1];
    double s = u * (d1 - d0) / (z->frac[k + 1] - z->frac[k]); /* integral of d^-q from d0 */
    double dd = q == 0   ? d0 + s
                : q == 1 ? d0 * exp(s)
                         : pow(pow(d0, 1.0 - q) - s * (q - 1), 1.0 / (1.0 - q));
    if (!(dd >= d0)) dd = d0;
    if (dd > d1) dd = d1;
    return 0.5 * dd;
  }
  }
  return NAN;
}

/* ---- regions ----------------------------------------------------------------------------- */

const char *spec_shape_name(spec_shape s) {
  static const char *const names[] = {"box", "disk", "cylinder", "sphere"};
  return s <= SPEC_SPHERE ? names[s] : "?";
}

cairn_status spec_region_check(const spec_region *r, int dim, cairn_diag *d) {
  const char *nm = spec_shape_name(r->shape);
  CAIRN_CHECK(!(dim == 2 && (r->shape == SPEC_CYLINDER || r->shape == SPEC_SPHERE)), d,
              CAIRN_EINVAL, "region '%s' is 3D, this model is 2D; use 'disk' or 'box'", nm);
  CAIRN_CHECK(!(dim == 3 && r->shape == SPEC_DISK), d, CAIRN_EINVAL,
              "region 'disk' is 2D, this model is 3D; use 'cylinder', 'sphere' or 'box'");
  if (r->shape == SPEC_BOX) {
    for (int k = 0; k < dim; k++)
      CAIRN_CHECK(isfinite(r->lo[k]) && isfinite(r->hi[k]) && r->lo[k] < r->hi[k], d, CAIRN_EINVAL,
                  "region 'box': min must be below max in every coordinate (coordinate %d: %g, "
                  "%g)",
                  k + 1, r->lo[k], r->hi[k]);
    return CAIRN_OK;
  }
  CAIRN_CHECK(isfinite(r->radius) && r->radius > 0, d, CAIRN_EINVAL,
              "region '%s': radius must be > 0 (got %g)", nm, r->radius);
  if (r->shape == SPEC_CYLINDER)
    CAIRN_CHECK(isfinite(r->height) && r->height > 0, d, CAIRN_EINVAL,
                "region 'cylinder': height must be > 0 (got %g)", r->height);
  for (int k = 0; k < dim; k++)
    CAIRN_CHECK(isfinite(r->centre[k]), d, CAIRN_EINVAL, "region '%s': centre must be finite", nm);
  return CAIRN_OK;
}

double spec_region_volume(const spec_region *r, int dim) {
  switch (r->shape) {
  case SPEC_BOX: {
    double v = 1;
    for (int k = 0; k < dim; k++) v *= r->hi[k] - r->lo[k];
    return v;
  }
  case SPEC_DISK:
    return M_PI * r->radius * r->radius;
  case SPEC_CYLINDER:
    return M_PI * r->radius * r->radius * r->height;
  case SPEC_SPHERE:
    return 4.0 / 3.0 * M_PI * r->radius * r->radius * r->radius;
  }
  return NAN;
}

/* Bounding box of the region. */
static void region_bounds(const spec_region *r, int dim, double lo[3], double hi[3]) {
  v3_zero(lo);
  v3_zero(hi);
  for (int k = 0; k < dim; k++) {
    if (r->shape == SPEC_BOX) {
      lo[k] = r->lo[k], hi[k] = r->hi[k];
    } else {
      double e = r->shape == SPEC_CYLINDER && k == 2 ? 0.5 * r->height : r->radius;
      lo[k] = r->centre[k] - e, hi[k] = r->centre[k] + e;
    }
  }
}

/* Largest radius a ball may have and still fit in the region. */
static double region_fit(const spec_region *r, int dim) {
  if (r->shape != SPEC_BOX) {
    double f = r->radius;
    if (r->shape == SPEC_CYLINDER && 0.5 * r->height < f) f = 0.5 * r->height;
    return f;
  }
  double f = INFINITY;
  for (int k = 0; k < dim; k++)
    if (0.5 * (r->hi[k] - r->lo[k]) < f) f = 0.5 * (r->hi[k] - r->lo[k]);
  return f;
}

/* A uniformly random centre for a ball of radius rad lying wholly inside the region (by
   rejection from the bounding box for round shapes: acceptance >= pi/6). */
static void random_centre(const spec_region *r, int dim, double rad, spec_rng *g, double p[3]) {
  v3_zero(p);
  if (r->shape == SPEC_BOX) {
    for (int k = 0; k < dim; k++)
      p[k] = r->lo[k] + rad + spec_rng_uniform(g) * (r->hi[k] - r->lo[k] - 2 * rad);
    return;
  }
  double e = r->radius - rad;
  int nround = r->shape == SPEC_CYLINDER ? 2 : dim;
  for (;;) {
    double s = 0, u[3] = {0, 0, 0};
    for (int k = 0; k < nround; k++) {
      u[k] = 2.0 * spec_rng_uniform(g) - 1.0;
      s += u[k] * u[k];
    }
    if (s > 1.0) continue;
    for (int k = 0; k < nround; k++) p[k] = r->centre[k] + e * u[k];
    if (r->shape == SPEC_CYLINDER)
      p[2] = r->centre[2] - 0.5 * r->height + rad + spec_rng_uniform(g) * (r->height - 2 * rad);
    return;
  }
}

/* ---- cell grid ------------------------------------------------------------------------------ */

/* Balls live in the cell of their centre (clamped to the grid, so balls just outside the region
   are still found from the border cells); a query scans the cells within 'reach' of a point. */
typedef struct grid {
  double lo[3], h;
  int nc[3];
  uint32_t *head,
      *next; /* per cell: first ball; per ball: the next in its cell (UINT32_MAX: end) */
  size_t n_cells, cap_next;
} grid;

static int cell_coord(const grid *gr, int k, double x) {
  double c = floor((x - gr->lo[k]) / gr->h);
  if (!(c >= 0)) return 0;
  if (c >= gr->nc[k]) return gr->nc[k] - 1;
  return (int)c;
}

static void grid_insert(grid *gr, uint32_t i, const double p[3]) {
  size_t c = (size_t)cell_coord(gr, 0, p[0]) +
             (size_t)gr->nc[0] * ((size_t)cell_coord(gr, 1, p[1]) +
                                  (size_t)gr->nc[1] * (size_t)cell_coord(gr, 2, p[2]));
  gr->next[i] = gr->head[c];
  gr->head[c] = i;
}

/* Does a ball of radius r at p overlap any ball in the grid? pos/rad index the grid's balls. */
static int grid_overlaps(const grid *gr, const double (*pos)[3], const double *rad,
                         const double p[3], double r, double reach) {
  int c0[3], c1[3];
  for (int k = 0; k < 3; k++) {
    c0[k] = cell_coord(gr, k, p[k] - reach);
    c1[k] = cell_coord(gr, k, p[k] + reach);
  }
  for (int z = c0[2]; z <= c1[2]; z++)
    for (int y = c0[1]; y <= c1[1]; y++)
      for (int x = c0[0]; x <= c1[0]; x++) {
        size_t c = (size_t)x + (size_t)gr->nc[0] * ((size_t)y + (size_t)gr->nc[1] * (size_t)z);
        for (uint32_t j = gr->head[c]; j != UINT32_MAX; j = gr->next[j]) {
          double dx = pos[j][0] - p[0], dy = pos[j][1] - p[1], dz = pos[j][2] - p[2];
          double s = rad[j] + r;
          if (dx * dx + dy * dy + dz * dz < s * s) return 1;
        }
      }
  return 0;
}

/* ---- generation ---------------------------------------------------------------------------- */

static int cmp_desc(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? 1 : x > y ? -1 : 0;
}

static double ball_volume(int dim, double r) {
  return dim == 2 ? M_PI * r * r : 4.0 / 3.0 * M_PI * r * r * r;
}

/* Create the balls at pos/rad [0, n); on failure delete those created (all or nothing). */
static cairn_status create_all(cairn_world *w, size_t n, const double (*pos)[3], const double *rad,
                               double shrink, double density, double damp, const char *group,
                               spec_result *res, cairn_diag *d) {
  for (size_t i = 0; i < n; i++) {
    ball_spec s = {.rad = rad[i] * shrink, .density = density, .damp = damp, .group = group};
    v3_copy(pos[i], s.pos);
    int64_t id;
    cairn_status st = ball_create(w, &s, &id, d);
    if (st != CAIRN_OK) {
      for (size_t j = i; j-- > 0;) ball_remove(w, (uint32_t)w->balls.n - 1);
      return st;
    }
    if (i == 0) res->first_id = id;
    res->last_id = id;
  }
  res->count = n;
  return CAIRN_OK;
}

typedef struct gen_scratch {
  double *rad;
  double (*pos)[3];
  grid gr;
  size_t cap; /* of rad and pos */
} gen_scratch;

static void scratch_free(gen_scratch *s) {
  mem_free(s->rad, 0);
  mem_free(s->pos, 0);
  mem_free(s->gr.head, 0);
  mem_free(s->gr.next, 0);
}

/* Draw the radii: 'count' of them, or until the solid volume is nearest (1 - porosity) V. */
static cairn_status draw_radii(const spec_gen *g, int dim, spec_rng *rng, gen_scratch *s,
                               size_t *n_out, cairn_diag *d) {
  double vs =
      isnan(g->porosity) ? INFINITY : (1.0 - g->porosity) * spec_region_volume(&g->region, dim);
  size_t target = isnan(g->porosity) ? g->count : g->max_count + 1;
  size_t n = 0;
  double sum = 0;
  while (n < target) {
    double r = spec_size_draw(&g->size, dim, rng), v = ball_volume(dim, r);
    if (sum + 0.5 * v > vs) break; /* stop where the solid volume is nearest the target */
    CAIRN_CHECK(n < g->max_count, d, CAIRN_EINVAL,
                "specimen.generate: the target needs more than %zu balls; raise max_count if you "
                "mean it, or use larger balls or a smaller region",
                g->max_count);
    if (n == s->cap) {
      size_t cap = mem_next_cap(s->cap, n + 1);
      CAIRN_TRY(mem_resize((void **)&s->rad, s->cap, cap, sizeof *s->rad, "specimen:rad", d));
      CAIRN_TRY(mem_resize((void **)&s->pos, s->cap, cap, sizeof *s->pos, "specimen:pos", d));
      s->cap = cap;
    }
    s->rad[n++] = r;
    sum += v;
  }
  *n_out = n;
  return CAIRN_OK;
}

/* Check a generation's arguments against the world (dim) before anything is drawn. */
static cairn_status check_gen(const spec_gen *g, int dim, cairn_diag *d) {
  CAIRN_TRY(spec_region_check(&g->region, dim, d));
  CAIRN_TRY(spec_size_check(&g->size, d));
  if (isnan(g->porosity))
    CAIRN_CHECK(g->count >= 1 && g->count <= g->max_count, d, CAIRN_EINVAL,
                "specimen.generate: count must be from 1 to max_count = %zu (got %zu)",
                g->max_count, g->count);
  else
    CAIRN_CHECK(g->porosity > 0 && g->porosity < 1, d, CAIRN_EINVAL,
                "specimen.generate: porosity must be in (0, 1) (got %g)", g->porosity);
  CAIRN_CHECK(g->tries >= 1, d, CAIRN_EINVAL, "specimen.generate: tries must be >= 1 (got %d)",
              g->tries);
  double rbig = g->size.kind == SIZE_CURVE ? 0.5 * g->size.diam[g->size.n_pts - 1] : g->size.rmax;
  double fit = region_fit(&g->region, dim);
  CAIRN_CHECK(rbig < fit, d, CAIRN_EINVAL,
              "specimen.generate: the largest radius %g does not fit in the %s (at most %g); "
              "enlarge the region or use smaller balls",
              rbig, spec_shape_name(g->region.shape), fit);
  return CAIRN_OK;
}

/* The balls already in the world that may touch the region [lo, hi], appended after the n new
   ones in the scratch arrays (*n_old of them), so that the overlap test sees them. */
static cairn_status gather_old_balls(const cairn_world *w, int dim, const double lo[3],
                                     const double hi[3], size_t n, gen_scratch *s, size_t *n_old,
                                     cairn_diag *d) {
  const ball_store *b = &w->balls;
  size_t m = 0;
  for (size_t i = 0; i < b->n; i++) {
    int near = 1;
    for (int k = 0; k < dim; k++)
      if (b->pos[i][k] < lo[k] - b->rad[i] || b->pos[i][k] > hi[k] + b->rad[i]) near = 0;
    if (!near) continue;
    if (n + m == s->cap) {
      size_t cap = mem_next_cap(s->cap, n + m + 1);
      cairn_status st;
      if ((st = mem_resize((void **)&s->rad, s->cap, cap, sizeof *s->rad, "specimen:rad", d)) ||
          (st = mem_resize((void **)&s->pos, s->cap, cap, sizeof *s->pos, "specimen:pos", d)))
        return st;
      s->cap = cap;
    }
    s->rad[n + m] = b->rad[i];
    v3_copy(b->pos[i], s->pos[n + m]);
    m++;
  }
  *n_old = m;
  return CAIRN_OK;
}

cairn_status specimen_generate(cairn_world *w, const spec_gen *g, spec_result *res, cairn_diag *d) {
  int dim = w->dim;
  CAIRN_TRY(check_gen(g, dim, d));
  gen_scratch s;
  memset(&s, 0, sizeof s);
  spec_rng rng;
  spec_rng_seed(&rng, g->seed);
  size_t n = 0;
  cairn_status st = draw_radii(g, dim, &rng, &s, &n, d);
  if (st) goto out;
  if (n == 0) {
    st = diag_set(d, CAIRN_EINVAL,
                  "specimen.generate: porosity %g leaves room for no ball of this size; lower the "
                  "porosity or use smaller balls",
                  g->porosity);
    goto out;
  }
  qsort(s.rad, n, sizeof *s.rad, cmp_desc); /* largest first: they find room while there is */
  /* placed at the inflated radius, made at the drawn one */
  double inflate = g->inflate > 1 ? g->inflate : 1.0;
  if (inflate != 1)
    for (size_t i = 0; i < n; i++) s.rad[i] *= inflate;

  /* Balls already in the world that may touch the region take part in the overlap test; they
     are appended after the new ones in the scratch arrays. */
  double lo[3], hi[3];
  region_bounds(&g->region, dim, lo, hi);
  const ball_store *b = &w->balls;
  double rold = 0;
  for (size_t i = 0; i < b->n; i++)
    if (b->rad[i] > rold) rold = b->rad[i];
  size_t n_old = 0;
  if ((st = gather_old_balls(w, dim, lo, hi, n, &s, &n_old, d))) goto out;

  /* Cell size: about the mean diameter of the new balls, coarsened so that the grid has no more
     than ~4 cells per ball (the scan of a query stays a few cells wide either way). */
  double rmean = 0;
  for (size_t i = 0; i < n; i++) rmean += s.rad[i];
  rmean /= (double)n;
  grid *gr = &s.gr;
  gr->h = 2.0 * rmean;
  for (;;) {
    size_t cells = 1;
    for (int k = 0; k < 3; k++) {
      gr->lo[k] = lo[k];
      gr->nc[k] = k < dim ? (int)fmin(ceil((hi[k] - lo[k]) / gr->h), 1 << 20) : 1;
      if (gr->nc[k] < 1) gr->nc[k] = 1;
      cells *= (size_t)gr->nc[k];
    }
    gr->n_cells = cells;
    if (cells <= 4 * (n + n_old) + 64) break;
    gr->h *= 1.25;
  }
  if ((st = mem_resize((void **)&gr->head, 0, gr->n_cells, sizeof *gr->head, "specimen:grid", d)) ||
      (st = mem_resize((void **)&gr->next, 0, n + n_old, sizeof *gr->next, "specimen:grid", d)))
    goto out;
  memset(gr->head, 0xff, gr->n_cells * sizeof *gr->head);
  for (size_t i = 0; i < n_old; i++) grid_insert(gr, (uint32_t)(n + i), s.pos[n + i]);
  double rmax_all = fmax(s.rad[0], rold);

  /* Random sequential placement. The grid's arrays index new balls [0, i) and old ones after n;
     the overlap test reads both through the same pos/rad arrays. */
  double placed_vol = 0;
  for (size_t i = 0; i < n; i++) {
    double r = s.rad[i], p[3];
    int ok = 0;
    for (int t = 0; t < g->tries && !ok; t++) {
      random_centre(&g->region, dim, r, &rng, p);
      ok = !grid_overlaps(gr, (const double(*)[3])s.pos, s.rad, p, r, r + rmax_all);
    }
    if (!ok) {
      double vr = spec_region_volume(&g->region, dim);
      char target[96];
      if (isnan(g->porosity))
        snprintf(target, sizeof target, "the target was %zu balls", n);
      else
        snprintf(target, sizeof target, "the target porosity was %g (%zu balls)", g->porosity, n);
      st = diag_set(d, CAIRN_EINVAL,
                    "specimen.generate: ball %zu of %zu (radius %g) found no free place in %d "
                    "tries; reached %zu balls, porosity %.4g, while %s; nothing was created. "
                    "Random placement of equal balls never gets below porosity 0.45 (2D) or 0.62 "
                    "(3D) and slows well before: aim looser and compact the specimen (settle it "
                    "or move walls), or raise tries",
                    i + 1, n, r / inflate, g->tries, i, 1.0 - placed_vol / vr, target);
      goto out;
    }
    v3_copy(p, s.pos[i]);
    grid_insert(gr, (uint32_t)i, p);
    placed_vol += ball_volume(dim, r / inflate);
  }
  memset(res, 0, sizeof *res);
  st = create_all(w, n, (const double(*)[3])s.pos, s.rad, 1.0 / inflate, g->density, g->damp,
                  g->group, res, d);
  if (st == CAIRN_OK) res->porosity = 1.0 - placed_vol / spec_region_volume(&g->region, dim);
out:
  scratch_free(&s);
  return st;
}

/* ---- lattices ------------------------------------------------------------------------------ */

cairn_status specimen_lattice(cairn_world *w, const spec_lattice *l, spec_result *res,
                              cairn_diag *d) {
  static const char *const names[] = {"square", "hex", "cubic", "fcc"};
  int dim = w->dim, ldim = l->kind <= LATTICE_HEX ? 2 : 3;
  CAIRN_CHECK(ldim == dim, d, CAIRN_EINVAL,
              "specimen.lattice: '%s' is a %dD lattice, this model is %dD; use %s", names[l->kind],
              ldim, dim, dim == 2 ? "'square' or 'hex'" : "'cubic' or 'fcc'");
  CAIRN_CHECK(isfinite(l->rad) && l->rad > 0, d, CAIRN_EINVAL,
              "specimen.lattice: rad must be > 0 (got %g)", l->rad);
  CAIRN_CHECK(isfinite(l->spacing) && l->spacing > 0, d, CAIRN_EINVAL,
              "specimen.lattice: spacing must be > 0 (got %g)", l->spacing);
  size_t per_cell = l->kind == LATTICE_FCC ? 4 : 1, n = per_cell;
  for (int k = 0; k < dim; k++) {
    CAIRN_CHECK(l->n[k] >= 1 && l->n[k] <= 100000, d, CAIRN_EINVAL,
                "specimen.lattice: n[%d] must be a whole number from 1 to 100000 (got %d)", k + 1,
                l->n[k]);
    n *= (size_t)l->n[k];
  }
  CAIRN_CHECK(n <= 50000000, d, CAIRN_EINVAL,
              "specimen.lattice: %zu balls is more than 5e7; use fewer cells", n);
  double(*pos)[3] = NULL, *rad = NULL;
  cairn_status st;
  if ((st = mem_resize((void **)&pos, 0, n, sizeof *pos, "specimen:pos", d)) ||
      (st = mem_resize((void **)&rad, 0, n, sizeof *rad, "specimen:rad", d))) {
    mem_free(pos, 0);
    return st;
  }
  /* FCC: cubic cells of side a sqrt(2) with 4 balls each (a = nearest-neighbour distance). */
  static const double fcc[4][3] = {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
  double a = l->spacing, c = a * sqrt(2.0);
  size_t m = 0;
  int nz = dim == 3 ? l->n[2] : 1;
  for (int k = 0; k < nz; k++)
    for (int j = 0; j < l->n[1]; j++)
      for (int i = 0; i < l->n[0]; i++)
        for (size_t q = 0; q < per_cell; q++) {
          double *p = pos[m];
          rad[m++] = l->rad;
          switch (l->kind) {
          case LATTICE_SQUARE:
          case LATTICE_CUBIC:
            p[0] = i * a, p[1] = j * a, p[2] = k * a;
            break;
          case LATTICE_HEX:
            p[0] = (i + 0.5 * (j & 1)) * a, p[1] = j * a * sqrt(3.0) / 2, p[2] = 0;
            break;
          case LATTICE_FCC:
            p[0] = (i + fcc[q][0]) * c, p[1] = (j + fcc[q][1]) * c, p[2] = (k + fcc[q][2]) * c;
            break;
          }
          for (int e = 0; e < dim; e++) p[e] += l->origin[e];
        }
  memset(res, 0, sizeof *res);
  st = create_all(w, n, (const double(*)[3])pos, rad, 1.0, l->density, l->damp, l->group, res, d);
  mem_free(pos, 0);
  mem_free(rad, 0);
  return st;
}
