/* Walls moved by tables of velocity and spin against time (world/wall.h, wall_motion). */
#include <math.h>
#include <string.h>

#include "world/world.h"

/* The table's velocity (which = 0) or spin (1) at time t: linear between its points, held
   beyond its ends. */
static void at_time(const wall_motion *m, int which, double t, double out[3]) {
  const double(*v)[3] = which ? m->spin : m->vel;
  double s;
  int i;
  if (!table_piece(m->t, m->n_points, t, &i, &s)) {
    v3_copy(v[i], out);
    return;
  }
  for (int k = 0; k < 3; k++) out[k] = v[i][k] + s * (v[i + 1][k] - v[i][k]);
}

static void follow(wall *wl, double t) {
  const wall_motion *m = &wl->motion;
  if (m->has_vel) at_time(m, 0, t, wl->vel);
  if (m->has_spin) at_time(m, 1, t, wl->spin);
}

cairn_status wall_set_motion(cairn_world *w, wall *wl, const wall_motion *m, double t,
                             cairn_diag *d) {
  const long long id = (long long)wl->id;
  if (m->n_points == 0) {
    memset(&wl->motion, 0, sizeof wl->motion);
    return CAIRN_OK;
  }
  CAIRN_CHECK(m->n_points >= 1 && m->n_points <= WALL_MOTION_MAX_POINTS, d, CAIRN_EINVAL,
              "the motion table of wall %lld needs 1 to %d points (got %d)", id,
              WALL_MOTION_MAX_POINTS, m->n_points);
  CAIRN_CHECK(m->has_vel || m->has_spin, d, CAIRN_EINVAL,
              "the motion table of wall %lld gives neither velocities nor spins", id);
  for (int i = 0; i < m->n_points; i++) {
    CAIRN_CHECK(isfinite(m->t[i]) && (i == 0 || m->t[i] > m->t[i - 1]), d, CAIRN_EINVAL,
                "the motion table of wall %lld: time %d (%g) is not a finite number after the "
                "one before it; give the times in increasing order",
                id, i + 1, m->t[i]);
    /* each point as the wall would take it (a scratch copy: nothing changes on a refusal) */
    wall scratch = *wl;
    if (m->has_vel) CAIRN_TRY(wall_set_velocity(w, &scratch, m->vel[i], d));
    if (m->has_spin) CAIRN_TRY(wall_set_spin(w, &scratch, m->spin[i], d));
  }
  wl->motion = *m;
  follow(wl, t);
  return CAIRN_OK;
}

void walls_follow_motion(cairn_world *w, double t) {
  for (size_t k = 0; k < w->walls.n; k++)
    if (w->walls.w[k].motion.n_points) follow(&w->walls.w[k], t);
}
