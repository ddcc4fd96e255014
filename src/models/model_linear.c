/* The "linear" model: linear normal and shear springs, the shear force carried incrementally as
   a global vector that the model turns onto the contact plane each step (cairn_cm_turn), a
   Coulomb slider on the spring shear force, and normal and shear dashpots given as fractions of
   critical damping with the reduced mass (seed 003 §4.4.1, seed 004 Eq. 6d; design.md). The normal
   dashpot is resolved inside the step, so restitution does not depend on where in a step a contact
   begins or ends (laws.h, law_dashpot_normal_step). Written against the public ABI only. */
#include "models/builtin.h"
#include "models/linear_law.h"

static const cairn_prop_desc linear_props[] = {LINEAR_PROP_ROWS};

static const cairn_state_desc linear_state[] = {LINEAR_STATE_ROWS};

static void linear_force(const cairn_cm_input *in, const double *p, const double *derived,
                         double *st, cairn_cm_output *out) {
  (void)derived;
  linear_law(in, p, st, out);
}

static void linear_energy(const double *p, const double *st, double e[CAIRN_ENERGY_N]) {
  linear_law_energy(p, st, e);
}

static void linear_stiffness(const double *p, double *k_tran, double *k_rot) {
  *k_tran = p[P_KN] + p[P_KS];
  *k_rot = 0;
}

/* The slice entry the engine calls: the law above, inlined into a loop over the slice. */
CAIRN_CM_SLICE(linear_force_slice, linear_force)

const cairn_contact_model cairn_model_linear = {
    .abi_version = CAIRN_CM_ABI_VERSION,
    .name = "linear",
    .version = 3, /* 2: dp_mode and the state field dp_xi; 3: lin_edash, lin_eslip */
    .doc = "linear springs, Coulomb friction, critical-ratio dashpots with the reduced mass",
    .props = linear_props,
    .n_props = sizeof linear_props / sizeof *linear_props,
    .state = linear_state,
    .n_state = sizeof linear_state / sizeof *linear_state,
    .force = linear_force,
    .force_slice = linear_force_slice,
    .stiffness = linear_stiffness,
    .energy = linear_energy,
};
