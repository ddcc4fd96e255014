/* The world's own fields: defaults of a new world, groups, and the layout counter that tells the
   floors above that balls or walls changed (docs/architecture.md: the world calls nothing above
   it; the assembler in src/model/ creates and destroys the whole model). */
#include <stdio.h>
#include <string.h>

#include "world/world.h"

void world_init(cairn_world *w, int dim) {
  w->dim = dim;
  w->dt_safety = 0.8;
  w->dt_impact = 8; /* steps per impact: restitution within 0.5 % (docs/scripting.md) */
  w->ts_mode = TS_AUTO;
  w->n_groups = 1; /* group 0 is "no group" */
  w->next_ball_id = 1;
  w->next_wall_id = 1;
}

void world_free_own(cairn_world *w) {
  ball_store_free(&w->balls);
  clump_store_free(&w->clumps);
  loads_free(&w->loads);
  wall_store_free(&w->walls);
  mem_free(w->del_mark, 0);
  mem_free(w->del_remap, 0);
  w->del_mark = NULL, w->del_remap = NULL;
  w->cap_del_mark = w->cap_del_remap = 0;
}

void world_set_gravity(cairn_world *w, const double g[3]) {
  v3_copy(g, w->gravity);
}

void world_set_domain(cairn_world *w, const double lo[3], const double hi[3], domain_cond cond) {
  world_restore_domain(w, 1, lo, hi, cond, w->n_destroyed);
}

void world_set_timestep_fixed(cairn_world *w, double dt, int strict) {
  w->ts_mode = TS_FIXED;
  w->dt = dt;
  w->dt_strict = strict, w->dt_warned = 0;
}

void world_set_timestep_auto(cairn_world *w, double safety, double impact) {
  w->ts_mode = TS_AUTO;
  w->dt_safety = safety;
  w->dt_impact = impact;
}

void world_set_warn(cairn_world *w, void (*fn)(void *ud, const char *msg), void *ud) {
  w->warn = fn, w->warn_ud = ud;
}

void world_set_progress(cairn_world *w,
                        void (*fn)(void *ud, double fraction, uint64_t steps, int done), void *ud) {
  w->progress = fn, w->progress_ud = ud;
}

void world_set_after_step(cairn_world *w, uint64_t every,
                          cairn_status (*fn)(void *ud, cairn_world *w, cairn_diag *d), void *ud) {
  w->after_step = fn, w->after_step_ud = ud;
  w->after_step_every = every > 0 ? every : 1;
}

void world_set_hook(cairn_world *w, world_hook_fn fn, void *ud) {
  w->hook = fn, w->hook_ud = ud;
}

void world_mark_dirty(cairn_world *w) {
  w->layout++; /* (balls may have come, gone or moved slots) */
}

void world_restore_clock(cairn_world *w, const world_clock *c) {
  v3_copy(c->gravity, w->gravity);
  w->ts_mode = c->ts_mode;
  w->dt = c->dt, w->dt_safety = c->dt_safety, w->time = c->time;
  w->step = c->step;
}

void world_restore_impact(cairn_world *w, double dt_impact, double kn_m_max, double dt_taken) {
  w->dt_impact = dt_impact, w->kn_m_max = kn_m_max, w->dt_taken = dt_taken;
}

void world_restore_domain(cairn_world *w, int on, const double lo[3], const double hi[3],
                          domain_cond cond, uint64_t n_destroyed) {
  w->has_domain = on;
  v3_copy(lo, w->dom_min);
  v3_copy(hi, w->dom_max);
  w->dom_cond = cond;
  w->n_destroyed = n_destroyed;
}

void world_restore_next_ids(cairn_world *w, int64_t next_ball, int64_t next_wall) {
  w->next_ball_id = next_ball, w->next_wall_id = next_wall;
}

void world_restore_groups(cairn_world *w, size_t n, const char *names) {
  for (size_t g = 1; g < n; g++)
    snprintf(w->groups[g], sizeof w->groups[g], "%s", names + g * CAIRN_MAX_NAME);
  w->n_groups = n;
}

cairn_status world_group_index(cairn_world *w, const char *name, uint16_t *out, cairn_diag *d) {
  if (!name || !name[0]) {
    *out = 0;
    return CAIRN_OK;
  }
  CAIRN_CHECK(strlen(name) < CAIRN_MAX_NAME, d, CAIRN_EINVAL,
              "group name '%.20s...' is too long; use at most %d characters", name,
              CAIRN_MAX_NAME - 1);
  for (size_t i = 1; i < w->n_groups; i++)
    if (strcmp(w->groups[i], name) == 0) {
      *out = (uint16_t)i;
      return CAIRN_OK;
    }
  CAIRN_CHECK(w->n_groups < sizeof w->groups / sizeof *w->groups, d, CAIRN_EINVAL,
              "too many groups (%zu); reuse group names", w->n_groups);
  snprintf(w->groups[w->n_groups], CAIRN_MAX_NAME, "%s", name);
  *out = (uint16_t)w->n_groups++;
  return CAIRN_OK;
}

const char *world_group_name(const cairn_world *w, uint16_t g) {
  return w->groups[g];
}
