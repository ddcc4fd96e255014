/* hertzlike: a nonlinear test plugin written from the plugin guide, to check the automatic
   timestep with it: F_n = hl_k overlap^(3/2), no shear force. Its stiffness estimate is what the
   guide asks of a nonlinear model: the tangent stiffness 1.5 hl_k sqrt(d) at the largest overlap
   of the impact: the larger of the current overlap, the one a head-on impact at the current
   approach speed reaches, and the largest reached since touch (hl_dpk; so the estimate holds
   through the rebound). With hl_naive = 1, only at the current overlap, near zero at first touch,
   as a first attempt would give it. From the properties alone, hl_k sqrt(hl_dref), the secant
   stiffness at a reference overlap the user guesses. */
#include <math.h>

#include <cairn/contact_model.h>

enum { K, DREF, NAIVE };

static const cairn_prop_desc hl_props[] = {
    {"hl_k", CAIRN_PROP_FLT, "N/m^1.5", 0.0, 0.0, INFINITY, CAIRN_RW, "F = hl_k overlap^1.5", NULL},
    {"hl_dref", CAIRN_PROP_FLT, "m", 0.0, 0.0, INFINITY, CAIRN_RW,
     "overlap at which the property-only stiffness estimate is taken", NULL},
    {"hl_naive", CAIRN_PROP_BOOL, "-", 0.0, 0.0, 1.0, CAIRN_RW,
     "1: the stiffness estimate at the current overlap only", NULL},
};

static const cairn_state_desc hl_state[] = {
    {"hl_fn", CAIRN_PROP_FLT, 0, "N", "normal force"},
    {"hl_dpk", CAIRN_PROP_FLT, 0, "m", "largest overlap of this impact"},
};

static void hl_force(const cairn_cm_input *in, const double *p, const double *derived, double *st,
                     cairn_cm_output *out) {
  (void)derived;
  if (in->gap >= 0) {
    st[0] = st[1] = 0;
    return;
  }
  double d = -in->gap, sd = sqrt(d), fn = p[K] * d * sd;
  st[0] = fn;
  out->active = 1;
  out->force_xyz[0] = fn * in->n[0], out->force_xyz[1] = fn * in->n[1],
  out->force_xyz[2] = fn * in->n[2];
  /* the peak overlap of a head-on impact from here: hl_k dmax^2.5 / 2.5 = hl_k d^2.5 / 2.5 +
     m u^2 / 2 */
  double u = -(in->vel_xyz[0] * in->n[0] + in->vel_xyz[1] * in->n[1] + in->vel_xyz[2] * in->n[2]);
  double dmax = d;
  if (!p[NAIVE] && u > 0) dmax = pow(d * d * sd + 1.25 * in->m_eff * u * u / p[K], 0.4);
  if (d > st[1]) st[1] = d;
  if (!p[NAIVE] && st[1] > dmax) dmax = st[1];
  out->kn_est = 1.5 * p[K] * sqrt(dmax);
}

static void hl_stiffness(const double *p, double *k_tran, double *k_rot) {
  *k_tran = p[K] * sqrt(p[DREF]);
  *k_rot = 0;
}

CAIRN_CM_SLICE(hl_force_slice, hl_force)

static const cairn_contact_model hertzlike = {
    .abi_version = CAIRN_CM_ABI_VERSION,
    .name = "hertzlike",
    .version = 1,
    .doc = "test plugin: F = k overlap^1.5 with naive stiffness estimates",
    .props = hl_props,
    .n_props = 3,
    .state = hl_state,
    .n_state = 2,
    .force = hl_force,
    .force_slice = hl_force_slice,
    .stiffness = hl_stiffness,
};

CAIRN_PLUGIN_EXPORT int cairn_plugin_register(int abi_version, void *registry,
                                              cairn_cm_add_fn add) {
  if (abi_version != CAIRN_CM_ABI_VERSION) return -1;
  return add(registry, &hertzlike) == 0 ? 1 : -1;
}
