/* Atomic file output: write to "<path>.tmp-<pid>", then rename(2) over the target. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "io/io.h"

cairn_status io_atomic_open(atomic_file *af, const char *path, cairn_diag *d) {
  memset(af, 0, sizeof *af);
  CAIRN_CHECK(path && path[0] && strlen(path) < sizeof af->path, d, CAIRN_EINVAL,
              "output file name is empty or too long; give a shorter path");
  snprintf(af->path, sizeof af->path, "%s", path);
  snprintf(af->tmp, sizeof af->tmp, "%s.tmp-%ld", path, (long)getpid());
  af->f = fopen(af->tmp, "wb");
  CAIRN_CHECK(af->f, d, CAIRN_EIO,
              "cannot write '%s': %s; check that the folder exists and is writable", path,
              strerror(errno));
  return CAIRN_OK;
}

cairn_status io_atomic_commit(atomic_file *af, cairn_diag *d) {
  int bad = ferror(af->f);
  bad |= fflush(af->f) != 0;
  bad |= fsync(fileno(af->f)) != 0 && errno != EINVAL;
  int err = errno;
  bad |= fclose(af->f) != 0;
  af->f = NULL;
  if (bad || rename(af->tmp, af->path) != 0) {
    if (!bad) err = errno;
    remove(af->tmp);
    return diag_set(d, CAIRN_EIO,
                    "cannot write '%s': %s; check the path (a file, not a folder), free space "
                    "and permissions",
                    af->path, strerror(err));
  }
  return CAIRN_OK;
}

void io_atomic_abort(atomic_file *af) {
  if (af->f) fclose(af->f);
  af->f = NULL;
  remove(af->tmp);
}
