/* Atomic file output: write to "<path>.tmp-<pid>", then rename(2) over the target. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/comm.h"
#include "io/io.h"

static long fail_countdown = 0; /* test hook: the n-th output to finish fails as on a full disk */

void cairn_io_fail_output(long n) {
  fail_countdown = n;
}

long cairn_io_fail_output_pending(void) {
  return fail_countdown;
}

int io_output_fails_now(void) {
  return fail_countdown > 0 && --fail_countdown == 0;
}

static void tmp_name(atomic_file *af, long pid) {
  snprintf(af->tmp, sizeof af->tmp, "%s.tmp-%ld", af->path, pid);
}

static cairn_status open_file(atomic_file *af, const char *path, const char *shown, int own,
                              cairn_diag *d) {
  memset(af, 0, sizeof *af);
  CAIRN_CHECK(path && path[0] && strlen(path) < sizeof af->path, d, CAIRN_EINVAL,
              "output file name is empty or too long; give a shorter path");
  struct stat st;
  size_t len = strlen(path);
  CAIRN_CHECK(path[len - 1] != '/' && !(stat(path, &st) == 0 && S_ISDIR(st.st_mode)), d,
              CAIRN_EINVAL, "'%s' is a folder; give the name of a file (in it, for example '%s%s')",
              path, path, path[len - 1] == '/' ? "out" : "/out");
  snprintf(af->path, sizeof af->path, "%s", path);
  snprintf(af->shown, sizeof af->shown, "'%s'", path);
  if (shown) snprintf(af->shown, sizeof af->shown, "%s", shown);
  tmp_name(af, (long)getpid());
  if (!own && comm_rank() != 0) { /* every rank holds the same model: rank 0 writes it */
    af->discard = 1;
    af->f = fopen("/dev/null", "wb");
    CAIRN_CHECK(af->f, d, CAIRN_EIO, "cannot open /dev/null: %s", strerror(errno));
    return CAIRN_OK;
  }
  af->f = fopen(af->tmp, "wb");
  CAIRN_CHECK(af->f, d, CAIRN_EIO,
              "cannot write %s: %s; check that the folder exists and is writable", af->shown,
              strerror(errno));
  return CAIRN_OK;
}

cairn_status io_atomic_open_as(atomic_file *af, const char *path, const char *shown,
                               cairn_diag *d) {
  return open_file(af, path, shown, 0, d);
}

cairn_status io_atomic_open(atomic_file *af, const char *path, cairn_diag *d) {
  return open_file(af, path, NULL, 0, d);
}

cairn_status io_atomic_open_own(atomic_file *af, const char *path, cairn_diag *d) {
  return open_file(af, path, NULL, 1, d);
}

static cairn_status commit(atomic_file *af, cairn_diag *d) {
  if (af->discard) {
    fclose(af->f);
    af->f = NULL;
    return CAIRN_OK;
  }
  int bad = ferror(af->f);
  bad |= fflush(af->f) != 0;
  bad |= fsync(fileno(af->f)) != 0 && errno != EINVAL;
  int err = errno;
  bad |= fclose(af->f) != 0;
  af->f = NULL;
  if (!bad && io_output_fails_now()) bad = 1, err = ENOSPC; /* (the test hook) */
  if (bad || rename(af->tmp, af->path) != 0) {
    if (!bad) err = errno;
    remove(af->tmp);
    return diag_set(d, CAIRN_EIO,
                    "cannot write %s: %s; check the path (a file, not a folder), free space "
                    "and permissions",
                    af->shown, strerror(err));
  }
  return CAIRN_OK;
}

cairn_status io_atomic_commit(atomic_file *af, cairn_diag *d) {
  /* under MPI every rank waits for rank 0's file (a script may read it back at once) and
     shares its failure */
  return comm_agree(commit(af, d), d);
}

void io_atomic_share_tmp(atomic_file *af) {
  uint64_t pid = comm_rank() == 0 ? (uint64_t)getpid() : 0;
  comm_or_u64(&pid, 1);
  tmp_name(af, (long)pid);
}

cairn_status io_atomic_commit_own(atomic_file *af, cairn_diag *d) {
  return commit(af, d);
}

void io_atomic_abort(atomic_file *af) {
  if (af->f) fclose(af->f);
  af->f = NULL;
  if (!af->discard) remove(af->tmp);
}
