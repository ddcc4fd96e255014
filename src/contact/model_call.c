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

void model_call_probe(const model_entry *e, uint32_t pblk, double *state, int dim, int kind,
                      double dt, double gap, const double n[3], const double v[3], double m_eff,
                      double r1, double r2, double *kn, double *ks, double *kr) {
  double zero = 0, fx, fy, fz, mx, my, mz;
  unsigned char first = 1, status = 0;
  int angvel = (e->m->needs & CAIRN_CM_USES_ANGVEL) != 0,
      radii = (e->m->needs & CAIRN_CM_USES_RADII) != 0;
  *kn = *ks = *kr = 0;
  cairn_cm_slice s = {
      .n = 1,
      .dim = dim,
      .kind = kind,
      .energy = 0,
      .dt = dt,
      .props = pool_props(e, pblk),
      .derived = pool_derived(e, pblk),
      .state = &state,
      .first = &first,
      .gap = &gap,
      .nx = &n[0],
      .ny = &n[1],
      .nz = &n[2],
      .vx = &v[0],
      .vy = &v[1],
      .vz = &v[2],
      .wx = angvel ? &zero : NULL,
      .wy = angvel ? &zero : NULL,
      .wz = angvel ? &zero : NULL,
      .m_eff = &m_eff,
      .r1 = radii ? &r1 : NULL,
      .r2 = radii ? &r2 : NULL,
      .fx = &fx,
      .fy = &fy,
      .fz = &fz,
      .mx = &mx,
      .my = &my,
      .mz = &mz,
      .kn = kn,
      .ks = ks,
      .kr = kr,
      .status = &status,
  };
  model_call_force(e, &s);
}
