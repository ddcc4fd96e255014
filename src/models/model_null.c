/* The "null" model: contacts are detected and reported but transmit no force. It is what new
   contacts get until a script assigns a model (as PFC's null model). */
#include "models/builtin.h"

static void null_force(const cairn_cm_input *in, const double *props, const double *derived,
                       double *state, cairn_cm_output *out) {
  (void)in, (void)props, (void)derived, (void)state, (void)out;
}

static void null_stiffness(const double *props, double *k_tran, double *k_rot) {
  (void)props;
  *k_tran = 0;
  *k_rot = 0;
}

/* The slice entry the engine calls: the law above, inlined into a loop over the slice. */
CAIRN_CM_SLICE(null_force_slice, null_force)

const cairn_contact_model cairn_model_null = {
    .abi_version = CAIRN_CM_ABI_VERSION,
    .name = "null",
    .version = 1,
    .doc = "no force: contacts are detected and reported only",
    .force = null_force,
    .force_slice = null_force_slice,
    .stiffness = null_stiffness,
};
