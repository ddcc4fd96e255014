/* Applied loads (loads.c): forces and moments that scripts put on balls. */
#ifndef CAIRN_LOADS_H
#define CAIRN_LOADS_H

#include "core/core.h"
#include "core/idmap.h"
#include "core/xsum.h"

/* Forces and moments that scripts apply to balls (ball.force_app, ball.moment_app), by ball id:
   few balls carry one, so they live apart from the ball arrays. Under MPI decomposition each
   rank holds those of its own balls, and a load travels with its ball (src/par/). */
typedef struct load_set {
  size_t n, cap;
  int64_t *id;
  double (*f)[3], (*m)[3];
  idmap map; /* ball id -> index (a load on every ball is set in time linear in the balls) */
} load_set;

/* Applied loads (loads.c). Set ball id's applied force (which = 0) or moment (which = 1) to v;
   a load of zero force and moment is dropped. */
cairn_status loads_set(cairn_world *w, int64_t id, int which, const double v[3], cairn_diag *d);
/* The applied force (which = 0) or moment (1) of ball id (zero without one). */
void loads_get(const cairn_world *w, int64_t id, int which, double v[3]);
/* Forget ball id's load (the ball is deleted). */
void loads_remove(cairn_world *w, int64_t id);
/* Add every load to its ball's force and moment (after the contact forces of a step). Under MPI
   each rank applies those of its own balls. */
void loads_apply(cairn_world *w);
/* A load as it travels between MPI ranks and in save files: the ball's id, then the force and
   the moment (LOAD_ROW bytes). */
#define LOAD_ROW (sizeof(int64_t) + 6 * sizeof(double))
/* Load k (of w->loads) as a row into out. */
void loads_row(const cairn_world *w, size_t k, uint8_t *out);
/* What a row holds; set the load a row holds. */
void loads_row_read(const uint8_t *row, int64_t *id, double f[3], double m[3]);
cairn_status loads_row_set(cairn_world *w, const uint8_t *row, cairn_diag *d);
/* n rows in the order of their balls' ids. */
void loads_rows_sort(uint8_t *rows, size_t n);
/* Every load as rows, in the order of their balls' ids (a save file's order, the same whatever
   order they were set in): *out to mem_free, *n rows. */
cairn_status loads_rows_sorted(const cairn_world *w, uint8_t **out, size_t *n, cairn_diag *d);
/* Under MPI decomposition: forget the loads of balls this rank does not own (those not in its
   first 'owned' slots: they went, or live, on the rank that owns them). */
void loads_keep_owned(cairn_world *w, size_t owned);
/* The loads' work over a step of length dt whose motion is done (energy tracking), added to the
   exact sum acc: under MPI, that of this rank's own balls (the caller sums every rank's). */
void loads_work(const cairn_world *w, double dt, xsum *acc);
/* Forget every load (a gathering brings every rank's back). */
void loads_clear(load_set *l);
void loads_free(load_set *l);

#endif
