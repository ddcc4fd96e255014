// A contact-model plugin written in C++: the ABI header must compile as C++ and the plugin must
// load like a C one. The model is a plain linear normal spring ("cpp_spring").
#include <cairn/contact_model.h>
#include <cmath>

namespace {

const cairn_prop_desc props[] = {
    {"cpp_kn", CAIRN_PROP_FLT, "N/m", 0.0, 0.0, INFINITY, CAIRN_RW, "normal stiffness", nullptr},
};

void force(const cairn_cm_input *in, const double *p, const double *, double *,
           cairn_cm_output *out) {
  if (in->gap >= 0) return;
  out->force[0] = p[0] * -in->gap;
  out->kn_est = p[0];
  out->active = 1;
}

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
  m.force = force;
  m.stiffness = stiffness;
  return m;
}

const cairn_contact_model model = make_model();

} // namespace

extern "C" CAIRN_PLUGIN_EXPORT int cairn_plugin_register(int abi, void *reg, cairn_cm_add_fn add) {
  if (abi != CAIRN_CM_ABI_VERSION) return -1;
  return add(reg, &model) == 0 ? 1 : -1;
}
