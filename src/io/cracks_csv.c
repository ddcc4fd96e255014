/* The broken bonds (cracks) as CSV: one row each, in the order they broke. */
#include "contact/cracks.h"
#include "io/io.h"

cairn_status io_cracks_csv(const crack *c, size_t n, const char *path, cairn_diag *d) {
  atomic_file af;
  CAIRN_TRY(io_atomic_open(&af, path, d));
  fprintf(af.f, "step,time,x,y,z,kind,id1,id2,mode\n");
  for (size_t i = 0; i < n; i++) {
    const crack *k = &c[i];
    fprintf(af.f, "%llu,%.17g,%.17g,%.17g,%.17g,%s,%lld,%lld,%s\n", (unsigned long long)k->step,
            k->time, k->pos[0], k->pos[1], k->pos[2],
            k->kind == CAIRN_KIND_BALL_BALL ? "ball-ball" : "ball-wall", (long long)k->id1,
            (long long)k->id2, k->tension ? "tension" : "shear");
  }
  return io_atomic_commit(&af, d);
}
