/* The live view (docs/viewing.md): a page on 127.0.0.1 that shows the model while it runs, served
   by a small HTTP server (libmicrohttpd) on a thread of its own. The engine publishes snapshots
   into buffers the server reads (view_publish: never waits for the server) and takes the page's
   commands between steps (pause, resume, save now, stop). Every request carries a random token
   that only the address printed to the user holds. */
#ifndef CAIRN_VIEW_H
#define CAIRN_VIEW_H

#include "world/world.h"

typedef struct view_server view_server;

typedef struct view_opts {
  int port;       /* 0: a free one */
  double refresh; /* wall seconds between snapshots (<= 0: 0.5) */
  /* cairn view's folder (NULL: none): its files served as /file/NAME, NAME a plain file name of
     it (letters, digits, '_', '-', '.'; a VTK series' files, a history CSV), and their list as
     /files.json: {"saves": [...], "series": [...], "csv": [...]} */
  const char *folder;
} view_opts;

/* What the run is doing, for the page's progress line. */
typedef struct view_run {
  double fraction;   /* of the current cycling call done, or < 0 if unknown */
  double rate;       /* steps per second since the call began */
  double ratio;      /* the mean unbalanced-force ratio (model.ratio), or < 0 if not known */
  const char *what;  /* "running", "paused", "idle" (between calls), "finished", "saved" */
  int frame, frames; /* a saved run (view_saved_run): the frame shown, of how many; else 0 */
} view_run;

/* The page's commands, taken by the engine between steps (VIEW_FRAME: show saved frame arg). */
enum { VIEW_NONE = 0, VIEW_PAUSE, VIEW_RESUME, VIEW_SAVE, VIEW_STOP, VIEW_FRAME };

/* Start the server (CAIRN_EUNSUPPORTED with a message where cairn was built without
   libmicrohttpd). */
cairn_status view_start(const view_opts *o, view_server **out, cairn_diag *d);
/* The page's address with its token: http://127.0.0.1:PORT/?token=HEX */
const char *view_address(const view_server *v);
/* Publish the world's state if the refresh interval has passed since the last snapshot (or
   'now'), unless the server is reading the last one: the engine never waits. */
void view_publish(view_server *v, const cairn_world *w, const view_run *r, int now);
/* The oldest command the page sent and the engine has not taken yet (VIEW_NONE: none), and its
   argument in *arg (VIEW_FRAME's frame; may be NULL). */
int view_take_command(view_server *v, int *arg);
/* Note a message for the page's status (the last save's file, an error). */
void view_note(view_server *v, const char *msg);
void view_stop(view_server *v);

/* cairn view FOLDER (saved.c): the page on a finished run's folder: its save files (*.sav, in
   the order of their steps) a frame each, restored on the page's request, with the histories of
   the last; its VTK series and CSVs served as files for the page to read; until the page's stop
   or *quit turns non-zero (a signal). mk makes each file's world (the run's plugins). */
typedef cairn_status (*view_world_maker)(void *ud, int dim, cairn_world **out, cairn_diag *d);
cairn_status view_saved_run(const char *folder, int port, view_world_maker mk, void *ud,
                            volatile int *quit, cairn_diag *d);

/* Snapshots (snapshot.c): the world as the page reads it. The status as JSON; the geometry as
   little-endian binary (docs/viewing.md, "The page's data"); the histories as JSON. Each into a
   buffer grown as needed (*cap), returning the bytes written, 0 if out of memory. */
size_t view_status_json(const cairn_world *w, const view_run *r, char **buf, size_t *cap);
size_t view_geometry(const cairn_world *w, char **buf, size_t *cap);
size_t view_histories_json(const cairn_world *w, char **buf, size_t *cap);

#endif
