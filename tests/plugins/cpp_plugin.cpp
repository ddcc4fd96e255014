// A contact-model plugin written in C++: the ABI header (its inline helpers and the
// CAIRN_CM_SLICE macro included) must compile as C++ and the plugin must load like a C one. The
// model is a plain linear normal spring ("cpp_spring").
#include <cairn/contact_model.h>
#include <cmath>

namespace {

const cairn_prop_desc props[] = {
    {"cpp_kn", CAIRN_PROP_FLT, "N/m", 0.0, 0.0, INFINITY, CAIRN_RW, "normal stiffness", nullptr},
};

// The law of one contact, and the slice entry made of it.
void spring_force(const cairn_cm_input *in, const double *p, const double *, double *,
                  cairn_cm_output *out) {
  if (in->gap >= 0) return;
  const double fn = p[0] * -in->gap; // along the normal, > 0 in compression
  for (int k = 0; k < 3; k++) out->force_xyz[k] = fn * in->n[k];
  out->kn_est = p[0];
  out->active = 1;
}

CAIRN_CM_SLICE(spring_slice, spring_force)

void stiffness(const double *p, double *kt, double *kr) {
  *kt = p[0];
  *kr = 0;
}

cairn_contact_model make_model() {
  cairn_contact_model m{};
  m.abi_version = CAIRN_CM_ABI_VERSION;
  m.name = "cpp_spring";
  m.version = 1;
  m.doc = "linear normal spring written in C++";
  m.props = props;
  m.n_props = 1;
  m.needs = 0;
  m.force = spring_force;
  m.force_slice = spring_slice;
  m.stiffness = stiffness;
  return m;
}

const cairn_contact_model model = make_model();

} // namespace

extern "C" CAIRN_PLUGIN_EXPORT int cairn_plugin_register(int abi, void *reg, cairn_cm_add_fn add) {
  if (abi != CAIRN_CM_ABI_VERSION) return -1;
  return add(reg, &model) == 0 ? 1 : -1;
}
