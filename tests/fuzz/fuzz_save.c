/* libFuzzer target: the save-file reader. Each input is written to a file and restored, as
   model.restore would; any input must give a world or one clear refusal, never a crash, a
   sanitizer report or a leak. Most inputs get their checksum made right first (below). Seeds:
   tests/fuzz/corpus_save/ (saves of small scenes of every feature the format holds, written by
   tests/fuzz/make_corpus.lua; seed_parts_*: the same run on two MPI ranks, saved in the ranks'
   parts).

   A restore that succeeds must give a world that passes the checks the script setters make (the
   save reader's value checks, io/save_read.c): finite positions and velocities, positive radii
   and masses, finite gravity, a known timestep mode; and the world must then cycle a few steps
   to a finite state or stop with one message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <math.h>

#include "cycle/cycle.h"
#include "io/io.h"
#include "world/world.h"

static int finite3(const double v[3]) {
  return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

/* What no script could have set; a restored world holding it means a value check is missing. */
static void check_values(const cairn_world *w) {
  if (!finite3(w->gravity)) abort();
  if (w->ts_mode != TS_AUTO && w->ts_mode != TS_FIXED) abort();
  if (w->ts_mode == TS_FIXED && !(isfinite(w->dt) && w->dt > 0)) abort();
  for (size_t i = 0; i < w->balls.n; i++) {
    if (!finite3(w->balls.pos[i]) || !finite3(w->balls.vel[i]) || !finite3(w->balls.spin[i]))
      abort();
    if (!(isfinite(w->balls.rad[i]) && w->balls.rad[i] > 0)) abort();
    if (!(isfinite(w->balls.mass[i]) && w->balls.mass[i] > 0)) abort();
  }
}

/* A few steps: they end in a finite state or in a refusal that says why. */
static void check_cycles(cairn_world *w) {
  cairn_diag d;
  d.msg[0] = 0;
  if (cycle_run(w, 3, &d) != CAIRN_OK) {
    if (!d.msg[0]) abort();
    return;
  }
  for (size_t i = 0; i < w->balls.n; i++)
    if (!finite3(w->balls.pos[i])) abort();
}

static cairn_status make_world(void *ud, int dim, cairn_world **out, cairn_diag *d) {
  (void)ud;
  cairn_world_opts o = {.dim = dim};
  return cairn_world_create(&o, out, d);
}

/* The format's checksum (io/save.c): FNV-1a, 64 bits, going on from h. */
static uint64_t fnv1a_more(uint64_t h, const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ULL;
  return h;
}
static uint64_t fnv1a(const unsigned char *p, size_t n) {
  return fnv1a_more(1469598103934665603ULL, p, n);
}

/* The payload's checksum, made right for its bytes (io/save.c, sum_matches): from format 9 the
   ranks' parts (section PRTS) are left out of it and each part's row of the parts' table gets
   the part's own (where the table fits its section). */
static uint64_t payload_sum(unsigned char *p, size_t n, uint32_t version) {
  size_t from = n, to = n;
  for (size_t pos = 0; version >= 9 && pos + 12 <= n;) {
    uint64_t len;
    memcpy(&len, p + pos + 4, 8);
    if (len > n - pos - 12) break;
    if (memcmp(p + pos, "PRTS", 4) == 0) {
      uint32_t P = 0;
      if (len >= 4) memcpy(&P, p + pos + 12, 4);
      if (len < 4 || (len - 4) / 16 < P) break;
      from = pos + 16 + 16 * (size_t)P, to = pos + 12 + (size_t)len;
      for (size_t r = 0, at = from; r < P; r++) {
        uint64_t row[2];
        memcpy(row, p + pos + 16 + 16 * r, 16);
        if (row[0] > to - at) break;
        row[1] = fnv1a(p + at, (size_t)row[0]);
        memcpy(p + pos + 16 + 16 * r, row, 16);
        at += (size_t)row[0];
      }
      break;
    }
    pos += 12 + (size_t)len;
  }
  return fnv1a_more(fnv1a(p, from), p + to, n - to);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static char path[64];
  static unsigned char *buf;
  static size_t cap;
  if (!path[0]) snprintf(path, sizeof path, "/tmp/cairn-fuzz-save-%d.sav", (int)getpid());
  if (size > cap) {
    free(buf);
    cap = size;
    buf = malloc(cap);
  }
  if (size) memcpy(buf, data, size);
  /* An input that starts as a save (its magic) gets its declared size and checksum made right
     for the bytes it has, so the mutations reach the payload's reader instead of being refused
     by the checksum; the first input byte after the magic being odd leaves it as it is, so the
     header's own checks are fuzzed too. */
  if (size >= 32 && memcmp(buf, "CAIRNSAV", 8) == 0 &&
      !(size > 8 && (data[size - 1] & 1) == 1 && (data[size - 2] & 7) == 7)) {
    uint64_t n = size - 32;
    memcpy(buf + 16, &n, 8);
    uint32_t version;
    memcpy(&version, buf + 8, 4);
    uint64_t sum = payload_sum(buf + 24, n, version);
    memcpy(buf + 24 + n, &sum, 8);
  }
  FILE *f = fopen(path, "wb");
  if (!f) return 0;
  if (size) fwrite(buf, 1, size, f);
  fclose(f);
  cairn_world *w = NULL;
  restore_info info;
  cairn_diag d;
  cairn_status s = io_restore(path, 0, make_world, NULL, &w, &info, &d);
  unlink(path); /* (read: a fuzzing run leaves nothing behind in /tmp) */
  if (getenv("CAIRN_FUZZ_SHOW")) fprintf(stderr, "%s\n", s == CAIRN_OK ? "restored" : d.msg);
  if (s == CAIRN_OK && !w) abort();               /* a restore that succeeds gives a world */
  if (s != CAIRN_OK && (w || !d.msg[0])) abort(); /* a refusal says why and leaves nothing */
  if (s == CAIRN_OK) {
    check_values(w);
    check_cycles(w);
  }
  cairn_world_destroy(&w);
  return 0;
}
