/* cm1: the seeds' simple frictional contact model (seed 003, section 4.4.1) as a cairn plugin.
 *
 *   F_n = k_n U_n                       (normal force from the overlap, positive in compression)
 *   dF_s = -k_s dU_s = -k_s v_s dt      (incremental shear force in the contact plane)
 *   |F_s| <= mu F_n                     (Coulomb slider: scale F_s back to the limit)
 *
 * The same code serves 2D and 3D: vectors come in contact-plane components (n, s, t), and in 2D
 * the s components are zero. The shear force is kept as contact state flagged as a contact-plane
 * vector, so cairn turns it with the contact.
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
/* State slots: the shear force (3 doubles: n, s, t; n unused) and the slip flag. */
enum { FS = 0, SLIP = 3 };

static const cairn_prop_desc cm1_props[] = {
    {"cm1_kn", CAIRN_PROP_FLT, "N/m", 0.0, 0.0, INFINITY, CAIRN_RW, "normal stiffness", NULL},
    {"cm1_ks", CAIRN_PROP_FLT, "N/m", 0.0, 0.0, INFINITY, CAIRN_RW, "shear stiffness", NULL},
    {"cm1_fric", CAIRN_PROP_FLT, "-", 0.0, 0.0, INFINITY, CAIRN_RW, "friction coefficient", NULL},
};

static const cairn_state_desc cm1_state[] = {
    {"cm1_shear", CAIRN_PROP_VEC, CAIRN_STATE_PLANE_VEC, "N", "shear force (0, s, t)"},
    {"cm1_slip", CAIRN_PROP_BOOL, 0, "-", "1 while sliding"},
};

static void cm1_force(const cairn_cm_input *in, const double *p, const double *derived, double *st,
                      cairn_cm_output *out) {
  (void)derived;
  double *fs = st + FS;
  if (in->gap >= 0) { /* open contact: no force, forget the shear force */
    fs[1] = fs[2] = 0;
    st[SLIP] = 0;
    return;
  }
  double fn = p[KN] * -in->gap;
  fs[1] -= p[KS] * in->vel[1] * in->dt;
  fs[2] -= p[KS] * in->vel[2] * in->dt;
  double fmax = p[FRIC] * fn;
  double mag = sqrt(fs[1] * fs[1] + fs[2] * fs[2]);
  int slip = mag > fmax;
  if (slip) {
    double r = mag > 0 ? fmax / mag : 0.0;
    fs[1] *= r;
    fs[2] *= r;
  }
  if (slip != (int)st[SLIP]) {
    out->events |= CAIRN_EV_SLIP_CHANGE;
    out->slip_mode = slip ? 0 : 1;
  }
  st[SLIP] = slip;
  out->force[0] = fn;
  out->force[1] = fs[1];
  out->force[2] = fs[2];
  out->kn_est = p[KN];
  out->ks_est = p[KS];
  out->active = 1;
}

static void cm1_stiffness(const double *p, double *k_tran, double *k_rot) {
  *k_tran = p[KN] + p[KS];
  *k_rot = 0;
}

/* One call for many contacts: the engine then needs no call through a pointer per contact. */
CAIRN_CM_BATCH(cm1_force_batch, cm1_force)

static const cairn_contact_model cm1 = {
    .abi_version = CAIRN_CM_ABI_VERSION,
    .name = "cm1",
    .version = 1,
    .doc = "simple frictional model: linear normal and shear springs, Coulomb slider",
    .props = cm1_props,
    .n_props = 3,
    .state = cm1_state,
    .n_state = 2,
    .force = cm1_force,
    .force_batch = cm1_force_batch,
    .stiffness = cm1_stiffness,
};

CAIRN_PLUGIN_EXPORT int cairn_plugin_register(int abi_version, void *registry,
                                              cairn_cm_add_fn add) {
  if (abi_version != CAIRN_CM_ABI_VERSION) return -1;
  return add(registry, &cm1) == 0 ? 1 : -1;
}
