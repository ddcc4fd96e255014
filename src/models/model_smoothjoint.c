/* The "smoothjoint" model (PFC's smooth joint; Mas Ivars et al. 2011, the Synthetic Rock Mass):
   a joint that slides along its own plane, whatever the orientation of the line between the two
   balls' centres. The joint's normal is a property (sj_normal, global; contact.joint sets it for
   every contact crossing a joint), turned at installation to point from side 1 to side 2, and
   fixed in space from then on. The interface is a disk (3D) or a strip of unit thickness (2D) of
   radius R = sj_rmul min(r1, r2), area A = pi R^2 (2D: 2R).

   The relative displacement of side 2 at the contact point splits on the joint's normal n_j: its
   normal part d_n (> 0 opening) and its part in the joint plane. The normal force is
   F_n = sj_kn A delta (> 0 in compression), delta the elastic overlap along n_j, which closing
   raises (delta -= d_n); the shear force is incremental, F_s -= sj_ks A d_s, a global vector in
   the joint plane (which does not turn). A bonded joint (sj_state 1) carries tension too, and
   breaks for good where -F_n / A > sj_ten (state 2) or |F_s| / A > sj_coh + (F_n / A)
   tan(sj_fa) (state 3). Unbonded (never bonded, or broken), it carries compression only: while
   delta <= 0 it is open (no force, its shear dropped); while closed its shear is limited by
   Coulomb friction on asperities inclined at the dilation angle psi = sj_da (Patton's sawtooth):
   with T = |F_s| and N = F_n, the asperity face's forces are N_a = N cos psi + T sin psi and
   T_a = T cos psi - N sin psi, and slip occurs where T_a > mu N_a (mu = sj_fric), that is where
   T / N > tan(phi + psi) with tan(phi) = mu. Slip moves side 2 along the face: a plastic
   displacement lambda that opens the joint by lambda sin psi (so at a fixed geometry the normal
   force rises: the dilation) and relaxes the shear by lambda cos psi, with lambda setting T_a =
   mu N_a exactly.

   A contact gets its joint at its first update: bonded if sj_bond is 1 and its gap is at most
   sj_gap, else unbonded; either way stress-free, the joint's two faces meeting on its plane
   whatever the balls' overlap or gap (so that sliding does not depend on how the balls lie).
   With sj_large = 1 (large displacement) an unbonded contact is kept while the two balls'
   offset along the joint since installation is less than r1 + r2 and the joint has opened by
   less than that (they still face each other across it), however far their surfaces part along
   the line of centres; with sj_large = 0 it is deleted once their surfaces part beyond the
   proximity.
   No moment: a smooth joint does not resist relative rotation. Energy: the springs store
   F_n^2 / 2 sj_kn A + |F_s|^2 / 2 sj_ks A; slip and breakage dissipate the springs' work less
   what they now hold more (sj_eslip, the slip losses). Written against the public ABI only. */
#include <stdio.h>
#include <string.h>

#include "models/builtin.h"
#include "models/laws.h"

#define PI 3.14159265358979323846

enum {
  P_KN,
  P_KS,
  P_RMUL,
  P_FRIC,
  P_DA,
  P_NORMAL, /* 3 slots */
  P_TEN = P_NORMAL + 3,
  P_COH,
  P_FA,
  P_BOND,
  P_GAP,
  P_LARGE,
};
enum {
  S_STATE,
  S_ON,
  S_NJ,               /* 3 slots */
  S_DELTA = S_NJ + 3, /* elastic overlap along n_j */
  S_FN,
  S_FS,            /* 3 slots, global */
  S_US = S_FS + 3, /* 3 slots: shear displacement along the joint since installation */
  S_SLIP = S_US + 3,
  S_ESTORE,
  S_ESLIP,
};
enum { SJ_NONE = 0, SJ_BONDED = 1, SJ_BROKEN_TENSION = 2, SJ_BROKEN_SHEAR = 3 };
/* Derived constants: tan(sj_fa), and cos and sin of the dilation angle. */
enum { D_TANFA, D_COSDA, D_SINDA, D_N };

static const cairn_prop_desc sj_props[] = {
    /* clang-format off */
  {"sj_kn",     CAIRN_PROP_FLT,  "Pa/m", 0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "normal stiffness per area of the joint (a stress per displacement)", NULL},
  {"sj_ks",     CAIRN_PROP_FLT,  "Pa/m", 0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "shear stiffness per area of the joint", NULL},
  {"sj_rmul",   CAIRN_PROP_FLT,  "-",    1.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "joint radius over the smaller ball radius (> 0)", NULL},
  {"sj_fric",   CAIRN_PROP_FLT,  "-",    0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "friction coefficient of the joint", NULL},
  {"sj_da",     CAIRN_PROP_FLT,  "deg",  0.0, 0.0, 89.0, CAIRN_RW,
   "dilation angle: slip rides up asperities inclined at it", NULL},
  {"sj_normal", CAIRN_PROP_VEC,  "-",    0.0, -CAIRN_FINITE_MAX, CAIRN_FINITE_MAX, CAIRN_RW,
   "the joint plane's normal, global (any length but 0; contact.joint sets it)", NULL},
  {"sj_ten",    CAIRN_PROP_FLT,  "Pa",   0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "tensile strength of a bonded joint", NULL},
  {"sj_coh",    CAIRN_PROP_FLT,  "Pa",   0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "cohesion of a bonded joint (shear strength at no normal stress)", NULL},
  {"sj_fa",     CAIRN_PROP_FLT,  "deg",  0.0, 0.0, 89.0, CAIRN_RW,
   "friction angle of a bonded joint: compression raises its shear strength by tan(sj_fa)",
   NULL},
  {"sj_bond",   CAIRN_PROP_BOOL, "-",    0.0, 0.0, 1.0, CAIRN_RW,
   "1: a contact whose gap is at most sj_gap at its first update gets a bonded joint", NULL},
  {"sj_gap",    CAIRN_PROP_FLT,  "m",    0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "the largest gap at which a joint is installed bonded", NULL},
  {"sj_large",  CAIRN_PROP_BOOL, "-",    0.0, 0.0, 1.0, CAIRN_RW,
   "1: large displacement: the contact is kept while the balls face each other across the joint",
   NULL},
    /* clang-format on */
};

static const cairn_state_desc sj_state[] = {
    {"sj_state", CAIRN_PROP_INT, 0, "-",
     "0 never bonded, 1 bonded, 2 broken in tension, 3 broken in shear"},
    {"sj_on", CAIRN_PROP_INT, 0, "-", "1 once the joint is installed"},
    {"sj_nj", CAIRN_PROP_VEC, 0, "-", "the joint's unit normal, from side 1 to side 2, global"},
    {"sj_delta", CAIRN_PROP_FLT, 0, "m", "elastic overlap along the joint normal (< 0 open)"},
    {"sj_fn", CAIRN_PROP_FLT, 0, "N", "normal force along the joint normal, > 0 in compression"},
    {"sj_fs", CAIRN_PROP_VEC, 0, "N", "shear force on side 2 in the joint plane, global"},
    {"sj_us", CAIRN_PROP_VEC, 0, "m",
     "relative displacement of side 2 along the joint since installation, global"},
    {"sj_slip", CAIRN_PROP_BOOL, 0, "-", "1 while the joint slides"},
    {"sj_estore", CAIRN_PROP_FLT, 0, "J", "energy stored in the joint's springs"},
    {"sj_eslip", CAIRN_PROP_FLT, 0, "J", "energy dissipated by slip and breakage while tracked"},
};

static double sj_area(const cairn_cm_input *in, const double *p) {
  const double rmin = in->r1 > 0 && in->r1 < in->r2 ? in->r1 : in->r2, R = p[P_RMUL] * rmin;
  return in->dim == 3 ? PI * R * R : 2.0 * R;
}

static void sj_prepare(const double *p, double *d) {
  d[D_TANFA] = tan(p[P_FA] * PI / 180.0);
  d[D_COSDA] = cos(p[P_DA] * PI / 180.0);
  d[D_SINDA] = sin(p[P_DA] * PI / 180.0);
}

/* The squared length of sj_normal in the model's plane (0: no normal given). */
static double sj_normal2(const double *p, int dim) {
  const double *q = p + P_NORMAL;
  return q[0] * q[0] + q[1] * q[1] + (dim == 3 ? q[2] * q[2] : 0.0);
}

/* What the springs store: F_n^2 / 2 k_n + |F_s|^2 / 2 k_s (k the stiffnesses times the area). */
static double sj_stored(double fn, const double fs[3], double kn, double ks) {
  return (kn > 0 ? fn * fn / (2 * kn) : 0) +
         (ks > 0 ? (fs[0] * fs[0] + fs[1] * fs[1] + fs[2] * fs[2]) / (2 * ks) : 0);
}

static void sj_install(const cairn_cm_input *in, const double *p, double *st, int bonded) {
  const double *q = p + P_NORMAL;
  double l = sqrt(sj_normal2(p, in->dim));
  double nj[3] = {q[0] / l, q[1] / l, in->dim == 3 ? q[2] / l : 0.0};
  const double c = nj[0] * in->n[0] + nj[1] * in->n[1] + nj[2] * in->n[2];
  if (c < 0) nj[0] = -nj[0], nj[1] = -nj[1], nj[2] = -nj[2]; /* from side 1 to side 2 */
  memset(st, 0, (size_t)(S_ESLIP + 1) * sizeof *st);
  st[S_ON] = 1;
  st[S_STATE] = bonded ? SJ_BONDED : SJ_NONE;
  for (int k = 0; k < 3; k++) st[S_NJ + k] = nj[k];
  st[S_DELTA] = 0.0; /* the joint's two faces meet on its plane, stress-free */
}

static void sj_force(const cairn_cm_input *in, const double *p, const double *derived, double *st,
                     cairn_cm_output *out) {
  double h = in->dt;
  if (st[S_ON] == 0) { /* as for parallel bonds, the installing update adds no increment */
    if (!(sj_normal2(p, in->dim) > 0))
      return; /* no joint without a normal: sj_validate says so at the first touch */
    sj_install(in, p, st, in->first && p[P_BOND] != 0 && in->gap <= p[P_GAP]);
    h = 0.0;
  }
  const double A = sj_area(in, p), kn = p[P_KN] * A, ks = p[P_KS] * A;
  const double *nj = st + S_NJ, *v = in->vel_xyz;
  double *fs = st + S_FS, *us = st + S_US;
  const double fn0 = st[S_FN], fs0[3] = {fs[0], fs[1], fs[2]};
  const double e0 = sj_stored(fn0, fs0, kn, ks);
  /* this step's displacement, split on the joint's normal */
  double ds[3];
  const double dn = cairn_cm_split(v, nj, ds) * h;
  for (int k = 0; k < 3; k++) ds[k] *= h, us[k] += ds[k], fs[k] -= ks * ds[k];
  st[S_DELTA] -= dn;
  double fn = kn * st[S_DELTA];
  int state = (int)st[S_STATE], slip = 0;
  if (state == SJ_BONDED) {
    const double fsm = sqrt(fs[0] * fs[0] + fs[1] * fs[1] + fs[2] * fs[2]);
    if (-fn > p[P_TEN] * A)
      state = SJ_BROKEN_TENSION;
    else if (fsm > p[P_COH] * A + fn * derived[D_TANFA])
      state = SJ_BROKEN_SHEAR;
    if (state != SJ_BONDED) {
      st[S_STATE] = state;
      out->events |= CAIRN_EV_BOND_BREAK;
      out->bond_mode = 0;
    }
  }
  if (state != SJ_BONDED) {
    if (st[S_DELTA] <= 0) { /* open */
      fn = 0.0, fs[0] = fs[1] = fs[2] = 0.0;
    } else {
      const double T = sqrt(fs[0] * fs[0] + fs[1] * fs[1] + fs[2] * fs[2]);
      const double cp = derived[D_COSDA], sp = derived[D_SINDA], mu = p[P_FRIC];
      /* the face's condition T cos psi - N sin psi <= mu (N cos psi + T sin psi), as
         a T - b N <= 0 */
      const double a = cp - mu * sp, b = sp + mu * cp;
      const double f = a * T - b * fn;
      if (f > 0 && T > 0) {
        /* plastic slip lambda along the face: N += kn lambda sin psi, T -= ks lambda cos psi */
        const double lambda = f / (a * ks * cp + b * kn * sp);
        double Tn = T - ks * lambda * cp;
        if (Tn < 0) Tn = 0; /* (a > 0 while phi + psi < 90 degrees, as validated) */
        st[S_DELTA] += lambda * sp;
        fn = kn * st[S_DELTA];
        for (int k = 0; k < 3; k++) fs[k] *= Tn / T;
        slip = 1;
      }
    }
  }
  st[S_FN] = fn;
  const double es = sj_stored(fn, fs, kn, ks);
  if (in->energy) { /* the springs' work (trapezoidal) less what they now hold more */
    double w_on = -0.5 * (fn0 + fn) * dn;
    for (int k = 0; k < 3; k++) w_on -= 0.5 * (fs0[k] + fs[k]) * ds[k];
    st[S_ESLIP] += w_on - (es - e0);
  }
  st[S_ESTORE] = es;
  if (slip != (int)st[S_SLIP]) {
    out->events |= CAIRN_EV_SLIP_CHANGE;
    out->slip_mode = slip ? 0 : 1;
  }
  st[S_SLIP] = slip;
  law_add_force(out->force_xyz, fn, nj, fs);
  out->active = fn != 0 || state == SJ_BONDED;
  if (p[P_LARGE] != 0) { /* kept while the balls face each other across the joint */
    const double r12 = in->r1 + in->r2, u2 = us[0] * us[0] + us[1] * us[1] + us[2] * us[2];
    out->may_delete = state != SJ_BONDED && !(u2 < r12 * r12 && st[S_DELTA] > -r12);
  } else { /* deleted, unbonded, once the balls' surfaces part (beyond the proximity) */
    out->may_delete = state != SJ_BONDED;
  }
  out->kn_est = kn;
  out->ks_est = ks;
}

CAIRN_CM_SLICE(sj_force_slice, sj_force)

static void sj_energy(const double *p, const double *st, double e[CAIRN_ENERGY_N]) {
  (void)p;
  e[CAIRN_ENERGY_STRAIN] = st[S_ESTORE];
  e[CAIRN_ENERGY_SLIP] = st[S_ESLIP];
}

static void sj_stiffness(const double *p, double *k_tran, double *k_rot) {
  (void)p; /* (the stiffness grows with the ball size: the contacts' own estimates count) */
  *k_tran = 0, *k_rot = 0;
}

static const char *sj_validate(const double *p, int dim, char *msg, size_t n) {
  const double *q = p + P_NORMAL;
  if (!(sj_normal2(p, dim) > 0)) {
    snprintf(msg, n,
             "sj_normal is zero%s; give the joint plane's normal (contact.joint sets it for "
             "the contacts that cross a joint)",
             dim == 2 && q[2] != 0 ? " in the plane of the model" : "");
    return msg;
  }
  if (!(p[P_RMUL] > 0)) {
    snprintf(msg, n,
             "sj_rmul must be > 0 (got %g); give the joint radius over the smaller "
             "ball radius",
             p[P_RMUL]);
    return msg;
  }
  if (atan(p[P_FRIC]) * 180.0 / PI + p[P_DA] >= 90.0) {
    snprintf(msg, n,
             "the friction angle atan(sj_fric) = %.3g deg and the dilation angle sj_da = %g deg "
             "add up to 90 deg or more, where nothing could slide; lower one of them",
             atan(p[P_FRIC]) * 180.0 / PI, p[P_DA]);
    return msg;
  }
  return NULL;
}

const cairn_contact_model cairn_model_smoothjoint = {
    .abi_version = CAIRN_CM_ABI_VERSION,
    .name = "smoothjoint",
    .version = 1,
    .doc = "smooth joint: sliding along a given joint plane whatever the balls' arrangement, with "
           "friction, dilation and an optional bond",
    .props = sj_props,
    .n_props = sizeof sj_props / sizeof *sj_props,
    .state = sj_state,
    .n_state = sizeof sj_state / sizeof *sj_state,
    .n_derived = D_N,
    .needs = CAIRN_CM_USES_RADII,
    .prepare = sj_prepare,
    .force = sj_force,
    .force_slice = sj_force_slice,
    .stiffness = sj_stiffness,
    .validate = sj_validate,
    .energy = sj_energy,
};
