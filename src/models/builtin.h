/* The built-in contact models, each registered through the public ABI like any plugin. */
#ifndef CAIRN_MODELS_BUILTIN_H
#define CAIRN_MODELS_BUILTIN_H

#include "cairn/contact_model.h"

extern const cairn_contact_model cairn_model_null;
extern const cairn_contact_model cairn_model_linear;
extern const cairn_contact_model cairn_model_burger;
extern const cairn_contact_model cairn_model_viscous;
extern const cairn_contact_model cairn_model_ductile;
extern const cairn_contact_model cairn_model_softening;
extern const cairn_contact_model cairn_model_hysdamp;
extern const cairn_contact_model cairn_model_hertz;
extern const cairn_contact_model cairn_model_rrlinear;
extern const cairn_contact_model cairn_model_linearcbond;
extern const cairn_contact_model cairn_model_linearpbond;

#endif
