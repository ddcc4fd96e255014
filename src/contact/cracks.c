/* Cracks: the order of the list of broken bonds. */
#include "contact/cracks.h"

int crack_order(const void *x, const void *y) {
  const crack *a = x, *b = y;
  if (a->step != b->step) return (a->step > b->step) - (a->step < b->step);
  if (a->kind != b->kind) return (a->kind > b->kind) - (a->kind < b->kind);
  if (a->id1 != b->id1) return (a->id1 > b->id1) - (a->id1 < b->id1);
  if (a->id2 != b->id2) return (a->id2 > b->id2) - (a->id2 < b->id2);
  /* (a ball's several contacts with one mesh wall: by where they broke) */
  for (int k = 0; k < 3; k++)
    if (a->pos[k] != b->pos[k]) return (a->pos[k] > b->pos[k]) - (a->pos[k] < b->pos[k]);
  /* (the pieces of one bond that broke in one step: tension first) */
  return (a->tension < b->tension) - (a->tension > b->tension);
}

cairn_status cracks_append(cairn_world *w, const crack *k, cairn_diag *d) {
  crack_set *cr = w->cracks;
  CAIRN_TRY(mem_grow((void **)&cr->c, &cr->cap, cr->n + 1, sizeof *cr->c, "cracks", d));
  cr->c[cr->n++] = *k;
  return CAIRN_OK;
}
