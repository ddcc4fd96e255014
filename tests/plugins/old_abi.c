/* Source written for an older contact-model ABI, one construct at a time (OLD_* below), for the
   test that each fails to compile against this header with a message naming the porting guide
   (old_abi.cmake); never built into a plugin. A name whose meaning changed must not compile into
   a model that runs wrong: ABI 3 read and wrote vel, angvel, force and moment in contact-plane
   components (n, s, t), and its CAIRN_STATE_PLANE_VEC took three slots; ABI 4 source passes the
   same names on as global vectors. Also compiled as C++ (the file is C++ as well as C). */
#include <cairn/contact_model.h>

#if defined(OLD_STATE_FLAG) /* an ABI 3 or 4 state table */
static const cairn_state_desc state[] = {
    {"old_shear", CAIRN_PROP_VEC, CAIRN_STATE_PLANE_VEC, "N", "shear force (n, s, t)"},
};
const cairn_state_desc *old_state(void) {
  return state;
}
#endif

void old_force(const cairn_cm_input *in, const double *p, const double *derived, double *st,
               cairn_cm_output *out) {
  (void)in, (void)p, (void)derived, (void)st, (void)out;
#if defined(OLD_VEL) /* ABI 3: the normal relative velocity is component 0 */
  st[0] -= p[0] * in->vel[0] * in->dt;
#elif defined(OLD_ANGVEL) /* ABI 3: the twist is component 0 */
  st[0] = in->angvel[0];
#elif defined(OLD_FORCE)  /* ABI 3: the normal force is component 0, > 0 in compression */
  out->force[0] = p[0] * -in->gap;
#elif defined(OLD_FORCE_ADD)
  for (int k = 0; k < 3; k++) out->force[k] += st[k];
#elif defined(OLD_MOMENT)
  out->moment[0] = st[0];
#elif defined(OLD_VEL_PASSED)   /* ABI 4: the global relative velocity passed on */
  double vs[3];
  st[0] = cairn_cm_split(in->vel, in->n, vs);
#elif defined(OLD_FORCE_PASSED) /* ABI 4: a helper that adds to the global force */
  cairn_cm_turn(out->force, in->n);
#endif
}
