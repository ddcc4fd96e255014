/* libFuzzer target: the save-file reader. Each input is written to a file and restored, as
   model.restore would; any input must give a world or one clear refusal, never a crash, a
   sanitizer report or a leak. Most inputs get their checksum made right first (below). Seeds:
   tests/fuzz/corpus_save/ (saves of small scenes of every feature the format holds, written by
   tests/fuzz/make_corpus.lua). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/io.h"

static cairn_status make_world(void *ud, int dim, cairn_world **out, cairn_diag *d) {
  (void)ud;
  cairn_world_opts o = {.dim = dim};
  return cairn_world_create(&o, out, d);
}

/* The format's checksum (io/save.c): FNV-1a, 64 bits. */
static uint64_t fnv1a(const unsigned char *p, size_t n) {
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ULL;
  return h;
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
    uint64_t sum = fnv1a(buf + 24, n);
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
  if (getenv("CAIRN_FUZZ_SHOW")) fprintf(stderr, "%s\n", s == CAIRN_OK ? "restored" : d.msg);
  if (s == CAIRN_OK && !w) abort();               /* a restore that succeeds gives a world */
  if (s != CAIRN_OK && (w || !d.msg[0])) abort(); /* a refusal says why and leaves nothing */
  cairn_world_destroy(&w);
  return 0;
}
