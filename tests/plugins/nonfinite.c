/* A contact model that turns one of its outputs non-finite after a given number of updates, for
   the test that the force pass stops the run at once, naming the contact, the model, what was not
   finite and the step (tests/plugins/test_nonfinite.lua). Otherwise a plain normal spring. It
   has no other use. */
#include <math.h>

#include <cairn/contact_model.h>

enum { K, WHAT, AFTER };
enum { CALLS, VAL, PV }; /* PV: a contact-plane VEC, four slots [normal, x, y, z] */

static const cairn_prop_desc props[] = {
    {"nf_k", CAIRN_PROP_FLT, "N/m", 1e6, 0.0, INFINITY, CAIRN_RW, "normal stiffness", NULL},
    {"nf_what", CAIRN_PROP_INT, "-", 0.0, 0.0, 3.0, CAIRN_RW,
     "what turns non-finite: 0 the force, 1 the moment, 2 the state field nf_val, 3 the last "
     "slot of the contact-plane state field nf_pv",
     NULL},
    {"nf_after", CAIRN_PROP_INT, "-", 5.0, 0.0, 1e9, CAIRN_RW,
     "updates of the contact before it does", NULL},
};

static const cairn_state_desc state[] = {
    {"nf_calls", CAIRN_PROP_FLT, 0, "-", "updates so far"},
    {"nf_val", CAIRN_PROP_FLT, 0, "-", "a state value"},
    {"nf_pv", CAIRN_PROP_VEC, CAIRN_STATE_PLANE_XYZ, "-", "a contact-plane state vector"},
};

static void nf_force(const cairn_cm_input *in, const double *p, const double *derived, double *st,
                     cairn_cm_output *out) {
  (void)derived;
  double fn = in->gap < 0 ? -p[K] * in->gap : 0.0;
  int bad = st[CALLS] >= p[AFTER];
  st[CALLS] += 1;
  st[VAL] = bad && p[WHAT] == 2 ? NAN : fn;
  st[PV + 3] = bad && p[WHAT] == 3 ? NAN : 0.0;
  if (bad && p[WHAT] == 0) fn = INFINITY;
  for (int k = 0; k < 3; k++) out->force_xyz[k] = fn * in->n[k];
  if (bad && p[WHAT] == 1) out->moment_xyz[2] = NAN;
  out->active = in->gap < 0;
  out->kn_est = p[K];
}

static void nf_stiffness(const double *p, double *kt, double *kr) {
  *kt = p[K], *kr = 0;
}

static const cairn_contact_model model = {
    .abi_version = CAIRN_CM_ABI_VERSION,
    .name = "nonfinite",
    .version = 1,
    .doc = "a spring that turns its force, moment or state non-finite (a test)",
    .props = props,
    .n_props = 3,
    .state = state,
    .n_state = 3,
    .needs = CAIRN_CM_WRITES_MOMENT,
    .force = nf_force,
    .stiffness = nf_stiffness,
};

CAIRN_PLUGIN_EXPORT int cairn_plugin_register(int abi, void *reg, cairn_cm_add_fn add) {
  if (abi != CAIRN_CM_ABI_VERSION) return -1;
  return add(reg, &model) == 0 ? 1 : -1;
}
