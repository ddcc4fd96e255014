/* cm1: the seeds' simple frictional contact model (seed 003, section 4.4.1) as a cairn plugin.
 *
 *   F_n = k_n U_n                       (normal force from the overlap, positive in compression)
 *   dF_s = -k_s dU_s = -k_s v_s dt      (incremental shear force in the contact plane)
 *   |F_s| <= mu F_n                     (Coulomb slider: scale F_s back to the limit)
 *
 * The same code serves 2D and 3D: every vector is global (x, y, z), and in 2D the z components
 * are zero. The shear force is contact state flagged as a contact-plane vector: a global vector
 * that the model turns onto the current contact plane at each update (cairn_cm_turn).
 *
 * Build alone, against an installed cairn (header in /usr/local/include/cairn):
 *   cc -std=c99 -O2 -shared -fPIC -o libcm1.so cm1.c -lm
 * or against a source tree:
 *   cc -std=c99 -O2 -shared -fPIC -I/path/to/cairn/include -o libcm1.so cm1.c -lm
 * Load it in a script with model.load("./libcm1.so"), or run `cairn models cm1 --plugin
 * ./libcm1.so`.
 */
#include <math.h>

#include <cairn/contact_model.h>

/* Property slots, in table order. */
enum { KN, KS, FRIC };
/* State slots: the shear force (4 doubles: the normal component, unused, then the in-plane
   vector x, y, z) and the slip flag. */
enum { SHEAR = 0, SLIP = 4 };

static const cairn_prop_desc cm1_props[] = {
    {"cm1_kn", CAIRN_PROP_FLT, "N/m", 0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW, "normal stiffness",
     NULL},
    {"cm1_ks", CAIRN_PROP_FLT, "N/m", 0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW, "shear stiffness",
     NULL},
    {"cm1_fric", CAIRN_PROP_FLT, "-", 0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW, "friction coefficient",
     NULL},
};

static const cairn_state_desc cm1_state[] = {
    {"cm1_shear", CAIRN_PROP_VEC, CAIRN_STATE_PLANE_XYZ, "N", "shear force (0, s, t)"},
    {"cm1_slip", CAIRN_PROP_BOOL, 0, "-", "1 while sliding"},
};

/* The force law of one contact. */
static void cm1_force(const cairn_cm_input *in, const double *p, const double *derived, double *st,
                      cairn_cm_output *out) {
  (void)derived;
  double *fs = st + SHEAR + 1; /* the shear force, a global vector in the contact plane */
  if (in->gap >= 0) {          /* open contact: no force, forget the shear force */
    fs[0] = fs[1] = fs[2] = 0;
    st[SLIP] = 0;
    return;
  }
  double fn = p[KN] * -in->gap;
  double vs[3]; /* the shear part of the relative velocity */
  cairn_cm_split(in->vel_xyz, in->n, vs);
  cairn_cm_turn(fs, in->n); /* onto this step's contact plane */
  for (int k = 0; k < 3; k++) fs[k] -= p[KS] * vs[k] * in->dt;
  double fmax = p[FRIC] * fn;
  double mag = sqrt(fs[0] * fs[0] + fs[1] * fs[1] + fs[2] * fs[2]);
  int slip = mag > fmax;
  if (slip) {
    double r = fmax / mag;
    for (int k = 0; k < 3; k++) fs[k] *= r;
  }
  if (slip != (int)st[SLIP]) { /* slip_change: mode 0 slip began, 1 slip ended */
    out->events |= CAIRN_EV_SLIP_CHANGE;
    out->slip_mode = slip ? 0 : 1;
  }
  st[SLIP] = slip;
  for (int k = 0; k < 3; k++) out->force_xyz[k] += fn * in->n[k] + fs[k]; /* out starts at zero */
  out->kn_est = p[KN];
  out->ks_est = p[KS];
  out->active = 1;
}

static void cm1_stiffness(const double *p, double *k_tran, double *k_rot) {
  *k_tran = p[KN] + p[KS];
  *k_rot = 0;
}

/* The slice entry the engine calls each step: the law above for many contacts per call. */
CAIRN_CM_SLICE(cm1_force_slice, cm1_force)

static const cairn_contact_model cm1 = {
    .abi_version = CAIRN_CM_ABI_VERSION,
    .name = "cm1",
    .version = 1,
    .doc = "simple frictional model: linear normal and shear springs, Coulomb slider",
    .props = cm1_props,
    .n_props = 3,
    .state = cm1_state,
    .n_state = 2,
    .needs = 0, /* neither angular velocities nor radii; no moment */
    .force = cm1_force,
    .force_slice = cm1_force_slice,
    .stiffness = cm1_stiffness,
};

CAIRN_PLUGIN_EXPORT int cairn_plugin_register(int abi_version, void *registry,
                                              cairn_cm_add_fn add) {
  if (abi_version != CAIRN_CM_ABI_VERSION) return -1;
  return add(registry, &cm1) == 0 ? 1 : -1;
}
