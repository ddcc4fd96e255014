/* Fault injection over a whole scripted run (tests/fault/pour.lua: a pour with saves, a restore,
   VTK, CSV and plot output). Two modes:
     fault_run alloc SCRIPT FOLDER   fails the 1st, 2nd, ... k-th allocation (cairn's and Lua's:
                                     cairn_mem_fail_after) until a run makes fewer than k;
     fault_run write SCRIPT FOLDER   fails the 1st, 2nd, ... k-th output file as on a full disk
                                     (cairn_io_fail_output) until a run writes fewer than k.
   Every run starts in an empty FOLDER. A run that meets its failure must stop with one message
   saying so ("out of memory" / "not enough memory", or "No space left on device"), and leave in
   the folder no temporary file and no damaged one: every save restores, every VTK file is whole
   XML, every CSV ends its last line; a save that failed left the earlier save of that name as it
   was. Leaks are the sanitizer run's to find (make test-asan runs this too). Prints the number of
   runs and exits 0 when all were clean; a failed check prints why and exits 1. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/io.h"
#include "lua/lua_api.h"

static int fails = 0;

static void bad(long k, const char *what, const char *detail) {
  fprintf(stderr, "FAILED at k = %ld: %s%s%s\n", k, what, detail ? ": " : "", detail ? detail : "");
  fails++;
}

static void empty_folder(const char *dir) {
  DIR *dp = opendir(dir);
  if (!dp) return;
  for (struct dirent *e; (e = readdir(dp));) {
    if (e->d_name[0] == '.') continue;
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    remove(p);
  }
  closedir(dp);
}

static int ends_with(const char *path, const char *tail) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  size_t n = strlen(tail);
  char buf[64] = "";
  int ok =
      fseek(f, -(long)n, SEEK_END) == 0 && fread(buf, 1, n, f) == n && memcmp(buf, tail, n) == 0;
  fclose(f);
  return ok;
}

static cairn_status make_world(void *ud, int dim, cairn_world **out, cairn_diag *d) {
  (void)ud;
  cairn_world_opts o = {.dim = dim};
  return cairn_world_create(&o, out, d);
}

/* What the folder holds after run k: nothing temporary, nothing damaged. */
static void check_folder(long k, const char *dir) {
  DIR *dp = opendir(dir);
  if (!dp) return bad(k, "the folder is gone", dir);
  for (struct dirent *e; (e = readdir(dp));) {
    const char *n = e->d_name;
    if (n[0] == '.') continue;
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", dir, n);
    size_t len = strlen(n);
    if (strstr(n, ".tmp-")) bad(k, "a temporary file was left behind", n);
    if (len > 4 && strcmp(n + len - 4, ".sav") == 0) {
      cairn_world *w = NULL;
      restore_info info;
      cairn_diag d;
      if (io_restore(p, 0, make_world, NULL, &w, &info, &d) != CAIRN_OK)
        bad(k, "a save does not restore", d.msg);
      cairn_world_destroy(&w);
    }
    if (len > 4 && strcmp(n + len - 4, ".vtp") == 0 && !ends_with(p, "</VTKFile>\n"))
      bad(k, "a VTK file is not whole", n);
    if (len > 4 && strcmp(n + len - 4, ".pvd") == 0 && !ends_with(p, "</VTKFile>\n"))
      bad(k, "a VTK collection is not whole", n);
    if (len > 4 && strcmp(n + len - 4, ".csv") == 0 && !ends_with(p, "\n"))
      bad(k, "a CSV file is not whole", n);
  }
  closedir(dp);
}

/* The files of the run without a failure, to compare a run with: name and contents. */
typedef struct file_set {
  int n;
  char name[64][256];
  char *data[64];
  long size[64];
} file_set;

static char *slurp(const char *path, long *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  *size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *p = malloc((size_t)*size + 1);
  if (p && fread(p, 1, (size_t)*size, f) != (size_t)*size) *size = -1;
  fclose(f);
  return p;
}

static void read_folder(file_set *fs) {
  DIR *dp = opendir(".");
  fs->n = 0;
  for (struct dirent *e; dp && (e = readdir(dp)) && fs->n < 64;) {
    if (e->d_name[0] == '.') continue;
    snprintf(fs->name[fs->n], sizeof fs->name[0], "%s", e->d_name);
    fs->data[fs->n] = slurp(e->d_name, &fs->size[fs->n]);
    fs->n++;
  }
  if (dp) closedir(dp);
}

static void free_set(file_set *fs) {
  for (int i = 0; i < fs->n; i++) free(fs->data[i]);
  fs->n = 0;
}

/* A run whose failure was absorbed (Lua collects garbage and tries an allocation again) must have
   written exactly what the run without a failure wrote. */
static void check_same(long k, const file_set *ref) {
  file_set now;
  read_folder(&now);
  if (now.n != ref->n) bad(k, "a run that absorbed its failure wrote other files", NULL);
  for (int i = 0; i < ref->n && now.n == ref->n; i++) {
    int j = 0;
    while (j < now.n && strcmp(now.name[j], ref->name[i]) != 0) j++;
    if (j == now.n || now.size[j] != ref->size[i] ||
        memcmp(now.data[j], ref->data[i], (size_t)ref->size[i]) != 0)
      bad(k, "a run that absorbed its failure wrote a file otherwise", ref->name[i]);
  }
  free_set(&now);
}

int main(int argc, char **argv) {
  if (argc != 4 || (strcmp(argv[1], "alloc") && strcmp(argv[1], "write"))) {
    fprintf(stderr, "usage: fault_run alloc|write SCRIPT FOLDER\n");
    return 2;
  }
  int alloc = strcmp(argv[1], "alloc") == 0;
  char script[4096];
  if (!realpath(argv[2], script)) {
    perror(argv[2]);
    return 2;
  }
  mkdir(argv[3], 0755);
  if (chdir(argv[3]) != 0) {
    perror(argv[3]);
    return 2;
  }
  long k = 1, failed_runs = 0, absorbed = 0;
  file_set ref;
  {
    empty_folder(".");
    cairn_diag d = {{0}};
    if (script_run_file(script, "fault", 1, NULL, 0, NULL, &d) != CAIRN_OK) {
      fprintf(stderr, "FAILED: the run without a failure failed: %s\n", d.msg);
      return 1;
    }
    read_folder(&ref);
  }
  for (;; k++) {
    empty_folder(".");
    if (alloc)
      cairn_mem_fail_after(k);
    else
      cairn_io_fail_output(k);
    cairn_diag d = {{0}};
    cairn_status s = script_run_file(script, "fault", 1, NULL, 0, NULL, &d);
    long pending = alloc ? cairn_mem_fail_pending() : cairn_io_fail_output_pending();
    cairn_mem_fail_after(0);
    cairn_io_fail_output(0);
    if (pending > 0) { /* the k-th never came: the whole run went through */
      if (s != CAIRN_OK) bad(k, "the run without a failure failed", d.msg);
      check_folder(k, ".");
      break;
    }
    const char *want = alloc ? "memory" : "No space left on device";
    if (s == CAIRN_OK) {
      if (!alloc) bad(k, "the failure went unreported", NULL);
      absorbed++;
      check_same(k, &ref);
      continue;
    }
    failed_runs++;
    if (!strstr(d.msg, want)) bad(k, "the message does not say what failed", d.msg);
    if (getenv("FAULT_SHOW")) printf("k = %ld: %s\n", k, d.msg);
    check_folder(k, ".");
    if (fails > 20) break;
  }
  empty_folder(".");
  free_set(&ref);
  printf("fault_run %s: %ld runs, %ld stopped on their failure, %ld absorbed it, %d problems\n",
         argv[1], k, failed_runs, absorbed, fails);
  return fails ? 1 : 0;
}
