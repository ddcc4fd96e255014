/* The Lua 5.4 script API: modules model, ball, wall, contact, history and verify, preloaded into
   a fresh state that owns one world. Only src/lua/ includes lua.h. */
#ifndef CAIRN_LUA_API_H
#define CAIRN_LUA_API_H

#include <time.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "contact/events.h"
#include "contact/plugin.h"
#include "view/view.h"
#include "world/world.h"

/* Per-state context, kept in the Lua registry. */
/* The status line on a terminal (lua_model.c): it lives for the whole script, so that a script
   looping over short model.cycle calls shows it too. */
typedef struct progress_state {
  struct timespec first;      /* the first step of the script's first cycling call */
  struct timespec call, last; /* the current call's start; the last redraw */
  uint64_t step0;             /* the world's step count at 'first' */
  int started, shown;
} progress_state;

typedef struct script_ctx {
  lua_State *L;
  cairn_world *w;        /* NULL until model.new */
  const char *case_name; /* for verify rows */
  int n_pass, n_fail;
  char expect_warn[200]; /* verify.expect_warning: warnings holding this text are not shown */
  int quiet;
  plugin_lib *plugins; /* loaded libraries, registered into every world model.new makes */
  size_t n_plugins, cap_plugins;
  int cb_ref[EV_COUNT + 2]; /* Lua callback lists per event and cycle point (LUA_NOREF: none) */
  /* What cairn is calling now, in the middle of a step: "after_force" (a callback's event or
     cycle point), "history" (a history function); NULL between steps. */
  const char *inside;
  progress_state prog;
  /* the live view (model.view, cairn run --view; NULL: none), the cycling call's start for its
     rate, and whether the page stopped the run */
  view_server *view;
  struct timespec view_call;
  uint64_t view_step0;
  int view_stopped;
  /* queries of one ball or contact answered by its owning rank at step ask_step (owner_answers) */
  uint64_t ask_step;
  int asks;
} script_ctx;
/* cairn run --view: start the live view (on port, 0 a free one) in the scripts run after this. */
void script_request_view(int port);
/* Start the live view of c if it has none (port: 0 a free one; refresh: seconds, <= 0 the
   default) and print its address on stderr. */
cairn_status ctx_start_view(script_ctx *c, int port, double refresh, cairn_diag *d);
/* Erase the status line if one is shown (at the end of the script). */
void progress_end(script_ctx *c);

/* Public entry: run one script file in a fresh state. Returns CAIRN_OK, or a failure with the
   message (file:line first) in d. 'case_name' labels verify rows (NULL: the file's base name). */
typedef struct script_result {
  int n_pass, n_fail;
} script_result;
cairn_status script_run_file(const char *path, const char *case_name, int quiet,
                             const char *const *plugins, int n_plugins, script_result *res,
                             cairn_diag *d);

/* Open a fresh Lua state with the modules preloaded into c (and the plugins loaded), close it
   (with its world and plugins), and run a script file in it (the message, file:line first, in d).
   The CLI runs one script per state; an embedder (lua_session.c) keeps one open. */
cairn_status ctx_open(script_ctx *c, int quiet, const char *const *plugins, int n_plugins,
                      cairn_diag *d);
void ctx_close(script_ctx *c);
cairn_status ctx_run_file(script_ctx *c, const char *path, cairn_diag *d);
/* The message handler for lua_pcall: turns an error object that is not a string into one. */
int lua_msg_handler(lua_State *L);

/* Load a plugin by path or name into the context (and its world, if any). Loading the same file
   twice is a no-op with a note on stderr. */
cairn_status ctx_load_plugin(script_ctx *c, const char *name, cairn_diag *d);
/* Create a world with the built-in models and the context's plugins. */
cairn_status ctx_new_world(script_ctx *c, int dim, cairn_world **out, cairn_diag *d);
void ctx_free_plugins(script_ctx *c);

/* Shared helpers (lua_util.c). */
/* Raise a Lua error with the script position in front, formatted with printf's rules (Lua's
   own luaL_error knows only a few conversions and would garble %g or %lld). */
int lua_raisef(lua_State *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Refuse fn inside a callback or a history function: it would run in the middle of a step and
   change what the step is working on (a new or restored model, a nested cycle, a save of a
   half-done step, the histories being sampled). */
void refuse_inside_callback(lua_State *L, const char *fn);
script_ctx *ctx_of(lua_State *L);
/* The world, whole: raises if model.new has not been called. Under MPI, a model that the last
   cycle call left divided among the ranks is gathered first (par_whole), which every rank must
   do alike: the ranks agree on it as on a collective call (docs/parallel.md). */
cairn_world *ctx_world(lua_State *L);
/* The world as it is, whole or divided, for the calls that read or set only what every rank
   holds alike (time, walls, histories, energy books, the call's figures); no waiting. */
cairn_world *ctx_world_as_is(lua_State *L);
/* The same for a call that reduces over the ranks while the model is divided (model.ratio): the
   ranks agree on it first, as on a collective call. */
cairn_world *ctx_world_reduced(lua_State *L);
/* Whether a query of one ball or contact is to be answered by the rank that owns it: the model
   is divided and the script has asked fewer than OWNER_ASKS such queries at this step. Past
   that (a loop over every ball) the model is gathered once and the rest are read from it: one
   gathering instead of a reduction per ball. The ranks agree on the call first. */
#define OWNER_ASKS 64
int owner_answers(lua_State *L);
/* The owner's answer, on every rank: the rank that owns the ball or books the contact passes
   its 3 values at mine, the others NULL; every rank gets them in v, bit for bit (one bitwise-or
   reduction: the others give zeros), and whether any rank owned it. */
int owner_reply(const double *mine, double v[3]);
/* The owner's answer of any shape, on every rank, for a getter whose answer is not a few numbers
   (ball.group, contact.props): once owner_answers said so, the rank for which 'owns' is true
   runs 'here' on its part of the model (with this call's arguments) and its result (nil, a
   boolean, number or string, or a table of those by name or index, whose values may be lists)
   or its error
   reaches every rank, one gathering of its bytes. Returns 1 with the answer pushed, or 0 when no
   rank owns it (the caller raises its "does not exist"); raises the owner's error on every rank.
   Not divided (owner_answers 0): -1, and the caller answers from the whole model. */
int owner_run(lua_State *L, int (*owns)(lua_State *L, cairn_world *w), lua_CFunction here);
/* While the model is divided: every rank's rows (n of 'size' bytes at mine, which this frees) on
   every rank, sorted by cmp, in a block to mem_free with *total rows; raises on failure. */
void *gather_sorted(lua_State *L, void *mine, size_t n, size_t size,
                    int (*cmp)(const void *, const void *), size_t *total);
/* The world with detection brought up to date and the contacts in the order of their ids, as
   scripts, measurements and outputs see them (what they show does not depend on the order the
   contacts were made in); raises on failure. */
cairn_world *detected_world(lua_State *L);
/* The world for a sum over its contacts: detected_world on the whole model; while the model is
   divided, as it is (ctx_world_reduced: every rank sums its part), unless a change since the last
   step wants the contacts found anew, which gathers the model first. */
cairn_world *summed_world(lua_State *L);
/* The same for a caller that has made its collective call already (a file written in pieces by
   the ranks: vtk.write). */
cairn_world *current_world(lua_State *L);
int raise_diag(lua_State *L, cairn_status s, const cairn_diag *d);
/* Read a vector of 'dim' (2D: 2 or 3) numbers from a table at idx; raises naming 'what'. */
void get_vec(lua_State *L, int idx, int dim, double out[3], const char *what);
/* The same, with allow_inf: components may be +-inf (a bound on one side only); never NaN. */
void get_vec_bound(lua_State *L, int idx, int dim, double out[3], const char *what, int allow_inf);
void push_vec(lua_State *L, const double v[3], int dim);
/* A turning quantity (spin, moment): a number about z in 2D, a vector in 3D (lua_ball.c). */
void push_rot(lua_State *L, const cairn_world *w, const double v[3]);
/* A range of balls (lua_range.c): the options in_group = NAME, in_box = {min = P, max = P},
   in_sphere = {centre = P, radius = R} and in_cylinder = {from = P, to = P, radius = R} of a call
   that selects balls. A ball is in it if it is in the group (when one is given) and its centre is
   in every shape given (boundaries included); the cylinder is the points within its radius of the
   axis segment from-to. */
typedef struct ball_range {
  int any;   /* some option was given */
  int none;  /* in_group names a group no ball has */
  int group; /* the group's index, or -1 */
  int box, sphere, cylinder;
  double lo[3], hi[3];
  double centre[3], radius;
  double from[3], to[3], axis[3], axis_len2, cyl_radius;
} ball_range;
/* The range options of the table at idx ('fn' names the call in messages); returns r->any. */
int range_read(lua_State *L, int idx, const char *fn, ball_range *r);
/* Whether ball slot s is in r. */
int range_holds(const cairn_world *w, const ball_range *r, uint32_t s);
/* The option names range_read reads, for option lists. */
#define RANGE_OPTS "in_group", "in_box", "in_sphere", "in_cylinder"

/* Raise if the options table at idx has a key not in the NULL-terminated list. */
void check_opts(lua_State *L, int idx, const char *fn, const char *const *allowed);
/* Optional number field of an options table. */
double opt_number(lua_State *L, int idx, const char *key, double def, const char *fn);
int64_t get_id(lua_State *L, int idx, const char *what);
/* A plain number argument (a quoted number is refused, as in option tables). */
double check_number(lua_State *L, int idx, const char *what);
/* A whole number argument, likewise. */
lua_Integer check_whole(lua_State *L, int idx, const char *what);

/* The script's collective calls under MPI (lua_collective.c; docs/parallel.md): those that wait
   for the other ranks, each named at the start of its entry point, and the two points where the
   ranks meet without a call (the end of the script, the return from a history function). */
typedef enum script_call {
  CALL_END,
  CALL_MODEL_CYCLE,
  CALL_MODEL_SOLVE,
  CALL_MODEL_SAVE,
  CALL_VTK_WRITE,
  CALL_VTK_EVERY,
  CALL_HISTORY_EXPORT,
  CALL_PLOT_HISTORY,
  CALL_VTK_RENDER,
  CALL_CRACKS_EXPORT,
  CALL_HISTORY_RETURN,
  CALL_CALLBACK_RETURN,
  CALL_LAB_WRITE_CSV,
  CALL_GATHER, /* a call that needs the divided model whole (ctx_world) */
  CALL_REDUCE, /* a call answered by a reduction over the divided model (ctx_world_reduced) */
  CALL_ASK,    /* a query of one ball answered by the rank that owns it */
  CALL_COUNT
} script_call;
/* Agree with the other ranks that every one is making call k (name: the history's, for
   CALL_HISTORY_RETURN; the callback's event, for CALL_CALLBACK_RETURN); CAIRN_OK, or CAIRN_EINVAL
   with one message naming each rank's call (the same on every rank). Nothing to do on one process.
 */
cairn_status collective_agree(lua_State *L, script_call k, const char *name, cairn_diag *d);
/* The same at the start of a collective entry point: raises the message. */
void collective_call(lua_State *L, script_call k);
/* The same for a call that may or may not be collective (CALL_GATHER, CALL_REDUCE, CALL_ASK),
   named after the running C function as a script writes it ("ball.pos"). */
void collective_call_named(lua_State *L, script_call k);

void open_model(lua_State *L);
void open_ball(lua_State *L);
void open_wall(lua_State *L);
void open_contact(lua_State *L);
void open_history(lua_State *L);
void open_verify(lua_State *L);
void open_callback(lua_State *L);
void open_plot(lua_State *L);
void open_vtk(lua_State *L);
void open_specimen(lua_State *L);
void open_measure(lua_State *L);
void open_energy(lua_State *L);
void open_cell(lua_State *L);
void open_clump(lua_State *L);
void open_dfn(lua_State *L);
void open_lab(lua_State *L);
/* A list of joints {centre, normal, radius, set} at idx as a network (lua_dfn.c), held by a
   userdata pushed on the stack; raises naming the joint at fault. */
struct dfn_net *dfn_from_lua(lua_State *L, int idx, int dim, const char *fn);
/* The template at idx (a name or clump.template's table; raises naming fn if there is none): its
   bounding radius (about its centroid) over its equivalent radius (of a ball of its volume), the
   room specimen.generate leaves for it (lua_clump.c). */
double template_inflation(lua_State *L, cairn_world *w, int idx, const char *fn);
/* The fixity bits (FIX_*) named by the positional strings of the table at index 1 ("velocity",
   "xvelocity", "yvelocity", "zvelocity", "spin"), for ball.fix and clump.fix (lua_ball.c). */
unsigned fix_bits(lua_State *L, const char *fn);
/* Raise, naming fn, if ball slot s is a pebble of a clump (its clump moves it: lua_ball.c). */
void refuse_pebble(lua_State *L, cairn_world *w, uint32_t s, const char *fn);
/* Connect the context's callbacks to its (new) world. */
void callback_install(lua_State *L, script_ctx *c);
/* Push a contact handle naming a contact by its kind and ids (it need not exist any more). */
void push_contact_ids(lua_State *L, int kind, int64_t id1, int64_t id2);

#endif
