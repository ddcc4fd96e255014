/* Measurement regions: exact intersection areas and volumes of balls with circles, spheres and
   boxes (for porosity), coordination number, average stress from contact forces and strain rate
   from ball velocities. Sign convention: compression positive (measure.h). */
#include <string.h>

#include "contact/contact.h"
#include "core/comm.h"
#include "core/xsum.h"
#include "measure/measure.h"

/* ---- exact geometry ------------------------------------------------------------------------ */

double meas_circle_disk_area(double R, double r, double dist) {
  if (dist >= R + r) return 0;
  double small = fmin(R, r), big = fmax(R, r);
  if (dist <= big - small) return M_PI * small * small; /* one inside the other */
  /* Lens: the two circular segments cut by the common chord (Weisstein, "Circle-Circle
     Intersection", MathWorld, Eq. 14). Clamping the acos arguments guards round-off only. */
  double c1 = (dist * dist + r * r - R * R) / (2 * dist * r);
  double c2 = (dist * dist + R * R - r * r) / (2 * dist * R);
  c1 = fmax(-1.0, fmin(1.0, c1));
  c2 = fmax(-1.0, fmin(1.0, c2));
  double k = (-dist + r + R) * (dist + r - R) * (dist - r + R) * (dist + r + R);
  return r * r * acos(c1) + R * R * acos(c2) - 0.5 * sqrt(fmax(0.0, k));
}

double meas_sphere_sphere_volume(double R, double r, double dist) {
  if (dist >= R + r) return 0;
  double small = fmin(R, r), big = fmax(R, r);
  if (dist <= big - small) return 4.0 / 3.0 * M_PI * small * small * small;
  /* Lens of two spherical caps (Weisstein, "Sphere-Sphere Intersection", MathWorld, Eq. 16). */
  double s = R + r - dist;
  return M_PI * s * s *
         (dist * dist + 2 * dist * r - 3 * r * r + 2 * dist * R + 6 * r * R - 3 * R * R) /
         (12 * dist);
}

/* Antiderivative of sqrt(r^2 - x^2), given s = sqrt(r^2 - x^2) at x. atan2(x, s) replaces
   asin(x / r): near x = r, asin turns a round-off of 1e-16 in x / r into 1e-8, while the cut
   points below carry their s exactly (an edge distance), so atan2 stays well conditioned. */
static double semi_int(double x, double s, double r) {
  return 0.5 * (x * s + r * r * atan2(x, s));
}

/* A cut abscissa and sqrt(r^2 - x^2) there. */
typedef struct cut_pt {
  double x, s;
} cut_pt;

/* Sort a short array of cuts by x in place (insertion sort: a handful of entries). */
static void sort_cuts(cut_pt *v, int n) {
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && v[j - 1].x > v[j].x; j--) {
      cut_pt t = v[j];
      v[j] = v[j - 1], v[j - 1] = t;
    }
}

/* Sort a short array of doubles in place. */
static void sort_small(double *v, int n) {
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
      double t = v[j];
      v[j] = v[j - 1], v[j - 1] = t;
    }
}

static double half_chord(double x, double r) {
  return sqrt(fmax(0.0, (r - x) * (r + x))); /* factored: no cancellation near x = +-r */
}

/* Disk at the origin: the chord length inside y0..y1 at abscissa x is
   max(0, min(y1, s) - max(y0, -s)), s = sqrt(r^2 - x^2). Which branch of min/max applies changes
   only where s = |y0| or |y1|; between those abscissae the integrand is a fixed combination of s
   and constants, integrated exactly. */
static double rect_disk0(double x0, double x1, double y0, double y1, double r) {
  double a = fmax(x0, -r), b = fmin(x1, r);
  if (!(a < b) || !(y0 < y1) || y0 >= r || y1 <= -r) return 0;
  cut_pt cut[6];
  int n = 0;
  cut[n++] = (cut_pt){a, half_chord(a, r)};
  cut[n++] = (cut_pt){b, half_chord(b, r)};
  double ys[2] = {y0, y1};
  for (int k = 0; k < 2; k++)
    if (fabs(ys[k]) < r) {
      double xb = half_chord(ys[k], r), yb = fabs(ys[k]);
      if (xb > a && xb < b) cut[n++] = (cut_pt){xb, yb};
      if (-xb > a && -xb < b) cut[n++] = (cut_pt){-xb, yb};
    }
  sort_cuts(cut, n);
  double area = 0;
  for (int i = 0; i + 1 < n; i++) {
    double p = cut[i].x, q = cut[i + 1].x;
    if (!(q > p)) continue;
    double s = half_chord(0.5 * (p + q), r);
    int top_s = s<y1, bot_s = -s> y0; /* the chord ends on the circle (1) or on the edge (0) */
    double top = top_s ? s : y1, bot = bot_s ? -s : y0;
    if (top <= bot) continue;
    double is = semi_int(q, cut[i + 1].s, r) - semi_int(p, cut[i].s, r);
    area += (top_s ? is : y1 * (q - p)) - (bot_s ? -is : y0 * (q - p));
  }
  return area;
}

double meas_rect_disk_area(const double lo[2], const double hi[2], const double c[2], double r) {
  if (lo[0] <= c[0] - r && hi[0] >= c[0] + r && lo[1] <= c[1] - r && hi[1] >= c[1] + r)
    return M_PI * r * r; /* wholly inside: exact, and the common case */
  return rect_disk0(lo[0] - c[0], hi[0] - c[0], lo[1] - c[1], hi[1] - c[1], r);
}

/* 24-point Gauss-Legendre on [-1, 1]: the positive nodes and their weights. */
static const double GL24[12][2] = {
    {0.99518721999702131, 0.012341229799987334}, {0.97472855597130947, 0.028531388628933813},
    {0.9382745520027328, 0.044277438817419676},  {0.88641552700440107, 0.059298584915436658},
    {0.82000198597390295, 0.073346481411080272}, {0.74012419157855436, 0.086190161531953219},
    {0.64809365193697555, 0.097618652104113898}, {0.54542147138883956, 0.10744427011596562},
    {0.43379350762604513, 0.11550566805372561},  {0.3150426796961634, 0.12167047292780335},
    {0.19111886747361631, 0.12583745634682839},  {0.06405689286260563, 0.12793819534675224}};

/* Slice area of the sphere at abscissa x: the disk of radius sqrt(r^2 - x^2) in the rectangle. */
typedef struct slab {
  double ylo[2], yhi[2], r;
} slab;

/* 24-point Gauss-Legendre over [p, q] after the substitution x = p + (q - p)(3t^2 - 2t^3). */
static double gl_piece(const slab *s, double p, double q) {
  double h = q - p, sum = 0;
  for (int k = 0; k < 24; k++) {
    double t = 0.5 * (1.0 + (k < 12 ? -GL24[k][0] : GL24[k - 12][0]));
    double wt = 0.5 * GL24[k < 12 ? k : k - 12][1];
    double x = p + h * t * t * (3.0 - 2.0 * t), dx = 6.0 * h * t * (1.0 - t);
    double rho = half_chord(x, s->r);
    sum += wt * dx * rect_disk0(s->ylo[0], s->yhi[0], s->ylo[1], s->yhi[1], rho);
  }
  return sum;
}

/* Bisect until the two halves agree with the whole to 1e-15 r^3: a singularity just outside a
   piece (the slice radius vanishes at x = +-r, close to a breakpoint when a face passes near
   the centre) slows Gauss-Legendre there, and halving resolves it geometrically. */
static double gl_adaptive(const slab *s, double p, double q, double whole, int depth) {
  double m = 0.5 * (p + q), a = gl_piece(s, p, m), b = gl_piece(s, m, q);
  if (depth >= 60 || fabs(a + b - whole) <= 1e-15 * s->r * s->r * s->r) return a + b;
  return gl_adaptive(s, p, m, a, depth + 1) + gl_adaptive(s, m, q, b, depth + 1);
}

/* Sphere at the origin, box x0..x1 x (y0..y1, z0..z1) relative to it. The slice at x is a disk
   of radius rho = sqrt(r^2 - x^2) cut by the rectangle; its exact area changes formula only
   where rho crosses an edge distance |y|, |z| or a corner distance sqrt(y^2 + z^2). Between
   those abscissae the slice area is analytic except for (x - x_b)^(k/2) terms at the ends; the
   substitution x = a + (b - a)(3t^2 - 2t^3) makes x - a ~ t^2 there, so the integrand becomes
   analytic in t and Gauss-Legendre converges exponentially; adaptive halving takes care of the
   singularity at x = +-r when it lies just outside a piece (tests: error < 1e-14 r^3). */
static double box_sphere0(double x0, double x1, const double ylo[2], const double yhi[2],
                          double r) {
  double a = fmax(x0, -r), b = fmin(x1, r);
  if (!(a < b)) return 0;
  double cut[2 + 2 * 8];
  int n = 0;
  cut[n++] = a;
  cut[n++] = b;
  double dists[8];
  int nd = 0;
  dists[nd++] = fabs(ylo[0]), dists[nd++] = fabs(yhi[0]);
  dists[nd++] = fabs(ylo[1]), dists[nd++] = fabs(yhi[1]);
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) {
      double y = i ? yhi[0] : ylo[0], z = j ? yhi[1] : ylo[1];
      dists[nd++] = sqrt(y * y + z * z);
    }
  for (int k = 0; k < nd; k++)
    if (dists[k] < r) {
      double xb = half_chord(dists[k], r);
      if (xb > a && xb < b) cut[n++] = xb;
      if (-xb > a && -xb < b) cut[n++] = -xb;
    }
  sort_small(cut, n);
  slab s = {{ylo[0], ylo[1]}, {yhi[0], yhi[1]}, r};
  double vol = 0;
  for (int i = 0; i + 1 < n; i++)
    if (cut[i + 1] > cut[i])
      vol += gl_adaptive(&s, cut[i], cut[i + 1], gl_piece(&s, cut[i], cut[i + 1]), 0);
  return vol;
}

double meas_box_sphere_volume(const double lo[3], const double hi[3], const double c[3], double r) {
  int inside = 1, outside = 0;
  for (int k = 0; k < 3; k++) {
    if (lo[k] > c[k] - r || hi[k] < c[k] + r) inside = 0;
    if (lo[k] >= c[k] + r || hi[k] <= c[k] - r) outside = 1;
  }
  if (inside) return 4.0 / 3.0 * M_PI * r * r * r;
  if (outside) return 0;
  double ylo[2] = {lo[1] - c[1], lo[2] - c[2]}, yhi[2] = {hi[1] - c[1], hi[2] - c[2]};
  return box_sphere0(lo[0] - c[0], hi[0] - c[0], ylo, yhi, r);
}

/* ---- regions ------------------------------------------------------------------------------- */

cairn_status meas_region_check(const meas_region *r, const char *who, cairn_diag *d) {
  CAIRN_CHECK(!(r->shape == MEAS_CIRCLE && r->dim != 2), d, CAIRN_EINVAL,
              "%s: a circle is a 2D region, this model is 3D; use shape = \"sphere\" or \"box\"",
              who);
  CAIRN_CHECK(!(r->shape == MEAS_SPHERE && r->dim != 3), d, CAIRN_EINVAL,
              "%s: a sphere is a 3D region, this model is 2D; use shape = \"circle\" or \"box\"",
              who);
  if (r->shape == MEAS_BOX) {
    for (int k = 0; k < r->dim; k++)
      CAIRN_CHECK(isfinite(r->lo[k]) && isfinite(r->hi[k]) && r->lo[k] < r->hi[k], d, CAIRN_EINVAL,
                  "%s: min must be below max in every coordinate (coordinate %d: min %g, max %g)",
                  who, k + 1, r->lo[k], r->hi[k]);
    return CAIRN_OK;
  }
  CAIRN_CHECK(isfinite(r->radius) && r->radius > 0, d, CAIRN_EINVAL,
              "%s: radius must be > 0 (got %g); give the region's radius as a positive length", who,
              r->radius);
  for (int k = 0; k < r->dim; k++)
    CAIRN_CHECK(isfinite(r->centre[k]), d, CAIRN_EINVAL,
                "%s: centre must be finite (component %d is %g)", who, k + 1, r->centre[k]);
  return CAIRN_OK;
}

double meas_volume(const meas_region *r) {
  switch (r->shape) {
  case MEAS_CIRCLE:
    return M_PI * r->radius * r->radius;
  case MEAS_SPHERE:
    return 4.0 / 3.0 * M_PI * r->radius * r->radius * r->radius;
  case MEAS_BOX: {
    double v = 1;
    for (int k = 0; k < r->dim; k++) v *= r->hi[k] - r->lo[k];
    return v;
  }
  }
  return NAN;
}

int meas_contains(const meas_region *r, const double p[3]) {
  if (r->shape == MEAS_BOX) {
    for (int k = 0; k < r->dim; k++)
      if (!(p[k] >= r->lo[k] && p[k] <= r->hi[k])) return 0;
    return 1;
  }
  double s = 0;
  for (int k = 0; k < r->dim; k++) s += (p[k] - r->centre[k]) * (p[k] - r->centre[k]);
  return s <= r->radius * r->radius;
}

static double dist_to_centre(const meas_region *r, const double c[3]) {
  double s = 0;
  for (int k = 0; k < r->dim; k++) s += (c[k] - r->centre[k]) * (c[k] - r->centre[k]);
  return sqrt(s);
}

double meas_ball_overlap(const meas_region *r, const double c[3], double rad) {
  switch (r->shape) {
  case MEAS_CIRCLE:
    return meas_circle_disk_area(r->radius, rad, dist_to_centre(r, c));
  case MEAS_SPHERE:
    return meas_sphere_sphere_volume(r->radius, rad, dist_to_centre(r, c));
  case MEAS_BOX:
    return r->dim == 2 ? meas_rect_disk_area(r->lo, r->hi, c, rad)
                       : meas_box_sphere_volume(r->lo, r->hi, c, rad);
  }
  return NAN;
}

/* ---- measurements -------------------------------------------------------------------------- */

/* Where the body of ball slot s is: the ball's centre, or its clump's centre of mass (the clump
   slots current: clumps_current). */
static const double *body_centre(const cairn_world *w, uint32_t s) {
  if (w->balls.fix[s] & FIX_CLUMP) return w->clumps.pos[w->clumps.body_of[s]];
  return w->balls.pos[s];
}

/* The clumps' slot cache is current (a cache of the world: formed here if a script changed the
   balls since the last detection). */
static void clumps_current(const cairn_world *w) {
  if (w->clumps.n) clump_slots((cairn_world *)w, NULL);
}

/* Part of ball i inside the region, with, in a periodic cell, its images across the faces it
   is within its radius of (the solid a region sees through the cell's faces). */
static double ball_overlap_images(const cairn_world *w, const meas_region *r, size_t i) {
  const ball_store *b = &w->balls;
  const periodic_cell *pc = &w->cell;
  double sum = meas_ball_overlap(r, b->pos[i], b->rad[i]);
  if (!pc->on) return sum;
  int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  double e[3];
  v3_sub(b->pos[i], pc->origin, e);
  for (int j = 0; j < w->dim; j++) {
    if (!pc->periodic[j]) continue;
    double s = pc->Hinv[j][0] * e[0] + pc->Hinv[j][1] * e[1] + pc->Hinv[j][2] * e[2];
    double h = periodic_height(pc, j), rad = b->rad[i];
    if (s * h < rad) hi[j] = 1;        /* near the low face: an image one cell up */
    if ((1 - s) * h < rad) lo[j] = -1; /* near the high face: one cell down */
  }
  for (int kz = lo[2]; kz <= hi[2]; kz++)
    for (int ky = lo[1]; ky <= hi[1]; ky++)
      for (int kx = lo[0]; kx <= hi[0]; kx++) {
        if (!kx && !ky && !kz) continue;
        double c[3];
        for (int q = 0; q < 3; q++)
          c[q] = b->pos[i][q] + pc->H[q][0] * kx + pc->H[q][1] * ky + pc->H[q][2] * kz;
        sum += meas_ball_overlap(r, c, b->rad[i]);
      }
  return sum;
}

/* The solid of clump c inside the region: exact where its pebbles lie wholly inside (the
   union's volume, overlaps counted once); where the region cuts it, the pebbles' own
   intersections with the region, scaled by the union's volume over the pebbles' summed volume
   (so that their overlaps are not counted twice). */
static double clump_inside(const cairn_world *w, const meas_region *r, uint32_t c) {
  const clump_store *cs = &w->clumps;
  const ball_store *b = &w->balls;
  double inside = 0, whole = 0;
  for (uint32_t p = cs->first[c]; p < cs->first[c] + cs->count[c]; p++) {
    uint32_t s = cs->peb_slot[p];
    double rad = b->rad[s];
    inside += ball_overlap_images(w, r, s);
    whole += w->dim == 2 ? M_PI * rad * rad : 4.0 / 3.0 * M_PI * rad * rad * rad;
  }
  double sc = cs->scale[c], v = cs->tmpl_v[cs->tmpl[c]].volume * sc * sc;
  if (w->dim == 3) v *= sc;
  return inside >= whole ? v : inside * (v / whole);
}

/* The sums below are exact (xsum): the same whatever the order of the balls and contacts, and
   under MPI decomposition each rank sums its own balls and the contacts it books, and the
   ranks' parts add to the one-process figure, bit for bit. */

double meas_porosity(const cairn_world *w, const meas_region *r) {
  const ball_store *b = &w->balls;
  xsum solid;
  xsum_init(&solid);
  clumps_current(w);
  for (size_t i = 0; i < balls_owned(w); i++)
    if (!(b->fix[i] & FIX_CLUMP)) xsum_add(&solid, ball_overlap_images(w, r, i));
  for (uint32_t c = 0; c < w->clumps.n; c++) xsum_add(&solid, clump_inside(w, r, c));
  if (w->par) comm_xsum(&solid, 1);
  return 1.0 - xsum_value(&solid) / meas_volume(r);
}

size_t meas_count(const cairn_world *w, const meas_region *r) {
  int64_t n = 0;
  for (size_t i = 0; i < balls_owned(w); i++) n += meas_contains(r, w->balls.pos[i]);
  if (w->par) comm_sum_i64(&n, 1);
  return (size_t)n;
}

double meas_coordination(const cairn_world *w, const meas_region *r, int all, size_t *n_balls) {
  const ball_store *b = &w->balls;
  const contact_store *cs = w->contacts;
  clumps_current(w);
  /* bodies: a ball, or a clump (once, by its centre of mass), whose centre is inside */
  int64_t n[2] = {0, 0}; /* bodies, contact ends */
  for (size_t i = 0; i < balls_owned(w); i++)
    if (!(b->fix[i] & FIX_CLUMP)) n[0] += meas_contains(r, b->pos[i]);
  for (size_t c = 0; c < w->clumps.n; c++) n[0] += meas_contains(r, w->clumps.pos[c]);
  for (size_t c = 0; c < cs->n; c++) {
    if (!all && !cs->active[c]) continue;
    if (!rank_books_contact(w, cs->kind[c], cs->a[c], cs->b[c])) continue;
    if (cs->kind[c] == CAIRN_KIND_BALL_BALL) n[1] += meas_contains(r, body_centre(w, cs->a[c]));
    n[1] += meas_contains(r, body_centre(w, cs->b[c]));
  }
  if (w->par) comm_sum_i64(n, 2);
  size_t nb = (size_t)n[0], ends = (size_t)n[1];
  if (n_balls) *n_balls = nb;
  return nb ? (double)ends / (double)nb : 0.0;
}

void meas_stress(const cairn_world *w, const meas_region *r, double s[9], size_t *n_contacts) {
  const contact_store *cs = w->contacts;
  xsum sum[9];
  for (int k = 0; k < 9; k++) xsum_init(&sum[k]);
  int64_t nc = 0;
  clumps_current(w);
  for (size_t c = 0; c < cs->n; c++) {
    if (!rank_books_contact(w, cs->kind[c], cs->a[c], cs->b[c])) continue;
    double pt[3];
    contact_point(w, (uint32_t)c, pt);
    /* in a cell: the contact point inside it, where a region over it sees it */
    if (w->cell.on) periodic_wrap_point(&w->cell, pt);
    if (!meas_contains(r, pt)) continue;
    /* Branch vector from the contact's own geometry (normal and gap of the force pass that the
       force belongs to), not from the balls' positions, which have moved on by one step. */
    const double *n = cs->normal[c];
    double len = contact_branch_length(w, (uint32_t)c), l[3];
    v3_scale(n, len, l);
    /* A pebble's body is its clump: the branch runs between the bodies' centres of mass (the
       clump's internal forces then cancel, and the average over a whole specimen equals its
       boundary tractions as for balls). The arm from pebble to centre is rigid; taken now. */
    for (int side = 0; side < 2; side++) {
      if (side == 0 && cs->kind[c] != CAIRN_KIND_BALL_BALL) continue;
      uint32_t bs = side ? cs->b[c] : cs->a[c];
      if (!(w->balls.fix[bs] & FIX_CLUMP)) continue;
      double arm[3];
      v3_sub(body_centre(w, bs), w->balls.pos[bs], arm);
      for (int k = 0; k < 3; k++) l[k] += side ? arm[k] : -arm[k];
    }
    const double *f = cs->force[c];
    for (int i = 0; i < w->dim; i++)
      for (int j = 0; j < w->dim; j++) xsum_add(&sum[3 * i + j], f[i] * l[j]);
    nc++;
  }
  if (w->par) {
    comm_xsum(sum, 9);
    comm_sum_i64(&nc, 1);
  }
  double v = meas_volume(r);
  for (int k = 0; k < 9; k++) s[k] = xsum_value(&sum[k]) / v;
  if (n_contacts) *n_contacts = (size_t)nc;
}

/* Solve the symmetric dim x dim system M X = B for the rows of X (B and X: dim rows of 3). */
static int solve_sym(int dim, const double M[9], const double B[9], double X[9]) {
  double a = M[0], bb = M[1], c = M[2], dd = M[4], e = M[5], f = M[8];
  double inv[9] = {0};
  double det;
  if (dim == 2) {
    det = a * dd - bb * bb;
    inv[0] = dd, inv[1] = -bb, inv[3] = -bb, inv[4] = a;
  } else {
    inv[0] = dd * f - e * e, inv[1] = c * e - bb * f, inv[2] = bb * e - c * dd;
    inv[4] = a * f - c * c, inv[5] = bb * c - a * e, inv[8] = a * dd - bb * bb;
    inv[3] = inv[1], inv[6] = inv[2], inv[7] = inv[5];
    det = a * inv[0] + bb * inv[3] + c * inv[6];
  }
  double tr = 0;
  for (int k = 0; k < dim; k++) tr += M[4 * k];
  if (!(tr > 0) || !(fabs(det) > 1e-12 * pow(tr / dim, dim))) return 0; /* degenerate spread */
  memset(X, 0, 9 * sizeof *X);
  for (int i = 0; i < dim; i++)
    for (int j = 0; j < dim; j++)
      for (int k = 0; k < dim; k++) X[3 * i + j] += B[3 * i + k] * inv[3 * k + j] / det;
  return 1;
}

cairn_status meas_strain_rate(const cairn_world *w, const meas_region *r, double e[9],
                              cairn_diag *d) {
  const ball_store *b = &w->balls;
  int dim = w->dim;
  size_t own = balls_owned(w);
  xsum m[6]; /* the centres' and velocities' sums */
  for (int k = 0; k < 6; k++) xsum_init(&m[k]);
  int64_t count = 0;
  for (size_t i = 0; i < own; i++)
    if (meas_contains(r, b->pos[i])) {
      for (int k = 0; k < 3; k++) xsum_add(&m[k], b->pos[i][k]), xsum_add(&m[3 + k], b->vel[i][k]);
      count++;
    }
  if (w->par) {
    comm_xsum(m, 6);
    comm_sum_i64(&count, 1);
  }
  size_t n = (size_t)count;
  CAIRN_CHECK(n > (size_t)dim, d, CAIRN_EINVAL,
              "measure strain rate: %zu balls have their centre in the region, the fit needs at "
              "least %d; enlarge the region",
              n, dim + 1);
  double xm[3], vm[3];
  for (int k = 0; k < 3; k++)
    xm[k] = xsum_value(&m[k]) / (double)n, vm[k] = xsum_value(&m[3 + k]) / (double)n;
  /* Least squares about the means: L = (sum v' x'^T)(sum x' x'^T)^-1, so with M = sum x' x'^T
     (symmetric), the rows of L solve L M = B, i.e. M L^T = B^T. */
  xsum sm[18]; /* M, then B */
  for (int k = 0; k < 18; k++) xsum_init(&sm[k]);
  for (size_t i = 0; i < own; i++) {
    if (!meas_contains(r, b->pos[i])) continue;
    double x[3], v[3];
    v3_sub(b->pos[i], xm, x);
    v3_sub(b->vel[i], vm, v);
    for (int p = 0; p < dim; p++)
      for (int q = 0; q < dim; q++) {
        xsum_add(&sm[3 * p + q], x[p] * x[q]);
        xsum_add(&sm[9 + 3 * p + q], v[p] * x[q]);
      }
  }
  if (w->par) comm_xsum(sm, 18);
  double M[9], B[9], L[9];
  for (int k = 0; k < 9; k++) M[k] = xsum_value(&sm[k]), B[k] = xsum_value(&sm[9 + k]);
  CAIRN_CHECK(solve_sym(dim, M, B, L), d, CAIRN_EINVAL,
              "measure strain rate: the %zu ball centres in the region lie on a %s, so the "
              "velocity gradient is undetermined; enlarge the region",
              n, dim == 2 ? "line" : "line or plane");
  memset(e, 0, 9 * sizeof *e);
  for (int i = 0; i < dim; i++)
    for (int j = 0; j < dim; j++) e[3 * i + j] = -0.5 * (L[3 * i + j] + L[3 * j + i]);
  return CAIRN_OK;
}
