/* The world's own fields: defaults of a new world, groups, and the layout counter that tells the
   floors above that balls or walls changed (docs/architecture.md: the world calls nothing above
   it; the assembler in src/model/ creates and destroys the whole model). */
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
  loads_free(&w->loads);
  wall_store_free(&w->walls);
  mem_free(w->del_mark, 0);
  mem_free(w->del_remap, 0);
  w->del_mark = NULL, w->del_remap = NULL;
  w->cap_del_mark = w->cap_del_remap = 0;
}

void world_mark_dirty(cairn_world *w) {
  w->layout++; /* (balls may have come, gone or moved slots) */
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
