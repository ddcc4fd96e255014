/* The "burger" model: a Kelvin section (spring and dashpot in parallel) in series with a Maxwell
   section (spring and dashpot in series), in the normal and in the shear direction, advanced by
   the seeds' finite-difference scheme (seed 002, Eqs. 9-20), with a Coulomb slider on the shear
   force (Eqs. 21-23) and an optional tension cut-off. Written against the public ABI only. */
#include <math.h>
#include <stdio.h>

#include "models/builtin.h"
#include "models/laws.h"

/* Property slots (alias rows take none). */
enum { P_KNK, P_CNK, P_KNM, P_CNM, P_KSK, P_CSK, P_KSM, P_CSM, P_FRIC, P_MODE };
/* State slots: the force carried from the last step, the slip flag, the Kelvin displacements
   and the overlap of the last update (u^t of Eq. 19). The force and the Kelvin displacements are
   contact-plane vectors in four slots each: the normal component, then the shear part as a
   global vector (x, y, z) in the contact plane. */
enum { S_FORCE = 0, S_SLIP = 4, S_UK = 5, S_UN = 9, N_STATE_SLOTS = 10 };
/* The loss sums kept while energy is tracked (they survive the contact opening). */
enum { S_EDASH = 10, S_ESLIP = 11 };

static const cairn_prop_desc burger_props[] = {
    /* clang-format off */
  /* name            type             unit     def  min  max       access       doc */
  {"bur_knk",       CAIRN_PROP_FLT,  "N/m",   0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "normal stiffness of the Kelvin section (Kkn)", NULL},
  {"bur_cnk",       CAIRN_PROP_FLT,  "N s/m", 0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "normal viscosity of the Kelvin section (Ckn); 0: the section is its spring alone", NULL},
  {"bur_knm",       CAIRN_PROP_FLT,  "N/m",   0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "normal stiffness of the Maxwell section (Kmn), > 0 to cycle", NULL},
  {"bur_cnm",       CAIRN_PROP_FLT,  "N s/m", 0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "normal viscosity of the Maxwell section (Cmn), > 0 to cycle", NULL},
  {"bur_ksk",       CAIRN_PROP_FLT,  "N/m",   0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "shear stiffness of the Kelvin section (Kks)", NULL},
  {"bur_csk",       CAIRN_PROP_FLT,  "N s/m", 0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "shear viscosity of the Kelvin section (Cks); 0: the section is its spring alone", NULL},
  {"bur_ksm",       CAIRN_PROP_FLT,  "N/m",   0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "shear stiffness of the Maxwell section (Kms), > 0 to cycle", NULL},
  {"bur_csm",       CAIRN_PROP_FLT,  "N s/m", 0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "shear viscosity of the Maxwell section (Cms), > 0 to cycle", NULL},
  {"bur_fric",      CAIRN_PROP_FLT,  "-",     0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "friction coefficient: |shear force| <= bur_fric * compressive normal force", NULL},
  {"bur_mode",      CAIRN_PROP_INT,  "-",     0.0, 0.0, 1.0,      CAIRN_RW,
   "normal-force tensile mode: 0 tension allowed, 1 no tension", NULL},
  {"bur_notension", CAIRN_PROP_INT,  "-",     0.0, 0.0, 1.0,      CAIRN_ALIAS,
   "the seeds' older name of bur_mode", "bur_mode"},
    /* clang-format on */
};

static const cairn_state_desc burger_state[] = {
    {"bur_force", CAIRN_PROP_VEC, CAIRN_STATE_PLANE_XYZ, "N",
     "force (normal, s, t) of side 1 on side 2; normal > 0 in compression, 2D shear in t"},
    {"bur_slip", CAIRN_PROP_BOOL, 0, "-", "1 while |shear force| = bur_fric * normal (Eq. 23)"},
    {"bur_uk", CAIRN_PROP_VEC, CAIRN_STATE_PLANE_XYZ, "m",
     "Kelvin-section displacement (normal, s, t); normal > 0 in compression"},
    {"bur_un", CAIRN_PROP_FLT, 0, "m", "overlap at the last update (0 before the first)"},
    {"bur_edash", CAIRN_PROP_FLT, 0, "J", "energy dissipated by the dashpots while tracked"},
    {"bur_eslip", CAIRN_PROP_FLT, 0, "J", "energy dissipated by frictional slip while tracked"},
};

/* Energy stored in one direction's springs: the Maxwell spring carries the force f, the Kelvin
   spring its displacement uk. */
static inline double section_energy(double km, double kk, double f, double uk) {
  return (km > 0 ? f * f / (2.0 * km) : 0.0) + 0.5 * kk * uk * uk;
}

static inline double dot3(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* The step constants of one direction (seed 002, Eqs. 12 and 20). They depend on the timestep,
   which only the input block gives, so they are formed here rather than in a prepare() hook.
   The Kelvin ratios are written with the common denominator 2 Ck + Kk dt, which keeps them finite
   when Ck = 0: a = dt / (2 Ck A) and r = B / A. */
typedef struct burger_step {
  double a, r, c, d;
} burger_step;

static burger_step step_constants(double kk, double ck, double km, double cm, double dt) {
  burger_step s;
  double den = 2.0 * ck + kk * dt;
  s.a = dt / den;
  s.r = (2.0 * ck - kk * dt) / den;
  s.c = s.a + 1.0 / km + dt / (2.0 * cm);
  s.d = s.a - 1.0 / km + dt / (2.0 * cm);
  return s;
}

/* Eq. 19 for a direction whose force grows with its displacement (the normal sign): the new
   force from the displacement increment du, the Kelvin displacement uk and the old force f. */
static inline double burger_force_new(const burger_step *s, double du, double uk, double f) {
  return (du + (1.0 - s->r) * uk - s->d * f) / s->c;
}

/* Eq. 11: the Kelvin displacement that goes with the step from force f0 to f1. */
static inline double burger_kelvin_new(const burger_step *s, double uk, double f0, double f1) {
  return s->r * uk + s->a * (f1 + f0);
}

static void burger_energy(const double *p, const double *st, double e[CAIRN_ENERGY_N]) {
  const double *f = st + S_FORCE, *uk = st + S_UK;
  /* The normal springs from the normal slots, the shear springs from the three components of the
     global shear vectors (|F_s|^2 and |u_k,s|^2, as over (s, t)). */
  e[CAIRN_ENERGY_STRAIN] = section_energy(p[P_KNM], p[P_KNK], f[0], uk[0]) +
                           section_energy(p[P_KSM], p[P_KSK], f[1], uk[1]) +
                           section_energy(p[P_KSM], p[P_KSK], f[2], uk[2]) +
                           section_energy(p[P_KSM], p[P_KSK], f[3], uk[3]);
  e[CAIRN_ENERGY_DASHPOT] = st[S_EDASH];
  e[CAIRN_ENERGY_SLIP] = st[S_ESLIP];
}

static void burger_force(const cairn_cm_input *in, const double *p, const double *derived,
                         double *st, cairn_cm_output *out) {
  (void)derived;
  double *f = st + S_FORCE, *uk = st + S_UK;
  /* The shear force and the shear Kelvin displacement, global vectors, are turned onto the
     current contact plane (keeping their lengths) before they are used. */
  cairn_cm_turn(f + 1, in->n);
  cairn_cm_turn(uk + 1, in->n);
  /* The relative velocity's shear part (global, in the contact plane); its normal part is not
     used: the normal displacement is the change of the overlap. */
  double vs[3];
  (void)cairn_cm_split(in->vel_xyz, in->n, vs);
  if (in->gap > 0) { /* open: no force, and the contact forgets its history */
    /* The last force's work over this step (trapezoidal, down to no force) and what the
       springs still held are released with it: both are booked as lost to the dashpots. */
    if (in->energy) {
      double e[CAIRN_ENERGY_N] = {0, 0, 0};
      burger_energy(p, st, e);
      double work = 0.5 * f[0] * (-in->gap - st[S_UN]) - 0.5 * dot3(f + 1, vs) * in->dt;
      st[S_EDASH] += e[CAIRN_ENERGY_STRAIN] + work;
    }
    for (int k = 0; k < N_STATE_SLOTS; k++) st[k] = 0;
    return;
  }
  out->active = 1;
  double dt = in->dt;

  /* Normal direction (seed 002, Eq. 19, upper signs): u is the overlap, carried as state so that
     an overlap present when the contact first updates is applied in full in that step. */
  burger_step sn = step_constants(p[P_KNK], p[P_CNK], p[P_KNM], p[P_CNM], dt);
  double un = -in->gap, dun = un - st[S_UN];
  double fn = burger_force_new(&sn, dun, uk[0], f[0]);
  if (p[P_MODE] != 0 && fn < 0) fn = 0; /* no tension: the excess is taken up as Maxwell flow */
  double e0 = in->energy ? section_energy(p[P_KNM], p[P_KNK], f[0], uk[0]) : 0.0;
  uk[0] = burger_kelvin_new(&sn, uk[0], f[0], fn);
  /* The scheme is the trapezoidal rule, so the work of the mean force over the step, less the
     change of the springs' energy, is exactly what the dashpots took (with no tension, the
     Maxwell flow that absorbs the cut as well). */
  if (in->energy)
    st[S_EDASH] += 0.5 * (f[0] + fn) * dun - (section_energy(p[P_KNM], p[P_KNK], fn, uk[0]) - e0);
  f[0] = fn;
  st[S_UN] = un;

  /* Shear (Eq. 19, lower signs): the shear force opposes the shear displacement, so the scheme
     runs on the resistance g = -F_s with the normal-sign formulas, component by component of
     the global in-plane vectors (the scheme is linear, so this is the same as in any frame of the
     plane). The increment is the relative shear velocity times dt; in 2D the z components
     stay 0. */
  burger_step ss = step_constants(p[P_KSK], p[P_CSK], p[P_KSM], p[P_CSM], dt);
  double g0[3], g1[3];
  for (int k = 0; k < 3; k++) {
    g0[k] = -f[1 + k];
    g1[k] = burger_force_new(&ss, vs[k] * dt, uk[1 + k], g0[k]);
  }
  /* Coulomb slider (Eqs. 21-22). Eq. 21's Fn is positive in tension, so the strength is
     -fric * Fn = fric * f[0] here, and none at all in tension. */
  double fsmax = fn > 0 ? p[P_FRIC] * fn : 0.0;
  double mag = sqrt(dot3(g1, g1));
  if (mag > fsmax) {
    double scale = fsmax / mag;
    g1[0] *= scale;
    g1[1] *= scale;
    g1[2] *= scale;
  }
  /* Eq. 23 as written: slipping when |Fs| = Fs* after the cap, hence also when both are zero
     (bur_fric = 0, or tension). */
  int slip = mag >= fsmax;
  /* The Kelvin element carries the force the slider lets through. The energy terms below are
     summed over the three global components: each sum is a dot product of in-plane vectors, the
     same as over (s, t). */
  for (int k = 0; k < 3; k++) {
    double uk0 = uk[1 + k];
    uk[1 + k] = burger_kelvin_new(&ss, uk0, g0[k], g1[k]);
    f[1 + k] = -g1[k];
    if (in->energy) { /* work in, less the springs' gain and the dashpots' trapezoidal loss */
      double gm = 0.5 * (g0[k] + g1[k]), duk = uk[1 + k] - uk0;
      double dash = (dt > 0 ? p[P_CSK] * duk * duk / dt : 0.0) + gm * gm * dt / p[P_CSM];
      double gain = section_energy(p[P_KSM], p[P_KSK], g1[k], uk[1 + k]) -
                    section_energy(p[P_KSM], p[P_KSK], g0[k], uk0);
      st[S_EDASH] += dash;
      st[S_ESLIP] += gm * vs[k] * dt - gain - dash;
    }
  }
  if (slip != (int)st[S_SLIP]) {
    out->events |= CAIRN_EV_SLIP_CHANGE;
    out->slip_mode = slip ? 0 : 1;
  }
  st[S_SLIP] = slip;

  law_add_force(out->force_xyz, f[0], in->n, f + 1); /* fn n + F_s, global */
  /* The scheme's incremental stiffness is 1 / C <= Km: the Maxwell spring bounds it. */
  out->kn_est = p[P_KNM];
  out->ks_est = p[P_KSM];
}

static void burger_stiffness(const double *p, double *k_tran, double *k_rot) {
  *k_tran = p[P_KNM] + p[P_KSM];
  *k_rot = 0;
}

/* The sections of one direction must be able to carry a force with finite displacement rates:
   each Maxwell element needs a stiffness and a viscosity > 0 (a zero there is a division by zero
   in Eq. 20 and would mean an element with no resistance), and the Kelvin section needs at least
   one of its two (Ck = 0 alone is the section's spring; Kk = 0 alone its dashpot). */
static const char *check_direction(const double *p, int kk, int ck, int km, int cm,
                                   const char *const *names, char *msg, size_t n) {
  const int idx[4] = {kk, ck, km, cm};
  for (int i = 0; i < 4; i++)
    if (!isfinite(p[idx[i]])) {
      snprintf(msg, n, "property '%s' is %g; give a finite value", names[i], p[idx[i]]);
      return msg;
    }
  for (int i = 2; i < 4; i++)
    if (p[idx[i]] == 0) {
      snprintf(msg, n,
               "property '%s' is 0: the Maxwell section needs a stiffness and a viscosity > 0 "
               "(Eq. 20 divides by both); set it",
               names[i]);
      return msg;
    }
  if (p[kk] == 0 && p[ck] == 0) {
    snprintf(msg, n,
             "properties '%s' and '%s' are both 0: the Kelvin section would offer no resistance; "
             "set at least one of them > 0",
             names[0], names[1]);
    return msg;
  }
  return NULL;
}

static const char *burger_validate(const double *p, int dim, char *msg, size_t n) {
  (void)dim; /* both dimensions have a shear direction */
  static const char *const normal[] = {"bur_knk", "bur_cnk", "bur_knm", "bur_cnm"};
  static const char *const shear[] = {"bur_ksk", "bur_csk", "bur_ksm", "bur_csm"};
  const char *bad = check_direction(p, P_KNK, P_CNK, P_KNM, P_CNM, normal, msg, n);
  if (!bad) bad = check_direction(p, P_KSK, P_CSK, P_KSM, P_CSM, shear, msg, n);
  return bad;
}

/* The slice entry the engine calls: the law above, inlined into a loop over the slice. */
CAIRN_CM_SLICE(burger_force_slice, burger_force)

const cairn_contact_model cairn_model_burger = {
    .abi_version = CAIRN_CM_ABI_VERSION,
    .name = "burger",
    .version = 2, /* 2: bur_edash, bur_eslip */
    .doc = "Burger's creep model: Kelvin and Maxwell sections in series, normal and shear, "
           "Coulomb slider",
    .props = burger_props,
    .n_props = sizeof burger_props / sizeof *burger_props,
    .state = burger_state,
    .n_state = sizeof burger_state / sizeof *burger_state,
    .force = burger_force,
    .force_slice = burger_force_slice,
    .stiffness = burger_stiffness,
    .validate = burger_validate,
    .energy = burger_energy,
};
