/* World creation and destruction, groups, and the dirty flag that forces a neighbour rebuild. */
#include <string.h>

#include "contact/contact.h"
#include "cycle/cycle.h"
#include "world/world.h"

cairn_status cairn_world_create(const cairn_world_opts *opts, cairn_world **out, cairn_diag *d) {
  *out = NULL;
  int dim = opts ? opts->dim : 3;
  CAIRN_CHECK(dim == 2 || dim == 3, d, CAIRN_EINVAL,
              "model dimension must be 2 or 3 (got %d); pass dim = 2 for disks or 3 for spheres",
              dim);
  cairn_world *w = mem_realloc(NULL, 0, sizeof *w, "world");
  if (!w) return diag_set(d, CAIRN_ENOMEM, "out of memory creating the world");
  memset(w, 0, sizeof *w);
  w->dim = dim;
  w->dt_safety = 0.8;
  w->dt_impact = 8; /* steps per impact: restitution within 0.5 % (docs/scripting.md) */
  w->ts_mode = TS_AUTO;
  w->n_groups = 1; /* group 0 is "no group" */
  w->hist.interval = 10;
  w->next_ball_id = 1;
  w->next_wall_id = 1;
  w->pairs.dirty = 1;
  cairn_status s = models_register_builtin(&w->reg, d);
  if (s == CAIRN_OK) s = cmat_set_default(w, CAIRN_KIND_BALL_BALL, "null", 0.0, d);
  if (s == CAIRN_OK) s = cmat_set_default(w, CAIRN_KIND_BALL_WALL, "null", 0.0, d);
  if (s != CAIRN_OK) {
    cairn_world_destroy(&w);
    return s;
  }
  *out = w;
  return CAIRN_OK;
}

static void pairs_free(pair_list *p) {
  mem_free(p->kind, 0), mem_free(p->a, 0), mem_free(p->b, 0), mem_free(p->contact, 0);
  mem_free(p->sgap, 0), mem_free(p->sok, 0);
  mem_free(p->cell_start, 0), mem_free(p->order, 0), mem_free(p->cell_of, 0);
  mem_free(p->sort_key, 0), mem_free(p->ahead, 0);
  memset(p, 0, sizeof *p);
}

void cairn_world_destroy(cairn_world **wp) {
  if (!wp || !*wp) return;
  cairn_world *w = *wp;
  contact_store_free(w);
  pairs_free(&w->pairs);
  ball_store_free(&w->balls);
  loads_free(&w->loads);
  mem_free(w->cracks.c, 0);
  wall_store_free(&w->walls);
  cmat_free(w);
  registry_free(&w->reg);
  history_clear(w);
  force_scratch_free(&w->fs);
  mem_free(w->events, 0);
  mem_free(w->del_mark, 0);
  mem_free(w->del_remap, 0);
  mem_free(w, sizeof *w);
  *wp = NULL;
}

int crack_order(const void *x, const void *y) {
  const crack *a = x, *b = y;
  if (a->step != b->step) return (a->step > b->step) - (a->step < b->step);
  if (a->kind != b->kind) return (a->kind > b->kind) - (a->kind < b->kind);
  if (a->id1 != b->id1) return (a->id1 > b->id1) - (a->id1 < b->id1);
  return (a->id2 > b->id2) - (a->id2 < b->id2);
}

void world_mark_dirty(cairn_world *w) {
  w->pairs.dirty = 1;
  w->contacts.links.ok = 0; /* (balls may have come, gone or moved slots) */
}

void world_event(cairn_world *w, world_event_type ev, uint32_t c, int mode) {
  if (!(w->event_mask >> ev & 1)) return;
  if (!contact_booked_here(w, w->contacts.kind[c], w->contacts.a[c], w->contacts.b[c])) return;
  if (w->n_events == w->cap_events && mem_grow((void **)&w->events, &w->cap_events, w->n_events + 1,
                                               sizeof *w->events, "events", NULL) != CAIRN_OK)
    return;
  const contact_store *cs = &w->contacts;
  event_rec *e = &w->events[w->n_events++];
  e->type = (uint8_t)ev;
  e->kind = cs->kind[c];
  e->mode = mode;
  contact_ids(w, c, &e->id1, &e->id2);
}

cairn_status world_call_hook(cairn_world *w, hook_point p, cairn_diag *d) {
  if (!w->hook) {
    w->n_events = 0;
    return CAIRN_OK;
  }
  return w->hook(w->hook_ud, w, p, d);
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
