/* The "linearpbond" model: the linear model in parallel with a parallel bond (PFC's
   linearpbond), a finite piece of elastic cement between the two balls. The bond has a
   cross-section of radius R = pb_rmul min(r1, r2) (3D: a disk, area pi R^2, moment of inertia
   pi R^4 / 4, polar pi R^4 / 2; 2D: a rectangle 2R wide and of unit thickness, area 2R, moment
   of inertia (2R)^3 / 12, no twisting) and normal and shear stiffnesses per area, pb_kn and
   pb_ks. It carries a normal force, a shear force, a bending moment and, in 3D, a twisting
   moment, all incremental and kept in the global frame. It breaks, for good, in the step where
   the largest tensile stress on its section, -F_n / A + pb_mcf |M_b| R / I, exceeds pb_ten
   (state 2), or the largest shear stress, |F_s| / A + pb_mcf |M_t| R / J, exceeds the shear
   strength pb_coh + (F_n / A) tan(pb_fa) (state 3), raising bond_break; from that step on the
   contact is linear. A contact is bonded at its first update where its gap is at most pb_gap
   (0: touching). The linear part acts all along, as in PFC. The bond's springs store
   F^2 / 2k and M^2 / 2k; on breaking that energy is released, booked with the slip losses.
   Rolling and twisting resistance (the add-on of roll_law.h, off while rr_fric and tw_fric are
   0) act while the contact has no intact bond: never bonded, or broken. Written against the
   public ABI only. */
#include <stdio.h>

#include "models/builtin.h"
#include "models/linear_law.h"

#define PI 3.14159265358979323846

/* Property slots after linear's six. */
enum { P_PKN = P_DPMODE + 1, P_PKS, P_RMUL, P_TEN, P_COH, P_FA, P_MCF, P_BOND, P_GAP, P_PB_ROLL };
/* State slots after linear's. */
enum {
  S_PB_STATE = S_ESLIP + 1,
  S_PB_FN,               /* bond normal force, > 0 in compression */
  S_PB_FS,               /* 3 slots: bond shear force, global, in the contact plane */
  S_PB_MB = S_PB_FS + 3, /* 3 slots: bending moment on side 2, global, in the plane */
  S_PB_MT = S_PB_MB + 3, /* twisting moment about the normal (3D) */
  S_PB_ESTORE,           /* the energy the bond's springs store */
  S_PB_N,
  S_PB_ROLL = S_PB_N /* the rolling and twisting add-on's rows (roll_law.h) */
};
enum { PB_NONE = 0, PB_BONDED = 1, PB_BROKEN_TENSION = 2, PB_BROKEN_SHEAR = 3 };

static const cairn_prop_desc pbond_props[] = {
    LINEAR_PROP_ROWS
    /* clang-format off */
  {"pb_kn",   CAIRN_PROP_FLT,  "Pa/m", 0.0, 0.0,  CAIRN_FINITE_MAX, CAIRN_RW,
   "bond normal stiffness per area (a stress per displacement)", NULL},
  {"pb_ks",   CAIRN_PROP_FLT,  "Pa/m", 0.0, 0.0,  CAIRN_FINITE_MAX, CAIRN_RW,
   "bond shear stiffness per area", NULL},
  {"pb_rmul", CAIRN_PROP_FLT,  "-",    1.0, 0.0,  CAIRN_FINITE_MAX, CAIRN_RW,
   "bond radius over the smaller ball radius (> 0)", NULL},
  {"pb_ten",  CAIRN_PROP_FLT,  "Pa",   0.0, 0.0,  CAIRN_FINITE_MAX, CAIRN_RW,
   "tensile strength of the bond (a stress)", NULL},
  {"pb_coh",  CAIRN_PROP_FLT,  "Pa",   0.0, 0.0,  CAIRN_FINITE_MAX, CAIRN_RW,
   "cohesion of the bond (shear strength at no normal stress)", NULL},
  {"pb_fa",   CAIRN_PROP_FLT,  "deg",  0.0, 0.0,  90.0,     CAIRN_RW,
   "friction angle of the bond: compression raises its shear strength by tan(pb_fa) per stress",
   NULL},
  {"pb_mcf",  CAIRN_PROP_FLT,  "-",    1.0, 0.0,  1.0,      CAIRN_RW,
   "moment contribution factor: the share of the moments in the bond's stresses", NULL},
  {"pb_bond", CAIRN_PROP_BOOL, "-",    1.0, 0.0,  1.0,      CAIRN_RW,
   "1: a contact whose gap is at most pb_gap at its first update is bonded; 0: no bond", NULL},
  {"pb_gap",  CAIRN_PROP_FLT,  "m",    0.0, 0.0,  CAIRN_FINITE_MAX, CAIRN_RW,
   "the largest gap at which a contact is bonded (0: only where the surfaces touch)", NULL},
  ROLL_PROP_ROWS
    /* clang-format on */
};

static const cairn_state_desc pbond_state[] = {
    LINEAR_STATE_ROWS{"pb_state", CAIRN_PROP_INT, 0, "-",
                      "bond state: 0 never bonded, 1 bonded, 2 broken in tension, 3 broken in "
                      "shear"},
    {"pb_fn", CAIRN_PROP_FLT, 0, "N", "bond normal force, > 0 in compression"},
    {"pb_fs", CAIRN_PROP_VEC, 0, "N", "bond shear force on side 2 (global)"},
    {"pb_mb", CAIRN_PROP_VEC, 0, "N*m", "bond bending moment on side 2 (global)"},
    {"pb_mt", CAIRN_PROP_FLT, 0, "N*m", "bond twisting moment on side 2, about the normal (3D)"},
    {"pb_estore", CAIRN_PROP_FLT, 0, "J", "energy stored in the bond's springs"},
    ROLL_STATE_ROWS};

/* The bond's section: radius, area, moment of inertia, polar moment (0 in 2D). */
static void section(const double *p, const cairn_cm_input *in, double *R, double *A, double *I,
                    double *J) {
  double rmin = in->r1 > 0 && in->r1 < in->r2 ? in->r1 : in->r2;
  *R = p[P_RMUL] * rmin;
  if (in->dim == 3) {
    *A = PI * *R * *R, *I = 0.25 * PI * *R * *R * *R * *R, *J = 2.0 * *I;
  } else {
    *A = 2.0 * *R, *I = 8.0 * *R * *R * *R / 12.0, *J = 0.0;
  }
}

static void zero_bond(double *st) {
  for (int k = S_PB_FN; k < S_PB_N; k++) st[k] = 0.0;
}

static void pbond_force(const cairn_cm_input *in, const double *p, const double *derived,
                        double *st, cairn_cm_output *out) {
  (void)derived;
  /* Bonded at the first update within pb_gap: the bond is incremental, so it forms stress-free
     at any gap, and the linear part stays open until the surfaces touch. Stress-free at this
     update's configuration: its increment (the relative velocity of the half step before, times
     dt) is the motion that brought the balls here, before the bond existed, so the forming step
     adds none and the first increment is the next step's. */
  double h = in->dt;
  if (st[S_PB_STATE] == PB_NONE && in->first && p[P_BOND] != 0 && in->gap <= p[P_GAP])
    st[S_PB_STATE] = PB_BONDED, h = 0.0;
  int bonded = st[S_PB_STATE] == PB_BONDED;
  linear_law(in, p, st, out); /* the linear part, in parallel, all along (open when apart) */
  if (!bonded) return;
  double R, A, I, J;
  section(p, in, &R, &A, &I, &J);
  const double kn = p[P_PKN] * A, ks = p[P_PKS] * A, kb = p[P_PKN] * I, kt = p[P_PKS] * J;
  double vs[3], wb[3];
  const double vn = cairn_cm_split(in->vel_xyz, in->n, vs);
  const double wn = cairn_cm_split(in->angvel_xyz, in->n, wb);
  double *fs = st + S_PB_FS, *mb = st + S_PB_MB;
  cairn_cm_turn(fs, in->n);
  cairn_cm_turn(mb, in->n);
  double fn = st[S_PB_FN] - kn * vn * h; /* compression grows as the balls approach */
  double mt = in->dim == 3 ? st[S_PB_MT] - kt * wn * h : 0.0;
  for (int k = 0; k < 3; k++) {
    fs[k] -= ks * vs[k] * h;
    mb[k] -= kb * wb[k] * h;
  }
  /* stresses on the section: the largest tension and the largest shear */
  const double mbm = sqrt(mb[0] * mb[0] + mb[1] * mb[1] + mb[2] * mb[2]);
  const double fsm = sqrt(fs[0] * fs[0] + fs[1] * fs[1] + fs[2] * fs[2]);
  const double sigma = -fn / A + p[P_MCF] * mbm * R / I;
  const double tau = fsm / A + (J > 0 ? p[P_MCF] * fabs(mt) * R / J : 0.0);
  const double tau_c = p[P_COH] + (fn / A) * tan(p[P_FA] * PI / 180.0);
  int broken = 0;
  if (sigma > p[P_TEN])
    broken = PB_BROKEN_TENSION;
  else if (tau > tau_c)
    broken = PB_BROKEN_SHEAR;
  if (broken) {
    st[S_PB_STATE] = broken;
    if (in->energy) st[S_ESLIP] += st[S_PB_ESTORE]; /* released: booked with the losses */
    zero_bond(st);
    out->events |= CAIRN_EV_BOND_BREAK;
    out->bond_mode = 0;
    return;
  }
  st[S_PB_FN] = fn, st[S_PB_MT] = mt;
  double e = kn > 0 ? fn * fn / (2 * kn) : 0;
  if (ks > 0) e += fsm * fsm / (2 * ks);
  if (kb > 0) e += mbm * mbm / (2 * kb);
  if (kt > 0) e += mt * mt / (2 * kt);
  st[S_PB_ESTORE] = e;
  law_add_force(out->force_xyz, fn, in->n, fs);
  for (int k = 0; k < 3; k++) out->moment_xyz[k] += mb[k] + mt * in->n[k];
  out->active = 1;
  out->may_delete = 0;
  out->kn_est += kn;
  out->ks_est += ks;
  out->kr_est += kb > kt ? kb : kt;
}

/* The law with the rolling and twisting add-on, which acts while no bond is intact (a bond
   carries moments of its own), with one slip event for the linear part's and its sliders. */
static void pbond_rolling(const cairn_cm_input *in, const double *p, const double *derived,
                          double *st, cairn_cm_output *out) {
  const int slipping = st[S_SLIP] != 0 || roll_slipping(st + S_PB_ROLL);
  pbond_force(in, p, derived, st, out);
  if (st[S_PB_STATE] == PB_BONDED) return;
  roll_law(in, p + P_PB_ROLL, st + S_PB_ROLL, st[S_FORCE], p[P_KS], 0, out);
  roll_events(slipping, st[S_SLIP] != 0 || roll_slipping(st + S_PB_ROLL), in, out);
}

static void pbond_force_any(const cairn_cm_input *in, const double *p, const double *derived,
                            double *st, cairn_cm_output *out) {
  if (roll_on(p + P_PB_ROLL))
    pbond_rolling(in, p, derived, st, out);
  else
    pbond_force(in, p, derived, st, out);
}

/* The linear part's energies, with what the bond's springs store and the add-on's. */
static void pbond_energy(const double *p, const double *st, double e[CAIRN_ENERGY_N]) {
  linear_law_energy(p, st, e);
  e[CAIRN_ENERGY_STRAIN] += st[S_PB_ESTORE];
  roll_energy(st + S_PB_ROLL, 0, e);
}

static void pbond_stiffness(const double *p, double *k_tran, double *k_rot) {
  *k_tran = p[P_KN] + p[P_KS];
  *k_rot = roll_stiffness(p + P_PB_ROLL, 0);
}

static const char *pbond_validate(const double *p, int dim, char *msg, size_t n) {
  (void)dim;
  if (p[P_BOND] != 0 && !(p[P_RMUL] > 0)) {
    snprintf(msg, n,
             "pb_rmul must be > 0 (got %g); give the bond radius over the smaller "
             "ball radius",
             p[P_RMUL]);
    return msg;
  }
  return NULL;
}

/* The slice entry: whether the add-on is on is a property of the slice's shared block, so it is
   tested once per slice. */
static CAIRN_CM_FLATTEN void pbond_force_slice(const cairn_cm_slice *s_) {
  if (roll_on(s_->props + P_PB_ROLL)) {
    CAIRN_CM_SLICE_LOOP(s_, pbond_rolling)
  } else {
    CAIRN_CM_SLICE_LOOP(s_, pbond_force)
  }
}

const cairn_contact_model cairn_model_linearpbond = {
    .abi_version = CAIRN_CM_ABI_VERSION,
    .name = "linearpbond",
    .version = 2, /* 2: the rolling and twisting add-on's properties and state (zero in older
                     saves: off) */
    .doc = "linear model in parallel with a parallel bond carrying force and moment up to its "
           "tensile and shear strengths; optional rolling and twisting resistance once no bond "
           "is intact (rr_fric, tw_fric)",
    .props = pbond_props,
    .n_props = sizeof pbond_props / sizeof *pbond_props,
    .state = pbond_state,
    .n_state = sizeof pbond_state / sizeof *pbond_state,
    .needs = CAIRN_CM_USES_ANGVEL | CAIRN_CM_USES_RADII | CAIRN_CM_WRITES_MOMENT,
    .force = pbond_force_any,
    .force_slice = pbond_force_slice,
    .stiffness = pbond_stiffness,
    .validate = pbond_validate,
    .energy = pbond_energy,
};
