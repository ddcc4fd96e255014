/* Contact models that end the run from inside their force function, for the tests that such an
   end is reported as one message naming the plugin, the model and the function, with exit status
   3 (tests/plugins/crash.cmake): 'crasher' writes through a null pointer, 'overflower' recurses
   without bound (a stack overflow), 'asserter' fails an assert and 'exiter' calls exit(0). They
   have no other use. */
#undef NDEBUG /* the assert must fire in a Release build too, as in a plugin author's debug build  \
               */
#include <assert.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>

#include <cairn/contact_model.h>

static void crash_force(const cairn_cm_input *in, const double *p, const double *derived,
                        double *st, cairn_cm_output *out) {
  (void)in, (void)p, (void)derived, (void)st, (void)out;
  volatile int *nowhere = NULL;
  *nowhere = 1;
}

/* A bound the compiler cannot see through, so the recursion is neither folded into a loop nor
   warned about as infinite: the stack overflows long before depth reaches it. */
static volatile long depth_limit = LONG_MAX;

static long recurse(volatile char *up, long depth) {
  volatile char frame[512];
  frame[0] = (char)depth;
  if (up) frame[1] = up[0];
  if (depth >= depth_limit) return frame[0];
  return recurse(frame, depth + 1) + frame[1]; /* not a tail call: each level keeps its frame */
}

static void overflow_force(const cairn_cm_input *in, const double *p, const double *derived,
                           double *st, cairn_cm_output *out) {
  (void)in, (void)p, (void)derived, (void)st, (void)out;
  out->force_xyz[0] = (double)recurse(NULL, 0);
}

static void assert_force(const cairn_cm_input *in, const double *p, const double *derived,
                         double *st, cairn_cm_output *out) {
  (void)in, (void)p, (void)derived, (void)st, (void)out;
  assert(in->gap > 1e300 && "the asserter's force law always fails its assert");
}

static void exit_force(const cairn_cm_input *in, const double *p, const double *derived, double *st,
                       cairn_cm_output *out) {
  (void)in, (void)p, (void)derived, (void)st, (void)out;
  exit(0);
}

static void crash_k(const double *p, double *kt, double *kr) {
  (void)p;
  *kt = 1e6, *kr = 0;
}

#define CRASH_MODEL(NAME, FORCE, DOC)                                                              \
  {                                                                                                \
    .abi_version = CAIRN_CM_ABI_VERSION, .name = NAME, .version = 1, .doc = DOC, .force = FORCE,   \
    .stiffness = crash_k,                                                                          \
  }
static const cairn_contact_model models[] = {
    CRASH_MODEL("crasher", crash_force, "a model whose force law writes through a null pointer"),
    CRASH_MODEL("overflower", overflow_force, "a model whose force law recurses without bound"),
    CRASH_MODEL("asserter", assert_force, "a model whose force law fails an assert"),
    CRASH_MODEL("exiter", exit_force, "a model whose force law calls exit(0)"),
};

CAIRN_PLUGIN_EXPORT int cairn_plugin_register(int abi, void *reg, cairn_cm_add_fn add) {
  (void)abi;
  for (size_t i = 0; i < sizeof models / sizeof *models; i++)
    if (add(reg, &models[i]) != 0) return -1;
  return 1;
}
