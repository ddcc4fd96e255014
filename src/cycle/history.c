/* Histories: named scalar functions sampled every 'interval' steps into columns of values,
   with the step and time of each row. The samplers themselves live in the script layer. */
#include <string.h>

#include "cycle/cycle.h"

const char *history_unit_problem(const char *unit) {
  size_t n = strlen(unit);
  if (n == 0 || n >= HISTORY_MAX_UNIT) return "must have 1 to 31 characters";
  if (strpbrk(unit, ",\"'[]\n\r")) return "must not hold a comma, quote, bracket or line break";
  return NULL;
}

cairn_status history_add(cairn_world *w, const char *name, const char *unit, history_sampler fn,
                         void *ud, cairn_diag *d) {
  history_set *hs = w->hist;
  const char *bad = unit ? history_unit_problem(unit) : NULL;
  CAIRN_CHECK(!bad, d, CAIRN_EINVAL,
              "history '%s': its unit '%s' %s (it goes into the CSV header as \"%s [UNIT]\"); "
              "write it like \"kPa\", \"m/s\" or \"-\"",
              name, unit, bad, name);
  CAIRN_CHECK(name && name[0] && strlen(name) < CAIRN_MAX_NAME, d, CAIRN_EINVAL,
              "history name must have 1 to %d characters", CAIRN_MAX_NAME - 1);
  CAIRN_CHECK(!strpbrk(name, ",\"\n\r"), d, CAIRN_EINVAL,
              "history name '%s' contains a comma, quote or line break, which would break the "
              "CSV columns; use letters, digits and symbols like _ ( ) @",
              name);
  for (size_t i = 0; i < hs->n; i++) {
    if (strcmp(hs->h[i].name, name) != 0) continue;
    /* A history restored from a save keeps its data but not its function: attach it again. */
    CAIRN_CHECK(!hs->h[i].fn && fn, d, CAIRN_EINVAL,
                "history '%s' already exists; give each history a unique name", name);
    hs->h[i].fn = fn;
    hs->h[i].ud = ud;
    if (unit) snprintf(hs->h[i].unit, sizeof hs->h[i].unit, "%s", unit);
    return CAIRN_OK;
  }
  CAIRN_TRY(mem_grow((void **)&hs->h, &hs->cap, hs->n + 1, sizeof *hs->h, "history", d));
  history *h = &hs->h[hs->n];
  memset(h, 0, sizeof *h);
  if (hs->cap_rows) {
    h->v = mem_realloc(NULL, 0, hs->cap_rows * sizeof(double), "history:values");
    if (!h->v) return diag_set(d, CAIRN_ENOMEM, "out of memory adding history '%s'", name);
    for (size_t r = 0; r < hs->n_rows; r++) h->v[r] = NAN;
  }
  snprintf(h->name, sizeof h->name, "%s", name);
  if (unit) snprintf(h->unit, sizeof h->unit, "%s", unit);
  h->fn = fn;
  h->ud = ud;
  hs->n++;
  return CAIRN_OK;
}

cairn_status history_sample(cairn_world *w, cairn_diag *d) {
  history_set *hs = w->hist;
  if (hs->n == 0) return CAIRN_OK;
  if (hs->n_rows + 1 > hs->cap_rows) {
    size_t old = hs->cap_rows, cap = mem_next_cap(old, hs->n_rows + 1);
    CAIRN_TRY(mem_resize((void **)&hs->step, old, cap, sizeof(double), "history:step", d));
    CAIRN_TRY(mem_resize((void **)&hs->time, old, cap, sizeof(double), "history:time", d));
    for (size_t i = 0; i < hs->n; i++)
      CAIRN_TRY(mem_resize((void **)&hs->h[i].v, old, cap, sizeof(double), "history:values", d));
    hs->cap_rows = cap;
  }
  size_t r = hs->n_rows;
  for (size_t i = 0; i < hs->n; i++) {
    double v = NAN;
    CAIRN_CHECK(hs->h[i].fn, d, CAIRN_ESTATE,
                "history '%s' was restored without its function; call history.add(\"%s\", fn) "
                "again after model.restore",
                hs->h[i].name, hs->h[i].name);
    CAIRN_TRY(hs->h[i].fn(hs->h[i].ud, &v, d));
    hs->h[i].v[r] = v;
  }
  hs->step[r] = (double)w->step;
  hs->time[r] = w->time;
  hs->n_rows++;
  return CAIRN_OK;
}

void history_set_interval(cairn_world *w, uint64_t k) {
  w->hist->interval = k;
  w->hist->by = NULL;
}

void history_set_by(cairn_world *w, history_sampler fn, void *ud, double every) {
  history_set *hs = w->hist;
  hs->by = fn, hs->by_ud = ud, hs->by_every = every, hs->by_started = 0;
}

cairn_status history_due(cairn_world *w, int *due, cairn_diag *d) {
  history_set *hs = w->hist;
  *due = 0;
  if (!hs->n) return CAIRN_OK;
  if (!hs->by) {
    *due = hs->interval && w->step % hs->interval == 0;
    return CAIRN_OK;
  }
  double q;
  CAIRN_TRY(hs->by(hs->by_ud, &q, d));
  CAIRN_CHECK(isfinite(q), d, CAIRN_ECALLBACK,
              "the quantity histories are sampled by (history.interval{by = ...}) is %g, not a "
              "finite number, at step %llu",
              q, (unsigned long long)w->step);
  if (!hs->by_started || fabs(q - hs->by_last) >= hs->by_every) {
    *due = 1;
    hs->by_last = q, hs->by_started = 1;
  }
  return CAIRN_OK;
}

void history_clear(cairn_world *w) {
  history_set *hs = w->hist;
  for (size_t i = 0; i < hs->n; i++) mem_free(hs->h[i].v, 0);
  mem_free(hs->h, 0);
  mem_free(hs->step, 0);
  mem_free(hs->time, 0);
  uint64_t interval = hs->interval;
  history_sampler by = hs->by;
  void *by_ud = hs->by_ud;
  double every = hs->by_every;
  memset(hs, 0, sizeof *hs);
  hs->interval = interval; /* (the sampling rule stays, as the interval does) */
  hs->by = by, hs->by_ud = by_ud, hs->by_every = every;
}

cairn_status history_restore_rows(cairn_world *w, uint64_t interval, size_t rows,
                                  const double *step, const double *time, cairn_diag *d) {
  history_set *hs = w->hist;
  hs->interval = interval;
  if (rows) {
    CAIRN_TRY(mem_resize((void **)&hs->step, 0, rows, sizeof(double), "history:step", d));
    CAIRN_TRY(mem_resize((void **)&hs->time, 0, rows, sizeof(double), "history:time", d));
    hs->cap_rows = rows;
    memcpy(hs->step, step, rows * sizeof(double));
    memcpy(hs->time, time, rows * sizeof(double));
  }
  hs->n_rows = rows;
  return CAIRN_OK;
}

cairn_status history_restore_column(cairn_world *w, const char *name, const double *v,
                                    cairn_diag *d) {
  history_set *hs = w->hist;
  CAIRN_TRY(history_add(w, name, NULL, NULL, NULL, d));
  if (hs->n_rows) memcpy(hs->h[hs->n - 1].v, v, hs->n_rows * sizeof(double));
  return CAIRN_OK;
}
