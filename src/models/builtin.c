/* Registers the built-in models with a registry, through the same entry as a plugin's. */
#include "contact/contact.h"
#include "models/builtin.h"

static const cairn_contact_model *const builtin[] = {
    &cairn_model_null,     &cairn_model_linear,      &cairn_model_burger,     &cairn_model_viscous,
    &cairn_model_ductile,  &cairn_model_softening,   &cairn_model_hysdamp,    &cairn_model_hertz,
    &cairn_model_rrlinear, &cairn_model_linearcbond, &cairn_model_linearpbond};

cairn_status models_register_builtin(registry *r, cairn_diag *d) {
  for (size_t i = 0; i < sizeof builtin / sizeof *builtin; i++)
    CAIRN_TRY(registry_add(r, builtin[i], "built-in", d));
  return CAIRN_OK;
}
