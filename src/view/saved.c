/* cairn view FOLDER (view.h, view_saved_run): the live view's page on a finished run. Each save
   file of the folder is a frame; the page's slider asks for one, which is restored here and
   published as a live run's snapshot would be. The histories are those of the last frame (a
   save keeps every row so far). The folder's VTK series and CSVs the page reads itself, through
   the server's /file/ (server.c). */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/io.h"
#include "view/view.h"

typedef struct frame {
  char *path;
  uint64_t step;
  double time;
} frame;

static int by_step(const void *x, const void *y) {
  const frame *a = x, *b = y;
  if (a->step != b->step) return a->step < b->step ? -1 : 1;
  return strcmp(a->path, b->path);
}

static void free_frames(frame *f, int n) {
  for (int i = 0; i < n; i++) free(f[i].path);
  free(f);
}

/* Restore frame f into *w (replacing the world there); a note for the page if it fails. */
static cairn_status show(view_server *v, const frame *f, int k, int n, view_world_maker mk,
                         void *ud, cairn_world **w, cairn_diag *d) {
  cairn_world *nw = NULL;
  restore_info info;
  cairn_status s = io_restore(f->path, 0, mk, ud, &nw, &info, d);
  if (s) {
    view_note(v, d->msg);
    return s;
  }
  cairn_world_destroy(w);
  *w = nw;
  char note[300];
  snprintf(note, sizeof note, "%s", f->path);
  view_note(v, note);
  view_run r = {.fraction = n > 1 ? (double)k / (n - 1) : 1,
                .ratio = -1,
                .what = "saved",
                .frame = k,
                .frames = n};
  view_publish(v, *w, &r, 1);
  return CAIRN_OK;
}

cairn_status view_saved_run(const char *folder, int port, view_world_maker mk, void *ud,
                            volatile int *quit, cairn_diag *d) {
  DIR *dir = opendir(folder);
  CAIRN_CHECK(dir, d, CAIRN_EIO,
              "cairn view: cannot read the folder '%s'; give the folder a run "
              "wrote its save files in",
              folder);
  frame *f = NULL;
  int n = 0, cap = 0, others = 0; /* others: VTK series and CSVs, which the page reads itself */
  for (struct dirent *e; (e = readdir(dir));) {
    size_t len = strlen(e->d_name);
    if (len > 4 && (!strcmp(e->d_name + len - 4, ".pvd") || !strcmp(e->d_name + len - 4, ".csv")))
      others++;
    if (len < 5 || strcmp(e->d_name + len - 4, ".sav") != 0) continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 16;
      frame *g = realloc(f, (size_t)cap * sizeof *f);
      if (!g) break;
      f = g;
    }
    size_t pl = strlen(folder) + len + 2;
    f[n].path = malloc(pl);
    if (!f[n].path) break;
    snprintf(f[n].path, pl, "%s/%s", folder, e->d_name);
    n++;
  }
  closedir(dir);
  /* each file's step and time: restored once (a file that does not restore is left out, named) */
  int kept = 0;
  for (int i = 0; i < n; i++) {
    cairn_world *w = NULL;
    restore_info info;
    cairn_diag why;
    if (io_restore(f[i].path, 0, mk, ud, &w, &info, &why) != CAIRN_OK) {
      fprintf(stderr, "cairn view: %s is left out: %s\n", f[i].path, why.msg);
      free(f[i].path);
      continue;
    }
    f[kept] = f[i];
    f[kept].step = w->step, f[kept].time = w->time;
    kept++;
    cairn_world_destroy(&w);
  }
  n = kept;
  if (!n && !others) {
    free_frames(f, 0);
    return diag_set(d, CAIRN_ENOTFOUND,
                    "cairn view: '%s' holds no save file that restores, no VTK series (.pvd) and "
                    "no CSV; give the folder a run wrote its results in",
                    folder);
  }
  if (n) qsort(f, (size_t)n, sizeof *f, by_step);
  view_server *v = NULL;
  view_opts o = {.port = port, .folder = folder};
  cairn_status s = view_start(&o, &v, d);
  cairn_world *w = NULL;
  if (s == CAIRN_OK && n) s = show(v, &f[n - 1], n - 1, n, mk, ud, &w, d);
  if (s == CAIRN_OK && !n) { /* only series and CSVs: the page reads them from /file/ */
    view_run r = {.fraction = 1, .ratio = -1, .what = "saved"};
    view_publish(v, NULL, &r, 1);
  }
  if (s == CAIRN_OK) {
    fprintf(stderr,
            "cairn: the view of %s (%d save file%s, %d VTK series and CSV files) is at %s (open "
            "it in a browser on this machine; stop it with the page's stop or Ctrl-C)\n",
            folder, n, n == 1 ? "" : "s", others, view_address(v));
    fflush(stderr);
  }
  while (s == CAIRN_OK && !*quit) {
    struct timespec nap = {0, 50000000};
    nanosleep(&nap, NULL);
    int k = 0, cmd = view_take_command(v, &k);
    if (cmd == VIEW_STOP) break;
    if (cmd != VIEW_FRAME) continue;
    if (k < 0) k = 0;
    if (k >= n) k = n - 1;
    cairn_diag why;
    show(v, &f[k], k, n, mk, ud, &w, &why); /* (a failure is noted for the page) */
  }
  cairn_world_destroy(&w);
  view_stop(v);
  free_frames(f, n);
  return s;
}
