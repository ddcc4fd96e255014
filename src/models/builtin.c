/* The built-in models as an array, from the one list in builtin.h. */
#include "models/builtin.h"

#define ADDRESS(name) &cairn_model_##name,
const cairn_contact_model *const cairn_builtin_models[] = {CAIRN_BUILTIN_MODELS(ADDRESS)};
#undef ADDRESS
const size_t cairn_builtin_count = sizeof cairn_builtin_models / sizeof *cairn_builtin_models;
