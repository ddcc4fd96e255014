/* Solving to a criterion, as PFC users know it: run until the model time or a step count is
   reached, or the unbalanced-force ratio (mean or maximum) or the kinetic energy falls below a
   limit, whichever comes first; and the measures those criteria use. */
#include <math.h>

#include "contact/contact.h"
#include "core/comm.h"
#include "core/idmap.h"
#include "cycle/cycle.h"
#include "cycle/rigid.h"
#include "par/par.h"

/* Free in at least one translation component (a ball fixed in every one carries no unbalanced
   force of its own: whatever acts on it is reacted). A pebble's forces count as applied to its
   clump, whose unbalanced force is the body's. */
static int counts(const ball_store *b, size_t i, int dim) {
  unsigned all = dim == 3 ? 7u : 3u;
  return (b->fix[i] & all) != all;
}

/* The unbalanced force of ball i from the last force pass: contacts, applied loads (added to the
   ball's force) and gravity, on its free components. */
static double unbalanced(const cairn_world *w, size_t i) {
  const ball_store *b = &w->balls;
  double s = 0;
  for (int k = 0; k < w->dim; k++) {
    if (b->fix[i] & (1u << k)) continue;
    double f = b->force[i][k] + b->mass[i] * w->gravity[k];
    s += f * f;
  }
  return sqrt(s);
}

/* The least force, as a share of k_tran * r, that a ball's contacts count as applying: the force
   that moves the ball by a billionth of its radius against them. A model at rest without load (a
   bonded specimen, adhesive contacts in balance) has contact forces that fall to nothing with
   its unbalanced forces, and their ratio would never fall; a loaded packing's forces are far
   above this floor (overlaps of 1e-3 of a radius and more), so its ratio is unchanged. */
#define RATIO_FLOOR 1e-9

void cycle_ratios(const cairn_world *w, double *mean, double *max) {
  const ball_store *b = &w->balls;
  const contact_store *cs = w->contacts;
  /* exact sums: the same ratios whatever the order of the balls and contacts (a criterion met
     one step sooner or later would change the run) */
  xsum xu, xa, xf;
  xsum_init(&xu), xsum_init(&xa), xsum_init(&xf);
  double max_u = 0, g = sqrt(v3_dot(w->gravity, w->gravity));
  size_t n = 0, own = balls_owned(w); /* (under MPI: this rank's balls, then every rank's) */
  for (size_t i = 0; i < own; i++) {
    if (!counts(b, i, w->dim) || (b->fix[i] & FIX_CLUMP)) continue;
    double u = unbalanced(w, i);
    xsum_add(&xu, u);
    if (u > max_u) max_u = u;
    xsum_add(&xa, b->mass[i] * g);
    xsum_add(&xf, RATIO_FLOOR * b->k_tran[i] * b->rad[i]);
    n++;
  }
  /* Clumps: the summed force of their pebbles (clump.force, from the last step) and gravity. */
  const clump_store *cl = &w->clumps;
  for (size_t c = 0; c < cl->n; c++) {
    unsigned all = w->dim == 3 ? 7u : 3u;
    if ((cl->fix[c] & all) == all) continue;
    double s = 0, kt = 0, rmin = INFINITY;
    for (int k = 0; k < w->dim; k++) {
      if (cl->fix[c] & (1u << k)) continue;
      double f = cl->force[c][k] + cl->mass[c] * w->gravity[k];
      s += f * f;
    }
    for (uint32_t p = cl->first[c]; p < cl->first[c] + cl->count[c]; p++) {
      uint32_t i = idmap_get(&b->map, (uint64_t)cl->peb_id[p]);
      if (i == IDMAP_NONE) continue;
      kt += b->k_tran[i];
      if (b->rad[i] < rmin) rmin = b->rad[i];
    }
    double u = sqrt(s);
    xsum_add(&xu, u);
    if (u > max_u) max_u = u;
    xsum_add(&xa, cl->mass[c] * g);
    if (kt > 0) xsum_add(&xf, RATIO_FLOOR * kt * rmin);
    n++;
  }
  /* The forces scripts apply, on free balls. */
  for (size_t k = 0; k < w->loads.n; k++) {
    uint32_t i = idmap_get(&b->map, (uint64_t)w->loads.id[k]);
    if (i != IDMAP_NONE && i < own && counts(b, i, w->dim)) /* (a ghost's: its owner's) */
      xsum_add(&xa, sqrt(v3_dot(w->loads.f[k], w->loads.f[k])));
  }
  /* The contacts' share of the applied forces: each active contact's force, once per free
     ball it acts on. */
  for (size_t c = 0; c < cs->n; c++) {
    if (!cs->active[c]) continue;
    double f = sqrt(v3_dot(cs->force[c], cs->force[c]));
    if (cs->b[c] < own && counts(b, cs->b[c], w->dim)) xsum_add(&xa, f);
    if (cs->kind[c] == CAIRN_KIND_BALL_BALL && cs->a[c] < own && counts(b, cs->a[c], w->dim))
      xsum_add(&xa, f);
  }
  if (w->par) {
    xsum all[3] = {xu, xa, xf};
    int64_t nn = (int64_t)n;
    comm_xsum(all, 3);
    comm_max(&max_u, 1);
    comm_sum_i64(&nn, 1);
    xu = all[0], xa = all[1], xf = all[2], n = (size_t)nn;
  }
  double sum_u = xsum_value(&xu), sum_a = fmax(xsum_value(&xa), xsum_value(&xf));
  if (!(sum_a > 0)) { /* nothing acts: balanced, unless something unbalanced remains */
    *mean = sum_u > 0 ? INFINITY : 0.0;
    *max = max_u > 0 ? INFINITY : 0.0;
    return;
  }
  *mean = sum_u / sum_a;
  *max = max_u * (double)n / sum_a;
}

double cycle_kinetic(const cairn_world *w) {
  const ball_store *b = &w->balls;
  xsum e; /* exact: the same whatever the order of the balls (under MPI: every rank's) */
  xsum_init(&e);
  for (size_t i = 0; i < balls_owned(w); i++) {
    const double *v = b->vel[i], *s = b->spin[i];
    if (b->fix[i] & FIX_CLUMP) continue; /* (its clump's, below) */
    xsum_add(&e, 0.5 * b->mass[i] * v3_dot(v, v));
    xsum_add(&e, 0.5 * b->inertia[i] * (w->dim == 2 ? s[2] * s[2] : v3_dot(s, s)));
  }
  if (w->par) comm_xsum(&e, 1);
  return xsum_value(&e) + rigid_kinetic(w);
}

void cycle_calm(cairn_world *w) {
  ball_store *b = &w->balls;
  for (size_t i = 0; i < b->n; i++) {
    v3_zero(b->vel[i]);
    v3_zero(b->spin[i]);
  }
  clump_store *cl = &w->clumps;
  for (size_t c = 0; c < cl->n; c++) {
    v3_zero(cl->vel[c]);
    v3_zero(cl->spin[c]);
    v3_zero(cl->amom[c]);
  }
}

/* Which criterion holds now (after a step), or -1. */
static int met(const cairn_world *w, const solve_limits *lim, uint64_t steps, solve_result *r) {
  if (lim->ratio_mean > 0 || lim->ratio_max > 0) cycle_ratios(w, &r->ratio_mean, &r->ratio_max);
  if (lim->calm > 0) r->kinetic = cycle_kinetic(w);
  if (lim->ratio_mean > 0 && r->ratio_mean <= lim->ratio_mean) return SOLVE_RATIO_MEAN;
  if (lim->ratio_max > 0 && r->ratio_max <= lim->ratio_max) return SOLVE_RATIO_MAX;
  if (lim->calm > 0 && r->kinetic <= lim->calm) return SOLVE_CALM;
  if (lim->steps > 0 && steps >= lim->steps) return SOLVE_STEPS;
  /* (a remainder below 1e-9 of a step is round-off) */
  if (isfinite(lim->time) && w->time >= lim->time - 1e-9 * w->dt) return SOLVE_TIME;
  return -1;
}

/* The fraction done, for progress: the largest of the time's and the steps' fractions, and for
   the ratio and the kinetic energy their decades down from the first value to the limit. */
static double fraction(const cairn_world *w, const solve_limits *lim, uint64_t steps, double t0,
                       const solve_result *first, const solve_result *now) {
  double f = 0;
  if (isfinite(lim->time) && lim->time > t0) f = fmax(f, (w->time - t0) / (lim->time - t0));
  if (lim->steps > 0) f = fmax(f, (double)steps / (double)lim->steps);
  const double pairs[3][3] = {{lim->ratio_mean, first->ratio_mean, now->ratio_mean},
                              {lim->ratio_max, first->ratio_max, now->ratio_max},
                              {lim->calm, first->kinetic, now->kinetic}};
  for (int k = 0; k < 3; k++) {
    double goal = pairs[k][0], a = pairs[k][1], x = pairs[k][2];
    if (goal > 0 && a > goal && x > 0 && isfinite(a) && isfinite(x))
      f = fmax(f, log(a / x) / log(a / goal));
  }
  return f < 0 ? 0 : f > 1 ? 1 : f;
}

cairn_status cycle_solve(cairn_world *w, const solve_limits *lim, solve_result *r, cairn_diag *d) {
  CAIRN_CHECK(isfinite(lim->time) || lim->steps > 0 || lim->ratio_mean > 0 || lim->ratio_max > 0 ||
                  lim->calm > 0,
              d, CAIRN_EINVAL, "solve needs a criterion: a time, a step count, a ratio or calm");
  r->reason = -1, r->steps = 0, r->ratio_mean = r->ratio_max = r->kinetic = NAN;
  /* A time already reached with no other criterion: nothing to do (as cycle_solve_time). */
  if (isfinite(lim->time) && w->time >= lim->time - 1e-9 * w->dt && lim->steps == 0 &&
      !(lim->ratio_mean > 0 || lim->ratio_max > 0 || lim->calm > 0)) {
    r->reason = SOLVE_TIME;
    return CAIRN_OK;
  }
  double t0 = w->time;
  solve_result first = *r;
  cycle_run_start(w);
  cairn_status s = par_begin(w, d);
  while (r->reason < 0 && s == CAIRN_OK && !w->stop_request) {
    s = cycle_run_one(w, d);
    if (s) break;
    r->steps++;
    r->reason = met(w, lim, r->steps, r);
    if (r->steps == 1) first = *r;
    if (w->progress && (w->progress_each || (w->step & 255) == 0))
      w->progress(w->progress_ud, fraction(w, lim, r->steps, t0, &first, r), r->steps, 0);
  }
  if (w->progress) w->progress(w->progress_ud, 1.0, r->steps, 1);
  s = cycle_run_end(w, s, d);
  /* The measures at the end, whichever criterion stopped it. */
  cycle_ratios(w, &r->ratio_mean, &r->ratio_max);
  r->kinetic = cycle_kinetic(w);
  return s;
}
