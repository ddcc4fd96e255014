/* Energy sums over balls and contacts (design notes in energy.h). Every sum over many balls or
   contacts is exact (core/xsum.h), so it does not depend on their order in the arrays. */
#include <string.h>

#include "contact/contact.h"
#include "contact/energy.h"
#include "contact/model_call.h"
#include "core/comm.h"

/* One contact's partitions from its model's hook; 0 if the model has none. */
static int contact_energy(const cairn_world *w, uint32_t c, double e[CAIRN_ENERGY_N]) {
  const contact_store *cs = w->contacts;
  return model_call_energy(&w->reg->e[cs->model[c]], cs->pblk[c], cs->blk[c], e);
}

/* (under MPI, a contact across ranks is booked by one of them) */
static int booked(const cairn_world *w, uint32_t c) {
  const contact_store *cs = w->contacts;
  return rank_books_contact(w, cs->kind[c], cs->a[c], cs->b[c]);
}

/* The accumulators of the losses not yet folded in (zeroed at the first since the last fold):
   dashpot, slip, removed. */
static xsum *pending(energy_track *t) {
  if (!t->n_pending++)
    for (int k = 0; k < 3; k++) xsum_init(&t->pending[k]);
  return t->pending;
}

void energy_retire(cairn_world *w, uint32_t c) {
  double e[CAIRN_ENERGY_N];
  if (w->contacts->model[c] < 0 || !booked(w, c) || !contact_energy(w, c, e)) return;
  xsum *p = pending(w->energy);
  xsum_add(&p[0], e[CAIRN_ENERGY_DASHPOT]);
  xsum_add(&p[1], e[CAIRN_ENERGY_SLIP]);
}

void energy_totals(const cairn_world *w, double *retired, double *removed) {
  const energy_track *t = w->energy;
  for (int k = 0; k < CAIRN_ENERGY_N; k++) retired[k] = t->retired[k];
  *removed = t->removed;
  if (!t->n_pending) return;
  retired[CAIRN_ENERGY_DASHPOT] += xsum_value(&t->pending[0]);
  retired[CAIRN_ENERGY_SLIP] += xsum_value(&t->pending[1]);
  *removed += xsum_value(&t->pending[2]);
}

/* The pending losses (this rank's, or every rank's once summed) into the totals. */
static void fold_pending(cairn_world *w) {
  if (!w->energy->n_pending) return;
  energy_totals(w, w->energy->retired, &w->energy->removed);
  w->energy->n_pending = 0;
}

void energy_fold(cairn_world *w) {
  if (w->par) { /* every rank's losses, summed exactly (every rank calls this at once) */
    int64_t any = w->energy->n_pending;
    comm_sum_i64(&any, 1);
    if (!any) return;
    comm_xsum(pending(w->energy), 3);
    w->energy->n_pending = 1;
  }
  fold_pending(w);
}

int energy_pending_push(cairn_world *w, struct comm_fused *f, xsum local[3], int *n_local) {
  energy_track *t = w->energy;
  *n_local = t->n_pending;
  if (!t->n_pending)
    for (int k = 0; k < 3; k++) xsum_init(&t->pending[k]);
  memcpy(local, t->pending, 3 * sizeof *local);
  int i = comm_fused_sum(f, t->n_pending);
  comm_fused_xsums(f, t->pending, 3, &t->win_pending);
  return i;
}

void energy_fold_reduced(cairn_world *w, int64_t any) {
  w->energy->n_pending = any > 0; /* (the sums are every rank's now) */
  fold_pending(w);
}

void energy_pending_restore(cairn_world *w, const xsum local[3], int n_local) {
  memcpy(w->energy->pending, local, 3 * sizeof *local);
  w->energy->n_pending = n_local;
}

void energy_pending_share(cairn_world *w) {
  energy_track *t = w->energy;
  int64_t any = t->n_pending;
  comm_sum_i64(&any, 1);
  if (!any) return;
  if (!t->n_pending)
    for (int k = 0; k < 3; k++) xsum_init(&t->pending[k]);
  comm_xsum(t->pending, 3);
  t->n_pending = 1;
}

void energy_pending_drop(cairn_world *w) {
  energy_track *t = w->energy;
  t->n_pending = 0;
  for (int k = 0; k < 3; k++) xsum_init(&t->pending[k]);
}

static void book_removed(cairn_world *w, double e) {
  xsum_add(&pending(w->energy)[2], e);
}

void energy_remove_ball(cairn_world *w, uint32_t s) {
  if (!w->energy->on || s >= balls_owned(w)) return; /* (a ghost: its own rank books it) */
  if (w->balls.fix[s] & FIX_CLUMP) return;           /* (its clump's energy: energy_remove_clump) */
  const ball_store *b = &w->balls;
  book_removed(w, 0.5 * b->mass[s] * v3_dot(b->vel[s], b->vel[s]) +
                      0.5 * b->inertia[s] * v3_dot(b->spin[s], b->spin[s]));
}

void energy_remove_clump(cairn_world *w, uint32_t c) {
  if (!w->energy->on) return;
  const clump_store *cl = &w->clumps;
  book_removed(w, 0.5 * cl->mass[c] * v3_dot(cl->vel[c], cl->vel[c]) +
                      0.5 * v3_dot(cl->spin[c], cl->amom[c]));
}

void energy_remove_contact(cairn_world *w, uint32_t c) {
  double ce[CAIRN_ENERGY_N];
  if (w->energy->on && w->contacts->model[c] >= 0 && booked(w, c) && contact_energy(w, c, ce))
    book_removed(w, ce[CAIRN_ENERGY_STRAIN]);
}

void energy_report_get(const cairn_world *w, energy_report *r) {
  const ball_store *b = &w->balls;
  memset(r, 0, sizeof *r);
  /* exact sums; under MPI decomposition each rank's own balls and the contacts it books, summed
     over the ranks (the books themselves are alike on every rank) */
  xsum e[5]; /* kinetic (translation, rotation), strain, dashpot, slip */
  for (int k = 0; k < 5; k++) xsum_init(&e[k]);
  for (size_t i = 0; i < balls_owned(w); i++) {
    if (b->fix[i] & FIX_CLUMP) continue; /* (its clump's, below) */
    xsum_add(&e[0], 0.5 * b->mass[i] * v3_dot(b->vel[i], b->vel[i]));
    xsum_add(&e[1], 0.5 * b->inertia[i] * v3_dot(b->spin[i], b->spin[i]));
  }
  const clump_store *cl = &w->clumps;
  for (size_t c = 0; c < cl->n; c++) {
    xsum_add(&e[0], 0.5 * cl->mass[c] * v3_dot(cl->vel[c], cl->vel[c]));
    xsum_add(&e[1], 0.5 * v3_dot(cl->spin[c], cl->amom[c]));
  }
  double retired[CAIRN_ENERGY_N];
  energy_totals(w, retired, &r->removed);
  const contact_store *cs = w->contacts;
  int64_t unknown = 0;
  for (size_t c = 0; c < cs->n; c++) {
    if (!rank_books_contact(w, cs->kind[c], cs->a[c], cs->b[c])) continue;
    double ce[CAIRN_ENERGY_N];
    if (!contact_energy(w, (uint32_t)c, ce)) {
      unknown++;
      continue;
    }
    xsum_add(&e[2], ce[CAIRN_ENERGY_STRAIN]);
    xsum_add(&e[3], ce[CAIRN_ENERGY_DASHPOT]);
    xsum_add(&e[4], ce[CAIRN_ENERGY_SLIP]);
  }
  if (w->par) {
    comm_xsum(e, 5);
    comm_sum_i64(&unknown, 1);
  }
  r->n_unknown = (size_t)unknown;
  r->kinetic_trans = xsum_value(&e[0]);
  r->kinetic_rot = xsum_value(&e[1]);
  r->strain = xsum_value(&e[2]);
  r->dashpot = retired[CAIRN_ENERGY_DASHPOT] + xsum_value(&e[3]);
  r->slip = retired[CAIRN_ENERGY_SLIP] + xsum_value(&e[4]);
  r->damping = w->energy->damping;
  r->gravity = w->energy->gravity;
  r->walls = w->energy->walls;
  r->applied = w->energy->applied;
  r->start = w->energy->start;
  r->kinetic = r->kinetic_trans + r->kinetic_rot;
  double held = r->kinetic + r->strain;
  r->balance = r->gravity + r->walls + r->applied - (held - r->start) - r->dashpot - r->slip -
               r->damping - r->removed;
}

void energy_reset(cairn_world *w) {
  int on = w->energy->on;
  memset(w->energy, 0, sizeof *w->energy);
  w->energy->on = on;
  w->energy->started = 1;
  /* The contacts' own loss sums start again from zero too. */
  xsum dash, slip;
  xsum_init(&dash), xsum_init(&slip);
  for (size_t c = 0; c < w->contacts->n; c++) {
    double e[CAIRN_ENERGY_N];
    if (contact_energy(w, (uint32_t)c, e)) {
      xsum_add(&dash, -e[CAIRN_ENERGY_DASHPOT]);
      xsum_add(&slip, -e[CAIRN_ENERGY_SLIP]);
    }
  }
  w->energy->retired[CAIRN_ENERGY_DASHPOT] = xsum_value(&dash);
  w->energy->retired[CAIRN_ENERGY_SLIP] = xsum_value(&slip);
  energy_report r;
  energy_report_get(w, &r);
  w->energy->start = r.kinetic + r.strain;
}

void energy_set_tracking(cairn_world *w, int on) {
  if (on && !w->energy->started) energy_reset(w);
  if (on && !w->energy->on) w->energy->torque_last = 0; /* (the last step formed none) */
  w->energy->on = on != 0;
}

void energy_restore(cairn_world *w, const energy_track *saved) {
  energy_track *t = w->energy;
  t->on = saved->on, t->started = saved->started;
  t->torque_last = saved->torque_last;
  t->gravity = saved->gravity, t->applied = saved->applied, t->walls = saved->walls;
  t->damping = saved->damping, t->removed = saved->removed;
  memcpy(t->retired, saved->retired, sizeof t->retired);
  t->start = saved->start;
}
