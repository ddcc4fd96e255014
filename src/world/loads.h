/* Applied loads (loads.c): forces and moments that scripts put on balls. */
#ifndef CAIRN_LOADS_H
#define CAIRN_LOADS_H

#include "core/core.h"
#include "core/xsum.h"

/* Forces and moments that scripts apply to balls (ball.force_app, ball.moment_app), by ball id,
   global: few balls carry one, so they live apart from the ball arrays. */
typedef struct load_set {
  size_t n, cap;
  int64_t *id;
  double (*f)[3], (*m)[3];
} load_set;

/* Applied loads (loads.c). Set ball id's applied force (which = 0) or moment (which = 1) to v;
   a load of zero force and moment is dropped. */
cairn_status loads_set(cairn_world *w, int64_t id, int which, const double v[3], cairn_diag *d);
/* The applied force (which = 0) or moment (1) of ball id (zero without one). */
void loads_get(const cairn_world *w, int64_t id, int which, double v[3]);
/* Forget ball id's load (the ball is deleted). */
void loads_remove(cairn_world *w, int64_t id);
/* Add every load to its ball's force and moment (after the contact forces of a step). Under MPI
   every rank holds every load and applies those of its own balls. */
void loads_apply(cairn_world *w);
/* The loads' work over a step of length dt whose motion is done (energy tracking), added to the
   exact sum acc: under MPI, that of this rank's own balls (the caller sums every rank's). */
void loads_work(const cairn_world *w, double dt, xsum *acc);
void loads_free(load_set *l);

#endif
