/* Cracks: the order of the list of broken bonds. */
#include "contact/cracks.h"

int crack_order(const void *x, const void *y) {
  const crack *a = x, *b = y;
  if (a->step != b->step) return (a->step > b->step) - (a->step < b->step);
  if (a->kind != b->kind) return (a->kind > b->kind) - (a->kind < b->kind);
  if (a->id1 != b->id1) return (a->id1 > b->id1) - (a->id1 < b->id1);
  return (a->id2 > b->id2) - (a->id2 < b->id2);
}
