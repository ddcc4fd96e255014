/* The one door to a model: the calls of its function pointers (model_call.h). */
#include "contact/model_call.h"

#include <string.h>

void model_slice_by_contact(const cairn_contact_model *m, const cairn_cm_slice *s) {
  /* the ABI's own loop (CAIRN_CM_SLICE), through the pointer */
  void (*law)(const cairn_cm_input *, const double *, const double *, double *, cairn_cm_output *) =
      m->force;
  CAIRN_CM_SLICE_LOOP(s, law)
}

void model_call_prepare(const model_entry *e, uint32_t pblk) {
  if (!e->m->prepare) return;
  PLUGIN_CALL_ENTER(e, "prepare");
  e->m->prepare(pool_props(e, pblk), pool_derived(e, pblk));
  PLUGIN_CALL_LEAVE(e);
}

int model_call_energy(const model_entry *e, uint32_t pblk, uint32_t blk,
                      double out[CAIRN_ENERGY_N]) {
  memset(out, 0, CAIRN_ENERGY_N * sizeof *out);
  if (!e->m->energy) return 0;
  PLUGIN_CALL_ENTER(e, "energy");
  e->m->energy(pool_props(e, pblk), pool_state(e, blk), out);
  PLUGIN_CALL_LEAVE(e);
  return 1;
}

const char *model_call_validate(const model_entry *e, const double *props, int dim, char *msg,
                                size_t n) {
  if (!e->m->validate) return NULL;
  PLUGIN_CALL_ENTER(e, "validate");
  const char *bad = e->m->validate(props, dim, msg, n);
  PLUGIN_CALL_LEAVE(e);
  return bad;
}

void model_call_stiffness(const model_entry *e, const double *props, double *tran, double *rot) {
  PLUGIN_CALL_ENTER(e, "stiffness");
  e->m->stiffness(props, tran, rot);
  PLUGIN_CALL_LEAVE(e);
}

void model_call_upgrade_state(const model_entry *e, int version, double *state) {
  if (version == e->m->version || !e->m->upgrade_state) return;
  PLUGIN_CALL_ENTER(e, "upgrade_state");
  e->m->upgrade_state(version, state);
  PLUGIN_CALL_LEAVE(e);
}
