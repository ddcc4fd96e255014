/* Small force laws shared by the built-in models, each a pure inline function with every input
   in its argument list. Built-in models include only this and the public ABI. */
#ifndef CAIRN_MODELS_LAWS_H
#define CAIRN_MODELS_LAWS_H

#include <math.h>

#include "cairn/contact_model.h"
#include "cairn/simd.h"

/* Incremental shear spring: F_s -= k_s v_s dt, with F_s the in-plane part of a contact-plane
   vector (global, three components) and v_s the shear part of the relative velocity (global). */
static inline void law_shear_increment(double fs[3], double ks, const double vs[3], double dt) {
  fs[0] -= ks * vs[0] * dt;
  fs[1] -= ks * vs[1] * dt;
  fs[2] -= ks * vs[2] * dt;
}

/* Coulomb slider: cap |F_s| (a global in-plane vector) at fmax (>= 0). Returns 1 if the force was
   capped (sliding). */
static inline int law_coulomb_cap(double fs[3], double fmax) {
  double mag2 = fs[0] * fs[0] + fs[1] * fs[1] + fs[2] * fs[2];
  /* Clearly below the limit (the usual case): no square root. Near it, the exact test below. */
  if (fmax > 0 && mag2 < fmax * fmax * (1.0 - 1e-12)) return 0;
  double mag = sqrt(mag2);
  if (mag <= fmax) return 0;
  double r = mag > 0 ? fmax / mag : 0.0;
  fs[0] *= r;
  fs[1] *= r;
  fs[2] *= r;
  return 1;
}

/* The global force of a normal component fn (> 0 in compression) and an in-plane part fs:
   fn n + fs, added to f. */
static inline void law_add_force(double f[3], double fn, const double n[3], const double fs[3]) {
  f[0] += fn * n[0] + fs[0];
  f[1] += fn * n[1] + fs[1];
  f[2] += fn * n[2] + fs[2];
}

/* Viscous coefficient of a dashpot given as a fraction of critical damping: c = 2 beta sqrt(m k),
   with m the contact's reduced mass (seed 004). */
static inline double law_dashpot_coeff(double beta, double m_eff, double k) {
  return beta > 0 && k > 0 ? 2.0 * beta * sqrt(m_eff * k) : 0.0;
}

/* Normal dashpot of one step, resolved inside the step (docs/models/linear-dashpot.md).
   The engine applies a contact force F for one step as the impulse F dt over the interval
   [t - dt/2, t + dt/2]. The dashpot's exact impulse over an interval is c times the change of
   overlap across it (c d(overlap)/dt integrated), so this returns the dashpot force
   c (xi_b - xi_a) / dt, where xi_a is the overlap at the start of the interval and xi_b the
   overlap predicted at its end:
   - xi_a: '*xi' as the previous step left it (its xi_b), or 0 on the first active step: the
     contact began inside the step before, and the interval starts at first touch;
   - xi_b = overlap + u1 dt/2, with u1 = u - (f_spring + f_dash) dt / m the relative approach
     speed of the next half step, solved with this force (implicit, centred); or 0 if that
     speed opens the contact before the next step: the interval then ends where the overlap
     returns to zero, inside the step, and the tension of the last instants is applied here.
   Because each interval starts where the last one ended, the dashpot impulses of a contact
   sum to c (0 - 0) = 0 over its life, as for the continuous law, whatever the onset phase.
   A dashpot only dissipates: on its own it never reverses the relative normal speed in a step
   (|f_dash| dt <= m |u| towards stopping), which keeps very stiff dashpots (beta dt >~ 0.5)
   from reflecting the contact instead of damping it. With 'no_tension' the total normal force
   f_spring + f_dash is kept >= 0 (seed 004's law allows tension; PFC's dp_mode 1 does not).
   in:  c dashpot coefficient (> 0); m effective mass (> 0); dt timestep (> 0); overlap (> 0);
        u relative approach speed at t - dt/2 (-v_n); f_spring the normal spring force.
   in/out: *xi, the overlap at t + dt/2 carried to the next step (0: start afresh).
   returns: the normal dashpot force, > 0 in compression. */
static inline double law_dashpot_normal_step(double c, double m, double dt, double overlap,
                                             double u, double f_spring, int no_tension,
                                             double *xi) {
  /* (three divisions: the reciprocals of dt and m, and the implicit solve's 1 + r) */
  const double xa = *xi, idt = 1.0 / dt, dt_m = dt / m, r = 0.5 * c * dt_m, stop = m * u * idt;
  /* Centred (implicit) force: F = f_spring + c (xi_b - xa) / dt with xi_b from F itself. */
  double fd = (c * ((overlap - xa) * idt + 0.5 * u) - f_spring * r) / (1.0 + r);
  if (u >= 0 ? fd > stop : fd < stop) fd = stop;
  double u1 = u - (f_spring + fd) * dt_m;
  int opens = overlap + u1 * dt <= 0;
  if (opens) { /* the interval ends at zero overlap, inside this step */
    fd = -c * xa * idt;
    if (u >= 0 ? fd > stop : fd < stop) fd = stop;
  }
  if (no_tension && f_spring + fd < 0) fd = -f_spring;
  u1 = u - (f_spring + fd) * dt_m;
  *xi = opens ? 0.0 : overlap + 0.5 * u1 * dt;
  return fd;
}

/* Normal dashpot of one step whose coefficient grows with the overlap as c = c0 overlap^q (the
   hertz model's dashpot of the tangent stiffness: q = (alpha - 1) / 2), resolved inside the step
   as law_dashpot_normal_step does for a constant c: over the interval [t - dt/2, t + dt/2] the
   dashpot's exact impulse is the change of Phi(xi) = c0 xi^(q+1) / (q+1) across it, so the force
   is (Phi(xi_b) - Phi(xi_a)) / dt, with xi_a the overlap at the start of the interval ('*xi',
   0 on the first active step: the contact began inside the step before) and xi_b the overlap
   predicted at its end, xi_b = overlap + u1 dt/2 with u1 = u - (f_spring + f_dash) dt / m. The
   implicit equation is solved with Phi linearised about the explicit prediction
   overlap + u dt/2 (its error is of order dt^4 in the force); if u1 opens the contact before the
   next step the interval ends at zero overlap. The impulses telescope: a contact's dashpot
   impulses sum to Phi(0) - Phi(0) = 0 over its life whatever the onset phase, and the onset,
   where c rises as overlap^q from zero, is integrated exactly rather than sampled. Like
   law_dashpot_normal_step it never reverses the relative normal speed in a step and, with
   'no_tension', keeps f_spring + f_dash >= 0.
   in:  c0 (> 0), q (> -1/2), m effective mass (> 0), dt (> 0), overlap (> 0), u approach speed at
        t - dt/2 (-v_n), f_spring the normal spring force.
   in/out: *xi, the overlap at t + dt/2 carried to the next step (0: start afresh).
   returns: the normal dashpot force, > 0 in compression. */
static inline double law_dashpot_power_step(double c0, double q, double m, double dt,
                                            double overlap, double u, double f_spring,
                                            int no_tension, double *xi) {
  /* (two divisions, 1/m and 1/dt, and the implicit solve's; Hertz's q = 1/4 has 1/p = 0.8) */
  const double im = 1.0 / m, idt = 1.0 / dt, h = 0.5 * dt * dt * im, stop = m * u * idt;
  const double ip = q == 0.25 ? 0.8 : 1.0 / (q + 1.0);
  const double xa = *xi;
  /* Phi and its slope at the explicit prediction x0 (Phi's slope is c(x) = c0 x^q); at zero
     overlap Phi is 0 and the slope is taken as 0 (for q < 0, an exponent alpha < 1, c itself is
     infinite there) */
  double x0 = overlap + 0.5 * u * dt;
  if (x0 < 0) x0 = 0;
  double xq0 = x0 > 0 ? (q == 0.25 ? sqrt(sqrt(x0)) : pow(x0, q)) : 0.0;
  double xqa = xa > 0 ? (q == 0.25 ? sqrt(sqrt(xa)) : pow(xa, q)) : 0.0;
  double phi0 = c0 * x0 * xq0 * ip, phia = c0 * xa * xqa * ip, slope = c0 * xq0;
  /* fd = (phi0 - slope (f_spring + fd) h - phia) / dt, solved for fd */
  double fd = (phi0 - phia - slope * f_spring * h) * idt / (1.0 + slope * h * idt);
  if (u >= 0 ? fd > stop : fd < stop) fd = stop;
  double u1 = u - (f_spring + fd) * dt * im;
  int opens = overlap + u1 * dt <= 0;
  if (opens) { /* the interval ends at zero overlap, inside this step */
    fd = -phia * idt;
    if (u >= 0 ? fd > stop : fd < stop) fd = stop;
  }
  if (no_tension && f_spring + fd < 0) fd = -f_spring;
  u1 = u - (f_spring + fd) * dt * im;
  *xi = opens ? 0.0 : overlap + 0.5 * u1 * dt;
  if (*xi < 0) *xi = 0.0;
  return fd;
}

/* The same laws for a loop that gcc vectorises (model_linear.c, model_hertz.c): no branches,
   each branch a select between both outcomes computed by the same operations in the same order,
   so each gives its counterpart's bits. Always inlined into the loop. */
#if defined(__GNUC__)
#define LAW_LANE static inline __attribute__((always_inline))
#else
#define LAW_LANE static inline
#endif

/* cairn_cm_turn of the in-plane vector a onto the plane of n, into t. */
LAW_LANE void law_turn_lane(const double a[3], double n0, double n1, double n2, double t[3]) {
  const double tn = a[0] * n0 + a[1] * n1 + a[2] * n2;
  const double t0 = a[0] - tn * n0, t1 = a[1] - tn * n1, t2 = a[2] - tn * n2;
  const double now2 = t0 * t0 + t1 * t1 + t2 * t2;
  const double x = tn * tn / now2;
  const double r = x < 1e-4 ? 1.0 + x * (0.5 - x * (0.125 - 0.0625 * x)) : sqrt(1.0 + x);
  const int keep = tn == 0, vanish = !(now2 > 0);
  t[0] = keep ? a[0] : vanish ? 0.0 : t0 * r;
  t[1] = keep ? a[1] : vanish ? 0.0 : t1 * r;
  t[2] = keep ? a[2] : vanish ? 0.0 : t2 * r;
}

/* law_coulomb_cap: returns 1 if fs was capped. */
LAW_LANE int law_coulomb_cap_lane(double fs[3], double fmax) {
  const double mag2 = fs[0] * fs[0] + fs[1] * fs[1] + fs[2] * fs[2];
  const int below = (fmax > 0) & (mag2 < fmax * fmax * (1.0 - 1e-12));
  const double mag = sqrt(mag2);
  const int slip = !(below | (mag <= fmax));
  const double q = fmax / mag, r = mag > 0 ? q : 0.0;
  fs[0] = slip ? fs[0] * r : fs[0];
  fs[1] = slip ? fs[1] * r : fs[1];
  fs[2] = slip ? fs[2] * r : fs[2];
  return slip;
}

/* The status byte's value (cairn_cm_status) of a contact that is open, or active with slip state
   slip now and 'was' before: a change of slip is an event, with slip_mode 1 when it ended. */
LAW_LANE double law_status_lane(int open, double slip, double was) {
  const double ev = slip - was;
  return open ? 0.0
              : CAIRN_CM_ST_ACTIVE + (ev != 0 ? (double)CAIRN_CM_ST_EV_SLIP : 0.0) +
                    (ev < 0 ? (double)CAIRN_CM_ST_SLIP_END : 0.0);
}

/* The state of a spring and dashpot law (linear's and hertz's first ten slots: the spring force
   and the dashpot force as contact-plane vectors [normal, x, y, z], the slip flag and the
   dashpot's xi) as columns for a vectorised loop over a slice, with each contact's status value.
   law_cols_in and law_cols_out copy a contact's block in and out (the slots given by the model);
   law_cols_lane stores a contact's results, or zeros for an open contact. */
typedef struct law_cols {
  double fl[4][CAIRN_CM_SLICE_MAX], fd[4][CAIRN_CM_SLICE_MAX];
  double slip[CAIRN_CM_SLICE_MAX], xi[CAIRN_CM_SLICE_MAX];
  double status[CAIRN_CM_SLICE_MAX]; /* the status byte's value */
} law_cols;
typedef struct law_slots {
  int force, slip, dpforce, dpxi;
} law_slots;

static inline void law_cols_in(law_cols *c, size_t k, const double *st, law_slots o) {
  for (int j = 0; j < 4; j++) c->fl[j][k] = st[o.force + j];
  c->xi[k] = st[o.dpxi];
  c->slip[k] = (int)st[o.slip]; /* as the laws compare it */
}

static inline void law_cols_out(const law_cols *c, size_t k, double *st, law_slots o) {
  for (int j = 0; j < 4; j++) st[o.force + j] = c->fl[j][k], st[o.dpforce + j] = c->fd[j][k];
  st[o.slip] = c->slip[k], st[o.dpxi] = c->xi[k];
}

#if CAIRN_SIMD_AVX2
/* law_cols_in and law_cols_out for contacts 0 .. n - 1, the four-double blocks (the spring and
   the dashpot forces) four contacts at a time, the rest one by one. */
CAIRN_TARGET_AVX2 static inline void law_cols_in_avx2(law_cols *c, size_t n, double *const *state,
                                                      law_slots o) {
  size_t k = 0;
  for (; k + 4 <= n; k += 4) {
    __m256d col[4];
    cairn_transpose4(_mm256_loadu_pd(state[k] + o.force), _mm256_loadu_pd(state[k + 1] + o.force),
                     _mm256_loadu_pd(state[k + 2] + o.force),
                     _mm256_loadu_pd(state[k + 3] + o.force), col);
    for (int j = 0; j < 4; j++) _mm256_storeu_pd(&c->fl[j][k], col[j]);
    for (size_t i = k; i < k + 4; i++) {
      c->xi[i] = state[i][o.dpxi];
      c->slip[i] = (int)state[i][o.slip]; /* as the laws compare it */
    }
  }
  for (; k < n; k++) law_cols_in(c, k, state[k], o);
}

CAIRN_TARGET_AVX2 static inline void law_cols_out_avx2(const law_cols *c, size_t n,
                                                       double *const *state, law_slots o) {
  size_t k = 0;
  for (; k + 4 <= n; k += 4) {
    __m256d row[4];
    cairn_transpose4(_mm256_loadu_pd(&c->fl[0][k]), _mm256_loadu_pd(&c->fl[1][k]),
                     _mm256_loadu_pd(&c->fl[2][k]), _mm256_loadu_pd(&c->fl[3][k]), row);
    for (int i = 0; i < 4; i++) _mm256_storeu_pd(state[k + i] + o.force, row[i]);
    cairn_transpose4(_mm256_loadu_pd(&c->fd[0][k]), _mm256_loadu_pd(&c->fd[1][k]),
                     _mm256_loadu_pd(&c->fd[2][k]), _mm256_loadu_pd(&c->fd[3][k]), row);
    for (int i = 0; i < 4; i++) _mm256_storeu_pd(state[k + i] + o.dpforce, row[i]);
    for (size_t i = k; i < k + 4; i++) state[i][o.slip] = c->slip[i], state[i][o.dpxi] = c->xi[i];
  }
  for (; k < n; k++) law_cols_out(c, k, state[k], o);
}
#endif

/* law_cols_in and law_cols_out for contacts 0 .. n - 1, with AVX2 where the CPU has it. */
static inline void law_cols_in_all(law_cols *c, size_t n, double *const *state, law_slots o) {
#if CAIRN_SIMD_AVX2
  if (cairn_cpu_avx2()) {
    law_cols_in_avx2(c, n, state, o);
    return;
  }
#endif
  for (size_t k = 0; k < n; k++) law_cols_in(c, k, state[k], o);
}
static inline void law_cols_out_all(const law_cols *c, size_t n, double *const *state,
                                    law_slots o) {
#if CAIRN_SIMD_AVX2
  if (cairn_cpu_avx2()) {
    law_cols_out_avx2(c, n, state, o);
    return;
  }
#endif
  for (size_t k = 0; k < n; k++) law_cols_out(c, k, state[k], o);
}

/* fl: the spring force [normal, in-plane x, y, z]; fd: the dashpot's; slip 0 or 1. */
LAW_LANE void law_cols_lane(law_cols *c, size_t k, int open, const double fl[4], double slip,
                            const double fd[4], double xi) {
  c->status[k] = law_status_lane(open, slip, c->slip[k]);
  for (int j = 0; j < 4; j++) {
    c->fl[j][k] = open ? 0.0 : fl[j];
    c->fd[j][k] = open ? 0.0 : fd[j];
  }
  c->slip[k] = open ? 0.0 : slip;
  c->xi[k] = open ? 0.0 : xi;
}

#endif
