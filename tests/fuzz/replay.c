/* Runs a fuzz target's inputs once each, without libFuzzer: the regression inputs (every
   finding, tests/fuzz/regress_NAME/) and the seed corpus run in the ordinary test suite, and
   under the sanitizers in `make test-asan`. Arguments: files or folders of inputs. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "replay: cannot read %s\n", path);
    return 1;
  }
  size_t cap = 1 << 16, n = 0;
  uint8_t *buf = malloc(cap);
  for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
    n += got;
    if (n == cap) buf = realloc(buf, cap *= 2);
  }
  fclose(f);
  if (!buf) return 1;
  LLVMFuzzerTestOneInput(buf, n);
  free(buf);
  printf("replayed %s (%zu bytes)\n", path, n);
  return 0;
}

int main(int argc, char **argv) {
  int bad = 0, count = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
      struct dirent **names;
      int n = scandir(argv[i], &names, NULL, alphasort); /* sorted: the same order every run */
      for (int k = 0; k < n; k++) {
        if (names[k]->d_name[0] != '.') {
          char path[4096];
          snprintf(path, sizeof path, "%s/%s", argv[i], names[k]->d_name);
          bad |= run_file(path);
          count++;
        }
        free(names[k]);
      }
      free(names);
    } else {
      bad |= run_file(argv[i]);
      count++;
    }
  }
  printf("replay: %d inputs, all handled\n", count);
  return bad;
}
