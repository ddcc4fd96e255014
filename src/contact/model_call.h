/* The one door to a model (model_call.c): every call of a contact model's function pointers goes
   through these functions, which mark a plugin's call for a crash report (plugin_call.h) and
   stand in for the optional functions a model leaves out, so that no caller tests for NULL. */
#ifndef CAIRN_MODEL_CALL_H
#define CAIRN_MODEL_CALL_H

#include "contact/plugin_call.h"
#include "contact/registry.h"

/* A model without a slice entry: its per-contact law over the slice (model_call.c). */
void model_slice_by_contact(const cairn_contact_model *m, const cairn_cm_slice *s);

/* The model's law over a slice: its slice entry, or its per-contact law. Inline: the force pass
   calls it for every slice of every step. */
#if defined(__GNUC__)
#define MODEL_CALL_INLINE inline __attribute__((always_inline))
#else
#define MODEL_CALL_INLINE inline
#endif
static MODEL_CALL_INLINE void model_call_force(const model_entry *e, const cairn_cm_slice *s) {
  const cairn_contact_model *m = e->m;
  PLUGIN_CALL_ENTER(e, m->force_slice ? "force_slice" : "force");
  if (m->force_slice)
    m->force_slice(s);
  else
    model_slice_by_contact(m, s);
  PLUGIN_CALL_LEAVE(e);
}
/* One contact on its own, asked for the stiffness the model gives it: property block pblk, a
   fresh state 'state' (the model's n_state_slots, zeroed by the caller), first touch, the gap,
   unit normal n (side 1 to side 2), relative velocity v, m_eff and the radii given, no spin;
   what the model does not declare it reads is NULL, as in the force pass. Its kn, ks and kr
   (as written: a model that gives none leaves them 0). */
void model_call_probe(const model_entry *e, uint32_t pblk, double *state, int dim, int kind,
                      double dt, double gap, const double n[3], const double v[3], double m_eff,
                      double r1, double r2, double *kn, double *ks, double *kr);
/* Derive the constants of property block pblk (the model's 'prepare'; nothing without one). */
void model_call_prepare(const model_entry *e, uint32_t pblk);
/* The energy partitions of a contact with property block pblk and state block blk into e
   (CAIRN_ENERGY_N values, zeros without a hook); returns whether the model has the hook. */
int model_call_energy(const model_entry *e, uint32_t pblk, uint32_t blk,
                      double out[CAIRN_ENERGY_N]);
/* The model's check of the properties 'props' (a property block's, or an assignment's) for a
   model of dimension dim: NULL when they are fine (or the model has no hook), else its message
   (in msg, n bytes, or a constant). */
const char *model_call_validate(const model_entry *e, const double *props, int dim, char *msg,
                                size_t n);
/* The translational and rotational stiffness the model estimates from properties alone. */
void model_call_stiffness(const model_entry *e, const double *props, double *tran, double *rot);
/* Bring a state block saved by the model's version 'version' up to its current one (nothing
   when the versions match or the model has no hook). */
void model_call_upgrade_state(const model_entry *e, int version, double *state);

#endif
