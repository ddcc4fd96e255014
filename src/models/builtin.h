/* The built-in contact models, each registered through the public ABI like any plugin. This is
   the one list of them: the assembler registers them in this order (src/model/model.c), the
   conformance test checks every one (tests/models/test_batch.c), and `cairn models` lists what
   the registry holds. A new built-in model is one file in src/models/ and one entry here. */
#ifndef CAIRN_MODELS_BUILTIN_H
#define CAIRN_MODELS_BUILTIN_H

#include <stddef.h>

#include "cairn/contact_model.h"

/* X(name): the model's table is cairn_model_<name>, and it registers as "<name>". */
// clang-format off
#define CAIRN_BUILTIN_MODELS(X) \
  X(null) X(linear) X(burger) X(viscous) X(ductile) X(softening) X(hysdamp) X(hertz) \
  X(rrlinear) X(linearcbond) X(linearpbond) X(flatjoint) X(smoothjoint)
// clang-format on

#define CAIRN_BUILTIN_DECLARE(name) extern const cairn_contact_model cairn_model_##name;
CAIRN_BUILTIN_MODELS(CAIRN_BUILTIN_DECLARE)
#undef CAIRN_BUILTIN_DECLARE

/* Every built-in model, in the list's order (builtin.c). */
extern const cairn_contact_model *const cairn_builtin_models[];
extern const size_t cairn_builtin_count;

#endif
