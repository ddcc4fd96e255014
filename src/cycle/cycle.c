/* One cycle: detect -> contact forces -> motion (design.md, Numerics). Velocities live at half
   steps: v(t+dt/2) = v(t-dt/2) + (F/m + g) dt, x(t+dt) = x(t) + v(t+dt/2) dt, and the same for
   spin with the moment of inertia. Contact forces are computed from x(t) and v(t-dt/2). */
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "cairn/simd.h"
#include "contact/contact.h"
#include "contact/energy.h"
#include "contact/events.h"
#include "contact/model_call.h"
#include "core/comm.h"
#include "cycle/cycle.h"
#include "cycle/rigid.h"
#include "cycle/forces.h"
#include "cycle/motion_avx2.h"
#include "detect/detect.h"
#include "measure/measure.h"
#include "par/par.h"

int cycle_threads(int n) {
#ifdef _OPENMP
  if (n > 0) omp_set_num_threads(n);
  return omp_get_max_threads();
#else
  (void)n;
  return 1;
#endif
}

/* PFC's local damping: each component of the force is reduced by alpha |F_k| in the direction
   opposing the velocity component. */
static inline double damped(double f, double v, double alpha) {
  if (alpha == 0 || v == 0) return f;
  return f - alpha * fabs(f) * (v > 0 ? 1.0 : -1.0);
}

/* Energy of one ball's step, while tracking: the work of gravity and the loss to local damping,
   both with the step's mid-step velocity (v0 + v1) / 2: the velocity goes from v0 to v1 over the
   step, and that midpoint makes the kinetic energy at half steps change by exactly the total
   force's work (m g v1 dt, gravity's work over the step's displacement, would leave a drift of
   m g^2 dt^2 / 2 a step in free flight). */
static inline void step_energy(double *eg, double *ed, double m, double g, double f, double fd,
                               double v0, double v1, double dt) {
  *eg += m * g * 0.5 * (v0 + v1) * dt;
  *ed -= (fd - f) * 0.5 * (v0 + v1) * dt;
}

#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

/* One ball's step of motion; with energy tracking, its gravity work and damping loss go to
   eg and ed. Always inlined, so that the call for the common ball (3D, free, undamped, not
   tracked) is compiled with those constants and loses its branches. The ball's state is
   worked on in locals and stored once: the compiler cannot tell the arrays apart, and would
   reload everything after each store. */
static ALWAYS_INLINE double advance_ball(ball_store *b, long i, int dim, unsigned fix, double a,
                                         int track, const double g[3], double dt, double dtk,
                                         double *eg, double *ed, const double *vref) {
  double m = b->mass[i], I = b->inertia[i], v[3], s[3];
  v3_copy(b->vel[i], v);
  v3_copy(b->spin[i], s);
  for (int k = 0; k < dim; k++) {
    if (fix & (1u << k)) continue;
    double f0 = b->force[i][k] + m * g[k], v0 = v[k];
    /* in a deforming periodic cell, damping opposes the motion relative to the cell's flow */
    double f = damped(f0, vref ? v0 - vref[k] : v0, a);
    v[k] += f / m * dtk;
    if (track) step_energy(eg, ed, m, g[k], f0, f, v0, v[k], dtk);
  }
  if (!(fix & FIX_SPIN)) {
    for (int k = dim == 2 ? 2 : 0; k < 3; k++) {
      double m0 = b->moment[i][k], s0 = s[k];
      double mo = damped(m0, s0, a);
      s[k] += mo / I * dtk;
      if (track) step_energy(eg, ed, 0.0, 0.0, m0, mo, s0, s[k], dtk);
    }
  }
  v3_copy(v, b->vel[i]);
  v3_copy(s, b->spin[i]);
  for (int k = 0; k < dim; k++) {
    double dx = v[k] * dt;
    b->pos[i][k] += dx;
    b->disp[i][k] += dx;
  }
  /* |v|^2, for the runaway check; made not finite (0 x inf or NaN) by a spin that is not, or by a
     force or moment that is not on a fixed ball (the force pass does not test each contact's),
     and otherwise exactly |v|^2 (+ 0) */
  double bad = s[0] + s[1] + s[2];
  if (fix)
    bad += b->force[i][0] + b->force[i][1] + b->force[i][2] + b->moment[i][0] + b->moment[i][1] +
           b->moment[i][2];
  return v3_dot(v, v) + 0.0 * bad;
}

/* After ball i's step, with v2 its |v|^2 as advance_ball returns it: the top speed raised (the
   automatic timestep's look-ahead, if v2max) and whether it moved too far. A ball pushed by its
   contacts (stiffness this step) more than its radius in one step, or to a non-finite velocity:
   the run is blowing up (the test fails on NaN). A ball in free flight may move as far as it
   likes. */
static ALWAYS_INLINE int moved_too_far(const ball_store *b, long i, double v2, double dt,
                                       double floor2, double *v2max) {
  if (v2max && v2 > *v2max) *v2max = v2;
  return !(v2 * dt * dt <= floor2) && !(v2 * dt * dt <= b->rad[i] * b->rad[i]) &&
         (b->k_tran[i] > 0 || !isfinite(v2));
}

/* Ball i's step (advance_ball with the right constants); returns whether it moved too far. In a
   deforming periodic cell ('flow'), damping works on the velocity relative to the cell's flow. */
static ALWAYS_INLINE int move_ball(cairn_world *w, long i, int dim, int track, const double g[3],
                                   double dt, double dtk, double floor2, int flow, double *v2max) {
  ball_store *b = &w->balls;
  double eg = 0, ed = 0, a = b->damp[i];
  unsigned fix = b->fix[i];
  double v2;
  if (fix & FIX_CLUMP) { /* a pebble: its clump moves it (rigid.c) */
    if (track) w->fs->ework[i][0] = w->fs->ework[i][1] = 0;
    return 0;
  }
  if (dim == 3 && !fix && a == 0 && !track)
    v2 = advance_ball(b, i, 3, 0, 0.0, 0, g, dt, dtk, &eg, &ed, NULL);
  else if (!flow || a == 0)
    v2 = advance_ball(b, i, dim, fix, a, track, g, dt, dtk, &eg, &ed, NULL);
  else {
    double r[3], vref[3];
    v3_sub(b->pos[i], w->cell.centre, r);
    periodic_flow(&w->cell, r, vref);
    v2 = advance_ball(b, i, dim, fix, a, track, g, dt, dtk, &eg, &ed, vref);
  }
  if (track) w->fs->ework[i][0] = eg, w->fs->ework[i][1] = ed;
  return moved_too_far(b, i, v2, dt, floor2, v2max);
}

/* Balls i0 .. i0 + 3 when all four are free and undamped (3D, no energy tracking, no deforming
   cell): their motion four at a time (motion_avx2.c, the same bits as advance_ball), then each
   one's test as move_ball makes it. Returns the first that moved too far, or -1. */
static ALWAYS_INLINE long move_four(cairn_world *w, long i0, const double g[3], double dt,
                                    double dtk, double floor2, double *v2max) {
  ball_store *b = &w->balls;
  motion4_avx2(b, (size_t)i0, g, dt, dtk);
  long bad = -1;
  for (long i = i0 + 3; i >= i0; i--) {
    const double *v = b->vel[i], *s = b->spin[i];
    if (moved_too_far(b, i, v3_dot(v, v) + 0.0 * (s[0] + s[1] + s[2]), dt, floor2, v2max)) bad = i;
  }
  return bad;
}

/* Whether balls i0 .. i0 + 3 take move_four: none fixed, none damped. */
static inline int four_plain(const ball_store *b, long i0) {
  uint32_t fix;
  memcpy(&fix, &b->fix[i0], sizeof fix);
  return !fix && b->damp[i0] == 0 && b->damp[i0 + 1] == 0 && b->damp[i0 + 2] == 0 &&
         b->damp[i0 + 3] == 0;
}

/* A pebble that left the domain takes its whole clump with it: its other pebbles are marked
   too (*more: how many), the clump's kinetic energy is booked as removed, and its id goes to
   *gone (n_gone of them; the caller frees it) to remove the clump after its pebbles. (Slots are
   current: motion just moved the clumps.) */
static cairn_status clumps_leaving(cairn_world *w, size_t *more, int64_t **gone, size_t *n_gone,
                                   cairn_diag *d) {
  clump_store *cs = &w->clumps;
  size_t cap = 0;
  *more = 0, *gone = NULL, *n_gone = 0;
  for (uint32_t c = 0; c < cs->n; c++) {
    int out = 0;
    for (uint32_t p = cs->first[c]; p < cs->first[c] + cs->count[c]; p++)
      out |= w->del_mark[cs->peb_slot[p]];
    if (!out) continue;
    CAIRN_TRY(mem_grow((void **)gone, &cap, *n_gone + 1, sizeof **gone, "cycle:clumps_gone", d));
    (*gone)[(*n_gone)++] = cs->id[c];
    energy_remove_clump(w, c);
    for (uint32_t p = cs->first[c]; p < cs->first[c] + cs->count[c]; p++) {
      *more += !w->del_mark[cs->peb_slot[p]];
      w->del_mark[cs->peb_slot[p]] = 1;
    }
  }
  return CAIRN_OK;
}

/* Ball i moved (move_ball), *runaway lowered to it if it moved too far. */
static ALWAYS_INLINE void move_at(cairn_world *w, long i, int dim, int track, const double g[3],
                                  double dt, double dtk, double floor2, int flow, long *runaway,
                                  double *v2max) {
  if (move_ball(w, i, dim, track, g, dt, dtk, floor2, flow, v2max) && i < *runaway) *runaway = i;
}
/* Balls 0 .. nb - 1 moved (move_at), in parallel if 'par'; 'flow' a constant in each call, so
   the loop without a deforming cell looks at no flow. */
static ALWAYS_INLINE void move_balls(cairn_world *w, long nb, int par, int dim, int track,
                                     const double g[3], double dt, double dtk, double floor2,
                                     int flow, int top, long *runaway_io, double *v2max_io) {
  long runaway = *runaway_io;
  double v2max = *v2max_io;
  if (par) {
#pragma omp parallel for reduction(min : runaway) reduction(max : v2max)
    for (long i = 0; i < nb; i++)
      move_at(w, i, dim, track, g, dt, dtk, floor2, flow, &runaway, top ? &v2max : NULL);
  } else {
    for (long i = 0; i < nb; i++)
      move_at(w, i, dim, track, g, dt, dtk, floor2, flow, &runaway, top ? &v2max : NULL);
  }
  *runaway_io = runaway, *v2max_io = v2max;
}
/* Balls i0 .. i0 + 3 (fewer at the end) moved, four at a time with AVX2 where they are plain. */
static ALWAYS_INLINE void move_block(cairn_world *w, long i0, long nb, const double g[3], double dt,
                                     double dtk, double floor2, long *runaway, double *v2max) {
  ball_store *b = &w->balls;
  long i1 = i0 + 4 < nb ? i0 + 4 : nb;
  if (i1 - i0 == 4 && four_plain(b, i0)) {
    long bad = move_four(w, i0, g, dt, dtk, floor2, v2max);
    if (bad >= 0 && bad < *runaway) *runaway = bad;
  } else {
    for (long i = i0; i < i1; i++) move_at(w, i, 3, 0, g, dt, dtk, floor2, 0, runaway, v2max);
  }
}

/* What the motion sums over its balls: the work of gravity and of local damping (while energy is
   tracked) and the top speed; under MPI every rank's, summed in the step's end reduction. */
typedef struct motion_sums {
  int track, loads;
  xsum e[3]; /* gravity's work, local damping's loss, the applied loads' work */
  double v2max;
} motion_sums;

static void motion_sums_apply(cairn_world *w, const motion_sums *ms) {
  if (ms->track) {
    w->energy->gravity += xsum_value(&ms->e[0]);
    w->energy->damping += xsum_value(&ms->e[1]);
  }
  if (ms->loads) w->energy->applied += xsum_value(&ms->e[2]);
  w->v2max = ms->v2max;
}

static cairn_status motion(cairn_world *w, double dt, double dtk, motion_sums *ms, cairn_diag *d) {
  ball_store *b = &w->balls;
  int dim = w->dim, track = w->energy->on;
  ms->track = 0, ms->loads = 0, ms->v2max = 0;
  const double g[3] = {w->gravity[0], w->gravity[1], w->gravity[2]};
  /* (under MPI this rank's own balls: the ghosts get their new state from their owners) */
  long nb = (long)balls_owned(w), runaway = nb; /* the first ball that moved too far, or nb */
  /* the top speed, for the next detection's look-ahead (automatic timestep only) */
  double v2max = 0, *top = w->ts_mode == TS_AUTO ? &v2max : NULL;
  /* below the smallest radius: no ball moved too far (the usual case: no radius is read) */
  const double floor2 = w->rad_floor * w->rad_floor;
  int flow = w->cell.on && w->cell.flow; /* a periodic cell that deforms */
  /* three copies of the loop: without a deforming cell, no flow is looked at; in 3D without
     energy tracking, blocks of four free undamped balls move with AVX2 (the same bits) */
  /* (a loop on one thread enters no parallel region: PARALLEL_WORTH) */
  const int par = PARALLEL_WORTH(nb);
  if (!flow && dim == 3 && !track && w->simd_avx2 && motion_avx2_built) {
    long nq = (nb + 3) / 4;
    if (par) {
#pragma omp parallel for reduction(min : runaway) reduction(max : v2max)
      for (long q = 0; q < nq; q++)
        move_block(w, 4 * q, nb, g, dt, dtk, floor2, &runaway, top ? &v2max : NULL);
    } else {
      for (long q = 0; q < nq; q++)
        move_block(w, 4 * q, nb, g, dt, dtk, floor2, &runaway, top ? &v2max : NULL);
    }
  } else if (flow) {
    move_balls(w, nb, par, dim, track, g, dt, dtk, floor2, 1, top != NULL, &runaway, &v2max);
  } else {
    move_balls(w, nb, par, dim, track, g, dt, dtk, floor2, 0, top != NULL, &runaway, &v2max);
  }
  /* This rank's share (the caller sums every rank's and books them: motion_sums_apply) */
  if (track) { /* exact sums: the same total for any order of the balls, on any rank count */
    xsum_init(&ms->e[0]), xsum_init(&ms->e[1]);
    for (long i = 0; i < nb; i++)
      xsum_add(&ms->e[0], w->fs->ework[i][0]), xsum_add(&ms->e[1], w->fs->ework[i][1]);
    ms->track = 1;
  }
  CAIRN_TRY(rigid_step(w, dt, dtk, top ? &v2max : NULL, d));
  ms->v2max = v2max;
  if (runaway < nb) {
    CAIRN_TRY(forces_nonfinite(w, d)); /* a contact's force or moment that is not finite */
    const double *v = b->vel[runaway];
    double step = sqrt(v3_dot(v, v)) * dt;
    if (!isfinite(step)) {
      return diag_set(d, CAIRN_ESTATE,
                      "ball %lld has a non-finite velocity at step %llu: the run became unstable, "
                      "or a force on it was not finite (gravity, an applied load); check the "
                      "models' properties and lower the timestep",
                      (long long)b->id[runaway], (unsigned long long)w->step);
    }
    if (w->ts_mode == TS_AUTO) /* (the advice to use the automatic timestep would not help) */
      return diag_set(d, CAIRN_ESTATE,
                      "ball %lld moved %g in one step (step %llu), more than its radius %g: the "
                      "run is unstable under the automatic timestep, so a force on it is far "
                      "beyond the model's range (a ball placed across a wall, such as outside a "
                      "cylinder or behind a plane, or a property far off); check where the balls "
                      "start and the models' properties",
                      (long long)b->id[runaway], step, (unsigned long long)w->step,
                      b->rad[runaway]);
    return diag_set(d, CAIRN_ESTATE,
                    "ball %lld moved %g in one step (step %llu), more than its radius %g: the run "
                    "is unstable (a timestep too large for the contacts' stiffness, or forces "
                    "far beyond the model's range); lower the timestep or use "
                    "model.timestep{auto = true}",
                    (long long)b->id[runaway], step, (unsigned long long)w->step, b->rad[runaway]);
  }
  if (track) walls_settle(w); /* (their work) */
  for (size_t k = 0; k < w->walls.n; k++) {
    wall *wl = &w->walls.w[k];
    double dx[3], th[3];
    v3_scale(wl->vel, dt, dx);
    v3_scale(wl->spin, dt, th);
    /* wl->force is what the balls push the wall with; the wall pushes them with its opposite.
       Its work is paired with the wall's motion from the middle of the last step to the middle
       of this one, as a ball's force is with its mid-step velocities; so is its torque with its
       turning. */
    if (track)
      for (int i = 0; i < 3; i++) {
        w->energy->walls -= wl->force[i] * 0.5 * (wl->last_dx[i] + dx[i]);
        w->energy->walls -= wl->torque[i] * 0.5 * (wl->last_dtheta[i] + th[i]);
      }
    v3_copy(dx, wl->last_dx);
    v3_copy(th, wl->last_dtheta);
    if (wl->kind == WALL_CYLINDER) { /* its radius: the surface moves out by dr */
      double dr = wl->radial_vel * dt;
      /* the balls get fn along n; the surface moves by dr along -n */
      if (track) w->energy->walls -= wl->fn_sum * 0.5 * (wl->last_dr + dr);
      wl->last_dr = dr;
      wl->radius += dr;
      wl->rot_disp += fabs(dr); /* counts towards the next neighbour rebuild (check_geometry
                                   made sure that the radius stays > 0) */
    }
    wall_turn(wl, th); /* about the centre, then the whole wall moves */
    if (dx[0] == 0 && dx[1] == 0 && dx[2] == 0) continue;
    for (int n = 0; n < wl->n_nodes; n++) v3_add(wl->nodes[n], dx, wl->nodes[n]);
    v3_add(wl->point, dx, wl->point);
    v3_add(wl->centre, dx, wl->centre);
    v3_add(wl->disp, dx, wl->disp);
    v3_add(wl->moved, dx, wl->moved);
  }
  if (!w->has_domain) return CAIRN_OK;
  /* Balls whose centre left the domain: stop with an error, or delete them, all at once (in
     time linear in the balls and contacts, however many leave). */
  size_t leaving = 0;
  for (size_t i = (size_t)nb; i-- > 0;) {
    int out = 0;
    for (int k = 0; k < dim; k++)
      if (b->pos[i][k] < w->dom_min[k] || b->pos[i][k] > w->dom_max[k]) out = 1;
    if (!out) continue;
    if (w->dom_cond == DOMAIN_STOP) {
      char where[96];
      if (dim == 2)
        snprintf(where, sizeof where, "(%g, %g)", b->pos[i][0], b->pos[i][1]);
      else
        snprintf(where, sizeof where, "(%g, %g, %g)", b->pos[i][0], b->pos[i][1], b->pos[i][2]);
      return diag_set(d, CAIRN_ESTATE,
                      "ball %lld left the model domain at step %llu (position %s); enlarge "
                      "model.domain or set its condition to \"destroy\"",
                      (long long)b->id[i], (unsigned long long)w->step + 1, where);
    }
    if (leaving++ == 0) CAIRN_TRY(balls_mark_reserve(w, d));
    w->del_mark[i] = 1;
  }
  if (w->par) { /* deleted on every rank at once, ghosts too (par_after_motion) */
    w->n_leaving = leaving;
  } else if (leaving) {
    size_t more = 0, n_gone = 0;
    int64_t *gone = NULL;
    if (w->clumps.n) CAIRN_TRY(clumps_leaving(w, &more, &gone, &n_gone, d));
    cairn_status s = contact_delete_marked_balls(w, d);
    w->n_destroyed += leaving + more;
    for (size_t k = 0; k < n_gone; k++) /* the clumps, their pebbles gone */
      clump_remove(w, idmap_get(&w->clumps.map, (uint64_t)gone[k]));
    mem_free(gone, 0);
    CAIRN_TRY(s);
  }
  return CAIRN_OK;
}

/* The most the automatic timestep grows from one step to the next. */
#define DT_GROWTH 1.1

/* Critical timestep estimate of one ball with translational stiffness kt and rotational kr. */
static double ball_dt(double m, double I, double kt, double kr) {
  double dt = INFINITY;
  if (kt > 0) dt = sqrt(m / kt);
  if (kr > 0 && sqrt(I / kr) < dt) dt = sqrt(I / kr);
  return dt;
}

/* The stiffest assignment of each contact kind, from the models' property-only estimates. */
static double assigned_stiffness(const cairn_world *w) {
  double kmax[2] = {0, 0};
  for (size_t r = 0; r <= cmat_assignment_count(w); r++)
    for (int k = 0; k < 2; k++) {
      const cmat_entry *ce = cmat_assignment(w, r, k);
      if (!ce) continue;
      double t, rot;
      const model_entry *me = &w->reg->e[ce->model];
      model_call_stiffness(me, ce->props, &t, &rot);
      if (t > kmax[k]) kmax[k] = t;
    }
  return kmax[0] + kmax[1];
}

/* Before saying that no assignment gives a stiffness: whether one's model refuses its
   properties (its validation hook, which otherwise runs only when a contact first touches), as
   hertz does without a shear modulus. That is the cause to name. */
static cairn_status check_assignments(const cairn_world *w, cairn_diag *d) {
  char msg[512];
  size_t nr = cmat_assignment_count(w);
  for (size_t r = 0; r <= nr; r++)
    for (int k = 0; k < 2; k++) {
      const cmat_entry *ce = cmat_assignment(w, r, k);
      if (!ce) continue;
      const model_entry *me = &w->reg->e[ce->model];
      const char *bad = model_call_validate(me, ce->props, w->dim, msg, sizeof msg);
      if (bad)
        return diag_set(d, CAIRN_EINVAL,
                        "the automatic timestep has no stiffness to work from: contact model "
                        "'%s', assigned to %s contacts%s, refuses its properties: %s",
                        me->m->name, contact_kind_name(k), r < nr ? " by a rule" : "", bad);
    }
  return CAIRN_OK;
}

/* Smallest critical timestep over this rank's balls, from their contacts' stiffness sums
   (*from_contacts); with 'free_only', balls fixed in translation and spin are left out (they are
   not integrated). Where no ball here has any (*from_contacts infinite), *from_props is the
   estimate from the assigned models' properties, else infinite: over every rank, the estimate
   is needed only where no rank's balls have stiffness, and then every rank has formed it. */
static void ball_dt_here(const cairn_world *w, int free_only, double *from_contacts,
                         double *from_props) {
  const ball_store *b = &w->balls;
  double dt = INFINITY;
  size_t own = balls_owned(w);
  for (size_t i = 0; i < own; i++) {
    if (free_only && ball_translation_fixed(w, (uint32_t)i) && (b->fix[i] & FIX_SPIN)) continue;
    double e = ball_dt(b->mass[i], b->inertia[i], b->k_tran[i], b->k_rot[i]);
    if (e < dt) dt = e;
  }
  rigid_timestep(w, &dt);
  *from_contacts = dt, *from_props = INFINITY;
  if (isfinite(dt)) return;
  /* No active contact yet: estimate from the assigned models' properties, as if each ball had
     one contact of each kind with the stiffest assignment of that kind. For rotation the whole
     translational stiffness acts at the ball's radius: an upper bound of the shear spring's
     k_s r^2, so the estimate errs on the safe side. */
  double kt = assigned_stiffness(w);
  for (size_t i = 0; i < own && kt > 0; i++) {
    if (free_only && ball_translation_fixed(w, (uint32_t)i) && (b->fix[i] & FIX_SPIN)) continue;
    double e = ball_dt(b->mass[i], b->inertia[i], kt, kt * b->rad[i] * b->rad[i]);
    if (e < *from_props) *from_props = e;
  }
}

/* The smallest critical timestep over the balls (ball_dt_here's, over every rank). */
static double min_ball_dt(const cairn_world *w, int free_only) {
  double dt, props;
  ball_dt_here(w, free_only, &dt, &props);
  if (w->par) comm_min(&dt, 1);
  if (isfinite(dt)) return dt;
  if (w->par) comm_min(&props, 1);
  return props;
}

/* The overlap, as a share of the ball's radius, at which the message of a timestep without
   stiffness asks the assigned models what stiffness they would have: a loaded packing's typical
   overlap. A model stiff only when overlapping (hertz) gives a stiffness that grows with the
   overlap's square root, so ten times less or more moves the suggestion by a factor of 1.8. */
#define REF_OVERLAP 0.01

/* The stiffnesses that assignment ce's model gives a fresh contact of kind k at an overlap of
   REF_OVERLAP times the radius r of a ball of mass m (ball-ball: with a ball like it), asked
   on a scratch state as the look-ahead asks (forces_probe): translational kt, rotational kr
   about the ball's centre, and kn / m_eff in kn_m. Zero where the model gives none. */
static cairn_status probe_at_overlap(cairn_world *w, const cmat_entry *ce, int k, double r,
                                     double m, double *kt, double *kr, double *kn_m,
                                     cairn_diag *d) {
  *kt = *kr = *kn_m = 0;
  model_entry *e = &w->reg->e[ce->model];
  size_t ns = e->n_state_slots > 0 ? (size_t)e->n_state_slots : 1;
  uint32_t pblk;
  CAIRN_TRY(props_block_new(e, ce->props, ce->setmask, &pblk, d));
  double *state = mem_realloc(NULL, 0, ns * sizeof *state, "cycle:probe");
  if (!state) {
    props_block_release(e, pblk);
    return diag_set(d, CAIRN_ENOMEM, "out of memory for a contact model's scratch state");
  }
  memset(state, 0, ns * sizeof *state);
  int bb = k == CAIRN_KIND_BALL_BALL;
  double g = -REF_OVERLAP * r, n[3] = {0, 0, 0};
  n[w->dim == 2 ? 1 : 2] = 1; /* (any direction: the ball is round) */
  double m_eff = bb ? 0.5 * m : m, v[3] = {0, 0, 0}, kn, ks, krr;
  model_call_probe(e, pblk, state, w->dim, k, w->dt, g, n, v, m_eff, bb ? r : 0, r, &kn, &ks, &krr);
  mem_free(state, ns * sizeof *state);
  props_block_release(e, pblk);
  if (!(kn >= 0 && ks >= 0 && krr >= 0 && isfinite(kn + ks + krr))) return CAIRN_OK;
  double arm = r + 0.5 * g;
  *kt = kn + ks;
  *kr = krr + ks * arm * arm;
  *kn_m = kn / m_eff;
  return CAIRN_OK;
}

/* The automatic timestep the balls would have if each had one contact of each kind, with the
   stiffest assignment of that kind, at an overlap of REF_OVERLAP times its radius (safety and
   impact bound as in cycle_timestep): what the message of a timestep without stiffness
   suggests. INFINITY when no model gives a stiffness even then (the null model). */
static cairn_status reference_dt(cairn_world *w, double *dt_out, cairn_diag *d) {
  const ball_store *b = &w->balls;
  size_t own = balls_owned(w), nr = cmat_assignment_count(w), nfree = 0;
  double dt = INFINITY;
  for (size_t i = 0; i < own; i++)
    if (!(ball_translation_fixed(w, (uint32_t)i) && (b->fix[i] & FIX_SPIN))) nfree++;
  for (size_t i = 0; i < own; i++) {
    if (nfree && ball_translation_fixed(w, (uint32_t)i) && (b->fix[i] & FIX_SPIN)) continue;
    double kt = 0, kr = 0, kn_m = 0;
    for (int k = 0; k < 2; k++) {
      double kt_k = 0, kr_k = 0;
      for (size_t r = 0; r <= nr; r++) {
        const cmat_entry *ce = cmat_assignment(w, r, k);
        if (!ce || ce->model < 0) continue;
        double t, rot, knm;
        CAIRN_TRY(probe_at_overlap(w, ce, k, b->rad[i], b->mass[i], &t, &rot, &knm, d));
        if (t > kt_k) kt_k = t;
        if (rot > kr_k) kr_k = rot;
        if (knm > kn_m) kn_m = knm;
      }
      kt += kt_k, kr += kr_k;
    }
    double e = w->dt_safety * ball_dt(b->mass[i], b->inertia[i], kt, kr);
    if (w->dt_impact > 0 && kn_m > 0 && M_PI / (w->dt_impact * sqrt(kn_m)) < e)
      e = M_PI / (w->dt_impact * sqrt(kn_m));
    if (e < dt) dt = e;
  }
  if (w->par) comm_min(&dt, 1);
  *dt_out = dt;
  return CAIRN_OK;
}

/* The look-ahead's bound: the balls of the pairs detection listed as closing in (or touching
   since this step), each with the stiffness its pair's model will have added to its sums. None
   when a script changed the balls after detection (the list would be stale). */
static cairn_status ahead_dt(cairn_world *w, double *dt, double *kn_m_max, cairn_diag *d) {
  const pair_list *p = w->pairs;
  const ball_store *b = &w->balls;
  *dt = INFINITY;
  if (pairs_stale(w)) return CAIRN_OK;
  for (size_t i = 0; i < p->n_ahead; i++) {
    uint32_t q = p->ahead[i], side[2] = {p->a[q], p->b[q]};
    double kt, kr[2], kn_m;
    CAIRN_TRY(forces_probe(w, q, &kt, kr, &kn_m, d));
    if (kn_m > *kn_m_max) *kn_m_max = kn_m;
    for (int s = p->kind[q] == CAIRN_KIND_BALL_BALL ? 0 : 1; s < 2 && kt > 0; s++) {
      uint32_t j = side[s];
      if (ball_translation_fixed(w, j) && (b->fix[j] & FIX_SPIN)) continue;
      double e = ball_dt(b->mass[j], b->inertia[j], b->k_tran[j] + kt, b->k_rot[j] + kr[s]);
      if (e < *dt) *dt = e;
    }
  }
  return CAIRN_OK;
}

/* The automatic timestep's bounds, with the status 'pending' of the step so far (detection's):
   the balls' (free ones; where no free ball has stiffness, all of them: see ball_dt_here), the
   look-ahead's (the pairs a rank lists: those of its own balls) and the stiffest contact for its
   mass. Under MPI one reduction gives every rank's and agrees on the status; a rank whose step
   has failed takes part with nothing. (Minima travel negated, as maxima.) */
static cairn_status timestep_bounds(cairn_world *w, cairn_status pending, double *dt, double *ahead,
                                    double *kn_m, cairn_diag *d) {
  double c1 = INFINITY, p1 = INFINITY, c0 = INFINITY, p0 = INFINITY;
  cairn_status s = pending;
  *ahead = INFINITY;
  if (s == CAIRN_OK) {
    ball_dt_here(w, 1, &c1, &p1);
    /* every ball fixed: nothing is integrated, but time still advances at the pace of the
       contacts, so the estimate is taken over all balls */
    if (!isfinite(c1) && !isfinite(p1)) ball_dt_here(w, 0, &c0, &p0);
    s = ahead_dt(w, ahead, kn_m, d);
  }
  comm_fused f;
  comm_fused_init(&f);
  int i_c1 = comm_fused_max(&f, -c1), i_p1 = comm_fused_max(&f, -p1);
  int i_c0 = comm_fused_max(&f, -c0), i_p0 = comm_fused_max(&f, -p0);
  int i_ahead = comm_fused_max(&f, -*ahead), i_kn = comm_fused_max(&f, *kn_m);
  /* (only a divided model meets the other ranks: a whole one's query, model.timestep(), may come
     from one rank alone) */
  CAIRN_TRY(w->par ? comm_fused_reduce(&f, s, d) : s);
  *ahead = -f.max[i_ahead], *kn_m = f.max[i_kn];
  *dt = isfinite(-f.max[i_c1]) ? -f.max[i_c1] : -f.max[i_p1];
  if (!isfinite(*dt)) *dt = isfinite(-f.max[i_c0]) ? -f.max[i_c0] : -f.max[i_p0];
  return CAIRN_OK;
}

/* cycle_timestep with the step's status so far: under MPI a failure (detection's, on some rank)
   is agreed here with the automatic timestep's bounds, or, with a fixed timestep, left pending
   for the force pass's reduction (returned as it is). */
static cairn_status step_timestep(cairn_world *w, cairn_status pending, double *dt_out,
                                  cairn_diag *d) {
  if (w->ts_mode == TS_FIXED) {
    *dt_out = w->dt;
    return pending;
  }
  double dt, ahead, kn_m = w->kn_m_max;
  CAIRN_TRY(timestep_bounds(w, pending, &dt, &ahead, &kn_m, d));
  if (ahead < dt) dt = ahead;
  if (!isfinite(dt)) {
    if (w->dt > 0) {
      *dt_out = w->dt;
      return CAIRN_OK;
    }
    CAIRN_TRY(check_assignments(w, d)); /* the real cause, when a model refuses its properties */
    double ref;
    CAIRN_TRY(reference_dt(w, &ref, d));
    if (isfinite(ref))
      return diag_set(d, CAIRN_ESTATE,
                      "the automatic timestep has no stiffness to work from (no contact is "
                      "active, and the assigned contact models are stiff only when they "
                      "overlap); give model.timestep{fix = %.2g}, the automatic estimate at an "
                      "overlap of 1 %% of each ball's radius",
                      ref);
    return diag_set(d, CAIRN_ESTATE,
                    "the automatic timestep has no stiffness to work from (no active contact and "
                    "no assigned contact model with stiffness); set model.timestep{fix = DT}");
  }
  dt *= w->dt_safety;
  /* Accuracy beside stability: at least dt_impact steps in the half period pi sqrt(m_eff / kn)
     of the stiffest contact for its mass (the duration of a linear contact's impact). */
  if (w->dt_impact > 0 && kn_m > 0) {
    double di = M_PI / (w->dt_impact * sqrt(kn_m));
    if (di < dt) dt = di;
  }
  /* It may fall at once but grow by at most DT_GROWTH a step: a contact's stiffness estimate
     can be far below what it is heading for (a nonlinear law at first touch), and a timestep
     that jumped on such an estimate would overshoot before the next one corrects it. */
  if (w->dt > 0 && dt > DT_GROWTH * w->dt) dt = DT_GROWTH * w->dt;
  *dt_out = dt;
  return CAIRN_OK;
}

cairn_status cycle_timestep(cairn_world *w, double *dt_out, cairn_diag *d) {
  return step_timestep(w, CAIRN_OK, dt_out, d);
}

/* A fixed timestep above the stable estimate (S = 1: sqrt(m / k) of the stiffest ball, from this
   step's contacts) is told once, or refused with strict; checked on a run's first step and every
   1024 steps after, since stiffness grows as contacts form. */
static cairn_status check_fixed_dt(cairn_world *w, int first, cairn_diag *d) {
  if (w->ts_mode != TS_FIXED || w->dt_warned || !(first || (w->step & 1023) == 0)) return CAIRN_OK;
  double est = min_ball_dt(w, 1);
  if (!(isfinite(est) && w->dt > est)) return CAIRN_OK;
  char msg[300];
  snprintf(msg, sizeof msg,
           "the fixed timestep %g is above the stable estimate %g (sqrt(m/k) of the stiffest ball "
           "at step %llu), so the run may blow up; lower it, or use model.timestep{auto = true}",
           w->dt, est, (unsigned long long)w->step);
  CAIRN_CHECK(!w->dt_strict, d, CAIRN_ESTATE, "%s", msg);
  w->dt_warned = 1;
  if (w->warn) w->warn(w->warn_ud, msg);
  return CAIRN_OK;
}

/* The step's end, after the motion (status s): its sums booked, and under MPI the one reduction
   of the step's end, which agrees on s and carries the motion's sums, the balls leaving the
   domain, the losses to fold and whether the next step must rebuild the neighbour lists. */
static cairn_status after_motion(cairn_world *w, motion_sums *ms, cairn_status s, cairn_diag *d) {
  if (!w->par) {
    motion_sums_apply(w, ms);
    CAIRN_TRY(s);
    energy_fold(w);
    return CAIRN_OK;
  }
  comm_fused f;
  comm_fused_init(&f);
  if (!ms->track) xsum_init(&ms->e[0]), xsum_init(&ms->e[1]); /* (the same layout everywhere) */
  if (!ms->loads) xsum_init(&ms->e[2]);
  comm_fused_xsums(&f, ms->e, 3, &w->fs->win_motion);
  int v2 = comm_fused_max(&f, ms->v2max);
  int loads = comm_fused_max(&f, ms->loads); /* (some rank's balls carry loads: each rank's own) */
  int rebuild = comm_fused_max(&f, s == CAIRN_OK ? (double)detect_needs_rebuild(w) : 0.0);
  int leaving = comm_fused_sum(&f, (int64_t)w->n_leaving);
  xsum local[3];
  int n_local;
  int pend = energy_pending_push(w, &f, local, &n_local);
  cairn_status t = comm_fused_reduce(&f, s, d);
  ms->v2max = f.max[v2];
  ms->loads = f.max[loads] > 0;
  motion_sums_apply(w, ms);
  CAIRN_TRY(t);
  if (f.sum[leaving] == 0) {
    energy_fold_reduced(w, f.sum[pend]);
    par_note_rebuild(w, f.max[rebuild] > 0);
    return CAIRN_OK;
  }
  /* balls left the domain: deleted on every rank, then one fold of everything, as one process
     makes it (the rebuild they call for is found at the next step's start) */
  energy_pending_restore(w, local, n_local);
  CAIRN_TRY(par_after_motion(w, f.sum[leaving], d));
  energy_fold(w);
  return CAIRN_OK;
}

static cairn_status history_sample_call(cairn_world *w, cairn_diag *d) {
  int due;
  CAIRN_TRY(history_due(w, &due, d));
  return due ? history_sample(w, d) : CAIRN_OK;
}
static cairn_status after_step_call(cairn_world *w, cairn_diag *d) {
  return w->after_step(w->after_step_ud, w, d);
}

/* Call a sampler or an output: under MPI decomposition it works on this rank's part, and one
   that needs the whole model gathers it (par_whole); the model is then divided again. */
static cairn_status sampled(cairn_world *w, cairn_status (*fn)(cairn_world *, cairn_diag *),
                            cairn_diag *d) {
  if (!w->par) return fn(w, d);
  cairn_status s = comm_agree(fn(w, d), d);
  cairn_status t = par_resume(w, 0, d);
  return s != CAIRN_OK ? s : t;
}

/* The script's callbacks at point p of the step. Under MPI decomposition every rank calls them
   alike (the script runs on every rank); one that needed the whole model had it gathered, and
   the model is divided again along the same bricks for the rest of the step. */
static cairn_status callbacks_at(cairn_world *w, hook_point p, cairn_diag *d) {
  cairn_status s = world_call_hook(w, p, d);
  if (!w->par_parked) return s;
  cairn_status t = par_resume(w, 1, d);
  return s != CAIRN_OK ? s : t;
}

/* A periodic cell's stress control: its stress from this step's contacts (summed only when an
   edge is controlled; cell.stress sums on demand), then the rates held to it. */
static cairn_status cell_control(cairn_world *w, double dt, cairn_diag *d) {
  if (!w->cell.on || !periodic_controlled(&w->cell)) return CAIRN_OK;
  force_scratch *fs = w->fs;
  if (fs->cell_ready) { /* (under MPI: summed over the ranks with the force pass's totals) */
    fs->cell_ready = 0;
    return periodic_control(w, dt, fs->cell_stress, fs->cell_stiff, d);
  }
  xsum acc[PERIODIC_SUMS];
  int64_t nc;
  double stress[9], stiff[3];
  periodic_stress_sums(w, 1, acc, &nc);
  periodic_stress_value(w, acc, nc, stress, stiff);
  return periodic_control(w, dt, stress, stiff, d);
}

/* Before the motion: a step that would leave the cell or a wall non-finite, out of range or
   inverted (an absurd rate, velocity or spin, set or reached by control) stops here, naming the
   input, with nothing of the step moved. Walls and cell are whole on every rank under MPI, so
   every rank gets the same answer without agreeing. A few operations per wall, none per ball. */
static cairn_status check_geometry(cairn_world *w, double dt, cairn_diag *d) {
  CAIRN_TRY(periodic_check_step(w, dt, d));
  for (size_t k = 0; k < w->walls.n; k++) CAIRN_TRY(wall_check_step(w, &w->walls.w[k], dt, d));
  return CAIRN_OK;
}

static cairn_status one_step(cairn_world *w, cairn_diag *d) {
  /* (losses booked by a script since the last step; under MPI the division folded them) */
  if (!w->par) energy_fold(w);
  /* The step that brought the balls here (0 before the first step of the model): the contacts'
     increments span it, and the velocity kick spans half of it and half of the coming one. */
  double dt_last = w->dt_taken;
  /* The first step of an automatic timestep: detection's look-ahead needs a timestep to look
     ahead by, so it gets the estimate from the properties and the contacts of the moment. If
     there is none yet (a model without stiffness before contact), this step looks ahead only
     at the contacts it makes, and the estimate below decides. */
  if (w->ts_mode == TS_AUTO && !(w->dt > 0)) {
    double dt0 = 0;
    cairn_diag quiet;
    if (cycle_timestep(w, &dt0, &quiet) == CAIRN_OK) w->dt = dt0;
  }
  if (w->par) CAIRN_TRY(par_step_start(w, d)); /* (ghosts, or the exchange of a rebuild) */
  /* (under MPI a failure of detection on some rank is agreed at the step's next reduction: the
     automatic timestep's, or the force pass's) */
  cairn_status s = detect_update(w, d);
  if (!w->par) CAIRN_TRY(s);
  if (w->par && w->hook) CAIRN_TRY(comm_agree(s, d)); /* (the callbacks run on every rank alike) */
  if (s == CAIRN_OK) CAIRN_TRY(callbacks_at(w, HOOK_BEFORE_FORCE, d));
  double dt = 0;
  s = step_timestep(w, s, &dt, d);
  if (!w->par || w->ts_mode != TS_FIXED) CAIRN_TRY(s);
  w->pairs->n_ahead = 0; /* the look-ahead served this step (model.timestep() between steps is
                           the estimate without it) */
  if (!(dt_last > 0)) dt_last = dt;
  w->dt = w->dt_taken = dt;
  /* (under MPI agreed in forces_totals' reduction, with detection's status) */
  CAIRN_TRY(forces_totals(w, s == CAIRN_OK ? forces_compute(w, dt_last, d) : s, d));
  if (w->loads.n) loads_apply(w);
  if (w->energy->on) /* the torque on turning walls, for the work they do */
    for (size_t k = 0; k < w->walls.n; k++) {
      wall *wl = &w->walls.w[k];
      /* also on the step after a wall stopped turning (its work pairs the torque with the turn
         from the middle of the last step), and on a table's, whose spin this step sets later */
      if (wl->spin[0] != 0 || wl->spin[1] != 0 || wl->spin[2] != 0 || wl->last_dtheta[0] != 0 ||
          wl->last_dtheta[1] != 0 || wl->last_dtheta[2] != 0 || wl->motion.has_spin)
        wall_torque(w, (uint32_t)k, wl->torque);
      else
        v3_zero(wl->torque);
    }
  w->energy->torque_last = w->energy->on; /* (the next pass books its turns from them) */
  CAIRN_TRY(check_fixed_dt(w, w->run_first, d));
  w->run_first = 0;
  CAIRN_TRY(callbacks_at(w, HOOK_AFTER_FORCE, d));
  walls_follow_motion(w, w->time + 0.5 * dt); /* tables' velocities, at the step's middle */
  CAIRN_TRY(servo_step(w, dt, d));            /* servo walls' velocities from this step's forces */
  CAIRN_TRY(cell_control(w, dt, d));          /* a periodic cell's stress, and rates held to it */
  CAIRN_TRY(check_geometry(w, dt, d));        /* what the motion would make of the cell and walls */
  /* Velocities live at half steps: from the middle of the last step to the middle of this one
     is (dt_last + dt) / 2, which is dt while the timestep stays the same. */
  motion_sums ms;
  s = motion(w, dt, 0.5 * (dt_last + dt), &ms, d);
  if (w->cell.on && s == CAIRN_OK) periodic_deform(w, dt);
  if (w->loads.n && w->energy->on) { /* (every rank's: after_motion) */
    xsum_init(&ms.e[2]);
    if (s == CAIRN_OK) loads_work(w, dt, &ms.e[2]);
    ms.loads = 1;
  }
  CAIRN_TRY(after_motion(w, &ms, s, d));
  w->time += dt;
  w->step++;
  /* (a row at the step interval, or when the quantity sampled by has moved enough) */
  if (w->hist->n && (w->hist->by || (w->hist->interval && w->step % w->hist->interval == 0)))
    CAIRN_TRY(sampled(w, history_sample_call, d));
  if (w->after_step && w->step % w->after_step_every == 0)
    CAIRN_TRY(sampled(w, after_step_call, d));
  return CAIRN_OK;
}

cairn_status cycle_run_one(cairn_world *w, cairn_diag *d) {
  return one_step(w, d);
}

/* Report progress every 256 steps of the world, however the calls split them, or every step
   while progress_each is set (the reporter decides whether to show anything). */
static inline void report(cairn_world *w, double fraction, uint64_t steps, int done) {
  if (w->progress && (done || w->progress_each || (w->step & 255) == 0))
    w->progress(w->progress_ud, fraction, steps, done);
}

/* The start of a cycle or solve call. */
void cycle_run_start(cairn_world *w) {
  w->run_first = 1;
  w->stop_request = 0;
  /* the kernels use AVX2 where the CPU has it, unless CAIRN_SIMD=baseline asks for the baseline
     ones (the same bits: cairn/simd.h) */
  const char *simd = getenv("CAIRN_SIMD");
  w->simd_avx2 = cairn_cpu_avx2() && !(simd && !strcmp(simd, "baseline"));
  double r = INFINITY, v2 = 0; /* (the top speed too: scripts may have set velocities) */
  for (size_t i = 0; i < balls_owned(w); i++) {
    if (w->balls.rad[i] < r) r = w->balls.rad[i];
    double s = v3_dot(w->balls.vel[i], w->balls.vel[i]);
    if (s > v2) v2 = s;
  }
  if (w->par) { /* (a division the last call left: every rank's balls) */
    double m[2] = {-r, v2};
    comm_max(m, 2);
    r = -m[0], v2 = m[1];
  }
  w->rad_floor = r;
  w->v2max = v2;
}

/* A cycle or solve call's end: under MPI the call's figures, and after a failure the whole model
   again on every rank (every rank has the failure then). */
cairn_status cycle_run_end(cairn_world *w, cairn_status s, cairn_diag *d) {
  if (!w->par) return s;
  cairn_diag d2;
  cairn_status t = par_end(w, s, &d2);
  if (s == CAIRN_OK && t != CAIRN_OK) {
    if (d) *d = d2;
    return t;
  }
  return s;
}

cairn_status cycle_run(cairn_world *w, uint64_t n, cairn_diag *d) {
  cairn_status s = CAIRN_OK;
  cycle_run_start(w);
  if (n) s = par_begin(w, d);
  for (uint64_t i = 0; i < n && s == CAIRN_OK && !w->stop_request; i++) {
    s = one_step(w, d);
    report(w, (double)(i + 1) / (double)n, i + 1, 0);
  }
  report(w, 1.0, n, 1);
  return cycle_run_end(w, s, d);
}

cairn_status cycle_solve_time(cairn_world *w, double t_end, cairn_diag *d) {
  CAIRN_CHECK(isfinite(t_end), d, CAIRN_EINVAL, "solve time must be finite (got %g)", t_end);
  if (w->ts_mode == TS_FIXED) {
    /* Whole steps to reach t_end; a remainder below 1e-9 of a step is round-off. */
    double steps = (t_end - w->time) / w->dt;
    if (steps <= 1e-9) return CAIRN_OK;
    return cycle_run(w, (uint64_t)ceil(steps - 1e-9), d);
  }
  double t0 = w->time;
  uint64_t steps = 0;
  cairn_status s = CAIRN_OK;
  cycle_run_start(w);
  if (w->time < t_end) s = par_begin(w, d);
  while (w->time < t_end && s == CAIRN_OK && !w->stop_request) {
    s = one_step(w, d);
    report(w, (w->time - t0) / (t_end - t0), ++steps, 0);
  }
  report(w, 1.0, steps, 1);
  return cycle_run_end(w, s, d);
}

cairn_status cycle_detect_only(cairn_world *w, cairn_diag *d) {
  CAIRN_TRY(detect_update(w, d));
  CAIRN_TRY(forces_part(w, w->dt));
  detect_refresh(w);
  return world_call_hook(w, HOOK_EVENTS, d);
}
