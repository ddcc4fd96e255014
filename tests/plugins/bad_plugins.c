/* Deliberately broken contact-model plugins for the loader tests. Each is compiled into its own
   shared library with one of the BAD_* macros defined (see CMakeLists.txt). The valid models here
   ("good", "first_ok", "checked") give only the per-contact 'force' and no 'force_slice', which
   ABI 4 allows: the engine then calls 'force' contact by contact. */
#include <math.h>
#include <stdio.h>

#include <cairn/contact_model.h>

static void f(const cairn_cm_input *in, const double *p, const double *derived, double *st,
              cairn_cm_output *out) {
  (void)in, (void)p, (void)derived, (void)st, (void)out;
}
static void k(const double *p, double *kt, double *kr) {
  (void)p;
  *kt = *kr = 0;
}

#if defined(BAD_REPEATED_PROP)
static const cairn_prop_desc props[] = {
    {"bad_k", CAIRN_PROP_FLT, "N/m", 0, 0, INFINITY, CAIRN_RW, "k", NULL},
    {"bad_k", CAIRN_PROP_FLT, "N/m", 0, 0, INFINITY, CAIRN_RW, "k again", NULL},
};
#elif defined(BAD_EMPTY_RANGE)
static const cairn_prop_desc props[] = {
    {"bad_k", CAIRN_PROP_FLT, "N/m", 0, 1, 0, CAIRN_RW, "k with range [1, 0]", NULL},
};
#else
static const cairn_prop_desc props[] = {
    {"good_k", CAIRN_PROP_FLT, "N/m", 0, 0, INFINITY, CAIRN_RW, "k", NULL},
};
#endif

static const cairn_contact_model model = {
#if defined(BAD_ABI) || defined(BAD_TWO_MODELS)
    .abi_version = CAIRN_CM_ABI_VERSION + 1, /* built for an ABI this cairn is not */
#else
    .abi_version = CAIRN_CM_ABI_VERSION,
#endif
#if defined(BAD_TAKEN_NAME)
    .name = "linear",
#elif defined(BAD_REPEATED_PROP) || defined(BAD_EMPTY_RANGE)
    .name = "bad",
#else
    .name = "good",
#endif
    .version = 1,
    .doc = "test model",
    .props = props,
    .n_props = sizeof props / sizeof *props,
    .force = f,
    .stiffness = k,
};

/* A second, valid model registered first, to check that a failure registers nothing. */
static const cairn_contact_model first = {
    .abi_version = CAIRN_CM_ABI_VERSION,
    .name = "first_ok",
    .version = 1,
    .force = f,
    .stiffness = k,
};

#if defined(WITH_VALIDATE)
static const cairn_contact_model checked;
#endif

#if !defined(BAD_NO_ENTRY)
CAIRN_PLUGIN_EXPORT int cairn_plugin_register(int abi, void *reg, cairn_cm_add_fn add) {
  (void)abi;
#if defined(WITH_VALIDATE)
  (void)model, (void)first;
  return add(reg, &checked) == 0 ? 1 : -1;
#endif
#if defined(BAD_TWO_MODELS)
  if (add(reg, &first) != 0) return -1;
#else
  (void)first;
#endif
  return add(reg, &model) == 0 ? 1 : -1;
}
#else
CAIRN_PLUGIN_EXPORT int some_other_function(void) {
  return (int)(sizeof first + sizeof model);
}
#endif

#if defined(WITH_VALIDATE)
/* A valid model whose validation hook refuses a zero stiffness. */
static const cairn_prop_desc chk_props[] = {
    {"chk_kn", CAIRN_PROP_FLT, "N/m", 0, 0, INFINITY, CAIRN_RW, "k", NULL},
};
static const char *chk_validate(const double *p, int dim, char *msg, size_t n) {
  (void)dim;
  if (p[0] > 0) return NULL;
  snprintf(msg, n, "chk_kn is 0, which gives no contact force; set chk_kn > 0");
  return msg;
}
static const cairn_contact_model checked = {
    .abi_version = CAIRN_CM_ABI_VERSION,
    .name = "checked",
    .version = 1,
    .props = chk_props,
    .n_props = 1,
    .force = f,
    .stiffness = k,
    .validate = chk_validate,
};
#endif
