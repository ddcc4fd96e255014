/* Rolling and twisting resistance as an add-on to any normal law ("linear", "hertz", and
   "rrlinear", which is linear with the rolling part always on): two spring-sliders between the
   two sides' rotations, one implementation that every law offering them calls after its own
   force law, with its property rows (rr_fric, rr_kr, tw_fric, tw_kt) and state rows.
   - Rolling: the relative bending rotation (the relative angular velocity less its twist about
     the normal, times dt) loads a moment M_r incrementally, k_r = rr_kr (default k_s R*^2),
     capped at rr_fric R* F_n. It is a contact-plane vector, turned onto each step's plane.
   - Twisting: the relative twist about the normal loads a moment M_t n, k_t = tw_kt (default
     k_s R*^2), capped at tw_fric R* F_n (the same form as the rolling limit, so that one
     coefficient means the same for every normal law; docs/contact-models.md says why).
   F_n is the law's normal spring force (dashpots excluded, as for the shear slider), k_s its
   shear stiffness of this step, R* the effective radius. The moments act on side 2 and their
   opposite on side 1 (CAIRN_CM_WRITES_MOMENT). Each part is off while its friction coefficient is
   0 (the default), so a law with the add-on unused gives the results it gave without it.
   Built-in models include this, laws.h and the public ABI only. */
#ifndef CAIRN_MODELS_ROLL_LAW_H
#define CAIRN_MODELS_ROLL_LAW_H

#include "cairn/contact_model.h"
#include "models/laws.h"

/* Property slots, from the add-on's first row. */
enum { RP_RFRIC, RP_KR, RP_TFRIC, RP_KT, ROLL_N_PROPS };
/* State slots, from the add-on's first row: rr_moment is a contact-plane vector, four slots
   [normal (unused, 0), x, y, z]; tw_moment the signed twisting moment about the normal. */
enum {
  RS_MOMENT = 0,
  RS_SLIP = 4,
  RS_KR = 5,
  RS_ESLIP = 6,
  TS_MOMENT = 7,
  TS_SLIP = 8,
  TS_KT = 9,
  TS_ESLIP = 10,
  ROLL_N_STATE = 11
};

/* The add-on's property rows, in slot order. */
/* clang-format off */
#define ROLL_PROP_ROWS \
  {"rr_fric",   CAIRN_PROP_FLT, "-",     0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,                     \
   "rolling friction coefficient: |rolling moment| <= rr_fric * R* * normal spring force", NULL}, \
  {"rr_kr",     CAIRN_PROP_FLT, "N*m/rad", 0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,                   \
   "rolling stiffness; 0: ks R*^2, R* = r1 r2 / (r1 + r2), or the ball's radius on a wall", NULL}, \
  {"tw_fric",   CAIRN_PROP_FLT, "-",     0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,                     \
   "twisting friction coefficient: |twisting moment| <= tw_fric * R* * normal spring force "      \
   "(0: no twisting resistance)", NULL},                                                          \
  {"tw_kt",     CAIRN_PROP_FLT, "N*m/rad", 0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,                   \
   "twisting stiffness; 0: ks R*^2", NULL},
/* clang-format on */

/* The add-on's state rows, in slot order. */
#define ROLL_STATE_ROWS                                                                            \
  {"rr_moment", CAIRN_PROP_VEC, CAIRN_STATE_PLANE_XYZ, "N*m",                                      \
   "rolling resistance moment on side 2 (normal, s, t); the normal part is 0"},                    \
      {"rr_slip", CAIRN_PROP_BOOL, 0, "-", "1 while the rolling moment is at its limit"},          \
      {"rr_krc", CAIRN_PROP_FLT, 0, "N*m/rad", "rolling stiffness in use (rr_kr, or ks R*^2)"},    \
      {"rr_eslip", CAIRN_PROP_FLT, 0, "J",                                                         \
       "energy dissipated by rolling slip while tracked (the rolling spring's work less the "      \
       "change of its stored energy)"},                                                            \
      {"tw_moment", CAIRN_PROP_FLT, 0, "N*m",                                                      \
       "twisting resistance moment on side 2 about the normal (along +n)"},                        \
      {"tw_slip", CAIRN_PROP_BOOL, 0, "-", "1 while the twisting moment is at its limit"},         \
      {"tw_ktc", CAIRN_PROP_FLT, 0, "N*m/rad", "twisting stiffness in use (tw_kt, or ks R*^2)"},   \
      {"tw_eslip", CAIRN_PROP_FLT, 0, "J",                                                         \
       "energy dissipated by twisting slip while tracked (the twisting spring's work less the "    \
       "change of its stored energy)"},

/* Whether the add-on does anything with properties p (from its first row): the cheap test a
   law makes once per slice, so that a law with the add-on unused runs its own code alone. */
static inline int roll_on(const double *p) {
  return p[RP_RFRIC] > 0 || p[RP_TFRIC] > 0;
}

/* Whether one of the add-on's sliders is at its limit (state st from its first row). */
static inline int roll_slipping(const double *st) {
  return st[RS_SLIP] != 0 || st[TS_SLIP] != 0;
}

/* Stored energy of a rolling moment m on a spring of stiffness kr. */
static inline double roll_stored(const double m[3], double kr) {
  return kr > 0 ? (m[0] * m[0] + m[1] * m[1] + m[2] * m[2]) / (2.0 * kr) : 0.0;
}

/* The rolling and twisting spring-sliders of one contact for one step, after the normal law has
   run: p the add-on's properties, st its state, fn the law's normal spring force of this step
   (> 0 in compression), ks its shear stiffness of this step. 'roll_always' runs the rolling part
   even with rr_fric = 0 (rrlinear, whose rolling slider then holds no moment and reports slip
   whenever the sides roll, as it always has); otherwise each part runs only while its friction
   coefficient is > 0, and leaves its state as it is while off. Adds the moments to
   out->moment_xyz and the rotational stiffness to out->kr_est. */
static inline void roll_law(const cairn_cm_input *in, const double *p, double *st, double fn,
                            double ks, int roll_always, cairn_cm_output *out) {
  double wb[3]; /* the relative bending angular velocity; wt its twist about the normal */
  const double wt = cairn_cm_split(in->angvel_xyz, in->n, wb);
  const int open = in->gap >= 0, twist = p[RP_TFRIC] > 0;
  const double r = in->r_eff;
  if (roll_always || p[RP_RFRIC] > 0) {
    double *mr = st + RS_MOMENT + 1; /* the moment, a global vector in the contact plane */
    cairn_cm_turn(mr, in->n);
    double old[3] = {mr[0], mr[1], mr[2]}, kr_old = st[RS_KR];
    if (open) { /* no moment; the rolling history is dropped (the loss sum stays) */
      if (in->energy) {
        double work = 0;
        for (int k = 0; k < 3; k++) work -= 0.5 * old[k] * wb[k] * in->dt;
        st[RS_ESLIP] += work + roll_stored(old, kr_old);
      }
      mr[0] = mr[1] = mr[2] = 0.0;
      st[RS_SLIP] = 0.0;
    } else {
      const double kr = p[RP_KR] > 0 ? p[RP_KR] : ks * r * r;
      for (int k = 0; k < 3; k++) mr[k] -= kr * wb[k] * in->dt;
      st[RS_SLIP] = law_coulomb_cap(mr, p[RP_RFRIC] * r * fn);
      st[RS_KR] = kr;
      if (in->energy) { /* the spring's work over the step, less the change of its stored energy */
        double work = 0;
        for (int k = 0; k < 3; k++) work -= 0.5 * (old[k] + mr[k]) * wb[k] * in->dt;
        st[RS_ESLIP] += work - (roll_stored(mr, kr) - roll_stored(old, kr_old));
      }
      out->moment_xyz[0] = mr[0], out->moment_xyz[1] = mr[1], out->moment_xyz[2] = mr[2];
      out->kr_est = kr;
    }
  }
  if (twist) { /* the same spring-slider about the normal, on a scalar moment */
    double mt = st[TS_MOMENT], kt_old = st[TS_KT];
    double e_old = kt_old > 0 ? mt * mt / (2.0 * kt_old) : 0.0;
    if (open) {
      if (in->energy) st[TS_ESLIP] += -0.5 * mt * wt * in->dt + e_old;
      st[TS_MOMENT] = st[TS_SLIP] = 0.0;
    } else {
      const double kt = p[RP_KT] > 0 ? p[RP_KT] : ks * r * r, mmax = p[RP_TFRIC] * r * fn;
      double now = mt - kt * wt * in->dt;
      int slip = 0;
      if (!(fabs(now) <= mmax)) now = now > 0 ? mmax : -mmax, slip = 1;
      if (in->energy)
        st[TS_ESLIP] +=
            -0.5 * (mt + now) * wt * in->dt - ((kt > 0 ? now * now / (2.0 * kt) : 0.0) - e_old);
      st[TS_MOMENT] = now, st[TS_SLIP] = slip, st[TS_KT] = kt;
      for (int k = 0; k < 3; k++) out->moment_xyz[k] += now * in->n[k];
      out->kr_est += kt;
    }
  }
}

/* The slip event of a law with the add-on: the contact slips while any of its sliders (the
   law's shear slider, the rolling or the twisting one) is at its limit; 'was' and 'now' say
   whether one was before the step and is after it. Replaces the law's own event. */
static inline void roll_events(int was, int now, const cairn_cm_input *in, cairn_cm_output *out) {
  out->events &= ~CAIRN_EV_SLIP_CHANGE;
  out->slip_mode = 0;
  if (now != was && in->gap < 0) {
    out->events |= CAIRN_EV_SLIP_CHANGE;
    out->slip_mode = now ? 0 : 1;
  }
}

/* The add-on's energies: the springs' stored energy and the slip losses. 'always' adds even zero
   terms (rrlinear's books, bit for bit); otherwise only what the add-on holds. */
static inline void roll_energy(const double *st, int always, double e[CAIRN_ENERGY_N]) {
  double stored = roll_stored(st + RS_MOMENT + 1, st[RS_KR]);
  if (always || stored != 0) e[CAIRN_ENERGY_STRAIN] += stored;
  if (always || st[RS_ESLIP] != 0) e[CAIRN_ENERGY_SLIP] += st[RS_ESLIP];
  if (st[TS_KT] > 0 && st[TS_MOMENT] != 0)
    e[CAIRN_ENERGY_STRAIN] += st[TS_MOMENT] * st[TS_MOMENT] / (2.0 * st[TS_KT]);
  if (st[TS_ESLIP] != 0) e[CAIRN_ENERGY_SLIP] += st[TS_ESLIP];
}

/* Rotational stiffness from the properties alone: rr_kr and tw_kt where their parts are on
   ('roll_always': the rolling one always), 0 for a default that needs the radii. */
static inline double roll_stiffness(const double *p, int roll_always) {
  double k = roll_always || p[RP_RFRIC] > 0 ? p[RP_KR] : 0.0;
  if (p[RP_TFRIC] > 0) k += p[RP_KT];
  return k;
}

#endif
