/* Contact models that read an input they do not declare in 'needs', for the test that the run
   stops with a message naming the missing declaration instead of going on with a plausible value
   (tests/plugins/undeclared.cmake): 'undeclared_radii' reads r_eff without CAIRN_CM_USES_RADII
   (a Hertz-like spring, F = k sqrt(r_eff) overlap^1.5), 'undeclared_angvel' reads angvel_xyz
   without CAIRN_CM_USES_ANGVEL (a rolling dashpot). Each declares the other input, so the message
   names exactly the one it lacks. They have no other use. */
#include <math.h>

#include <cairn/contact_model.h>

static const cairn_prop_desc props[] = {
    {"und_k", CAIRN_PROP_FLT, "-", 1e6, 0.0, CAIRN_FINITE_MAX, CAIRN_RW, "stiffness", NULL},
};

static void radii_force(const cairn_cm_input *in, const double *p, const double *derived,
                        double *st, cairn_cm_output *out) {
  (void)derived, (void)st;
  if (in->gap >= 0) return;
  double d = -in->gap, fn = p[0] * sqrt(in->r_eff) * d * sqrt(d);
  for (int k = 0; k < 3; k++) out->force_xyz[k] = fn * in->n[k];
  out->kn_est = 1.5 * p[0] * sqrt(in->r_eff * d);
  out->active = 1;
}

static void angvel_force(const cairn_cm_input *in, const double *p, const double *derived,
                         double *st, cairn_cm_output *out) {
  (void)derived, (void)st;
  if (in->gap >= 0) return;
  double fn = p[0] * -in->gap;
  for (int k = 0; k < 3; k++) out->force_xyz[k] = fn * in->n[k];
  for (int k = 0; k < 3; k++) out->moment_xyz[k] = -1e-3 * p[0] * in->angvel_xyz[k];
  out->kn_est = p[0];
  out->active = 1;
}

CAIRN_CM_SLICE(radii_slice, radii_force)
CAIRN_CM_SLICE(angvel_slice, angvel_force)

static void stiffness(const double *p, double *kt, double *kr) {
  *kt = p[0], *kr = 0;
}

static const cairn_contact_model radii = {
    .abi_version = CAIRN_CM_ABI_VERSION,
    .name = "undeclared_radii",
    .version = 1,
    .doc = "reads r_eff without declaring CAIRN_CM_USES_RADII (a test)",
    .props = props,
    .n_props = 1,
    .needs = CAIRN_CM_USES_ANGVEL, /* but not CAIRN_CM_USES_RADII */
    .force = radii_force,
    .force_slice = radii_slice,
    .stiffness = stiffness,
};

static const cairn_contact_model angvel = {
    .abi_version = CAIRN_CM_ABI_VERSION,
    .name = "undeclared_angvel",
    .version = 1,
    .doc = "reads angvel_xyz without declaring CAIRN_CM_USES_ANGVEL (a test)",
    .props = props,
    .n_props = 1,
    .needs = CAIRN_CM_USES_RADII | CAIRN_CM_WRITES_MOMENT, /* but not CAIRN_CM_USES_ANGVEL */
    .force = angvel_force,
    .force_slice = angvel_slice,
    .stiffness = stiffness,
};

CAIRN_PLUGIN_EXPORT int cairn_plugin_register(int abi, void *reg, cairn_cm_add_fn add) {
  if (abi != CAIRN_CM_ABI_VERSION) return -1;
  return add(reg, &radii) == 0 && add(reg, &angvel) == 0 ? 2 : -1;
}
