/* Servo-controlled walls. A servo moves its wall along a fixed axis (a unit vector from the wall
   towards the balls) so that the normal stress the balls put on it (their force along the axis
   over an area), or that force itself, follows a target. Each step, after the force pass, the
   wall's speed along the axis is set to

       v = alpha (measured - target) A / (K dt)      (stress; a force target drops the A)

   away from the balls when the measure is above the target, K being the summed normal
   stiffness estimates of the wall's contacts this step, capped at vmax. With the balls held
   still, the stress then closes the share alpha of its error each step: error_n+1 =
   (1 - alpha) error_n, without overshoot for alpha <= 1 (verification/servo_*); with free balls
   the contacts' own stiffness and the balls' motion slow it down. This is PFC's servo gain with
   its relaxation factor. The wall's velocity across the axis is kept (a servo wall can also
   slide). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "world/world.h"

double servo_target(const wall_servo *sv, double t) {
  double s;
  int i;
  const double *v = sv->target;
  return table_piece(sv->t, sv->n_points, t, &i, &s) ? v[i] + s * (v[i + 1] - v[i]) : v[i];
}

/* The distance between two walls' planes, along the first one's normal. */
static cairn_status wall_gap(const cairn_world *w, const wall *owner, const int64_t ids[2],
                             double *out, cairn_diag *d) {
  uint32_t a, b;
  CAIRN_CHECK(wall_slot(w, ids[0], &a, d) == CAIRN_OK && wall_slot(w, ids[1], &b, d) == CAIRN_OK, d,
              CAIRN_ESTATE,
              "the servo of wall %lld measures its area between walls %lld and %lld, and one of "
              "them no longer exists; give the servo its area again",
              (long long)owner->id, (long long)ids[0], (long long)ids[1]);
  double pa[3], na[3], pb[3], nb[3], r[3];
  wall_plane(&w->walls.w[a], pa, na);
  wall_plane(&w->walls.w[b], pb, nb);
  v3_sub(pb, pa, r);
  *out = fabs(v3_dot(r, na));
  return CAIRN_OK;
}

/* The area servo settings sv give on wall wl (sv: the wall's own, or ones being checked). */
static cairn_status area_of(const cairn_world *w, const wall *wl, const wall_servo *sv,
                            double *area, cairn_diag *d) {
  if (sv->area > 0) {
    *area = sv->area;
    return CAIRN_OK;
  }
  double a = 1.0, g = 0; /* 2D: per unit thickness */
  CAIRN_TRY(wall_gap(w, wl, sv->width, &g, d));
  a *= g;
  if (wl->kind == WALL_CYLINDER) { /* its side between the walls of width: 2 pi R h */
    *area = 2.0 * M_PI * wl->radius * a;
    return CAIRN_OK;
  }
  if (w->dim == 3) {
    CAIRN_TRY(wall_gap(w, wl, sv->depth, &g, d));
    a *= g;
  }
  *area = a;
  return CAIRN_OK;
}

cairn_status servo_area(const cairn_world *w, const wall *wl, double *area, cairn_diag *d) {
  return area_of(w, wl, &wl->servo, area, d);
}

double servo_normal_force(const wall *wl) {
  /* a cylinder: the sum of its contacts' normal forces (the resultant is near zero) */
  if (wl->kind == WALL_CYLINDER) return wl->fn_sum;
  /* wl->force is what the balls push the wall with: away from them, along -axis */
  return -v3_dot(wl->force, wl->servo.axis);
}

cairn_status servo_set(cairn_world *w, wall *wl, const wall_servo *sv, cairn_diag *d) {
  if (sv->mode == SERVO_OFF) {
    memset(&wl->servo, 0, sizeof wl->servo);
    return CAIRN_OK;
  }
  const long long id = (long long)wl->id;
  CAIRN_CHECK(sv->n_points >= 1 && sv->n_points <= SERVO_MAX_POINTS, d, CAIRN_EINVAL,
              "the servo of wall %lld needs 1 to %d target points (got %d)", id, SERVO_MAX_POINTS,
              sv->n_points);
  for (int i = 0; i < sv->n_points; i++) {
    CAIRN_CHECK(isfinite(sv->target[i]) && sv->target[i] >= 0, d, CAIRN_EINVAL,
                "the servo of wall %lld: target %g is not a finite number >= 0 (a servo holds a "
                "compressive stress or force on its wall)",
                id, sv->target[i]);
    CAIRN_CHECK(isfinite(sv->t[i]) && (i == 0 || sv->t[i] > sv->t[i - 1]), d, CAIRN_EINVAL,
                "the servo of wall %lld: the target's times must be finite and increase (time "
                "%d is %g)",
                id, i + 1, sv->t[i]);
  }
  CAIRN_CHECK(isfinite(sv->vmax) && sv->vmax > 0, d, CAIRN_EINVAL,
              "the servo of wall %lld needs vmax, the most speed it may move at, > 0 (got %g)", id,
              sv->vmax);
  CAIRN_CHECK(isfinite(sv->alpha) && sv->alpha > 0 && sv->alpha <= 1, d, CAIRN_EINVAL,
              "the servo of wall %lld: alpha, the share of the error closed a step, must be in "
              "(0, 1] (got %g); 0.5 is a safe choice",
              id, sv->alpha);
  double len = sqrt(v3_dot(sv->axis, sv->axis));
  CAIRN_CHECK(isfinite(len) && len > 0 && (w->dim == 3 || sv->axis[2] == 0), d, CAIRN_EINVAL,
              "the servo of wall %lld needs an axis, a non-zero vector%s", id,
              w->dim == 2 ? " in the xy plane" : "");
  wall_servo s = *sv;
  v3_scale(sv->axis, 1.0 / len, s.axis);
  s.saturated = 0, s.warned = 0, s.reached = 0, s.held = 0, s.measured = 0, s.err_start = 0;
  uint32_t slot;
  for (int i = 0; i < 2; i++) {
    if (sv->width[i]) CAIRN_TRY(wall_slot(w, sv->width[i], &slot, d));
    if (sv->depth[i]) CAIRN_TRY(wall_slot(w, sv->depth[i], &slot, d));
  }
  if (sv->mode == SERVO_STRESS) {
    CAIRN_CHECK(sv->area > 0 || (sv->width[0] && sv->width[1]), d, CAIRN_EINVAL,
                "the servo of wall %lld holds a stress and needs the area it acts on: give area, "
                "or the walls that bound it (width%s)",
                id, w->dim == 3 ? " and depth" : "");
    CAIRN_CHECK(isfinite(sv->area) && sv->area >= 0, d, CAIRN_EINVAL,
                "the servo of wall %lld: area must be a finite number > 0 (got %g)", id, sv->area);
    if (!(sv->area > 0) && w->dim == 3 && wl->kind != WALL_CYLINDER)
      CAIRN_CHECK(sv->depth[0] && sv->depth[1], d, CAIRN_EINVAL,
                  "the servo of wall %lld takes its area from walls: in 3D give both width and "
                  "depth (two pairs of wall ids)",
                  id);
    double a;
    CAIRN_TRY(area_of(w, wl, &s, &a, d));
    CAIRN_CHECK(a > 0, d, CAIRN_EINVAL,
                "the servo of wall %lld: the walls given for its area are %g apart, so the stress "
                "would divide by zero; give walls that bound the specimen",
                id, a);
  }
  wl->servo = s;
  return CAIRN_OK;
}

cairn_status servo_step(cairn_world *w, double dt, cairn_diag *d) {
  for (size_t k = 0; k < w->walls.n; k++) {
    wall *wl = &w->walls.w[k];
    wall_servo *sv = &wl->servo;
    if (sv->mode == SERVO_OFF) continue;
    walls_settle(w);
    double f = servo_normal_force(wl), scale = 1.0;
    if (sv->mode == SERVO_STRESS) {
      double a;
      CAIRN_TRY(servo_area(w, wl, &a, d));
      scale = a;
    }
    sv->measured = f / scale;
    double err = sv->measured - servo_target(sv, w->time);
    /* Speed away from the balls. Without contacts there is no stiffness: close at full speed. */
    double v = wl->k_normal > 0 ? sv->alpha * err * scale / (wl->k_normal * dt)
               : err > 0        ? sv->vmax
               : err < 0        ? -sv->vmax
                                : 0.0;
    int capped = wl->k_normal > 0 ? 0 : v != 0;
    if (v > sv->vmax) v = sv->vmax, capped = 1;
    if (v < -sv->vmax) v = -sv->vmax, capped = 1;
    /* Told once. Until the wall first holds its target within 10 % for 100 steps running it is
       closing in (a gap, or a loose specimen being packed and giving way), at vmax as a rule:
       told if that lasts 100000 steps. After,
       told if it runs at vmax for 1000 steps without its error falling by a tenth: its target
       is out of reach at that speed. Either only while it is off its target by more than half
       the target: a specimen that gives way under a wall at 25 % below its target, which the
       wall follows slowly at vmax and reaches again, is an ordinary consolidation. */
    const double target = servo_target(sv, w->time);
    if (!sv->reached) { /* held for 100 steps running: a loose packing's spikes do not count */
      sv->held = wl->k_normal > 0 && fabs(err) <= 0.1 * target ? sv->held + 1 : 0;
      if (sv->held >= 100) sv->reached = 1;
    }
    if (capped) {
      if (sv->saturated++ == 0) sv->err_start = fabs(err);
      if (sv->saturated >= (sv->reached ? 1000u : 100000u)) {
        if (fabs(err) > 0.9 * sv->err_start && fabs(err) > 0.5 * target && !sv->warned && w->warn) {
          char msg[400];
          if (sv->reached)
            snprintf(msg, sizeof msg,
                     "the servo of wall %lld has moved at its most speed, vmax = %g, for 1000 "
                     "steps without nearing its target (it is %s it by %.3g); raise vmax, or "
                     "lower the loading rate",
                     (long long)wl->id, sv->vmax, err > 0 ? "above" : "below", fabs(err));
          else
            snprintf(msg, sizeof msg,
                     "the servo of wall %lld has moved at vmax = %g for 100000 steps without "
                     "reaching its target (%.3g now, target %.3g); raise vmax, or check its "
                     "axis (wall.servo(ID).axis) and that there are balls to meet",
                     (long long)wl->id, sv->vmax, sv->measured + 0.0, target);
          w->warn(w->warn_ud, msg);
          sv->warned = 1;
        }
        /* A new window, from this step: the wall is still at vmax (at_vmax reads the count). */
        sv->saturated = 1;
        sv->err_start = fabs(err);
      }
    } else {
      sv->saturated = 0;
    }
    if (wl->kind == WALL_CYLINDER) { /* away from the balls: the radius grows */
      wl->radial_vel = v;
      continue;
    }
    /* keep the velocity across the axis, set it along the axis */
    double along = v3_dot(wl->vel, sv->axis);
    for (int i = 0; i < 3; i++) wl->vel[i] += (-v - along) * sv->axis[i];
  }
  return CAIRN_OK;
}
