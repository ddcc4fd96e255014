/* Cracks: the bonds broken so far, in the order they broke (for scripts, VTK and CSV). */
#ifndef CAIRN_CRACKS_H
#define CAIRN_CRACKS_H

#include "world/world.h"

/* Broken bonds, in the order they broke (a bond_break event with mode 0). */
typedef struct crack {
  uint64_t step;
  double time, pos[3]; /* the contact point */
  int64_t id1, id2;    /* as in an event: ball-ball lower, higher id; ball-wall ball id, wall id */
  uint8_t kind;        /* contact kind */
  uint8_t tension;     /* 1: the contact carried no compression after breaking (it broke open or
                          in tension), 0: it broke in shear */
} crack;

typedef struct crack_set {
  size_t n, cap;
  crack *c;
} crack_set;
/* The order of the crack list (qsort's comparison): by step, then kind, then ids, then the
   point (cracks.c). */
int crack_order(const void *x, const void *y);

/* Append crack k (a copy) after the others: restoring a saved model (src/io/). */
cairn_status cracks_append(cairn_world *w, const crack *k, cairn_diag *d);

#endif
