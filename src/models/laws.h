/* Small force laws shared by the built-in models, each a pure inline function with every input
   in its argument list. Built-in models include only this and the public ABI. */
#ifndef CAIRN_MODELS_LAWS_H
#define CAIRN_MODELS_LAWS_H

#include <math.h>

#include "cairn/contact_model.h"

/* Incremental shear spring: F_s -= k_s v_s dt, on the (s, t) components of a contact-plane
   vector (index 1 and 2). */
static inline void law_shear_increment(double fs[3], double ks, const double vel[3], double dt) {
  fs[1] -= ks * vel[1] * dt;
  fs[2] -= ks * vel[2] * dt;
}

/* Coulomb slider: cap |F_s| at fmax (>= 0). Returns 1 if the force was capped (sliding). */
static inline int law_coulomb_cap(double fs[3], double fmax) {
  double mag = sqrt(fs[1] * fs[1] + fs[2] * fs[2]);
  if (mag <= fmax) return 0;
  double r = mag > 0 ? fmax / mag : 0.0;
  fs[1] *= r;
  fs[2] *= r;
  return 1;
}

/* Viscous coefficient of a dashpot given as a fraction of critical damping: c = 2 beta sqrt(m k),
   with m the contact's reduced mass (seed 004). */
static inline double law_dashpot_coeff(double beta, double m_eff, double k) {
  return beta > 0 && k > 0 ? 2.0 * beta * sqrt(m_eff * k) : 0.0;
}

#endif
