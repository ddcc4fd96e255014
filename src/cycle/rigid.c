/* The motion of clumps (world/clump.h) over one step, after the balls' own motion.

   Translation is the balls' scheme: the centre of mass's velocity at half steps, kicked by the
   summed force of the pebbles (and gravity) and then drifted. Rotation in 3D keeps the angular
   momentum L (global) at half steps: the summed moment kicks it, L += T dt, then the body turns
   over dt as a free rigid body with that L, by the splitting of Dullweber, Leimkuhler and
   McLachlan (J. Chem. Phys. 107, 1997): the free motion is split into turns about the three
   principal axes, each solved exactly (a turn of the orientation and the opposite turn of the
   body-frame momentum), in the symmetric sequence 1 (dt/2), 2 (dt/2), 3 (dt), 2 (dt/2),
   1 (dt/2). Each part is exact, so the whole is symplectic and time-reversible, of second order,
   and keeps L of a free body to round-off (each part turns the body-frame momentum and the body
   by opposite turns). A body whose three principal moments are equal turns at a constant
   angular velocity, spin += T / I dt, exactly as a ball does; in 2D the angle about z does the
   same. Local damping acts on the body's force and moment components, as on a ball's. */
#include <string.h>

#include "contact/energy.h"
#include "cycle/cycle.h"
#include "cycle/rigid.h"

/* PFC's local damping (cycle.c): reduce each component by alpha |f| against the velocity. */
static inline double damped(double f, double v, double alpha) {
  if (alpha == 0 || v == 0) return f;
  return f - alpha * fabs(f) * (v > 0 ? 1.0 : -1.0);
}

/* The free turn about principal axis k over time h: the body turns by phi = pi_k / I_k h about
   its axis k, and the body-frame momentum pi by -phi about it (d pi / dt = pi x omega). */
static void free_turn(double q[4], double pb[3], const double I[3], int k, double h) {
  double half = 0.5 * pb[k] / I[k] * h;
  double ch = cos(half), sh = sin(half); /* (the whole angle's from the half's: two calls) */
  double c = 1 - 2 * sh * sh, s = 2 * sh * ch;
  int i = (k + 1) % 3, j = (k + 2) % 3;
  double pi = pb[i], pj = pb[j];
  pb[i] = c * pi + s * pj;
  pb[j] = -s * pi + c * pj;
  double r[4] = {ch, 0, 0, 0};
  r[1 + k] = sh;
  quat_mul(q, r, q);
}

/* Turn clump c over dt with its angular momentum (3D, principal moments not all equal), and set
   its angular velocity from the result. */
static void turn_free(clump_store *cs, uint32_t c, double dt) {
  double m[3][3], pb[3];
  const double *I = cs->inertia[c];
  quat_matrix(cs->q[c], m);
  for (int i = 0; i < 3; i++)
    pb[i] = m[0][i] * cs->amom[c][0] + m[1][i] * cs->amom[c][1] + m[2][i] * cs->amom[c][2];
  free_turn(cs->q[c], pb, I, 0, 0.5 * dt);
  free_turn(cs->q[c], pb, I, 1, 0.5 * dt);
  free_turn(cs->q[c], pb, I, 2, dt);
  free_turn(cs->q[c], pb, I, 1, 0.5 * dt);
  free_turn(cs->q[c], pb, I, 0, 0.5 * dt);
  quat_normalise(cs->q[c]);
  quat_matrix(cs->q[c], m);
  double wb[3] = {pb[0] / I[0], pb[1] / I[1], pb[2] / I[2]};
  for (int i = 0; i < 3; i++) cs->spin[c][i] = m[i][0] * wb[0] + m[i][1] * wb[1] + m[i][2] * wb[2];
}

/* Turn orientation q at the constant angular velocity om (global) over dt; whether it turned. */
static int turn_at(double q[4], const double om[3], double dt) {
  if (om[0] == 0 && om[1] == 0 && om[2] == 0) return 0;
  double th[3], r[4];
  v3_scale(om, dt, th);
  quat_from_rotvec(th, r);
  quat_mul(r, q, q);
  quat_normalise(q);
  return 1;
}

/* Sum the forces and moments of clump c's pebbles about its centre of mass into its force and
   moment, in the order of its pebbles (the same on any number of threads). */
static void sum_pebbles(cairn_world *w, uint32_t c) {
  clump_store *cs = &w->clumps;
  const ball_store *b = &w->balls;
  uint32_t p0 = cs->first[c], p1 = p0 + cs->count[c];
  double f[3] = {0, 0, 0}, t[3] = {0, 0, 0};
  for (uint32_t p = p0; p < p1; p++) {
    uint32_t s = cs->peb_slot[p];
    double r[3], rf[3], tp[3];
    v3_sub(b->pos[s], cs->pos[c], r);
    v3_cross(r, b->force[s], rf);
    v3_add(b->moment[s], rf, tp);
    if (p == p0) { /* (the first as it is: a one-pebble clump sums exactly as a ball) */
      v3_copy(b->force[s], f);
      v3_copy(tp, t);
    } else {
      v3_add(f, b->force[s], f);
      v3_add(t, tp, t);
    }
  }
  v3_copy(f, cs->force[c]);
  v3_copy(t, cs->moment[c]);
}

/* Clump c's step (rigid_step): its energy terms into e[0] (gravity's work) and e[1] (damping's
   loss) when tracked, its fastest pebble's squared speed into *fast; returns whether it moved
   too far (the ball's runaway test, on that pebble). */
static int step_clump(cairn_world *w, uint32_t c, double dt, double dtk, int track, double e[2],
                      double *fast_out) {
  clump_store *cs = &w->clumps;
  ball_store *b = &w->balls;
  int dim = w->dim;
  double eg = 0, ed = 0;
  sum_pebbles(w, c);
  double M = cs->mass[c], a = cs->damp[c], *v = cs->vel[c], *om = cs->spin[c];
  unsigned fix = cs->fix[c];
  for (int k = 0; k < dim; k++) {
    if (fix & (1u << k)) continue;
    double f0 = cs->force[c][k] + M * w->gravity[k], v0 = v[k];
    double f = damped(f0, v0, a);
    v[k] += f / M * dtk;
    if (track) {
      eg += M * w->gravity[k] * 0.5 * (v0 + v[k]) * dtk;
      ed -= (f - f0) * 0.5 * (v0 + v[k]) * dtk;
    }
  }
  double m_old[3][3];
  quat_matrix(cs->q[c], m_old);
  const double *I = cs->inertia[c];
  int turned = 0;
  if (!(fix & FIX_SPIN)) {
    double td[3] = {0, 0, 0};
    for (int k = dim == 2 ? 2 : 0; k < 3; k++) td[k] = damped(cs->moment[c][k], om[k], a);
    if (dim == 2 || (I[0] == I[1] && I[1] == I[2])) { /* a ball's scheme */
      for (int k = dim == 2 ? 2 : 0; k < 3; k++) {
        double s0 = om[k];
        om[k] += td[k] / I[k] * dtk;
        cs->amom[c][k] = I[k] * om[k];
        if (track) ed -= (td[k] - cs->moment[c][k]) * 0.5 * (s0 + om[k]) * dtk;
      }
      turned = turn_at(cs->q[c], om, dt);
    } else {
      double s0[3];
      v3_copy(om, s0);
      for (int k = 0; k < 3; k++) cs->amom[c][k] += td[k] * dtk;
      turn_free(cs, c, dt);
      turned = 1;
      /* the loss to damping with the mid-step spin, as a ball's */
      if (track)
        for (int k = 0; k < 3; k++) ed -= (td[k] - cs->moment[c][k]) * 0.5 * (s0[k] + om[k]) * dtk;
    }
  } else if (om[0] != 0 || om[1] != 0 || om[2] != 0) {
    /* a fixed spin is held: the body turns at it (its angular momentum follows the turn) */
    turned = turn_at(cs->q[c], om, dt);
    clump_amom_of_spin(cs, c, om, cs->amom[c]);
  }
  double dx[3] = {0, 0, 0};
  for (int k = 0; k < dim; k++) dx[k] = v[k] * dt, cs->pos[c][k] += dx[k];
  /* the pebbles: where the body holds them; a pebble's displacement since the last rebuild
     grows by the body's dx and the turn of its arm */
  double m[3][3];
  if (turned)
    quat_matrix(cs->q[c], m);
  else
    memcpy(m, m_old, sizeof m);
  double fast = 0, rmin = INFINITY, stiff = 0;
  for (uint32_t p = cs->first[c]; p < cs->first[c] + cs->count[c]; p++) {
    uint32_t s = cs->peb_slot[p];
    const double *o = cs->peb_off[p];
    double r0[3], r[3], u[3];
    for (int i = 0; i < 3; i++) {
      r0[i] = m_old[i][0] * o[0] + m_old[i][1] * o[1] + m_old[i][2] * o[2];
      r[i] = m[i][0] * o[0] + m[i][1] * o[1] + m[i][2] * o[2];
    }
    if (dim == 2) r0[2] = r[2] = 0;
    for (int k = 0; k < dim; k++) {
      b->pos[s][k] = cs->pos[c][k] + r[k];
      b->disp[s][k] += dx[k] + (r[k] - r0[k]);
    }
    v3_cross(om, r, u);
    for (int k = 0; k < dim; k++) b->vel[s][k] = v[k] + u[k];
    v3_copy(om, b->spin[s]);
    double v2 = v3_dot(b->vel[s], b->vel[s]);
    if (v2 > fast) fast = v2;
    if (b->rad[s] < rmin) rmin = b->rad[s];
    stiff += b->k_tran[s];
  }
  e[0] = eg, e[1] = ed;
  *fast_out = fast;
  return !(fast * dt * dt <= rmin * rmin) && (stiff > 0 || !isfinite(fast));
}

/* Clump c's step (step_clump), its energy kept while tracked, the earliest runaway (*bad) and
   the top speed (*top) raised. */
static inline void clump_at(cairn_world *w, long c, double dt, double dtk, int track, long *bad,
                            double *top) {
  clump_store *cs = &w->clumps;
  double e[2], fast;
  if (step_clump(w, (uint32_t)c, dt, dtk, track, e, &fast) && c < *bad) *bad = c;
  if (fast > *top) *top = fast;
  if (track) cs->ework[c][0] = e[0], cs->ework[c][1] = e[1];
}

cairn_status rigid_step(cairn_world *w, double dt, double dtk, double *v2max, cairn_diag *d) {
  clump_store *cs = &w->clumps;
  if (!cs->n) return CAIRN_OK;
  CAIRN_TRY(clump_slots(w, d));
  int track = w->energy->on;
  if (track)
    CAIRN_TRY(
        mem_grow((void **)&cs->ework, &cs->cap_ework, cs->n, sizeof *cs->ework, "clump:energy", d));
  long n = (long)cs->n, bad = n;
  double top = 0;
  /* each clump moves only itself and its own pebbles: the clumps in parallel, the same bits */
  if (n >= 512) { /* (a loop on one thread enters no parallel region: PARALLEL_WORTH) */
#pragma omp parallel for reduction(min : bad) reduction(max : top)
    for (long c = 0; c < n; c++) clump_at(w, c, dt, dtk, track, &bad, &top);
  } else {
    for (long c = 0; c < n; c++) clump_at(w, c, dt, dtk, track, &bad, &top);
  }
  if (v2max && top > *v2max) *v2max = top;
  if (track) /* in the clumps' order: the same sum on any number of threads */
    for (long c = 0; c < n; c++)
      w->energy->gravity += cs->ework[c][0], w->energy->damping += cs->ework[c][1];
  if (bad < n) {
    uint32_t c = (uint32_t)bad;
    double rmin = INFINITY, fast = 0;
    for (uint32_t p = cs->first[c]; p < cs->first[c] + cs->count[c]; p++) {
      uint32_t s = cs->peb_slot[p];
      rmin = fmin(rmin, w->balls.rad[s]);
      fast = fmax(fast, v3_dot(w->balls.vel[s], w->balls.vel[s]));
    }
    return diag_set(d, CAIRN_ESTATE,
                    "clump %lld moved %g in one step (step %llu), more than its smallest "
                    "pebble's radius %g: the run is unstable (a timestep too large for the "
                    "contacts' stiffness, or forces far beyond the model's range); lower the "
                    "timestep or use model.timestep{auto = true}",
                    (long long)cs->id[c], sqrt(fast) * dt, (unsigned long long)w->step, rmin);
  }
  return CAIRN_OK;
}

void rigid_timestep(const cairn_world *w, double *dt) {
  const clump_store *cs = &w->clumps;
  const ball_store *b = &w->balls;
  if (!cs->n || clump_slots((cairn_world *)w, NULL) != CAIRN_OK) return;
  for (uint32_t c = 0; c < cs->n; c++) {
    if ((cs->fix[c] & FIX_VEL) == FIX_VEL && (cs->fix[c] & FIX_SPIN)) continue;
    double kt = 0, kr = 0;
    for (uint32_t p = cs->first[c]; p < cs->first[c] + cs->count[c]; p++) {
      uint32_t s = cs->peb_slot[p];
      double r[3];
      v3_sub(b->pos[s], cs->pos[c], r);
      kt += b->k_tran[s];
      kr += b->k_rot[s] + b->k_tran[s] * v3_dot(r, r); /* a pebble's push acts at its arm */
    }
    const double *I = cs->inertia[c];
    double least = w->dim == 2 ? I[2] : fmin(I[0], fmin(I[1], I[2]));
    if (kt > 0 && sqrt(cs->mass[c] / kt) < *dt) *dt = sqrt(cs->mass[c] / kt);
    if (kr > 0 && sqrt(least / kr) < *dt) *dt = sqrt(least / kr);
  }
}

double rigid_kinetic(const cairn_world *w) {
  const clump_store *cs = &w->clumps;
  double e = 0;
  for (uint32_t c = 0; c < cs->n; c++) {
    e += 0.5 * cs->mass[c] * v3_dot(cs->vel[c], cs->vel[c]);
    e += 0.5 * v3_dot(cs->spin[c], cs->amom[c]);
  }
  return e;
}
