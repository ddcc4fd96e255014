/* The linear law (springs, Coulomb slider, dashpots with the reduced mass) as inline functions,
   shared by the "linear" model and the models that extend it ("rrlinear", the bonded models),
   with its property and state slots, and the law with the rolling and twisting add-on
   (roll_law.h) that "linear" and "rrlinear" offer. Built-in models include this, laws.h and the
   public ABI only. */
#ifndef CAIRN_MODELS_LINEAR_LAW_H
#define CAIRN_MODELS_LINEAR_LAW_H

#include "cairn/contact_model.h"
#include "models/laws.h"
#include "models/roll_law.h"

enum { P_KN, P_KS, P_FRIC, P_DPN, P_DPS, P_DPMODE }; /* property slots */
/* State slots: lin_force and dp_force are contact-plane vectors, four slots each: [normal, x, y,
   z], the normal component first, then the in-plane part as a global vector. */
enum { S_FORCE = 0, S_SLIP = 4, S_DPFORCE = 5, S_DPXI = 9, S_EDASH = 10, S_ESLIP = 11 };

/* dp_mode bits, numbered as PFC's linear model does: 1 no tension in the total normal force,
   2 no shear dashpot while sliding. */
enum { DP_NO_TENSION = 1, DP_SLIP_SHEAR = 2 };

/* The linear model's property rows, in slot order (a model that extends linear starts its table
   with them). */
/* clang-format off */
#define LINEAR_PROP_ROWS \
  /* name        type            unit    def  min  max       access    doc */                     \
  {"kn",        CAIRN_PROP_FLT, "N/m",  0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW, "normal stiffness", NULL},  \
  {"ks",        CAIRN_PROP_FLT, "N/m",  0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW, "shear stiffness", NULL},   \
  {"fric",      CAIRN_PROP_FLT, "-",    0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,                             \
   "friction coefficient: |shear spring force| <= fric * normal spring force (dashpots excluded)",\
   NULL},                                                                                         \
  {"dp_nratio", CAIRN_PROP_FLT, "-",    0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,                             \
   "normal dashpot, fraction of critical damping (c = 2 ratio sqrt(m_eff kn))", NULL},            \
  {"dp_sratio", CAIRN_PROP_FLT, "-",    0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,                             \
   "shear dashpot, fraction of critical damping (c = 2 ratio sqrt(m_eff ks))", NULL},             \
  {"dp_mode",   CAIRN_PROP_INT, "-",    0.0, 0.0, 3.0,      CAIRN_RW,                             \
   "dashpot mode: 0 full, 1 no tension in the total normal force, 2 no shear dashpot while "      \
   "sliding, 3 both", NULL},
/* clang-format on */

/* The linear model's state rows, in slot order. */
#define LINEAR_STATE_ROWS                                                                          \
  {"lin_force", CAIRN_PROP_VEC, CAIRN_STATE_PLANE_XYZ, "N",                                        \
   "spring force (normal, s, t); normal > 0 in compression"},                                      \
      {"lin_slip", CAIRN_PROP_BOOL, 0, "-", "1 while the shear force is at the friction limit"},   \
      {"dp_force", CAIRN_PROP_VEC, CAIRN_STATE_PLANE_XYZ, "N", "dashpot force (normal, s, t)"},    \
      {"dp_xi", CAIRN_PROP_FLT, 0, "m",                                                            \
       "overlap at the end of the last step's normal dashpot interval (t + dt/2); 0 before the "   \
       "first active step and once the contact is predicted to open"},                             \
      {"lin_edash", CAIRN_PROP_FLT, 0, "J", "energy dissipated by the dashpots while tracked"},    \
      {"lin_eslip", CAIRN_PROP_FLT, 0, "J", "energy dissipated by frictional slip while tracked"},

/* Energy bookkeeping of one step (while tracked). Each force's work is the trapezoidal rule over
   the step's displacement d = vel dt (mean of the force of the last step and of this one), which
   summed over steps equals the work the force does on the balls, the cycle's kinetic energy being
   kept at half steps. Normal parts work over the normal displacement vn dt, in-plane parts (global
   vectors) over the shear displacement vs dt. The slip loss is the shear spring's work less the
   change of its stored energy (zero while it sticks); the dashpot loss is the dashpots' work. old
   and now are {spring normal, spring shear x, y, z, dashpot normal, dashpot shear x, y, z}, old
   the state at the start of the step, its in-plane parts already turned onto this step's plane. */
static inline void linear_losses(const double *p, double dt, double vn, const double vs[3],
                                 const double old[8], const double now[8], double *st) {
  double dn = vn * dt, ds[3] = {vs[0] * dt, vs[1] * dt, vs[2] * dt};
  double slip = 0, dash = 0;
  for (int k = 0; k < 3; k++) {
    slip -= 0.5 * (old[1 + k] + now[1 + k]) * ds[k];
    if (p[P_KS] > 0) slip -= (now[1 + k] * now[1 + k] - old[1 + k] * old[1 + k]) / (2.0 * p[P_KS]);
  }
  dash -= 0.5 * (old[4] + now[4]) * dn;
  for (int k = 0; k < 3; k++) dash -= 0.5 * (old[5 + k] + now[5 + k]) * ds[k];
  st[S_ESLIP] += slip;
  st[S_EDASH] += dash;
}

/* The state's forces as linear_losses takes them. */
static inline void linear_pack(const double *fl, const double *fd, double v[8]) {
  for (int k = 0; k < 4; k++) v[k] = fl[k], v[4 + k] = fd[k];
}

/* The linear law of one contact: properties p in linear's slot order, state st in linear's
   slot order (a model that extends linear keeps these first and its own after them). */
static inline void linear_law(const cairn_cm_input *in, const double *p, double *st,
                              cairn_cm_output *out) {
  /* fl, fd: [normal, in-plane x, y, z] (contact-plane vectors); vn > 0 when separating, vs the
     global shear velocity. */
  double *fl = st + S_FORCE, *fd = st + S_DPFORCE, old[8], vs[3];
  double vn = cairn_cm_split(in->vel_xyz, in->n, vs);
  if (in->gap >= 0) { /* open: no force, and the shear history is dropped (the loss sums stay) */
    if (in->energy) {
      const double none[8] = {0, 0, 0, 0, 0, 0, 0, 0};
      cairn_cm_turn(fl + 1, in->n);
      cairn_cm_turn(fd + 1, in->n);
      linear_pack(fl, fd, old);
      linear_losses(p, in->dt, vn, vs, old, none, st);
    }
    fl[0] = fl[1] = fl[2] = fl[3] = 0;
    fd[0] = fd[1] = fd[2] = fd[3] = 0;
    st[S_SLIP] = 0;
    st[S_DPXI] = 0;
    return;
  }
  /* The stored in-plane parts onto this step's contact plane, before the increments (the
     dashpot force's only for the energy books: it is formed anew below). */
  cairn_cm_turn(fl + 1, in->n);
  if (in->energy) {
    cairn_cm_turn(fd + 1, in->n);
    linear_pack(fl, fd, old);
  }
  out->active = 1;
  fl[0] = p[P_KN] * -in->gap;
  law_shear_increment(fl + 1, p[P_KS], vs, in->dt);
  int slip = law_coulomb_cap(fl + 1, p[P_FRIC] * fl[0]);
  if (slip != (int)st[S_SLIP]) {
    out->events |= CAIRN_EV_SLIP_CHANGE;
    out->slip_mode = slip ? 0 : 1;
  }
  st[S_SLIP] = slip;
  int mode = (int)p[P_DPMODE];
  double cn = law_dashpot_coeff(p[P_DPN], in->m_eff, p[P_KN]);
  double cs =
      slip && (mode & DP_SLIP_SHEAR) ? 0.0 : law_dashpot_coeff(p[P_DPS], in->m_eff, p[P_KS]);
  /* Without a normal dashpot the normal force is the spring's, bit for bit (fd[0] stays 0). */
  fd[0] = 0.0;
  if (cn > 0 && in->dt > 0)
    fd[0] = law_dashpot_normal_step(cn, in->m_eff, in->dt, -in->gap, -vn, fl[0],
                                    mode & DP_NO_TENSION, &st[S_DPXI]);
  else if (cn > 0) /* no step to resolve (dt = 0): the dashpot at the current velocity */
    fd[0] = -cn * vn;
  /* The shear dashpot uses the relative velocity of the previous half step (first order in dt,
     as in PFC); only the normal dashpot sets restitution and impact duration. */
  fd[1] = -cs * vs[0];
  fd[2] = -cs * vs[1];
  fd[3] = -cs * vs[2];
  if (in->energy) {
    double now[8];
    linear_pack(fl, fd, now);
    linear_losses(p, in->dt, vn, vs, old, now, st);
  }
  /* The global force: (F^l_n + F^d_n) n + F^l_sh + F^d_sh. */
  const double fs[3] = {fl[1] + fd[1], fl[2] + fd[2], fl[3] + fd[3]};
  law_add_force(out->force_xyz, fl[0] + fd[0], in->n, fs);
  out->kn_est = p[P_KN];
  out->ks_est = p[P_KS];
}

/* Stored: the springs' energy F^2 / 2k; lost: the sums kept in the state. */
static inline void linear_law_energy(const double *p, const double *st, double e[CAIRN_ENERGY_N]) {
  const double *fl = st + S_FORCE;
  if (p[P_KN] > 0) e[CAIRN_ENERGY_STRAIN] += fl[0] * fl[0] / (2.0 * p[P_KN]);
  if (p[P_KS] > 0)
    e[CAIRN_ENERGY_STRAIN] += (fl[1] * fl[1] + fl[2] * fl[2] + fl[3] * fl[3]) / (2.0 * p[P_KS]);
  e[CAIRN_ENERGY_DASHPOT] = st[S_EDASH];
  e[CAIRN_ENERGY_SLIP] = st[S_ESLIP];
}

/* Where the rolling and twisting add-on's property and state rows start in a model that extends
   linear with it ("linear", "rrlinear": linear's rows, then ROLL_PROP_ROWS, ROLL_STATE_ROWS). */
enum { P_ROLL = P_DPMODE + 1 };
enum { S_ROLL = S_ESLIP + 1 };

/* The linear law with the rolling and twisting add-on after it, and one slip event for all
   three sliders. 'roll_always': rrlinear's rolling part, which runs even with rr_fric = 0. */
static inline void linear_roll_law(const cairn_cm_input *in, const double *p, double *st,
                                   int roll_always, cairn_cm_output *out) {
  const int slipping = st[S_SLIP] != 0 || roll_slipping(st + S_ROLL);
  linear_law(in, p, st, out);
  roll_law(in, p + P_ROLL, st + S_ROLL, st[S_FORCE], p[P_KS], roll_always, out);
  roll_events(slipping, st[S_SLIP] != 0 || roll_slipping(st + S_ROLL), in, out);
}

#endif
