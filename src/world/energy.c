/* Energy sums over balls and contacts, in slot order (design notes in energy.h). */
#include <string.h>

#include "contact/contact.h"
#include "contact/plugin_call.h"
#include "world/energy.h"

/* One contact's partitions from its model's hook; 0 if the model has none. */
static int contact_energy(const cairn_world *w, uint32_t c, double e[CAIRN_ENERGY_N]) {
  const model_entry *me = &w->reg.e[w->contacts.model[c]];
  memset(e, 0, CAIRN_ENERGY_N * sizeof *e);
  if (!me->m->energy) return 0;
  uint32_t blk = w->contacts.blk[c];
  PLUGIN_CALL_ENTER(me, "energy");
  me->m->energy(pool_props(me, w->contacts.pblk[c]), pool_state(me, blk), e);
  PLUGIN_CALL_LEAVE(me);
  return 1;
}

void energy_retire(cairn_world *w, uint32_t c) {
  double e[CAIRN_ENERGY_N];
  if (w->contacts.model[c] < 0 || !contact_energy(w, c, e)) return;
  w->energy.retired[CAIRN_ENERGY_DASHPOT] += e[CAIRN_ENERGY_DASHPOT];
  w->energy.retired[CAIRN_ENERGY_SLIP] += e[CAIRN_ENERGY_SLIP];
}

void energy_remove_ball(cairn_world *w, uint32_t s) {
  if (!w->energy.on) return;
  const ball_store *b = &w->balls;
  w->energy.removed += 0.5 * b->mass[s] * v3_dot(b->vel[s], b->vel[s]) +
                       0.5 * b->inertia[s] * v3_dot(b->spin[s], b->spin[s]);
}

void energy_remove_contact(cairn_world *w, uint32_t c) {
  double ce[CAIRN_ENERGY_N];
  if (w->energy.on && w->contacts.model[c] >= 0 && contact_energy(w, c, ce))
    w->energy.removed += ce[CAIRN_ENERGY_STRAIN];
}

void energy_report_get(const cairn_world *w, energy_report *r) {
  const ball_store *b = &w->balls;
  memset(r, 0, sizeof *r);
  for (size_t i = 0; i < b->n; i++) {
    r->kinetic_trans += 0.5 * b->mass[i] * v3_dot(b->vel[i], b->vel[i]);
    r->kinetic_rot += 0.5 * b->inertia[i] * v3_dot(b->spin[i], b->spin[i]);
  }
  r->dashpot = w->energy.retired[CAIRN_ENERGY_DASHPOT];
  r->slip = w->energy.retired[CAIRN_ENERGY_SLIP];
  for (size_t c = 0; c < w->contacts.n; c++) {
    double e[CAIRN_ENERGY_N];
    if (!contact_energy(w, (uint32_t)c, e)) {
      r->n_unknown++;
      continue;
    }
    r->strain += e[CAIRN_ENERGY_STRAIN];
    r->dashpot += e[CAIRN_ENERGY_DASHPOT];
    r->slip += e[CAIRN_ENERGY_SLIP];
  }
  r->damping = w->energy.damping;
  r->gravity = w->energy.gravity;
  r->walls = w->energy.walls;
  r->applied = w->energy.applied;
  r->removed = w->energy.removed;
  r->start = w->energy.start;
  r->kinetic = r->kinetic_trans + r->kinetic_rot;
  double held = r->kinetic + r->strain;
  r->balance = r->gravity + r->walls + r->applied - (held - r->start) - r->dashpot - r->slip -
               r->damping - r->removed;
}

void energy_reset(cairn_world *w) {
  int on = w->energy.on;
  memset(&w->energy, 0, sizeof w->energy);
  w->energy.on = on;
  w->energy.started = 1;
  /* The contacts' own loss sums start again from zero too. */
  for (size_t c = 0; c < w->contacts.n; c++) {
    double e[CAIRN_ENERGY_N];
    if (contact_energy(w, (uint32_t)c, e)) {
      w->energy.retired[CAIRN_ENERGY_DASHPOT] -= e[CAIRN_ENERGY_DASHPOT];
      w->energy.retired[CAIRN_ENERGY_SLIP] -= e[CAIRN_ENERGY_SLIP];
    }
  }
  energy_report r;
  energy_report_get(w, &r);
  w->energy.start = r.kinetic + r.strain;
}

void energy_set_tracking(cairn_world *w, int on) {
  if (on && !w->energy.started) energy_reset(w);
  w->energy.on = on != 0;
}
