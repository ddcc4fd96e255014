/* A ball's several contacts with one mesh wall (detect.h, detect_mesh_picks): each step, on one
   thread, which place each contact follows, so that the passes that follow (in parallel) find
   the same places whatever the thread count, and a contact keeps its own face as the ball moves
   (its shear history stays with it). */
#include "contact/contact.h"
#include "detect/detect.h"

/* The pairs whose balls may touch their mesh wall at several places: found again after each
   rebuild or restore (their balls' lists, made at the rebuild, say so; a restored pair has no
   list, so every mesh pair is one until the next rebuild). */
static cairn_status find_mesh_pairs(cairn_world *w, cairn_diag *d) {
  pair_list *p = w->pairs;
  p->n_mesh_q = 0;
  for (size_t q = 0; q < p->n; q++) {
    if (p->kind[q] == CAIRN_KIND_BALL_BALL) continue;
    const wall *wl = &w->walls.w[p->a[q]];
    if (!wl->mesh || mesh_single(wl->mesh, p->b[q])) continue;
    CAIRN_TRY(mem_grow((void **)&p->mesh_q, &p->cap_mesh_q, p->n_mesh_q + 1, sizeof *p->mesh_q,
                       "pairs:mesh", d));
    p->mesh_q[p->n_mesh_q++] = (uint32_t)q;
  }
  p->mesh_q_gen = p->gen;
  return CAIRN_OK;
}

cairn_status detect_mesh_picks(cairn_world *w, cairn_diag *d) {
  pair_list *p = w->pairs;
  int any = 0;
  for (size_t k = 0; k < w->walls.n; k++)
    if (w->walls.w[k].mesh) {
      any = 1;
      CAIRN_TRY(mesh_picks_begin(w->walls.w[k].mesh, w->balls.n, d));
    }
  if (!any) return CAIRN_OK;
  if (p->mesh_q_gen != p->gen) CAIRN_TRY(find_mesh_pairs(w, d));
  const contact_store *cs = w->contacts;
  for (size_t i = 0; i < p->n_mesh_q; i++) {
    uint32_t q = p->mesh_q[i], b = q < p->n ? p->b[q] : UINT32_MAX;
    if (b >= w->balls.n || p->kind[q] == CAIRN_KIND_BALL_BALL || !w->walls.w[p->a[q]].mesh)
      continue; /* (a list found before the pairs changed: checked, not trusted) */
    const wall *wl = &w->walls.w[p->a[q]];
    if (mesh_pick_of(wl->mesh, b)) continue; /* (one pick a ball: its first pair) */
    mesh_pick *pk;
    CAIRN_TRY(mesh_pick_add(wl->mesh, b, &pk, d));
    for (int j = 0; j < MESH_CONTACTS; j++) {
      uint32_t c;
      if (contact_find(w, CAIRN_KIND_BALL_WALL + j, w->balls.id[b], wl->id, &c, NULL)) continue;
      v3_copy(cs->normal[c], pk->mem[j]);
      pk->has_mem[j] = 1;
    }
    double cl[3];
    geom_mesh_centre(wl, w->balls.pos[b], cl);
    geom_mesh_pick(wl, b, cl, w->balls.rad[b], pk);
  }
  return CAIRN_OK;
}
