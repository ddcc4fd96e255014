/* Histories (history.c): named scalar functions sampled every 'interval' steps into columns of
   values, with the step and time of each row. The samplers themselves live in the script layer. */
#ifndef CAIRN_HISTORY_H
#define CAIRN_HISTORY_H

#include "world/world.h"

/* A function sampled into a history; implemented by the script layer. Returns CAIRN_OK or a
   failure with d filled. */
typedef cairn_status (*history_sampler)(void *ud, double *value, cairn_diag *d);

/* A history's unit has at most HISTORY_MAX_UNIT - 1 characters (history_unit_problem). */
#define HISTORY_MAX_UNIT 32

typedef struct history {
  char name[CAIRN_MAX_NAME];
  history_sampler fn;
  void *ud;
  double *v; /* one value per row; NaN for rows sampled before the history was added */
  char unit[HISTORY_MAX_UNIT]; /* "" if none: the values' unit, for exports and plots */
} history;

typedef struct history_set {
  size_t n, cap;
  history *h;
  size_t n_rows, cap_rows;
  double *step, *time; /* per row */
  uint64_t interval;
  /* Sampling by a quantity instead (history_set_by): a row whenever 'by' has moved by at least
     'by_every' since the last row (and at the first step): a strain, a displacement, any
     quantity that runs one way. The function lives in the script layer and is not saved. */
  history_sampler by;
  void *by_ud;
  double by_every, by_last;
  int by_started;
} history_set;

/* What is wrong with a unit for a history ("kPa", "m/s", "-"), or NULL if nothing: 1 to 31
   characters, none of them a comma, quote, bracket or line break (it goes into a CSV header as
   "NAME [UNIT]"). */
const char *history_unit_problem(const char *unit);
/* Add history 'name' with its unit (NULL: none; for a restored history attached again, NULL
   keeps the unit it had). */
cairn_status history_add(cairn_world *w, const char *name, const char *unit, history_sampler fn,
                         void *ud, cairn_diag *d);
cairn_status history_sample(cairn_world *w, cairn_diag *d);
/* Sample every k steps (k >= 1); this ends sampling by a quantity. */
void history_set_interval(cairn_world *w, uint64_t k);
/* Sample whenever fn's value has moved by 'every' (> 0) since the last row, and at the next
   step; fn NULL: back to the step interval. */
void history_set_by(cairn_world *w, history_sampler fn, void *ud, double every);
/* Whether this step takes a row (the step interval, or the quantity's move); evaluates the
   quantity when sampling by one. */
cairn_status history_due(cairn_world *w, int *due, cairn_diag *d);
void history_clear(cairn_world *w);
/* Restoring a saved model (src/io/): the sampling interval and the rows as saved, 'rows' steps
   and times (copied), before any history is added; then each history with its name and its
   values of those rows (copied; it has no function until history_add attaches one). */
cairn_status history_restore_rows(cairn_world *w, uint64_t interval, size_t rows,
                                  const double *step, const double *time, cairn_diag *d);
cairn_status history_restore_column(cairn_world *w, const char *name, const double *v,
                                    cairn_diag *d);

#endif
