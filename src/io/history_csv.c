/* History export as CSV with full double precision, so exported curves can be re-checked; a
   history's unit follows its name in the header, in brackets. */
#include "cycle/history.h"
#include "io/io.h"

cairn_status io_history_csv_as(const cairn_world *w, const char *path, const char *shown,
                               cairn_diag *d) {
  const history_set *hs = w->hist;
  atomic_file af;
  CAIRN_TRY(io_atomic_open_as(&af, path, shown, d));
  fprintf(af.f, "step,time");
  for (size_t i = 0; i < hs->n; i++) /* "NAME [UNIT]" for a history with a unit */
    fprintf(af.f, hs->h[i].unit[0] ? ",%s [%s]" : ",%s", hs->h[i].name, hs->h[i].unit);
  fputc('\n', af.f);
  for (size_t r = 0; r < hs->n_rows; r++) {
    fprintf(af.f, "%.0f,%.17g", hs->step[r], hs->time[r]);
    for (size_t i = 0; i < hs->n; i++) fprintf(af.f, ",%.17g", hs->h[i].v[r]);
    fputc('\n', af.f);
  }
  return io_atomic_commit(&af, d);
}

cairn_status io_history_csv(const cairn_world *w, const char *path, cairn_diag *d) {
  return io_history_csv_as(w, path, NULL, d);
}
