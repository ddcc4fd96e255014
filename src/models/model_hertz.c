/* The "hertz" model: Hertz's normal law F = (4/3) E* sqrt(R*) delta^alpha (alpha = 3/2 for
   elastic spheres), Mindlin's no-slip shear stiffness k_t = 8 G* sqrt(R* delta) applied
   incrementally to a shear force kept as a global vector (turned onto the contact plane each
   step), a Coulomb slider on the spring shear force, and normal and shear dashpots given as
   fractions of critical damping of the current tangent stiffness with the reduced mass, or a
   target restitution (hz_res). E* and G* come from both sides' materials (hz_shear, hz_poiss
   and hz_shear2, hz_poiss2); a wall counts as rigid unless given a material. In 2D the same law
   acts between disks of unit thickness: forces are per unit thickness, like the disks' masses
   (docs/contact-models.md). Rolling and twisting resistance are an add-on (roll_law.h, with the
   Hertz normal spring force as F_n and the Mindlin stiffness as k_s), off while rr_fric and
   tw_fric are 0: a slice whose properties leave it off runs the Hertz law alone. Written against
   the public ABI only. */
#include <stdio.h>

#include "models/builtin.h"
#include "models/hertz_restitution_table.h"
#include "models/laws.h"
#include "models/roll_law.h"
#include "cairn/simd.h"

enum { P_G, P_NU, P_ALPHA, P_FRIC, P_DPN, P_DPS, P_DPMODE, P_RES, P_G2, P_NU2, P_ROLL };
/* Derived: E* and G* of ball-ball and of ball-wall contacts, the normal damping ratio. */
enum { D_E_BB, D_G_BB, D_E_BW, D_G_BW, D_BETA_N, N_DERIVED };
/* State slots: hz_force and dp_force are contact-plane vectors, four slots each: [normal, x, y,
   z], the normal component first, then the in-plane part as a global vector. */
enum {
  S_FORCE = 0,
  S_SLIP = 4,
  S_DPFORCE = 5,
  S_DPXI = 9,
  S_OVERLAP = 10,
  S_KS = 11,
  S_EDASH = 12,
  S_ESLIP = 13,
  S_ROLL = 14 /* the rolling and twisting add-on's rows (roll_law.h) */
};

/* dp_mode bits, as in the linear model: 1 no tension in the total normal force, 2 no shear
   dashpot while sliding. */
enum { DP_NO_TENSION = 1, DP_SLIP_SHEAR = 2 };

static const cairn_prop_desc hertz_props[] = {
    /* clang-format off */
  /* name        type            unit  def  min   max       access    doc */
  {"hz_shear",  CAIRN_PROP_FLT, "Pa", 0.0, 0.0,  CAIRN_FINITE_MAX, CAIRN_RW,
   "shear modulus G of the balls' material (required, > 0)", NULL},
  {"hz_poiss",  CAIRN_PROP_FLT, "-",  0.0, -1.0, 0.5,      CAIRN_RW,
   "Poisson's ratio of the balls' material, in (-1, 0.5)", NULL},
  {"hz_alpha",  CAIRN_PROP_FLT, "-",  1.5, 0.0,  CAIRN_FINITE_MAX, CAIRN_RW,
   "exponent of the normal law F = (4/3) E* sqrt(R*) overlap^alpha (> 0; 1.5 is Hertz's)", NULL},
  {"fric",      CAIRN_PROP_FLT, "-",  0.0, 0.0,  CAIRN_FINITE_MAX, CAIRN_RW,
   "friction coefficient: |shear spring force| <= fric * normal spring force (dashpots excluded)",
   NULL},
  {"dp_nratio", CAIRN_PROP_FLT, "-",  0.0, 0.0,  CAIRN_FINITE_MAX, CAIRN_RW,
   "normal dashpot, fraction of critical damping of the tangent stiffness "
   "(c = 2 ratio sqrt(m_eff k_n), k_n = dF/d overlap); ignored when hz_res > 0", NULL},
  {"dp_sratio", CAIRN_PROP_FLT, "-",  0.0, 0.0,  CAIRN_FINITE_MAX, CAIRN_RW,
   "shear dashpot, fraction of critical damping (c = 2 ratio sqrt(m_eff k_t))", NULL},
  {"dp_mode",   CAIRN_PROP_INT, "-",  0.0, 0.0,  3.0,      CAIRN_RW,
   "dashpot mode: 0 full, 1 no tension in the total normal force, 2 no shear dashpot while "
   "sliding, 3 both", NULL},
  {"hz_res",    CAIRN_PROP_FLT, "-",  0.0, 0.0,  1.0,      CAIRN_RW,
   "target normal restitution in [0.01, 1] (0: off): sets the normal damping ratio that gives it "
   "for any impact speed (hz_alpha = 1.5 only)", NULL},
  {"hz_shear2", CAIRN_PROP_FLT, "Pa", 0.0, 0.0,  INFINITY, CAIRN_RW,
   "shear modulus of the other material: the second ball's, or the wall's; 0: the balls' "
   "material for ball-ball contacts and a rigid wall; inf: rigid", NULL},
  {"hz_poiss2", CAIRN_PROP_FLT, "-",  0.0, -1.0, 0.5,      CAIRN_RW,
   "Poisson's ratio of the other material (default: hz_poiss)", "hz_poiss"},
  ROLL_PROP_ROWS
    /* clang-format on */
};

static const cairn_state_desc hertz_state[] = {
    {"hz_force", CAIRN_PROP_VEC, CAIRN_STATE_PLANE_XYZ, "N",
     "spring force (normal, s, t); normal > 0 in compression"},
    {"hz_slip", CAIRN_PROP_BOOL, 0, "-", "1 while the shear force is at the friction limit"},
    {"dp_force", CAIRN_PROP_VEC, CAIRN_STATE_PLANE_XYZ, "N", "dashpot force (normal, s, t)"},
    {"dp_xi", CAIRN_PROP_FLT, 0, "m",
     "overlap at the end of the last step's normal dashpot interval (t + dt/2); 0 before the "
     "first active step and once the contact is predicted to open"},
    {"hz_overlap", CAIRN_PROP_FLT, 0, "m", "overlap at the last update (0 while open)"},
    {"hz_ks", CAIRN_PROP_FLT, 0, "N/m", "shear stiffness 8 G* sqrt(R* overlap) at the last update"},
    {"hz_edash", CAIRN_PROP_FLT, 0, "J", "energy dissipated by the dashpots while tracked"},
    {"hz_eslip", CAIRN_PROP_FLT, 0, "J",
     "energy dissipated by frictional slip while tracked (with the shear spring's work that its "
     "changing stiffness does not store)"},
    ROLL_STATE_ROWS};

/* The normal damping ratio that gives restitution e (Hertz, alpha = 3/2), by cubic interpolation
   in the generated table; 'no_tension' picks dp_mode 1's row. */
static double hertz_beta_for(double e, int no_tension) {
  const double *t = hertz_res_beta[no_tension ? 1 : 0];
  if (e >= 1.0) return 0.0;
  double x = (e - HERTZ_RES_E0) / HERTZ_RES_DE;
  if (x <= 0) return t[0];
  int i = (int)x - 1; /* the four nodes i .. i + 3 around x */
  if (i < 0) i = 0;
  if (i > HERTZ_RES_N - 4) i = HERTZ_RES_N - 4;
  double s = x - i, b = 0.0;
  for (int j = 0; j < 4; j++) { /* Lagrange basis on the nodes 0, 1, 2, 3 */
    double l = 1.0;
    for (int k = 0; k < 4; k++)
      if (k != j) l *= (s - k) / (j - k);
    b += l * t[i + j];
  }
  return b;
}

/* 1 / E* and 1 / G* terms of one material (G shear modulus, nu Poisson's ratio): (1 - nu^2) / E
   and (2 - nu) / G; a rigid material (G infinite) adds nothing. */
static void material_terms(double g, double nu, double *ie, double *ig) {
  if (isinf(g)) {
    *ie = *ig = 0.0;
    return;
  }
  double e = 2.0 * g * (1.0 + nu);
  *ie = (1.0 - nu * nu) / e;
  *ig = (2.0 - nu) / g;
}

static void hertz_prepare(const double *p, double *dv) {
  double ie1, ig1, ie2, ig2;
  if (!(p[P_G] > 0)) { /* unusable: validation refuses the contact before it is used */
    for (int k = 0; k < N_DERIVED; k++) dv[k] = 0.0;
    return;
  }
  material_terms(p[P_G], p[P_NU], &ie1, &ig1);
  if (p[P_G2] > 0)
    material_terms(p[P_G2], p[P_NU2], &ie2, &ig2);
  else
    ie2 = ie1, ig2 = ig1;
  dv[D_E_BB] = 1.0 / (ie1 + ie2), dv[D_G_BB] = 1.0 / (ig1 + ig2);
  if (p[P_G2] > 0) /* a wall of the other material */
    dv[D_E_BW] = dv[D_E_BB], dv[D_G_BW] = dv[D_G_BB];
  else /* a rigid wall */
    dv[D_E_BW] = 1.0 / ie1, dv[D_G_BW] = 1.0 / ig1;
  int no_tension = ((int)p[P_DPMODE] & DP_NO_TENSION) != 0;
  dv[D_BETA_N] = p[P_RES] > 0 ? hertz_beta_for(p[P_RES], no_tension) : p[P_DPN];
}

/* Energy bookkeeping of one step (while tracked), as in the linear model: each force's work by
   the trapezoidal rule over the step's displacement. The slip loss is the shear spring's work
   less the change of its stored energy F_s^2 / (2 k_t); the dashpot loss is the dashpots' work.
   old and now are {spring normal, spring shear x, y, z, dashpot normal, dashpot shear x, y, z};
   es_old and es_now the shear spring's stored energy at the start and the end of the step. */
static void hertz_losses(double dt, double vn, const double vs[3], const double old[8],
                         const double now[8], double es_old, double es_now, double *st) {
  double dn = vn * dt, ds[3] = {vs[0] * dt, vs[1] * dt, vs[2] * dt};
  double slip = es_old - es_now, dash = 0;
  for (int k = 0; k < 3; k++) slip -= 0.5 * (old[1 + k] + now[1 + k]) * ds[k];
  dash -= 0.5 * (old[4] + now[4]) * dn;
  for (int k = 0; k < 3; k++) dash -= 0.5 * (old[5 + k] + now[5 + k]) * ds[k];
  st[S_ESLIP] += slip;
  st[S_EDASH] += dash;
}

static void hertz_pack(const double *fl, const double *fd, double v[8]) {
  for (int k = 0; k < 4; k++) v[k] = fl[k], v[4 + k] = fd[k];
}

/* Stored energy of a shear force fs (in-plane part, global) on a spring of stiffness ks. */
static double shear_stored(const double fs[3], double ks) {
  return ks > 0 ? (fs[0] * fs[0] + fs[1] * fs[1] + fs[2] * fs[2]) / (2.0 * ks) : 0.0;
}

/* overlap^alpha, with the common alpha = 3/2 and 1 without pow(). */
static inline double power(double d, double alpha) {
  if (alpha == 1.5) return d * sqrt(d);
  if (alpha == 1.0) return d;
  return pow(d, alpha);
}

static inline void hertz_law(const cairn_cm_input *in, const double *p, const double *dv,
                             double *st, cairn_cm_output *out) {
  double *fl = st + S_FORCE, *fd = st + S_DPFORCE, vs[3];
  double old[8] = {0, 0, 0, 0, 0, 0, 0, 0}; /* (set and read only while energy is tracked) */
  double vn = cairn_cm_split(in->vel_xyz, in->n, vs);
  if (in->gap >= 0) { /* open: no force; the shear history is dropped (the loss sums stay) */
    if (in->energy) {
      const double none[8] = {0, 0, 0, 0, 0, 0, 0, 0};
      cairn_cm_turn(fl + 1, in->n);
      cairn_cm_turn(fd + 1, in->n);
      hertz_pack(fl, fd, old);
      hertz_losses(in->dt, vn, vs, old, none, shear_stored(fl + 1, st[S_KS]), 0.0, st);
    }
    for (int k = 0; k < 4; k++) fl[k] = fd[k] = 0.0;
    st[S_SLIP] = st[S_DPXI] = st[S_OVERLAP] = st[S_KS] = 0.0;
    return;
  }
  const int wall = in->kind == CAIRN_KIND_BALL_WALL;
  const double es = dv[wall ? D_E_BW : D_E_BB], gs = dv[wall ? D_G_BW : D_G_BB];
  const double alpha = p[P_ALPHA], m = in->m_eff, r = in->r_eff, d = -in->gap;
  const double sr = sqrt(r), sd = sqrt(d);
  const double kh = 4.0 / 3.0 * es * sr; /* F = kh d^alpha */
  double es_old = 0.0;
  cairn_cm_turn(fl + 1, in->n);
  if (in->energy) {
    cairn_cm_turn(fd + 1, in->n);
    hertz_pack(fl, fd, old);
    es_old = shear_stored(fl + 1, st[S_KS]);
  }
  out->active = 1;
  const double fn = alpha == 1.5 ? kh * d * sd : kh * power(d, alpha);
  const double kn = alpha == 1.5 ? 1.5 * kh * sd : alpha * fn / d; /* dF/d overlap */
  const double ks = 8.0 * gs * sr * sd;
  fl[0] = fn;
  /* The shear displacement of the last step, vs dt, happened over [t - dt, t]: it loads the
     spring at the stiffness of that interval's middle, from the mean of the overlaps at its ends
     (0 before the first active step), not at the end's (which would be first order in dt). */
  const double ks_mid = 8.0 * gs * sr * sqrt(0.5 * (d + st[S_OVERLAP]));
  law_shear_increment(fl + 1, ks_mid, vs, in->dt);
  int slip = law_coulomb_cap(fl + 1, p[P_FRIC] * fn);
  if (slip != (int)st[S_SLIP]) {
    out->events |= CAIRN_EV_SLIP_CHANGE;
    out->slip_mode = slip ? 0 : 1;
  }
  st[S_SLIP] = slip;
  st[S_OVERLAP] = d;
  st[S_KS] = ks;
  int mode = (int)p[P_DPMODE];
  double cs = slip && (mode & DP_SLIP_SHEAR) ? 0.0 : law_dashpot_coeff(p[P_DPS], m, ks);
  /* Normal dashpot c = 2 beta sqrt(m k_n) = c0 d^q, k_n = alpha kh d^(alpha - 1). Without one
     the normal force is the spring's, bit for bit (fd[0] stays 0). */
  fd[0] = 0.0;
  if (dv[D_BETA_N] > 0) {
    double c0 = 2.0 * dv[D_BETA_N] * sqrt(m * alpha * kh), q = 0.5 * (alpha - 1.0);
    if (in->dt > 0)
      fd[0] =
          law_dashpot_power_step(c0, q, m, in->dt, d, -vn, fn, mode & DP_NO_TENSION, &st[S_DPXI]);
    else /* no step to resolve (dt = 0): the dashpot at the current velocity */
      fd[0] = -law_dashpot_coeff(dv[D_BETA_N], m, kn) * vn;
  }
  fd[1] = -cs * vs[0];
  fd[2] = -cs * vs[1];
  fd[3] = -cs * vs[2];
  if (in->energy) {
    double now[8];
    hertz_pack(fl, fd, now);
    hertz_losses(in->dt, vn, vs, old, now, es_old, shear_stored(fl + 1, ks), st);
  }
  const double fs[3] = {fl[1] + fd[1], fl[2] + fd[2], fl[3] + fd[3]};
  law_add_force(out->force_xyz, fl[0] + fd[0], in->n, fs);
  /* Timestep estimate: the tangent stiffnesses at the larger of this overlap and the one a
     head-on impact at this approach speed would reach (elastic energy balance), so the estimate
     does not lag behind a contact that is still loading. */
  /* (d_max / d)^(alpha + 1) = 1 + x, x = (m u^2 / 2) / (F d / (alpha + 1)); k_n grows as
     d^(alpha - 1), k_t as d^(1/2). For Hertz both scale by (1 + x)^(1/5), bounded above by
     1 + x/5 (concave): that bound, within 1.5 % for x <= 1/2, spares the pow() where the
     contact is loaded well beyond what its approach adds (a packing's usual case). */
  double sn = 1.0, st_ = 1.0, u = -vn;
  if (u > 0 && fn > 0) {
    double x = 0.5 * m * u * u * (alpha + 1.0) / (fn * d);
    if (alpha == 1.5)
      sn = st_ = x <= 0.5 ? 1.0 + 0.2 * x : pow(1.0 + x, 0.2);
    else
      sn = pow(1.0 + x, (alpha - 1.0) / (alpha + 1.0)), st_ = pow(1.0 + x, 0.5 / (alpha + 1.0));
  }
  out->kn_est = kn * sn;
  out->ks_est = ks * st_;
}

/* The law alone (the add-on off) and with the add-on after it (its F_n the Hertz spring's normal
   force, its default stiffnesses from this step's Mindlin k_t), with one slip event for the
   three sliders. */
static void hertz_plain(const cairn_cm_input *in, const double *p, const double *dv, double *st,
                        cairn_cm_output *out) {
  hertz_law(in, p, dv, st, out);
}
static void hertz_rolling(const cairn_cm_input *in, const double *p, const double *dv, double *st,
                          cairn_cm_output *out) {
  const int slipping = st[S_SLIP] != 0 || roll_slipping(st + S_ROLL);
  hertz_law(in, p, dv, st, out);
  roll_law(in, p + P_ROLL, st + S_ROLL, st[S_FORCE], st[S_KS], 0, out);
  roll_events(slipping, st[S_SLIP] != 0 || roll_slipping(st + S_ROLL), in, out);
}

static void hertz_force(const cairn_cm_input *in, const double *p, const double *dv, double *st,
                        cairn_cm_output *out) {
  if (roll_on(p + P_ROLL))
    hertz_rolling(in, p, dv, st, out);
  else
    hertz_plain(in, p, dv, st, out);
}

/* Stored: the normal spring's F d / (alpha + 1) and the shear spring's F_s^2 / (2 k_t); lost: the
   sums kept in the state. */
static void hertz_energy(const double *p, const double *st, double e[CAIRN_ENERGY_N]) {
  const double *fl = st + S_FORCE;
  e[CAIRN_ENERGY_STRAIN] += fl[0] * st[S_OVERLAP] / (p[P_ALPHA] + 1.0);
  e[CAIRN_ENERGY_STRAIN] += shear_stored(fl + 1, st[S_KS]);
  e[CAIRN_ENERGY_DASHPOT] = st[S_EDASH];
  e[CAIRN_ENERGY_SLIP] = st[S_ESLIP];
  roll_energy(st + S_ROLL, 0, e);
}

/* Hertz contacts have no stiffness before they touch: nothing to estimate from the properties
   alone (the automatic timestep then works from the contacts' own estimates). */
static void hertz_stiffness(const double *p, double *k_tran, double *k_rot) {
  *k_tran = 0;
  *k_rot = roll_stiffness(p + P_ROLL, 0); /* rr_kr, tw_kt where set (their defaults need k_t) */
}

static const char *hertz_validate(const double *p, int dim, char *msg, size_t n) {
  (void)dim;
  if (!(p[P_G] > 0)) {
    snprintf(msg, n, "hz_shear must be > 0 (got %g); set the shear modulus G of the material",
             p[P_G]);
    return msg;
  }
  if (!(p[P_NU] > -1.0 && p[P_NU] < 0.5)) {
    snprintf(msg, n, "hz_poiss must lie in (-1, 0.5) (got %g); set the Poisson's ratio", p[P_NU]);
    return msg;
  }
  if (p[P_G2] > 0 && !(p[P_NU2] > -1.0 && p[P_NU2] < 0.5)) {
    snprintf(msg, n,
             "hz_poiss2 must lie in (-1, 0.5) (got %g); set the other material's "
             "Poisson's ratio",
             p[P_NU2]);
    return msg;
  }
  if (!(p[P_ALPHA] > 0)) {
    snprintf(msg, n, "hz_alpha must be > 0 (got %g); 1.5 is Hertz's exponent", p[P_ALPHA]);
    return msg;
  }
  if (p[P_RES] > 0 && (p[P_ALPHA] != 1.5 || p[P_RES] < HERTZ_RES_E0)) {
    snprintf(msg, n,
             "hz_res = %g needs hz_alpha = 1.5 and a value in [%g, 1] (got hz_alpha = %g); "
             "set dp_nratio instead, or hz_res = 0",
             p[P_RES], HERTZ_RES_E0, p[P_ALPHA]);
    return msg;
  }
  return NULL;
}

/* The law above, inlined into a loop over the slice: the general entry. Whether the add-on is on
   is a property of the slice's shared block, so it is tested once per slice. */
static CAIRN_CM_FLATTEN void hertz_force_slice_general(const cairn_cm_slice *s_) {
  if (roll_on(s_->props + P_ROLL)) {
    CAIRN_CM_SLICE_LOOP(s_, hertz_rolling)
  } else {
    CAIRN_CM_SLICE_LOOP(s_, hertz_plain)
  }
}

/* The cycle's common case (Hertz's exponent 3/2, the add-on off, a step to resolve, energy not
   tracked) as a loop without branches that gcc vectorises, as linear's (model_linear.c): each
   branch of hertz_law becomes a select between both outcomes, computed by the same operations in
   the same order, so the results are the law's to the last bit. The one pow() of the law (the
   timestep estimate's (1 + x)^(1/5) for x > 1/2, rare) is left to the loop after, contact by
   contact. Built for the x86-64 baseline and for AVX2 (cairn/simd.h). */
typedef struct hertz_cols {
  law_cols l; /* the spring and dashpot state (laws.h), at hertz_slots */
  double ov[CAIRN_CM_SLICE_MAX], ks[CAIRN_CM_SLICE_MAX]; /* hz_overlap, hz_ks */
  double kn[CAIRN_CM_SLICE_MAX];                         /* the tangent normal stiffness */
  double x[CAIRN_CM_SLICE_MAX]; /* the estimate's x where it needs the pow(), else -1 */
} hertz_cols;
static const law_slots hertz_slots = {S_FORCE, S_SLIP, S_DPFORCE, S_DPXI};

#define HERTZ_PARAMS                                                                               \
  size_t n, const double *restrict p, const double *restrict dv, int wall, double dt,              \
      const double *restrict gap, const double *restrict m_eff, const double *restrict r1,         \
      const double *restrict r2, const double *restrict nx, const double *restrict ny,             \
      const double *restrict nz, const double *restrict vx, const double *restrict vy,             \
      const double *restrict vz, hertz_cols *restrict c, double *restrict fx, double *restrict fy, \
      double *restrict fz, double *restrict kno, double *restrict kso
#define HERTZ_ARGS                                                                                 \
  n, p, dv, wall, dt, gap, m_eff, r1, r2, nx, ny, nz, vx, vy, vz, c, fx, fy, fz, kno, kso

/* has_dpn and has_dps: whether the normal dashpot's ratio and the shear dashpot's are > 0 (the
   same for the whole slice: constants in each call, as gcc vectorises no select on a condition
   the same in every lane). */
static inline __attribute__((always_inline)) void
hertz_columns_body(HERTZ_PARAMS, const int has_dpn, const int has_dps) {
  const double es = dv[wall ? D_E_BW : D_E_BB], gs = dv[wall ? D_G_BW : D_G_BB];
  const double beta_n = dv[D_BETA_N], alpha = p[P_ALPHA], fric = p[P_FRIC], dps = p[P_DPS];
  const int mode = (int)p[P_DPMODE], slip_shear = (mode & DP_SLIP_SHEAR) != 0;
  const double tension_floor = mode & DP_NO_TENSION ? 0.0 : -INFINITY; /* as linear's */
  for (size_t k = 0; k < n; k++) {
    const double n0 = nx[k], n1 = ny[k], n2 = nz[k], m = m_eff[k];
    const double vn = vx[k] * n0 + vy[k] * n1 + vz[k] * n2;
    const double vs0 = vx[k] - vn * n0, vs1 = vy[k] - vn * n1, vs2 = vz[k] - vn * n2;
    const int open = gap[k] >= 0;
    /* r_eff as CAIRN_CM_SLICE_LOOP forms it */
    const double ra = r1[k], rb = r2[k], q_r = ra * rb / (ra + rb), r = ra > 0 ? q_r : rb;
    const double d = -gap[k], sr = sqrt(r), sd = sqrt(d);
    const double kh = 4.0 / 3.0 * es * sr;
    /* the spring's in-plane part turned onto this step's plane */
    const double a[3] = {c->l.fl[1][k], c->l.fl[2][k], c->l.fl[3][k]};
    double t[3];
    law_turn_lane(a, n0, n1, n2, t);
    double s0 = t[0], s1 = t[1], s2 = t[2];
    const double fn = kh * d * sd, kn = 1.5 * kh * sd, ks = 8.0 * gs * sr * sd;
    const double ks_mid = 8.0 * gs * sr * sqrt(0.5 * (d + c->ov[k]));
    s0 -= ks_mid * vs0 * dt;
    s1 -= ks_mid * vs1 * dt;
    s2 -= ks_mid * vs2 * dt;
    double fs[3] = {s0, s1, s2};
    const int slip = law_coulomb_cap_lane(fs, fric * fn);
    s0 = fs[0], s1 = fs[1], s2 = fs[2];
    const double slipd = slip ? 1.0 : 0.0;
    /* law_dashpot_coeff(dps, m, ks): ks > 0 is a lane's own test */
    const double cs0 = has_dps && ks > 0 ? 2.0 * dps * sqrt(m * ks) : 0.0;
    const double cs = slip & slip_shear ? 0.0 : cs0;
    /* law_dashpot_power_step with q = 1/4 (c0 d^q = 2 beta sqrt(m k_n)) */
    double fdn = 0.0, xi = c->l.xi[k];
    const double u = -vn;
    if (has_dpn) {
      const double c0 = 2.0 * beta_n * sqrt(m * alpha * kh);
      const double im = 1.0 / m, idt = 1.0 / dt, h = 0.5 * dt * dt * im, stop = m * u * idt;
      const double xa = xi;
      double x0 = d + 0.5 * u * dt;
      x0 = x0 < 0 ? 0.0 : x0;
      const double r0 = sqrt(sqrt(x0)), ra4 = sqrt(sqrt(xa));
      const double xq0 = x0 > 0 ? r0 : 0.0, xqa = xa > 0 ? ra4 : 0.0;
      const double phi0 = c0 * x0 * xq0 * 0.8, phia = c0 * xa * xqa * 0.8, slope = c0 * xq0;
      double fd = (phi0 - phia - slope * fn * h) * idt / (1.0 + slope * h * idt);
      const int ahead = u >= 0;
      fd = (ahead & (fd > stop)) | (!ahead & (fd < stop)) ? stop : fd;
      double u1 = u - (fn + fd) * dt * im;
      const int opens = d + u1 * dt <= 0;
      double fdo = -phia * idt;
      fdo = (ahead & (fdo > stop)) | (!ahead & (fdo < stop)) ? stop : fdo;
      fd = opens ? fdo : fd;
      fd = fn + fd < tension_floor ? -fn : fd;
      u1 = u - (fn + fd) * dt * im;
      const double xb = opens ? 0.0 : d + 0.5 * u1 * dt;
      xi = xb < 0 ? 0.0 : xb;
      fdn = fd;
    }
    const double d0 = -cs * vs0, d1 = -cs * vs1, d2 = -cs * vs2;
    const double ft = fn + fdn;
    const double g0 = 0.0 + (ft * n0 + (s0 + d0));
    const double g1 = 0.0 + (ft * n1 + (s1 + d1));
    const double g2 = 0.0 + (ft * n2 + (s2 + d2));
    /* the timestep estimate's factor: 1 + x/5 up to x = 1/2, beyond it the pow() after */
    const double xe = 0.5 * m * u * u * (alpha + 1.0) / (fn * d);
    const int loading = (u > 0) & (fn > 0), bound = xe <= 0.5;
    const double sn = loading & bound ? 1.0 + 0.2 * xe : 1.0;
    fx[k] = open ? 0.0 : g0;
    fy[k] = open ? 0.0 : g1;
    fz[k] = open ? 0.0 : g2;
    kno[k] = open ? 0.0 : kn * sn;
    kso[k] = open ? 0.0 : ks * sn;
    c->kn[k] = kn;
    c->x[k] = (!open) & loading & (!bound) ? xe : -1.0;
    const double fls[4] = {fn, s0, s1, s2}, fds[4] = {fdn, d0, d1, d2};
    law_cols_lane(&c->l, k, open, fls, slipd, fds, xi);
    c->ov[k] = open ? 0.0 : d;
    c->ks[k] = open ? 0.0 : ks;
  }
}

#define HERTZ_COLUMNS(name, target)                                                                \
  target static void name(HERTZ_PARAMS) {                                                          \
    const int has_dpn = dv[D_BETA_N] > 0, has_dps = p[P_DPS] > 0;                                  \
    if (has_dpn && has_dps)                                                                        \
      hertz_columns_body(HERTZ_ARGS, 1, 1);                                                        \
    else if (has_dpn)                                                                              \
      hertz_columns_body(HERTZ_ARGS, 1, 0);                                                        \
    else if (has_dps)                                                                              \
      hertz_columns_body(HERTZ_ARGS, 0, 1);                                                        \
    else                                                                                           \
      hertz_columns_body(HERTZ_ARGS, 0, 0);                                                        \
  }
HERTZ_COLUMNS(hertz_columns_base, )
#if CAIRN_SIMD_AVX2
HERTZ_COLUMNS(hertz_columns_avx2, CAIRN_TARGET_AVX2)
#endif

static void hertz_force_slice(const cairn_cm_slice *s) {
  const double *p = s->props;
  if (s->energy || !(s->dt > 0) || p[P_ALPHA] != 1.5 || roll_on(p + P_ROLL)) {
    hertz_force_slice_general(s);
    return;
  }
  hertz_cols c;
  const size_t n = s->n;
  law_cols_in_all(&c.l, n, s->state, hertz_slots);
  for (size_t k = 0; k < n; k++) c.ov[k] = s->state[k][S_OVERLAP];
  const int wall = s->kind == CAIRN_KIND_BALL_WALL;
#if CAIRN_SIMD_AVX2
  if (cairn_cpu_avx2())
    hertz_columns_avx2(n, p, s->derived, wall, s->dt, s->gap, s->m_eff, s->r1, s->r2, s->nx, s->ny,
                       s->nz, s->vx, s->vy, s->vz, &c, s->fx, s->fy, s->fz, s->kn, s->ks);
  else
#endif
    hertz_columns_base(n, p, s->derived, wall, s->dt, s->gap, s->m_eff, s->r1, s->r2, s->nx, s->ny,
                       s->nz, s->vx, s->vy, s->vz, &c, s->fx, s->fy, s->fz, s->kn, s->ks);
  law_cols_out_all(&c.l, n, s->state, hertz_slots);
  for (size_t k = 0; k < n; k++) {
    double *st = s->state[k];
    st[S_OVERLAP] = c.ov[k], st[S_KS] = c.ks[k];
    if (c.x[k] >= 0) { /* hertz_law's pow() */
      const double f = pow(1.0 + c.x[k], 0.2);
      s->kn[k] = c.kn[k] * f, s->ks[k] = c.ks[k] * f;
    }
    s->kr[k] = 0.0, s->mx[k] = s->my[k] = s->mz[k] = 0.0;
    s->status[k] = (unsigned char)(int)c.l.status[k];
  }
}

const cairn_contact_model cairn_model_hertz = {
    .abi_version = CAIRN_CM_ABI_VERSION,
    .name = "hertz",
    .version = 2, /* 2: the rolling and twisting add-on's properties and state (zero in older
                     saves: off) */
    .doc = "Hertz-Mindlin: nonlinear normal spring, Mindlin no-slip shear stiffness, Coulomb "
           "friction, critical-ratio dashpots of the tangent stiffness; optional rolling and "
           "twisting resistance (rr_fric, tw_fric)",
    .props = hertz_props,
    .n_props = sizeof hertz_props / sizeof *hertz_props,
    .state = hertz_state,
    .n_state = sizeof hertz_state / sizeof *hertz_state,
    .n_derived = N_DERIVED,
    .needs = CAIRN_CM_USES_ANGVEL | CAIRN_CM_USES_RADII | CAIRN_CM_WRITES_MOMENT,
    .prepare = hertz_prepare,
    .force = hertz_force,
    .force_slice = hertz_force_slice,
    .stiffness = hertz_stiffness,
    .validate = hertz_validate,
    .energy = hertz_energy,
};
