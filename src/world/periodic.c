/* The periodic cell: creation and its checks, wrapping balls into it, its deformation under a
   velocity gradient, and stress control on its edges (from the stress measured over its
   contacts above this floor: measure/contact_sums.c). The images of
   balls are never stored: a pair's nearest image comes from its separation (periodic_shift), so
   the contact and pair arrays stay the same as without a cell. */
#include <string.h>

#include "world/world.h"

static const char AXIS[3] = {'x', 'y', 'z'};

static void invert(periodic_cell *pc) {
  const double(*H)[3] = (const double(*)[3])pc->H;
  double(*I)[3] = pc->Hinv;
  I[0][0] = H[1][1] * H[2][2] - H[1][2] * H[2][1];
  I[0][1] = H[0][2] * H[2][1] - H[0][1] * H[2][2];
  I[0][2] = H[0][1] * H[1][2] - H[0][2] * H[1][1];
  I[1][0] = H[1][2] * H[2][0] - H[1][0] * H[2][2];
  I[1][1] = H[0][0] * H[2][2] - H[0][2] * H[2][0];
  I[1][2] = H[0][2] * H[1][0] - H[0][0] * H[1][2];
  I[2][0] = H[1][0] * H[2][1] - H[1][1] * H[2][0];
  I[2][1] = H[0][1] * H[2][0] - H[0][0] * H[2][1];
  I[2][2] = H[0][0] * H[1][1] - H[0][1] * H[1][0];
  double det = H[0][0] * I[0][0] + H[0][1] * I[1][0] + H[0][2] * I[2][0];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) I[i][j] /= det;
  pc->ortho = 1;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      if (i != j && H[i][j] != 0) pc->ortho = 0;
  if (pc->ortho) /* exact reciprocals, as the diagonal path uses them */
    for (int i = 0; i < 3; i++) I[i][i] = 1.0 / H[i][i];
}

/* The whole number below x, without a call to libm where |x| < 2^62 (every ball of a sane run:
   x is a position in cell lengths); libm's floor for the rest (a run that blew up). */
static inline double floor_fast(double x) {
  if (!(fabs(x) < 4.0e18)) return floor(x);
  double t = (double)(long long)x;
  return t > x ? t - 1.0 : t;
}

static void set_flow(periodic_cell *pc) {
  pc->flow = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) pc->flow |= pc->L[i][j] != 0;
}

/* The origin of a cell of edges H about its centre. */
static void place(periodic_cell *pc) {
  for (int i = 0; i < 3; i++)
    pc->origin[i] = pc->centre[i] - 0.5 * (pc->H[i][0] + pc->H[i][1] + pc->H[i][2]);
}

void periodic_restore(cairn_world *w, const periodic_cell *saved) {
  periodic_cell *pc = &w->cell;
  *pc = *saved;
  if (!pc->on) return;
  invert(pc);
  place(pc);
  set_flow(pc);
}

double periodic_height(const periodic_cell *pc, int j) {
  const double *r = pc->Hinv[j]; /* the face normal of edge j, over the height */
  return 1.0 / sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
}

/* The signed volume of the cell of edges H (> 0 while it is not turned inside out). */
static double signed_volume(const double H[3][3]) {
  return H[0][0] * (H[1][1] * H[2][2] - H[1][2] * H[2][1]) -
         H[0][1] * (H[1][0] * H[2][2] - H[1][2] * H[2][0]) +
         H[0][2] * (H[1][0] * H[2][1] - H[1][1] * H[2][0]);
}

double periodic_volume(const periodic_cell *pc, int dim) {
  const double(*H)[3] = (const double(*)[3])pc->H;
  if (dim == 2) return fabs(H[0][0] * H[1][1] - H[0][1] * H[1][0]);
  return fabs(signed_volume(H));
}

cairn_status periodic_check_wall(const cairn_world *w, const wall *wl, cairn_diag *d) {
  const periodic_cell *pc = &w->cell;
  if (!pc->on) return CAIRN_OK;
  double p[3], n[3];
  wall_plane(wl, p, n);
  for (int j = 0; j < w->dim; j++) {
    if (!pc->periodic[j]) continue;
    double e[3] = {pc->H[0][j], pc->H[1][j], pc->H[2][j]}, len = v3_norm(e), x[3];
    int crosses;
    if (wl->kind == WALL_CYLINDER) { /* only an axis along the edge keeps it out of the way */
      v3_cross(e, n, x);
      crosses = v3_norm(x) > 1e-9 * len;
    } else {
      crosses = fabs(v3_dot(e, n)) > 1e-9 * len;
    }
    CAIRN_CHECK(!crosses, d, CAIRN_EINVAL,
                "wall %lld (a %s) lies across the periodic cell's %c axis, where balls leave one "
                "face and come back at the other; give walls only along the cell's periodic "
                "axes (their surface parallel to them), or make that axis non-periodic",
                (long long)wl->id, wall_kind_name(wl->kind), AXIS[j]);
  }
  return CAIRN_OK;
}

cairn_status periodic_create(cairn_world *w, const double lo[3], const double hi[3],
                             const int axes[3], cairn_diag *d) {
  periodic_cell pc;
  memset(&pc, 0, sizeof pc);
  int any = 0;
  for (int k = 0; k < w->dim; k++) {
    CAIRN_CHECK(isfinite(lo[k]) && isfinite(hi[k]) && hi[k] > lo[k], d, CAIRN_EINVAL,
                "cell.create: max must be above min on every axis (%c: %g to %g)", AXIS[k], lo[k],
                hi[k]);
    pc.periodic[k] = (uint8_t)(axes[k] != 0);
    any |= axes[k] != 0;
  }
  CAIRN_CHECK(any, d, CAIRN_EINVAL, "cell.create: no periodic axis given; name at least one");
  for (int k = 0; k < 3; k++) {
    double a = k < w->dim ? lo[k] : -0.5, b = k < w->dim ? hi[k] : 0.5; /* 2D: unit thickness */
    pc.H[k][k] = b - a;
    pc.centre[k] = 0.5 * (a + b);
  }
  invert(&pc);
  place(&pc);
  for (int k = 0; k < 3; k++) pc.F[k][k] = 1.0;
  memcpy(pc.H_rebuild, pc.H, sizeof pc.H);
  pc.alpha = 0.5;
  pc.on = 1;
  const ball_store *b = &w->balls;
  double rmax = 0;
  for (size_t i = 0; i < b->n; i++)
    if (b->rad[i] > rmax) rmax = b->rad[i];
  for (int k = 0; k < w->dim; k++)
    CAIRN_CHECK(!pc.periodic[k] || pc.H[k][k] > 4 * rmax, d, CAIRN_EINVAL,
                "cell.create: the cell is %g across along %c, not more than twice the largest "
                "ball's diameter (%g): a ball would touch two images of another; make the cell "
                "larger than %g along %c",
                pc.H[k][k], AXIS[k], 2 * rmax, 4 * rmax, AXIS[k]);
  const periodic_cell keep = w->cell;
  w->cell = pc;
  for (size_t i = 0; i < w->walls.n; i++) {
    cairn_status s = periodic_check_wall(w, &w->walls.w[i], d);
    if (s != CAIRN_OK) {
      w->cell = keep;
      return s;
    }
  }
  periodic_wrap(w);
  world_mark_dirty(w);
  return CAIRN_OK;
}

void periodic_wrap(cairn_world *w) {
  const periodic_cell *pc = &w->cell;
  ball_store *b = &w->balls;
  if (pc->ortho) { /* a box: compare each coordinate with its faces */
    for (int j = 0; j < w->dim; j++) {
      if (!pc->periodic[j]) continue;
      double lo = pc->origin[j], len = pc->H[j][j], hi = lo + len;
      for (size_t i = 0; i < b->n; i++) {
        double x = b->pos[i][j];
        if (x >= lo && x < hi) continue;
        x -= floor_fast((x - lo) * pc->Hinv[j][j]) * len;
        if (x >= hi) x -= len; /* (round-off at the faces) */
        if (x < lo) x = lo;
        b->pos[i][j] = x;
      }
    }
    return;
  }
  for (size_t i = 0; i < b->n; i++)
    if (periodic_wrap_point(pc, b->pos[i]) && w->dim == 2) b->pos[i][2] = 0;
}

int periodic_wrap_point(const periodic_cell *pc, double x[3]) {
  double e[3], k[3];
  v3_sub(x, pc->origin, e);
  int moved = 0;
  for (int j = 0; j < 3; j++) {
    double s = pc->Hinv[j][0] * e[0] + pc->Hinv[j][1] * e[1] + pc->Hinv[j][2] * e[2];
    k[j] = pc->periodic[j] ? floor_fast(s) : 0.0;
    moved |= k[j] != 0;
  }
  if (moved)
    for (int q = 0; q < 3; q++)
      x[q] -= pc->H[q][0] * k[0] + pc->H[q][1] * k[1] + pc->H[q][2] * k[2];
  return moved;
}

void periodic_set_rate(cairn_world *w, const double L[3][3], int remap) {
  periodic_cell *pc = &w->cell;
  double dL[3][3];
  int changed = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      dL[i][j] = L[i][j] - pc->L[i][j];
      changed |= dL[i][j] != 0;
    }
  memcpy(pc->L, L, sizeof pc->L);
  set_flow(pc);
  if (!remap || !changed) return;
  ball_store *b = &w->balls;
  for (size_t i = 0; i < b->n; i++) {
    double r[3];
    v3_sub(b->pos[i], pc->centre, r);
    for (int q = 0; q < w->dim; q++) {
      if (b->fix[i] & (1u << q)) continue;
      b->vel[i][q] += dL[q][0] * r[0] + dL[q][1] * r[1] + dL[q][2] * r[2];
    }
  }
}

cairn_status periodic_control(cairn_world *w, double dt, const double stress[9],
                              const double stiff[3], cairn_diag *d) {
  periodic_cell *pc = &w->cell;
  double L[3][3];
  memcpy(L, pc->L, sizeof L);
  for (int j = 0; j < w->dim; j++) {
    if (!pc->servo[j]) continue;
    double err = stress[4 * j] - pc->target[j], rate;
    /* expanding (rate > 0) relieves compression: close the share alpha of the error a step */
    if (stiff[j] > 0)
      rate = pc->alpha * err / (stiff[j] * dt);
    else
      rate = err > 0 ? pc->rate_max[j] : -pc->rate_max[j]; /* nothing touches: close in */
    if (rate > pc->rate_max[j]) rate = pc->rate_max[j];
    if (rate < -pc->rate_max[j]) rate = -pc->rate_max[j];
    L[j][j] = rate;
  }
  periodic_set_rate(w, (const double(*)[3])L, 1);
  (void)d;
  return CAIRN_OK;
}

void periodic_set_control(periodic_cell *pc, const int axes[3], int on, double target,
                          double rate_max, double alpha) {
  for (int j = 0; j < 3; j++) {
    if (!axes[j]) continue;
    pc->servo[j] = (uint8_t)on;
    if (on) pc->target[j] = target, pc->rate_max[j] = rate_max;
  }
  if (on) pc->alpha = alpha;
}

/* M += dt L M. */
static void advance(double M[3][3], const double L[3][3], double dt) {
  double N[3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      N[i][j] = M[i][j] + dt * (L[i][0] * M[0][j] + L[i][1] * M[1][j] + L[i][2] * M[2][j]);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) M[i][j] = N[i][j];
}

/* Move any periodic edge that leans more than half another periodic edge's length along it back
   by whole copies of that edge (the same lattice of images); returns whether one moved. */
static int flip(periodic_cell *pc, int dim) {
  int moved = 0;
  for (int j = 0; j < dim; j++)
    for (int k = 0; k < dim; k++) {
      if (j == k || !pc->periodic[j] || !pc->periodic[k]) continue;
      double ej[3] = {pc->H[0][j], pc->H[1][j], pc->H[2][j]};
      double ek[3] = {pc->H[0][k], pc->H[1][k], pc->H[2][k]};
      double t = v3_dot(ek, ej) / v3_dot(ej, ej);
      if (fabs(t) <= 0.5 + 1e-12) continue;
      double m = periodic_round(t);
      for (int i = 0; i < 3; i++) pc->H[i][k] -= m * ej[i];
      moved = 1;
    }
  return moved;
}

/* The velocity gradient's non-zero components as cell.rate takes them, like {xx = -1e+09}. */
static void format_rate(const periodic_cell *pc, int dim, char *buf, size_t size) {
  size_t n = (size_t)snprintf(buf, size, "{");
  for (int i = 0; i < dim; i++)
    for (int j = 0; j < dim; j++)
      if (pc->L[i][j] != 0 && n < size)
        n += (size_t)snprintf(buf + n, size - n, "%s%c%c = %g", n > 1 ? ", " : "", AXIS[i], AXIS[j],
                              pc->L[i][j]);
  if (n < size) snprintf(buf + n, size - n, "}");
}

cairn_status periodic_check_step(const cairn_world *w, double dt, cairn_diag *d) {
  const periodic_cell *pc = &w->cell;
  if (!pc->on || !pc->flow) return CAIRN_OK;
  double H[3][3]; /* the edges this step's periodic_deform would give (a flip keeps the volume) */
  memcpy(H, pc->H, sizeof H);
  advance(H, (const double(*)[3])pc->L, dt);
  int finite = 1;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) finite &= isfinite(H[i][j]);
  double v0 = signed_volume((const double(*)[3])pc->H), v1 = signed_volume((const double(*)[3])H);
  /* the inverse divides by the volume: it must stay finite too */
  if (finite && v1 > 0 && isfinite(v1) && isfinite(1.0 / v1)) return CAIRN_OK;
  char rate[256];
  format_rate(pc, w->dim, rate, sizeof rate);
  const char *what = !(v1 > 0) ? "turn it inside out (its volume would go from"
                               : "make its edges non-finite (its volume would go from";
  if (periodic_controlled(pc))
    return diag_set(d, CAIRN_ESTATE,
                    "the periodic cell's rate %s (its stress-controlled axes' rates set by "
                    "cell.servo from the stress) would %s %g to %g) at step %llu with the "
                    "timestep %g; lower cell.servo's rate_max or cell.rate well below 1/timestep",
                    rate, what, v0, v1, (unsigned long long)w->step + 1, dt);
  return diag_set(d, CAIRN_ESTATE,
                  "the periodic cell's rate %s would %s %g to %g) at step %llu with the timestep "
                  "%g; give cell.rate components well below 1/timestep (%g) in size",
                  rate, what, v0, v1, (unsigned long long)w->step + 1, dt, 1.0 / dt);
}

void periodic_deform(cairn_world *w, double dt) {
  periodic_cell *pc = &w->cell;
  if (pc->flow) {
    advance(pc->H, (const double(*)[3])pc->L, dt);
    advance(pc->F, (const double(*)[3])pc->L, dt);
    if (flip(pc, w->dim)) {
      memcpy(pc->H_rebuild, pc->H, sizeof pc->H);
      world_mark_dirty(w); /* the pairs' images are found again */
    }
    invert(pc);
    place(pc);
  }
  periodic_wrap(w);
}

double periodic_moved(const periodic_cell *pc) {
  double m = 0;
  for (int j = 0; j < 3; j++) {
    if (!pc->periodic[j]) continue;
    double e[3] = {pc->H[0][j] - pc->H_rebuild[0][j], pc->H[1][j] - pc->H_rebuild[1][j],
                   pc->H[2][j] - pc->H_rebuild[2][j]};
    m += v3_norm(e);
  }
  return m;
}

cairn_status periodic_check_size(const cairn_world *w, double range, double *skin_max,
                                 cairn_diag *d) {
  const periodic_cell *pc = &w->cell;
  double most = INFINITY;
  for (int j = 0; j < w->dim; j++) {
    if (!pc->periodic[j]) continue;
    double h = periodic_height(pc, j);
    CAIRN_CHECK(h > 2 * range, d, CAIRN_ESTATE,
                "the periodic cell is %g across its %c faces, not more than twice the contact "
                "range (largest ball diameter with the proximity: %g), so a ball would touch "
                "two images of another; make the cell larger (cell.create) or stop it from "
                "shrinking below %g (cell.rate, cell.servo)",
                h, AXIS[j], range, 2 * range);
    if (0.5 * h - range < most) most = 0.5 * h - range;
  }
  *skin_max = most;
  return CAIRN_OK;
}
