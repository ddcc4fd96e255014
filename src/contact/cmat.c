/* The contact model assignment table: which model, properties and proximity a new contact gets.
   Today one default per contact kind; rules by group come with the plugin work (issue 4). */
#include <string.h>

#include "contact/contact.h"

static cairn_status entry_set_model(cairn_world *w, cmat_entry *ce, int model, cairn_diag *d) {
  const model_entry *e = &w->reg.e[model];
  double *np = mem_realloc(NULL, 0, (size_t)(e->n_prop_slots + 1) * sizeof(double), "cmat:props");
  if (!np) return diag_set(d, CAIRN_ENOMEM, "out of memory setting the contact model assignment");
  model_props_default(e, np);
  mem_free(ce->props, 0);
  ce->props = np;
  ce->model = model;
  ce->setmask = 0;
  return CAIRN_OK;
}

cairn_status cmat_set_default(cairn_world *w, int kind, const char *model, double proximity,
                              cairn_diag *d) {
  int m = registry_find(&w->reg, model);
  CAIRN_CHECK(m >= 0, d, CAIRN_ENOTFOUND,
              "contact model '%s' is not known; run `cairn models` to list the models (load a "
              "plugin with model.load first)",
              model);
  CAIRN_CHECK(isfinite(proximity) && proximity >= 0, d, CAIRN_EINVAL,
              "contact assignment: proximity must be >= 0 (got %g); give the gap in length units "
              "below which contacts are created",
              proximity);
  cmat_entry *ce = &w->cmat.def[kind];
  CAIRN_TRY(entry_set_model(w, ce, m, d));
  ce->proximity = proximity;
  world_mark_dirty(w);
  return CAIRN_OK;
}

cairn_status cmat_set_prop(cairn_world *w, int kind, const char *name, const double *v, int n,
                           cairn_diag *d) {
  cmat_entry *ce = &w->cmat.def[kind];
  char who[96];
  snprintf(who, sizeof who, "contact assignment (%s)", contact_kind_name(kind));
  return model_prop_write(&w->reg.e[ce->model], ce->props, &ce->setmask, name, v, n, who, d);
}

const cmat_entry *cmat_lookup(const cairn_world *w, int kind, uint32_t a, uint32_t b) {
  (void)a, (void)b;
  return &w->cmat.def[kind];
}

double cmat_max_proximity(const cairn_world *w) {
  double p = 0;
  for (int k = 0; k < 2; k++)
    if (w->cmat.def[k].proximity > p) p = w->cmat.def[k].proximity;
  return p;
}

void cmat_free(cairn_world *w) {
  for (int k = 0; k < 2; k++) {
    mem_free(w->cmat.def[k].props, 0);
    w->cmat.def[k].props = NULL;
  }
}
