/* The "rrlinear" model: the linear model plus rolling resistance, PFC's rrlinear with PFC's
   property names. It is "linear" with the rolling and twisting add-on (roll_law.h: a rolling
   spring on the relative bending rotation, k_r = rr_kr (default k_s R*^2), capped at
   rr_fric R* F_n, F_n the linear spring's normal force; tw_fric and tw_kt add the twisting
   counterpart), except that its rolling part always runs, also with rr_fric = 0 (no moment then,
   and rr_slip set while the sides roll), as it always has. Written against the public ABI only. */
#include "models/builtin.h"
#include "models/linear_law.h"

static const cairn_prop_desc rrlinear_props[] = {LINEAR_PROP_ROWS ROLL_PROP_ROWS};

static const cairn_state_desc rrlinear_state[] = {LINEAR_STATE_ROWS ROLL_STATE_ROWS};

static void rrlinear_force(const cairn_cm_input *in, const double *p, const double *derived,
                           double *st, cairn_cm_output *out) {
  (void)derived;
  linear_roll_law(in, p, st, 1, out);
}

/* linear's energies, with the rolling (and twisting) springs' stored energy and slip loss. */
static void rrlinear_energy(const double *p, const double *st, double e[CAIRN_ENERGY_N]) {
  linear_law_energy(p, st, e);
  roll_energy(st + S_ROLL, 1, e);
}

/* From the properties alone: linear's translational stiffness, and rr_kr (tw_kt) when set (the
   default k_s R*^2 needs the radii; the engine adds k_s r^2 for the shear spring already). */
static void rrlinear_stiffness(const double *p, double *k_tran, double *k_rot) {
  *k_tran = p[P_KN] + p[P_KS];
  *k_rot = roll_stiffness(p + P_ROLL, 1);
}

CAIRN_CM_SLICE(rrlinear_force_slice, rrlinear_force)

const cairn_contact_model cairn_model_rrlinear = {
    .abi_version = CAIRN_CM_ABI_VERSION,
    .name = "rrlinear",
    .version = 1,
    .doc = "linear model with rolling resistance: incremental rolling spring capped at "
           "rr_fric R* F_n (and twisting resistance with tw_fric)",
    .props = rrlinear_props,
    .n_props = sizeof rrlinear_props / sizeof *rrlinear_props,
    .state = rrlinear_state,
    .n_state = sizeof rrlinear_state / sizeof *rrlinear_state,
    .needs = CAIRN_CM_USES_ANGVEL | CAIRN_CM_USES_RADII | CAIRN_CM_WRITES_MOMENT,
    .force = rrlinear_force,
    .force_slice = rrlinear_force_slice,
    .stiffness = rrlinear_stiffness,
    .energy = rrlinear_energy,
};
