/* The "softening" model (seed 003 §4.4.4): an incremental bonded contact whose strength depends
   on the direction of the force, with plastic flow along the force (Eqs. 4.10-4.12) and strengths
   that soften linearly with the accumulated plastic displacement, down to residual friction. */
#include <stdio.h>

#include "models/builtin.h"
#include "models/laws.h"

enum { P_KNC, P_KNT, P_KS, P_FTMAX, P_FSMAX, P_FRIC, P_RFRIC, P_UPLIM, P_BROKEN };
/* State slots: the force is a contact-plane vector in four slots, the normal component and then
   the shear part as a global vector (x, y, z) in the contact plane. */
enum { S_FORCE = 0, S_UPLAS = 4, S_SOFTENED = 5, S_ISBROKEN = 6 };

static const double HALF_PI = 1.57079632679489661923;

static const cairn_prop_desc softening_props[] = {
    /* clang-format off */
  /* name         type             unit   def  min  max       access    doc */
  {"sof_knc",    CAIRN_PROP_FLT,  "N/m", 0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "normal stiffness while the normal force is compressive", NULL},
  {"sof_knt",    CAIRN_PROP_FLT,  "N/m", 0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "normal stiffness while the normal force is tensile (or zero)", NULL},
  {"sof_ks",     CAIRN_PROP_FLT,  "N/m", 0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW, "shear stiffness", NULL},
  {"sof_ftmax",  CAIRN_PROP_FLT,  "N",   0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "tensile strength of the bond", NULL},
  {"sof_fsmax",  CAIRN_PROP_FLT,  "N",   0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "shear strength of the bond", NULL},
  {"sof_fric",   CAIRN_PROP_FLT,  "-",   0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "friction coefficient of the intact bond in compression", NULL},
  {"sof_rfric",  CAIRN_PROP_FLT,  "-",   0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "residual friction coefficient, reached when fully softened", NULL},
  {"sof_uplim",  CAIRN_PROP_FLT,  "m",   0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "accumulated plastic displacement at which the strengths reach zero (> 0 while bonded)",
   NULL},
  {"sof_broken", CAIRN_PROP_BOOL, "-",   0.0, 0.0, 1.0,      CAIRN_RW,
   "1: the contact has no bond (zero strengths, residual friction, force only while "
   "overlapping)", NULL},
    /* clang-format on */
};

static const cairn_state_desc softening_state[] = {
    {"sof_force", CAIRN_PROP_VEC, CAIRN_STATE_PLANE_XYZ, "N",
     "contact force (normal, s, t), carried incrementally; normal > 0 in compression"},
    {"sof_uplas", CAIRN_PROP_FLT, 0, "m", "accumulated plastic displacement U_p"},
    {"sof_softened", CAIRN_PROP_FLT, 0, "-", "U_p / sof_uplim, at most 1; 0 until the first yield"},
    {"sof_isbroken", CAIRN_PROP_BOOL, 0, "-",
     "1 when the contact has no bond: sof_broken was set or the strengths softened to zero"},
};

/* Set the magnitude of the shear part of f (f[1..3], a global in-plane vector, now of magnitude
   mag) to m, keeping its direction. */
static void shear_to(double f[4], double mag, double m) {
  double r = mag > 0 ? m / mag : 0.0;
  f[1] *= r;
  f[2] *= r;
  f[3] *= r;
}

/* |shear part| of f. */
static inline double shear_mag(const double f[4]) {
  return sqrt(f[1] * f[1] + f[2] * f[2] + f[3] * f[3]);
}

/* Compressive normal force: slip limit of the seed's code,
   Fs_max = Fn (fric (1 - s) + rfric s) + fsmax (1 - s), softening with the plastic slip
   (consistency: |Fs| - ks dUp = Fs_max - (fsmax / uplim) dUp) and never below the residual
   friction rfric Fn. Returns the plastic displacement of this step. */
static double compressive_slip(double f[4], const double *p, double s, int broken) {
  double fs = shear_mag(f);
  double fsmax = f[0] * (p[P_FRIC] * (1 - s) + p[P_RFRIC] * s) + p[P_FSMAX] * (1 - s);
  if (!(fs > fsmax)) return 0;
  double dcoef = broken ? 0.0 : p[P_FSMAX] / p[P_UPLIM];
  double dup = fabs((fs - fsmax) / (p[P_KS] - dcoef));
  double m = fs - p[P_KS] * dup, res = f[0] * p[P_RFRIC];
  shear_to(f, fs, m < res ? res : m);
  return dup;
}

/* Tensile (or zero) normal force on an intact bond: the strength is interpolated on the angle
   alpha between the force and the normal, Fmax = (1 - 2 alpha / pi) ftmax + (2 alpha / pi) fsmax,
   and softened by (1 - s). Beyond it the plastic displacement dl flows along the force
   (Eq. 4.12); dl solves |F - K dl F / |F|| = Fmax (1 - s - dl / uplim), a quadratic (Eqs.
   4.10-4.11), of which the smaller root is taken. Returns dl; sets *gone when it has no real
   root (the force is then dropped and the bond fully softened). */
static double tensile_yield(double f[4], const double *p, double s, int *gone) {
  double fn = f[0], fs = shear_mag(f);
  double fmag = sqrt(fn * fn + fs * fs);
  if (!(fmag > 0)) return 0;
  double alpha = acos(fabs(fn) / fmag) / HALF_PI;
  double fmax = (1.0 - alpha) * p[P_FTMAX] + alpha * p[P_FSMAX];
  double lim = fmax * (1.0 - s);
  if (!(fmag > lim)) return 0;
  double knt = p[P_KNT], ks = p[P_KS], up = p[P_UPLIM];
  double a = (knt * knt * fn * fn + ks * ks * fs * fs) / (fmag * fmag) - fmax * fmax / (up * up);
  double b = 2.0 * fmax * fmax * (1.0 - s) / up - 2.0 * (knt * fn * fn + ks * fs * fs) / fmag;
  double c = fmag * fmag - lim * lim;
  double disc = b * b - 4.0 * a * c;
  if (a == 0 || disc < 0) {
    *gone = 1;
    return 0;
  }
  double dl = fabs(0.5 * (-b - sqrt(disc)) / a);
  double ms = fs - ks * dl * fs / fmag; /* a shear that would reverse stops at zero */
  shear_to(f, fs, ms > 0 ? ms : 0.0);
  fn += knt * dl * fabs(fn) / fmag; /* fn <= 0: less tension */
  f[0] = fn > 0 ? 0.0 : fn;
  return dl;
}

static void softening_force(const cairn_cm_input *in, const double *p, const double *derived,
                            double *st, cairn_cm_output *out) {
  (void)derived;
  double *f = st + S_FORCE;
  int broken = p[P_BROKEN] != 0 || st[S_ISBROKEN] != 0;
  st[S_ISBROKEN] = broken;
  /* A contact without bond behaves as fully softened: no strengths, residual friction. */
  double s = broken ? 1.0 : st[S_SOFTENED];

  /* The shear force (global) is turned onto the current contact plane, keeping its length,
     before the increment. */
  cairn_cm_turn(f + 1, in->n);
  /* Incremental force; the normal stiffness is chosen by the sign of the previous force, so the
     step in which an unbonded contact first touches uses sof_knt (as the seed's code). The
     normal increment uses the normal relative velocity vn (> 0 separating), the shear increment
     the shear part vs of the relative velocity. */
  if (!broken || in->gap < 0) {
    double vs[3], vn = cairn_cm_split(in->vel_xyz, in->n, vs);
    f[0] -= (f[0] > 0 ? p[P_KNC] : p[P_KNT]) * vn * in->dt;
    law_shear_increment(f + 1, p[P_KS], vs, in->dt);
  } else {
    f[0] = f[1] = f[2] = f[3] = 0;
  }
  if (f[0] > 0) {
    st[S_UPLAS] += compressive_slip(f, p, s, broken);
    out->kn_est = p[P_KNC];
  } else if (broken) { /* no bond: no tension */
    f[0] = f[1] = f[2] = f[3] = 0;
  } else {
    int gone = 0;
    st[S_UPLAS] += tensile_yield(f, p, s, &gone);
    if (gone) {
      f[0] = f[1] = f[2] = f[3] = 0;
      st[S_UPLAS] = p[P_UPLIM];
    }
    out->kn_est = p[P_KNT];
  }
  if (!broken) {
    if (st[S_SOFTENED] == 0 && st[S_UPLAS] != 0) { /* the strength is exceeded the first time */
      out->events |= CAIRN_EV_BOND_BREAK;
      out->bond_mode = 1;
    }
    double sn = st[S_UPLAS] / p[P_UPLIM];
    st[S_SOFTENED] = sn < 1.0 ? sn : 1.0;
    if (st[S_SOFTENED] == 1.0) { /* one event per update: break wins over first yield */
      broken = 1;
      st[S_ISBROKEN] = 1;
      /* A step that passes the end of the softening line leaves the quadratic's root on the far
         side of zero strength, and the seed's code returns that small force for this one step;
         with no strength left a bond in tension carries nothing, so it is dropped now. */
      if (f[0] <= 0) f[0] = f[1] = f[2] = f[3] = 0;
      out->events |= CAIRN_EV_BOND_BREAK;
      out->bond_mode = 0;
    }
  }
  law_add_force(out->force_xyz, f[0], in->n, f + 1); /* fn n + F_s, global */
  out->active = !broken || f[0] != 0 || f[1] != 0 || f[2] != 0 || f[3] != 0;
  out->may_delete = broken;
  out->ks_est = out->active ? p[P_KS] : 0.0;
  if (!out->active) out->kn_est = 0;
}

static void softening_stiffness(const double *p, double *k_tran, double *k_rot) {
  *k_tran = (p[P_KNC] > p[P_KNT] ? p[P_KNC] : p[P_KNT]) + p[P_KS];
  *k_rot = 0;
}

static const char *softening_validate(const double *p, int dim, char *msg, size_t n) {
  (void)dim;
  if (p[P_BROKEN] != 0) return NULL; /* no bond: the softening parameters are not used */
  if (!(p[P_UPLIM] > 0)) {
    snprintf(msg, n,
             "sof_uplim must be > 0 on a bonded contact (got %g); set the plastic displacement "
             "at which the strengths reach zero, or sof_broken = 1 for a contact without bond",
             p[P_UPLIM]);
    return msg;
  }
  if (p[P_FSMAX] > 0 && !(p[P_KS] > p[P_FSMAX] / p[P_UPLIM])) {
    snprintf(msg, n,
             "sof_ks = %g must exceed sof_fsmax / sof_uplim = %g, or shear softening snaps back; "
             "raise sof_ks or sof_uplim",
             p[P_KS], p[P_FSMAX] / p[P_UPLIM]);
    return msg;
  }
  return NULL;
}

/* The slice entry the engine calls: the law above, inlined into a loop over the slice. */
CAIRN_CM_SLICE(softening_force_slice, softening_force)

const cairn_contact_model cairn_model_softening = {
    .abi_version = CAIRN_CM_ABI_VERSION,
    .name = "softening",
    .version = 1,
    .doc = "incremental bonded contact, strength on the force angle, plastic flow along the "
           "force, displacement softening to residual friction",
    .props = softening_props,
    .n_props = sizeof softening_props / sizeof *softening_props,
    .state = softening_state,
    .n_state = sizeof softening_state / sizeof *softening_state,
    .force = softening_force,
    .force_slice = softening_force_slice,
    .stiffness = softening_stiffness,
    .validate = softening_validate,
};
