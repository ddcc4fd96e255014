/* Output files. Every file is written atomically: to a temporary name beside the target, then
   renamed over it, so a reader never sees a half-written file and a failed run leaves none. */
#ifndef CAIRN_IO_H
#define CAIRN_IO_H

#include <stdio.h>

#include "world/world.h"

typedef struct atomic_file {
  FILE *f;
  char path[4096], tmp[4096 + 32];
} atomic_file;

cairn_status io_atomic_open(atomic_file *af, const char *path, cairn_diag *d);
/* Flush, close and rename into place; on any write error remove the temporary and fail. */
cairn_status io_atomic_commit(atomic_file *af, cairn_diag *d);
/* Give up: close and remove the temporary. */
void io_atomic_abort(atomic_file *af);

/* Write the world's histories as CSV: step,time,<names...>; one row per sample. */
cairn_status io_history_csv(const cairn_world *w, const char *path, cairn_diag *d);

#endif
