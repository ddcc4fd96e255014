/* The "linearcbond" model: the linear model plus a contact bond (PFC's linearcbond). A contact
   whose surfaces touch at its first update is bonded (cb_bond = 1): its linear springs then carry
   tension as well as compression, its shear spring has no slider, the dashpots are off, and the
   contact is kept however far the balls part. The bond breaks, for good, in the step where the
   tension exceeds cb_tenf (state 2) or the shear force's magnitude exceeds cb_shearf (state 3),
   raising bond_break; that step and every later one are the linear model's. Rolling and twisting
   resistance (the add-on of roll_law.h, off while rr_fric and tw_fric are 0) act while the
   contact is not bonded: never bonded, or broken. Written against the public ABI only. */
#include <stdio.h>

#include "models/builtin.h"
#include "models/linear_law.h"

/* Property slots after linear's six. */
enum { P_TENF = P_DPMODE + 1, P_SHEARF, P_BOND, P_CB_ROLL };
/* State slots after linear's: the bond's, then the add-on's rows (roll_law.h). */
enum { S_CB_STATE = S_ESLIP + 1, S_CB_ROLL };
/* cb_state values. */
enum { CB_NONE = 0, CB_BONDED = 1, CB_BROKEN_TENSION = 2, CB_BROKEN_SHEAR = 3 };

static const cairn_prop_desc cbond_props[] = {
    LINEAR_PROP_ROWS
    /* clang-format off */
  {"cb_tenf",   CAIRN_PROP_FLT,  "N", 0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "contact bond tensile strength (a force): the bond breaks when the tension exceeds it", NULL},
  {"cb_shearf", CAIRN_PROP_FLT,  "N", 0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "contact bond shear strength (a force): the bond breaks when |shear force| exceeds it", NULL},
  {"cb_bond",   CAIRN_PROP_BOOL, "-", 1.0, 0.0, 1.0,      CAIRN_RW,
   "1: a contact whose surfaces touch at its first update is bonded; 0: no bond", NULL},
  ROLL_PROP_ROWS
    /* clang-format on */
};

static const cairn_state_desc cbond_state[] = {
    LINEAR_STATE_ROWS{"cb_state", CAIRN_PROP_INT, 0, "-",
                      "bond state: 0 never bonded, 1 bonded, 2 broken in tension, 3 broken in "
                      "shear"},
    ROLL_STATE_ROWS};

static void cbond_force(const cairn_cm_input *in, const double *p, const double *derived,
                        double *st, cairn_cm_output *out) {
  (void)derived;
  /* The shear spring of a bond forms at zero in the configuration of its forming update, which
     adds no increment: its relative velocity is the motion that brought the balls there, before
     the bond existed (the normal spring follows the overlap and needs no such care). */
  double h = in->dt;
  if (st[S_CB_STATE] == CB_NONE && in->first && p[P_BOND] != 0 && in->gap <= 0)
    st[S_CB_STATE] = CB_BONDED, h = 0.0;
  if (st[S_CB_STATE] == CB_BONDED) {
    double *fl = st + S_FORCE, vs[3];
    cairn_cm_split(in->vel_xyz, in->n, vs);
    cairn_cm_turn(fl + 1, in->n);
    const double fn = p[P_KN] * -in->gap; /* tension when the surfaces are apart */
    double fs[3] = {fl[1], fl[2], fl[3]};
    law_shear_increment(fs, p[P_KS], vs, h);
    int broken = 0;
    if (-fn > p[P_TENF])
      broken = CB_BROKEN_TENSION;
    else if (fs[0] * fs[0] + fs[1] * fs[1] + fs[2] * fs[2] > p[P_SHEARF] * p[P_SHEARF])
      broken = CB_BROKEN_SHEAR;
    if (!broken) {
      fl[0] = fn, fl[1] = fs[0], fl[2] = fs[1], fl[3] = fs[2];
      for (int k = 0; k < 4; k++) st[S_DPFORCE + k] = 0.0; /* no dashpots while bonded */
      st[S_DPXI] = 0.0;
      out->active = 1;
      out->may_delete = 0;
      law_add_force(out->force_xyz, fn, in->n, fs);
      out->kn_est = p[P_KN];
      out->ks_est = p[P_KS];
      return;
    }
    /* Broken: this step is the linear model's, from the state before it (the shear force turned
       onto this step's plane, without this step's increment, which the linear law adds). The
       normal spring's stored energy is released if the surfaces are apart: booked as a loss. */
    st[S_CB_STATE] = broken;
    out->events |= CAIRN_EV_BOND_BREAK;
    out->bond_mode = 0;
    if (in->energy && in->gap >= 0 && p[P_KN] > 0) st[S_ESLIP] += fl[0] * fl[0] / (2.0 * p[P_KN]);
  }
  linear_law(in, p, st, out);
}

/* The law with the rolling and twisting add-on, which acts while the contact is not bonded, with
   one slip event for the linear part's and its sliders. */
static void cbond_rolling(const cairn_cm_input *in, const double *p, const double *derived,
                          double *st, cairn_cm_output *out) {
  const int slipping = st[S_SLIP] != 0 || roll_slipping(st + S_CB_ROLL);
  cbond_force(in, p, derived, st, out);
  if (st[S_CB_STATE] == CB_BONDED) return;
  roll_law(in, p + P_CB_ROLL, st + S_CB_ROLL, st[S_FORCE], p[P_KS], 0, out);
  roll_events(slipping, st[S_SLIP] != 0 || roll_slipping(st + S_CB_ROLL), in, out);
}

static void cbond_force_any(const cairn_cm_input *in, const double *p, const double *derived,
                            double *st, cairn_cm_output *out) {
  if (roll_on(p + P_CB_ROLL))
    cbond_rolling(in, p, derived, st, out);
  else
    cbond_force(in, p, derived, st, out);
}

static void cbond_energy(const double *p, const double *st, double e[CAIRN_ENERGY_N]) {
  linear_law_energy(p, st, e);
  roll_energy(st + S_CB_ROLL, 0, e);
}

static void cbond_stiffness(const double *p, double *k_tran, double *k_rot) {
  *k_tran = p[P_KN] + p[P_KS];
  *k_rot = roll_stiffness(p + P_CB_ROLL, 0);
}

/* The slice entry: whether the add-on is on is a property of the slice's shared block, so it is
   tested once per slice. (GCC, inlining the linear law twice here, no longer sees that its energy
   books are read only where they were written, both under in->energy: a false warning.) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
static CAIRN_CM_FLATTEN void cbond_force_slice(const cairn_cm_slice *s_) {
  if (roll_on(s_->props + P_CB_ROLL)) {
    CAIRN_CM_SLICE_LOOP(s_, cbond_rolling)
  } else {
    CAIRN_CM_SLICE_LOOP(s_, cbond_force)
  }
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

const cairn_contact_model cairn_model_linearcbond = {
    .abi_version = CAIRN_CM_ABI_VERSION,
    .name = "linearcbond",
    .version = 2, /* 2: the rolling and twisting add-on's properties and state (zero in older
                     saves: off) */
    .doc = "linear model with a contact bond: tension and shear carried up to cb_tenf and "
           "cb_shearf, then linear; optional rolling and twisting resistance once not bonded "
           "(rr_fric, tw_fric)",
    .props = cbond_props,
    .n_props = sizeof cbond_props / sizeof *cbond_props,
    .state = cbond_state,
    .n_state = sizeof cbond_state / sizeof *cbond_state,
    .needs = CAIRN_CM_USES_ANGVEL | CAIRN_CM_USES_RADII | CAIRN_CM_WRITES_MOMENT,
    .force = cbond_force_any,
    .force_slice = cbond_force_slice,
    .stiffness = cbond_stiffness,
    .energy = cbond_energy,
};
