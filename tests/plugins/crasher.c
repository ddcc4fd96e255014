/* A contact model whose force function crashes (a write through a null pointer), for the test
   that a fault inside a plugin ends the run with one message naming the plugin, the model and
   the function (tests/plugins/crash.cmake). It has no other use. */
#include <stddef.h>

#include <cairn/contact_model.h>

static void crash_force(const cairn_cm_input *in, const double *p, const double *derived,
                        double *st, cairn_cm_output *out) {
  (void)in, (void)p, (void)derived, (void)st, (void)out;
  volatile int *nowhere = NULL;
  *nowhere = 1;
}
static void crash_k(const double *p, double *kt, double *kr) {
  (void)p;
  *kt = 1e6, *kr = 0;
}

static const cairn_contact_model model = {
    .abi_version = CAIRN_CM_ABI_VERSION,
    .name = "crasher",
    .version = 1,
    .doc = "a model that crashes in its force function (a test of crash reports)",
    .force = crash_force,
    .stiffness = crash_k,
};

CAIRN_PLUGIN_EXPORT int cairn_plugin_register(int abi, void *reg, cairn_cm_add_fn add) {
  (void)abi;
  return add(reg, &model) == 0 ? 1 : -1;
}
