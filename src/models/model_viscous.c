/* The "viscous" model (seed 003 §4.4.2): a linear normal spring and, in shear, a spring in series
   with a dashpot (a Maxwell element) integrated with the trapezoidal rule of Eqs. 4.8 and 4.9.
   By default a contact bonds when the surfaces first touch and is then never deleted. */
#include "models/builtin.h"
#include "models/laws.h"

enum { P_KN, P_KS, P_VISC, P_BONDTOUCH };
/* State slots: vis_force is a contact-plane vector, four slots: [normal, x, y, z], the normal
   component first, then the in-plane (shear) part as a global vector. */
enum { S_FORCE = 0, S_BONDED = 4 };

static const cairn_prop_desc viscous_props[] = {
    /* clang-format off */
  /* name            type             unit    def  min  max       access    doc */
  {"vis_kn",        CAIRN_PROP_FLT,  "N/m",  0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "normal stiffness (tension too, while bonded)", NULL},
  {"vis_ks",        CAIRN_PROP_FLT,  "N/m",  0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "shear stiffness of the Maxwell element's spring", NULL},
  {"vis_viscosity", CAIRN_PROP_FLT,  "N.s/m", 0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "shear viscosity of the Maxwell element's dashpot (0: no shear force; inf: spring only)",
   NULL},
  {"vis_bondtouch", CAIRN_PROP_BOOL, "-",    1.0, 0.0, 1.0,      CAIRN_RW,
   "1: bond when the surfaces first touch, then carry tension and never delete; 0: no bond",
   NULL},
    /* clang-format on */
};

static const cairn_state_desc viscous_state[] = {
    {"vis_force", CAIRN_PROP_VEC, CAIRN_STATE_PLANE_XYZ, "N",
     "contact force (normal, s, t); normal > 0 in compression"},
    {"vis_bonded", CAIRN_PROP_BOOL, 0, "-", "1 once the contact has bonded (for good)"},
};

/* The Maxwell shear update of Eq. 4.9 multiplied through by ks, with a = ks dt / (2 eta):
   F' = (F (1 - a) - ks v dt) / (1 + a), the same for each component of the shear force fs and
   the shear velocity vs (global in-plane vectors; in 2D their z components are 0). The form
   stays finite for ks = 0 (a = 0: the force keeps its value, zero) and eta = inf (a = 0: a plain
   incremental spring); eta = 0 is a dashpot that yields freely, so no shear force. */
static void maxwell_shear(double fs[3], double ks, double eta, const double vs[3], double dt) {
  if (!(eta > 0)) {
    fs[0] = fs[1] = fs[2] = 0;
    return;
  }
  double a = ks * dt / (2.0 * eta);
  for (int k = 0; k < 3; k++) fs[k] = (fs[k] * (1.0 - a) - ks * vs[k] * dt) / (1.0 + a);
}

static void viscous_force(const cairn_cm_input *in, const double *p, const double *derived,
                          double *st, cairn_cm_output *out) {
  (void)derived;
  double *f = st + S_FORCE;
  double delta = -in->gap;
  /* The seed's bond-when-touch switch, as a property: the bond forms on the first update with
     the surfaces overlapping and lasts. */
  if (st[S_BONDED] == 0 && p[P_BONDTOUCH] != 0 && delta > 0) st[S_BONDED] = 1;
  int bonded = st[S_BONDED] != 0;
  /* Unbonded (vis_bondtouch = 0), the same law acts while the surfaces overlap only; the seed's
     listing would give no force at all without a bond. */
  if (!bonded && delta <= 0) {
    f[0] = f[1] = f[2] = f[3] = 0;
    return;
  }
  /* f: [normal, shear x, y, z]. The stored shear force onto this step's contact plane, before
     the Maxwell step; vs is the global shear velocity. */
  double vs[3];
  cairn_cm_split(in->vel_xyz, in->n, vs);
  cairn_cm_turn(f + 1, in->n);
  f[0] = p[P_KN] * delta; /* Eq. 4.1; tension once bonded */
  maxwell_shear(f + 1, p[P_KS], p[P_VISC], vs, in->dt);
  law_add_force(out->force_xyz, f[0], in->n, f + 1); /* global: F_n n + F_s */
  out->active = 1;
  out->may_delete = !bonded;
  out->kn_est = p[P_KN];
  out->ks_est = p[P_KS];
}

static void viscous_stiffness(const double *p, double *k_tran, double *k_rot) {
  *k_tran = p[P_KN] + p[P_KS];
  *k_rot = 0;
}

/* The slice entry the engine calls: the law above, inlined into a loop over the slice. */
CAIRN_CM_SLICE(viscous_force_slice, viscous_force)

const cairn_contact_model cairn_model_viscous = {
    .abi_version = CAIRN_CM_ABI_VERSION,
    .name = "viscous",
    .version = 1,
    .doc = "linear normal spring, Maxwell (spring and dashpot in series) shear, bond when touching",
    .props = viscous_props,
    .n_props = sizeof viscous_props / sizeof *viscous_props,
    .state = viscous_state,
    .n_state = sizeof viscous_state / sizeof *viscous_state,
    .force = viscous_force,
    .force_slice = viscous_force_slice,
    .stiffness = viscous_stiffness,
};
