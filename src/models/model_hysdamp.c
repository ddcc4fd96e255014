/* The "hysdamp" model (seed 003 §4.5.1): a linear contact whose normal spring is stiffer on
   unloading than on loading, so each impact dissipates a fixed fraction of the stored energy,
   with an incremental shear spring, a Coulomb slider and an optional brittle contact bond. */
#include <stdio.h>

#include "models/builtin.h"
#include "models/laws.h"

enum { P_KNM, P_DAMPN, P_KS, P_FRIC, P_NSTR, P_SSTR, P_NOTENSION, P_INHERIT };
enum { D_KLOAD, D_KUNLOAD, N_DERIVED };
/* State slots: hys_force is a contact-plane vector, four slots: [normal, x, y, z], the normal
   component first, then the in-plane (shear) part as a global vector. */
enum { S_FORCE = 0, S_DMAX = 4, S_SLIP = 5, S_BONDED = 6, S_BROKEN = 7 };

static const cairn_prop_desc hysdamp_props[] = {
    /* clang-format off */
  /* name             type             unit   def  min   max       access    doc */
  {"hys_knm",         CAIRN_PROP_FLT,  "N/m", 0.0, 0.0,  CAIRN_FINITE_MAX, CAIRN_RW,
   "normal stiffness: mean of the loading and unloading stiffnesses (required, > 0)", NULL},
  {"hys_dampn",       CAIRN_PROP_FLT,  "-",   0.8, 0.05, 1.0,      CAIRN_RW,
   "loading over unloading normal stiffness: [0.4, 1] with tension, [0.05, 1] without", NULL},
  {"hys_ks",          CAIRN_PROP_FLT,  "N/m", 0.0, 0.0,  CAIRN_FINITE_MAX, CAIRN_RW,
   "shear stiffness", NULL},
  {"hys_fric",        CAIRN_PROP_FLT,  "-",   0.0, 0.0,  CAIRN_FINITE_MAX, CAIRN_RW,
   "friction coefficient (unbonded contacts)", NULL},
  {"hys_nstr",        CAIRN_PROP_FLT,  "N",   0.0, 0.0,  CAIRN_FINITE_MAX, CAIRN_RW,
   "contact bond normal (tensile) strength; 0 with hys_sstr 0: no bond", NULL},
  {"hys_sstr",        CAIRN_PROP_FLT,  "N",   0.0, 0.0,  CAIRN_FINITE_MAX, CAIRN_RW,
   "contact bond shear strength; 0 with hys_nstr 0: no bond", NULL},
  {"hys_notension",   CAIRN_PROP_BOOL, "-",   0.0, 0.0,  1.0,      CAIRN_RW,
   "1: an unbonded contact carries no tension; 0: tension while the surfaces overlap", NULL},
  {"hys_inheritprop", CAIRN_PROP_BOOL, "-",   0.0, 0.0,  1.0,      CAIRN_RW,
   "must stay 0: cairn has no per-ball properties to inherit (refused when 1)", NULL},
    /* clang-format on */
};

static const cairn_state_desc hysdamp_state[] = {
    {"hys_force", CAIRN_PROP_VEC, CAIRN_STATE_PLANE_XYZ, "N",
     "contact force (normal, s, t); normal > 0 in compression"},
    {"hys_dmax", CAIRN_PROP_FLT, 0, "m",
     "largest overlap reached on the loading line since the contact last opened"},
    {"hys_slip", CAIRN_PROP_BOOL, 0, "-", "1 while the shear force is at the friction limit"},
    {"hys_bonded", CAIRN_PROP_BOOL, 0, "-", "1 while the contact bond is intact"},
    {"hys_bbroken", CAIRN_PROP_BOOL, 0, "-", "1 once the contact bond has broken (for good)"},
};

/* Eqs. 4.13 and 4.14: the mean of the two stiffnesses is hys_knm and their ratio hys_dampn. */
static void hysdamp_prepare(const double *p, double *dv) {
  double d = p[P_DAMPN];
  dv[D_KLOAD] = 2.0 * d * p[P_KNM] / (1.0 + d);
  dv[D_KUNLOAD] = 2.0 * p[P_KNM] / (1.0 + d);
}

/* A bond exists when both strengths are set; validation refuses one without the other. */
static int has_bond(const double *p) {
  return p[P_NSTR] > 0 && p[P_SSTR] > 0;
}

static void hysdamp_force(const cairn_cm_input *in, const double *p, const double *dv, double *st,
                          cairn_cm_output *out) {
  double *f = st + S_FORCE;
  double kl = dv[D_KLOAD], ku = dv[D_KUNLOAD];
  double delta = -in->gap; /* overlap */
  int bonded = has_bond(p) && st[S_BROKEN] == 0;
  if (!bonded && delta <= 0) { /* open and unbonded: no force, the loading history is dropped */
    f[0] = f[1] = f[2] = f[3] = 0;
    st[S_DMAX] = st[S_SLIP] = st[S_BONDED] = 0;
    return;
  }
  /* Normal force: the loading line kl*delta up to the largest overlap, then back down (and up
     again) along the steeper unloading line through (dmax, kl*dmax); the smaller of the two is the
     force (seed 003, Figure 4.3). In tension the unloading line simply continues. */
  if (delta > st[S_DMAX]) st[S_DMAX] = delta;
  double dmax = st[S_DMAX];
  double fl = kl * delta, fu = ku * delta - (ku - kl) * dmax;
  double fn = fl < fu ? fl : fu;
  /* Shear (f: [normal, shear x, y, z]): the stored shear force onto this step's contact plane,
     then the increment with the global shear velocity vs. */
  double vs[3];
  cairn_cm_split(in->vel_xyz, in->n, vs);
  cairn_cm_turn(f + 1, in->n);
  law_shear_increment(f + 1, p[P_KS], vs, in->dt);

  if (bonded) { /* a brittle contact bond: tension and shear carried up to the strengths */
    double fs = sqrt(f[1] * f[1] + f[2] * f[2] + f[3] * f[3]);
    if (-fn > p[P_NSTR] || fs > p[P_SSTR]) {
      bonded = 0;
      st[S_BROKEN] = 1;
      out->events |= CAIRN_EV_BOND_BREAK;
      out->bond_mode = 0; /* a brittle bond breaks the moment its strength is exceeded */
      if (delta <= 0) {   /* the bond held the surfaces together: now they are free */
        f[0] = f[1] = f[2] = f[3] = 0;
        st[S_DMAX] = st[S_SLIP] = st[S_BONDED] = 0;
        return;
      }
    }
  }
  st[S_BONDED] = bonded;
  if (!bonded && p[P_NOTENSION] != 0 && fn < 0) fn = 0;
  f[0] = fn;
  int slip = 0;
  if (!bonded) slip = law_coulomb_cap(f + 1, p[P_FRIC] * (fn > 0 ? fn : 0.0));
  if (slip != (int)st[S_SLIP]) {
    out->events |= CAIRN_EV_SLIP_CHANGE;
    out->slip_mode = slip ? 0 : 1;
  }
  st[S_SLIP] = slip;
  law_add_force(out->force_xyz, f[0], in->n, f + 1); /* global: F_n n + F_s */
  out->active = 1;
  out->may_delete = !bonded; /* a bond keeps the contact beyond its proximity */
  out->kn_est = ku;          /* the stiffer of the two lines bounds the timestep */
  out->ks_est = p[P_KS];
}

static void hysdamp_stiffness(const double *p, double *k_tran, double *k_rot) {
  *k_tran = 2.0 * p[P_KNM] / (1.0 + p[P_DAMPN]) + p[P_KS];
  *k_rot = 0;
}

static const char *hysdamp_validate(const double *p, int dim, char *msg, size_t n) {
  (void)dim;
  if (p[P_INHERIT] != 0) {
    snprintf(msg, n,
             "hys_inheritprop = 1 is not supported: cairn keeps stiffness, friction and bond "
             "strength on the contact, not on the balls, so there is nothing to inherit; set "
             "hys_knm, hys_ks, hys_fric (hys_nstr, hys_sstr) on the contact and leave "
             "hys_inheritprop at 0");
    return msg;
  }
  if (!(p[P_KNM] > 0)) {
    snprintf(msg, n, "hys_knm must be > 0 (got %g); set the mean normal stiffness", p[P_KNM]);
    return msg;
  }
  if (p[P_NOTENSION] == 0 && p[P_DAMPN] < 0.4) {
    snprintf(msg, n,
             "hys_dampn = %g is below 0.4, the least allowed with tension (hys_notension = 0); "
             "raise it to [0.4, 1] or set hys_notension = 1 (then [0.05, 1])",
             p[P_DAMPN]);
    return msg;
  }
  if ((p[P_NSTR] > 0) != (p[P_SSTR] > 0)) {
    snprintf(msg, n,
             "hys_nstr = %g and hys_sstr = %g: a contact bond needs both strengths > 0; set both, "
             "or both to 0 for no bond",
             p[P_NSTR], p[P_SSTR]);
    return msg;
  }
  return NULL;
}

/* The slice entry the engine calls: the law above, inlined into a loop over the slice. */
CAIRN_CM_SLICE(hysdamp_force_slice, hysdamp_force)

const cairn_contact_model cairn_model_hysdamp = {
    .abi_version = CAIRN_CM_ABI_VERSION,
    .name = "hysdamp",
    .version = 1,
    .doc = "hysteretic damping: normal stiffness lower on loading than on unloading, Coulomb "
           "friction, optional contact bond",
    .props = hysdamp_props,
    .n_props = sizeof hysdamp_props / sizeof *hysdamp_props,
    .state = hysdamp_state,
    .n_state = sizeof hysdamp_state / sizeof *hysdamp_state,
    .n_derived = N_DERIVED,
    .prepare = hysdamp_prepare,
    .force = hysdamp_force,
    .force_slice = hysdamp_force_slice,
    .stiffness = hysdamp_stiffness,
    .validate = hysdamp_validate,
};
