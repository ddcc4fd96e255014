/* Script module 'model': create the world, gravity, domain, timestep, and running it. */
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "contact/contact.h"
#include "contact/events.h"
#include "core/comm.h"
#include "cycle/cycle.h"
#include "detect/detect.h"
#include "io/io.h"
#include "lua/lua_api.h"
#include "par/par.h"

/* The engine's warnings, on stderr with the script position of the call that ran into them;
   not those a verification case declared it runs into on purpose (verify.expect_warning). */
static void warn_script(void *ud, const char *msg) {
  lua_State *L = ud;
  const char *expected = ctx_of(L)->expect_warn;
  if (expected[0] && strstr(msg, expected)) return;
  luaL_where(L, 1);
  fprintf(stderr, "%swarning: %s\n", lua_tostring(L, -1), msg);
  lua_pop(L, 1);
}

static int l_new(lua_State *L) {
  refuse_inside_callback(L, "model.new");
  static const char *const opts[] = {"dim", NULL};
  if (!lua_istable(L, 1))
    lua_raisef(L, "model.new: give a table, model.new{dim = 2} (disks) or model.new{dim = 3} "
                  "(spheres)");
  check_opts(L, 1, "model.new", opts);
  lua_getfield(L, 1, "dim");
  int ok;
  lua_Integer dim = lua_tointegerx(L, -1, &ok);
  if (!ok) lua_raisef(L, "model.new: give dim = 2 (disks) or dim = 3 (spheres)");
  script_ctx *c = ctx_of(L);
  cairn_world *w;
  cairn_diag d;
  cairn_status s = ctx_new_world(c, (int)dim, &w, &d);
  if (s) return raise_diag(L, s, &d);
  cairn_world_destroy(&c->w);
  c->w = w;
  world_set_warn(w, warn_script, L);
  /* A new model starts without callbacks (as PFC's model new); loaded plugins stay. */
  for (int i = 0; i < EV_COUNT + 2; i++) {
    luaL_unref(L, LUA_REGISTRYINDEX, c->cb_ref[i]);
    c->cb_ref[i] = LUA_NOREF;
  }
  callback_install(L, c);
  return 0;
}

/* model.load(path or name): load a contact-model plugin. */
static int l_load(lua_State *L) {
  refuse_inside_callback(L, "model.load");
  cairn_diag d;
  cairn_status s = ctx_load_plugin(ctx_of(L), luaL_checkstring(L, 1), &d);
  if (s) return raise_diag(L, s, &d);
  return 0;
}

static const char *const CB_NAMES[EV_COUNT + 2] = {
    "contact_created", "contact_deleted", "contact_activated", "slip_change",
    "bond_break",      "before_force",    "after_force"};

/* model.save(path): everything needed to continue, written atomically. */
static int l_save(lua_State *L) {
  collective_call(L, CALL_MODEL_SAVE);
  refuse_inside_callback(L, "model.save");
  /* (a model divided between calls is saved in parts, by its ranks: io_save; the calls between
     steps, where it could be in the middle of one, refuse to save) */
  cairn_world *w = ctx_world_as_is(L);
  const char *path = luaL_checkstring(L, 1);
  script_ctx *c = ctx_of(L);
  const char *cbs[EV_COUNT + 2];
  int n = 0;
  for (int i = 0; i < EV_COUNT + 2; i++)
    if (c->cb_ref[i] != LUA_NOREF) cbs[n++] = CB_NAMES[i];
  cairn_diag d;
  /* (the file lists them in the order of their ids; the parts are put in order on restoring) */
  cairn_status s = w->par ? CAIRN_OK : contact_sort_by_key(w, &d);
  if (s == CAIRN_OK) s = io_save(w, path, cbs, n, &d);
  if (s) return lua_raisef(L, "model.save: %s", d.msg);
  return 0;
}

static cairn_status make_world(void *ud, int dim, cairn_world **out, cairn_diag *d) {
  return ctx_new_world(ud, dim, out, d);
}

/* model.restore(path): replace the model with a saved one; on any error the current model is
   left as it was. Lua functions are not saved: callbacks and history functions are registered
   again by the script (a note lists them). */
static int l_restore(lua_State *L) {
  refuse_inside_callback(L, "model.restore");
  const char *path = luaL_checkstring(L, 1);
  script_ctx *c = ctx_of(L);
  cairn_world *w = NULL;
  restore_info info;
  cairn_diag d;
  cairn_status s = io_restore(path, c->w ? c->w->dim : 0, make_world, c, &w, &info, &d);
  if (s) return lua_raisef(L, "model.restore: %s", d.msg);
  cairn_world_destroy(&c->w);
  c->w = w;
  world_set_warn(w, warn_script, L);
  for (int i = 0; i < EV_COUNT + 2; i++) {
    luaL_unref(L, LUA_REGISTRYINDEX, c->cb_ref[i]);
    c->cb_ref[i] = LUA_NOREF;
  }
  callback_install(L, c);
  if (!c->quiet) {
    for (int i = 0; i < info.n_callbacks; i++)
      fprintf(stderr,
              "note: the saved model had a callback on %s; register it again with "
              "callback.on\n",
              info.callbacks[i]);
    for (size_t i = 0; i < w->hist->n; i++)
      fprintf(stderr,
              "note: history '%s' was restored with its data; give its function again "
              "with history.add before cycling\n",
              w->hist->h[i].name);
  }
  return 0;
}

/* model.threads([n]): the number of threads of the cycle (set with n; OMP_NUM_THREADS at start). */
static int l_threads(lua_State *L) {
  int n = 0;
  if (!lua_isnoneornil(L, 1)) {
    lua_Integer k = check_whole(L, 1, "model.threads: the thread count");
    if (k < 1 || k > 1024)
      lua_raisef(L, "model.threads: give 1 to 1024 threads (got %lld)", (long long)k);
    n = (int)k;
  }
  lua_pushinteger(L, cycle_threads(n));
  return 1;
}

/* model.ranks(): the MPI ranks running the script and what the last cycle or solve call did
   with them (docs/parallel.md). */
static int l_ranks(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  lua_createtable(L, 0, 13);
  lua_pushinteger(L, comm_size());
  lua_setfield(L, -2, "count");
  lua_pushinteger(L, comm_rank());
  lua_setfield(L, -2, "rank");
  lua_pushboolean(L, w->par_last.decomposed);
  lua_setfield(L, -2, "decomposed");
  lua_createtable(L, 3, 0);
  for (int k = 0; k < 3; k++) {
    lua_pushinteger(L, w->par_last.decomposed ? w->par_last.grid[k] : 1);
    lua_rawseti(L, -2, k + 1);
  }
  lua_setfield(L, -2, "grid");
  lua_pushinteger(L, (lua_Integer)w->par_last.moved);
  lua_setfield(L, -2, "moved");
  lua_pushinteger(L, (lua_Integer)w->par_last.exchanges);
  lua_setfield(L, -2, "exchanges");
  lua_pushinteger(L, (lua_Integer)w->par_last.gathers);
  lua_setfield(L, -2, "gathers");
  lua_pushinteger(L, (lua_Integer)w->par_last.ghosts);
  lua_setfield(L, -2, "ghosts");
  lua_pushnumber(L, w->par_last.decomposed ? w->par_last.balance : 1.0);
  lua_setfield(L, -2, "balance");
  lua_pushinteger(L, (lua_Integer)w->par_last.recuts);
  lua_setfield(L, -2, "recuts");
  lua_pushinteger(L, (lua_Integer)w->par_last.spread);
  lua_setfield(L, -2, "spread");
  lua_pushboolean(L, w->par_last.decomposed && w->par_last.resumed);
  lua_setfield(L, -2, "resumed");
  lua_pushboolean(L, w->par == NULL);
  lua_setfield(L, -2, "whole");
  return 1;
}

/* model.wallclock(): seconds of a monotonic wall clock, for timing loops in benchmarks. */
/* model.view{port = N, refresh = S}: start the live view (if not yet) and return its address;
   works before model.new (the page waits for a model). */
static int l_view(lua_State *L) {
  double port = 0, refresh = 0;
  if (!lua_isnoneornil(L, 1)) {
    static const char *const opts[] = {"port", "refresh", NULL};
    luaL_checktype(L, 1, LUA_TTABLE);
    check_opts(L, 1, "model.view", opts);
    port = opt_number(L, 1, "port", 0, "model.view");
    refresh = opt_number(L, 1, "refresh", 0.5, "model.view");
    if (!(port >= 0 && port <= 65535 && port == floor(port)))
      lua_raisef(L,
                 "model.view: port must be a whole number from 1 to 65535, or 0 for a free one "
                 "(got %g)",
                 port);
    if (!(refresh >= 0.05 && refresh <= 3600))
      lua_raisef(L,
                 "model.view: refresh must be from 0.05 to 3600 seconds between snapshots "
                 "(got %g)",
                 refresh);
  }
  script_ctx *c = ctx_of(L);
  cairn_diag d;
  cairn_status s = ctx_start_view(c, (int)port, refresh, &d);
  if (s) return raise_diag(L, s, &d);
  lua_pushstring(L, view_address(c->view));
  return 1;
}

static int l_wallclock(lua_State *L) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  lua_pushnumber(L, (double)t.tv_sec + 1e-9 * (double)t.tv_nsec);
  return 1;
}

/* model.neighbours() -> {rebuilds = N, pairs = P, skin = S}: the broad phase's state. */
static int l_neighbours(lua_State *L) {
  const pair_list *p = ctx_world(L)->pairs;
  lua_createtable(L, 0, 3);
  lua_pushinteger(L, (lua_Integer)p->rebuilds);
  lua_setfield(L, -2, "rebuilds");
  lua_pushinteger(L, (lua_Integer)p->n);
  lua_setfield(L, -2, "pairs");
  lua_pushnumber(L, p->skin);
  lua_setfield(L, -2, "skin");
  return 1;
}

static int l_dim(lua_State *L) {
  lua_pushinteger(L, ctx_world_as_is(L)->dim);
  return 1;
}

static int l_gravity(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  if (lua_gettop(L) >= 1) {
    double g[3];
    get_vec(L, 1, w->dim, g, "model.gravity");
    world_set_gravity(w, g);
    return 0;
  }
  push_vec(L, w->gravity, w->dim);
  return 1;
}

static int l_domain(lua_State *L) {
  static const char *const opts[] = {"min", "max", "condition", NULL};
  cairn_world *w = ctx_world(L);
  check_opts(L, 1, "model.domain", opts);
  double lo[3], hi[3];
  lua_getfield(L, 1, "min");
  get_vec_bound(L, -1, w->dim, lo, "model.domain: min", 1);
  lua_getfield(L, 1, "max");
  get_vec_bound(L, -1, w->dim, hi, "model.domain: max", 1);
  for (int k = 0; k < w->dim; k++)
    if (!(lo[k] < hi[k]))
      lua_raisef(L,
                 "model.domain: min must be below max in every coordinate (coordinate %d: "
                 "%g >= %g)",
                 k + 1, lo[k], hi[k]);
  lua_getfield(L, 1, "condition");
  const char *cond = luaL_optstring(L, -1, "stop");
  domain_cond dc;
  if (strcmp(cond, "stop") == 0)
    dc = DOMAIN_STOP;
  else if (strcmp(cond, "destroy") == 0)
    dc = DOMAIN_DESTROY;
  else
    return lua_raisef(L, "model.domain: condition must be \"stop\" or \"destroy\" (got '%s')",
                      cond);
  const ball_store *b = &w->balls;
  for (size_t i = 0; i < b->n; i++)
    for (int k = 0; k < w->dim; k++)
      if (b->pos[i][k] < lo[k] || b->pos[i][k] > hi[k])
        return lua_raisef(L, "model.domain: ball %lld lies outside the new domain; enlarge it",
                          (long long)b->id[i]);
  world_set_domain(w, lo, hi, dc);
  return 0;
}

/* Whether table idx has a value at key. */
static int has_key(lua_State *L, int idx, const char *key) {
  lua_getfield(L, idx, key);
  int has = !lua_isnil(L, -1);
  lua_pop(L, 1);
  return has;
}

static int l_timestep(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  if (lua_istable(L, 1)) {
    static const char *const opts[] = {"fix", "auto", "safety", "impact", "strict", NULL};
    check_opts(L, 1, "model.timestep", opts);
    lua_getfield(L, 1, "strict");
    int strict = lua_toboolean(L, -1);
    lua_pop(L, 1);
    double fix = opt_number(L, 1, "fix", NAN, "model.timestep");
    double safety = opt_number(L, 1, "safety", w->dt_safety, "model.timestep");
    double impact = opt_number(L, 1, "impact", w->dt_impact, "model.timestep");
    lua_getfield(L, 1, "auto");
    int has_auto = !lua_isnil(L, -1), aut = lua_toboolean(L, -1);
    lua_pop(L, 1);
    /* Options of the other mode contradict the one chosen: refused, not ignored. */
    if (!isnan(fix) && aut) lua_raisef(L, "model.timestep: give either fix = DT or auto = true");
    if (!isnan(fix) && (has_key(L, 1, "safety") || has_key(L, 1, "impact")))
      lua_raisef(L, "model.timestep: safety and impact belong to the automatic timestep, not to "
                    "fix = DT; give them with auto = true");
    if (isnan(fix) && strict)
      lua_raisef(L, "model.timestep: strict = true belongs to a fixed timestep; give it with "
                    "fix = DT");
    if (isnan(fix) && has_auto && !aut)
      lua_raisef(L, "model.timestep: auto = false chooses no timestep; give fix = DT for a fixed "
                    "one, or auto = true");
    if (!isnan(fix)) {
      if (!(isfinite(fix) && fix > 0))
        lua_raisef(L, "model.timestep: fix must be a positive time (got %g)", fix);
      world_set_timestep_fixed(w, fix, strict);
    } else {
      if (!(safety > 0 && safety <= 1))
        lua_raisef(L, "model.timestep: safety must be in (0, 1] (got %g)", safety);
      if (!(impact >= 0 && impact <= 1e6))
        lua_raisef(L,
                   "model.timestep: impact (the least steps per impact) must be in [0, 1e6], 0 "
                   "for no such bound (got %g)",
                   impact);
      world_set_timestep_auto(w, safety, impact);
    }
    return 0;
  }
  ctx_world_reduced(L); /* (the estimate: over every rank's contacts) */
  double dt;
  cairn_diag d;
  cairn_status s = cycle_timestep(w, &dt, &d);
  if (s) return raise_diag(L, s, &d);
  lua_pushnumber(L, dt);
  return 1;
}

static void set_interval(lua_State *L, int idx, cairn_world *w, const char *fn) {
  double k = opt_number(L, idx, "history_interval", NAN, fn);
  if (isnan(k)) return;
  if (!(k >= 1 && k == floor(k)))
    lua_raisef(L, "%s: history_interval must be a whole number of steps >= 1 (got %g)", fn, k);
  history_set_interval(w, (uint64_t)k);
}

/* Progress on stderr, only when it is a terminal and the script is not quiet: a status line
   with the model time, the step, steps per second, balls and contacts, and while a solve to a
   ratio or calm runs, its current value; for a call that has itself run a second, the fraction
   of it done and the time left. It appears once the script has cycled for a second, whatever
   the calls (many short model.cycle calls show it too), is redrawn at most four times a second,
   and is erased at the end of the script. */
static double seconds_since(const struct timespec *a) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)(now.tv_sec - a->tv_sec) + 1e-9 * (double)(now.tv_nsec - a->tv_nsec);
}

static const solve_limits *solve_lim; /* the limits of the solve in progress (run_solve) */
static solve_result *solve_res;

/* The live view's part of a progress report (every 256 steps and at a call's end): a snapshot
   when one is due, and the page's commands: save now (a file named after the step, in the
   folder the script runs in), pause (here, serving snapshots, until resume, save or stop), stop
   (the call ends after this step and the script ends: view_stopped). */
static void view_save_now(script_ctx *c) {
  char path[64], note[160];
  snprintf(path, sizeof path, "view_step_%llu.sav", (unsigned long long)c->w->step);
  cairn_diag d;
  if (io_save(c->w, path, NULL, 0, &d) == CAIRN_OK)
    snprintf(note, sizeof note, "saved %s", path);
  else
    snprintf(note, sizeof note, "not saved: %.120s", d.msg);
  view_note(c->view, note);
  fprintf(stderr, "cairn: the live view: %s\n", note);
}

/* The page's stop: this step is the cycling call's last, and the script ends after it. */
static void view_stop_run(script_ctx *c) {
  c->view_stopped = 1;
  c->w->stop_request = 1;
}

static void view_tick(script_ctx *c, double f, int done) {
  cairn_world *w = c->w;
  if (!c->view || !w) return;
  double el = seconds_since(&c->view_call);
  view_run r = {.fraction = f,
                .rate = el > 0 ? (double)(w->step - c->view_step0) / el : 0,
                .ratio = -1,
                .what = done ? "idle" : "running"};
  if (solve_lim && solve_res && !done) r.ratio = solve_res->ratio_mean;
  view_publish(c->view, w, &r, 0); /* (at the refresh: a script of many short calls too) */
  for (int cmd; (cmd = view_take_command(c->view, NULL)) != VIEW_NONE;) {
    if (cmd == VIEW_SAVE) view_save_now(c);
    if (cmd == VIEW_STOP) {
      view_stop_run(c);
      return;
    }
    if (cmd != VIEW_PAUSE) continue;
    r.what = "paused", r.rate = 0;
    view_publish(c->view, w, &r, 1);
    fprintf(stderr, "cairn: paused from the live view at step %llu\n", (unsigned long long)w->step);
    for (;;) { /* (the server answers the page meanwhile, on its own thread) */
      struct timespec nap = {0, 50000000};
      nanosleep(&nap, NULL);
      view_publish(c->view, w, &r, 0);
      int next = view_take_command(c->view, NULL);
      if (next == VIEW_SAVE) view_save_now(c), view_publish(c->view, w, &r, 1);
      if (next == VIEW_STOP) {
        view_stop_run(c);
        return;
      }
      if (next == VIEW_RESUME) break;
    }
    clock_gettime(CLOCK_MONOTONIC, &c->view_call); /* the rate from here */
    c->view_step0 = w->step;
  }
}

static void show_progress(void *ud, double f, uint64_t steps, int done) {
  script_ctx *c = ud;
  progress_state *p = &c->prog;
  const cairn_world *w = c->w;
  (void)steps;
  view_tick(c, f, done);
  if (done || !w || c->quiet || !isatty(2)) return;
  double el = seconds_since(&p->first);
  if (el < 1.0 || seconds_since(&p->last) < 0.25) return; /* short runs show nothing */
  clock_gettime(CLOCK_MONOTONIC, &p->last);
  char line[200];
  int k = snprintf(line, sizeof line, "t = %.4g  step %llu  %.0f steps/s  %zu balls  %zu contacts",
                   w->time, (unsigned long long)w->step, (double)(w->step - p->step0) / el,
                   w->balls.n, w->contacts->n);
  if (solve_lim && solve_res && (size_t)k < sizeof line) {
    if (solve_lim->ratio_mean > 0 || solve_lim->ratio_max > 0)
      k += snprintf(line + k, sizeof line - (size_t)k, "  ratio %.3g", solve_res->ratio_mean);
    else if (solve_lim->calm > 0)
      k += snprintf(line + k, sizeof line - (size_t)k, "  kinetic %.3g", solve_res->kinetic);
  }
  double call = seconds_since(&p->call);
  if (call >= 1.0 && f > 0 && f < 1 && (size_t)k < sizeof line) {
    double left = call * (1 - f) / f;
    snprintf(line + k, sizeof line - (size_t)k, "  %.1f%%, %d:%02d left", 100 * f, (int)left / 60,
             (int)left % 60);
  }
  fprintf(stderr, "\r%s\x1b[K\r", line); /* the cursor back at the start: output overwrites it */
  p->shown = 1;
}

void progress_end(script_ctx *c) {
  if (c->prog.shown) fprintf(stderr, "\r\x1b[K");
  c->prog.shown = 0;
}

/* Run fn with progress shown if stderr is a terminal and the script is not quiet. */
static cairn_status with_progress(lua_State *L, cairn_world *w, uint64_t n, double t,
                                  cairn_status (*fn)(cairn_world *, uint64_t, double, cairn_diag *),
                                  cairn_diag *d) {
  script_ctx *c = ctx_of(L);
  int show = !c->quiet && isatty(2);
  if (show) {
    progress_state *p = &c->prog;
    clock_gettime(CLOCK_MONOTONIC, &p->call);
    if (!p->started) p->first = p->call, p->last = p->call, p->step0 = w->step, p->started = 1;
  }
  if (c->view) clock_gettime(CLOCK_MONOTONIC, &c->view_call), c->view_step0 = w->step;
  if (show || c->view) world_set_progress(w, show_progress, c);
  w->progress_each = c->view != NULL; /* (the page's commands at the next step) */
  cairn_status s = fn(w, n, t, d);
  world_set_progress(w, NULL, NULL);
  w->progress_each = 0;
  if (s == CAIRN_OK && c->view_stopped) /* the page's stop ends the script here (ctx_run_file) */
    return diag_set(d, CAIRN_ESTATE, "stopped from the live view at step %llu",
                    (unsigned long long)w->step);
  return s;
}

static cairn_status run_steps(cairn_world *w, uint64_t n, double t, cairn_diag *d) {
  (void)t;
  return cycle_run(w, n, d);
}

static cairn_status run_time(cairn_world *w, uint64_t n, double t, cairn_diag *d) {
  (void)n;
  return cycle_solve_time(w, t, d);
}

static int l_cycle(lua_State *L) {
  collective_call(L, CALL_MODEL_CYCLE);
  refuse_inside_callback(L, "model.cycle");
  cairn_world *w = ctx_world_as_is(L);
  double n;
  if (lua_istable(L, 1)) {
    static const char *const opts[] = {"steps", "history_interval", NULL};
    check_opts(L, 1, "model.cycle", opts);
    n = opt_number(L, 1, "steps", NAN, "model.cycle");
    set_interval(L, 1, w, "model.cycle");
  } else {
    n = check_number(L, 1, "model.cycle: the number of steps");
  }
  if (!(n >= 0 && n == floor(n) && n < 1e18))
    lua_raisef(L, "model.cycle: the number of steps must be a whole number >= 0 (got %g)", n);
  cairn_diag d;
  cairn_status s = with_progress(L, w, (uint64_t)n, 0, run_steps, &d);
  if (s) return raise_diag(L, s, &d);
  return 0;
}

static cairn_status run_solve(cairn_world *w, uint64_t n, double t, cairn_diag *d) {
  (void)n, (void)t;
  return cycle_solve(w, solve_lim, solve_res, d);
}

/* A criterion's value from the options: absent is 0 (none); given, it must be > 0 and finite. */
static double criterion(lua_State *L, const char *key) {
  double v = opt_number(L, 1, key, NAN, "model.solve");
  if (isnan(v)) return 0.0;
  if (!(isfinite(v) && v > 0))
    lua_raisef(L, "model.solve: %s must be a positive number (got %g)", key, v);
  return v;
}

/* model.solve{time = T, steps = N, ratio = R, ratio_max = R, calm = E, history_interval = K}:
   run until the first criterion given is met; returns a table saying which, with the measures at
   the end. */
static int l_solve(lua_State *L) {
  collective_call(L, CALL_MODEL_SOLVE);
  refuse_inside_callback(L, "model.solve");
  static const char *const opts[] = {
      "time", "steps", "ratio", "ratio_max", "calm", "history_interval", NULL};
  static const char *const reasons[] = {"time", "steps", "ratio", "ratio_max", "calm"};
  cairn_world *w = ctx_world_as_is(L);
  luaL_checktype(L, 1, LUA_TTABLE);
  check_opts(L, 1, "model.solve", opts);
  solve_limits lim = {NAN, 0, 0, 0, 0};
  lim.time = opt_number(L, 1, "time", NAN, "model.solve");
  if (!isnan(lim.time) && !isfinite(lim.time))
    lua_raisef(L, "model.solve: time must be a finite model time (got %g)", lim.time);
  double steps = criterion(L, "steps");
  if (steps != floor(steps) || steps >= 1e18)
    lua_raisef(L, "model.solve: steps must be a whole number >= 1 (got %g)", steps);
  lim.steps = (uint64_t)steps;
  lim.ratio_mean = criterion(L, "ratio");
  lim.ratio_max = criterion(L, "ratio_max");
  lim.calm = criterion(L, "calm");
  if (isnan(lim.time) && !lim.steps && !lim.ratio_mean && !lim.ratio_max && !lim.calm)
    lua_raisef(L, "model.solve: give a criterion: time = T (the model time to reach), steps = N, "
                  "ratio = R (mean unbalanced-force ratio), ratio_max = R or calm = E (kinetic "
                  "energy)");
  set_interval(L, 1, w, "model.solve");
  cairn_diag d;
  solve_result r;
  cairn_status s;
  int only_time = !lim.steps && !lim.ratio_mean && !lim.ratio_max && !lim.calm;
  if (only_time) { /* the time alone: the time-stepping of model.solve since the start */
    uint64_t step0 = w->step;
    s = with_progress(L, w, 0, lim.time, run_time, &d);
    r.reason = SOLVE_TIME, r.steps = w->step - step0;
    cycle_ratios(w, &r.ratio_mean, &r.ratio_max);
    r.kinetic = cycle_kinetic(w);
  } else {
    solve_lim = &lim, solve_res = &r;
    s = with_progress(L, w, 0, 0, run_solve, &d);
    solve_lim = NULL, solve_res = NULL;
  }
  if (s) return raise_diag(L, s, &d);
  const char *why = reasons[r.reason];
  if ((lim.ratio_mean > 0 || lim.ratio_max > 0 || lim.calm > 0) && !ctx_of(L)->quiet)
    printf("model.solve: stopped on %s after %llu steps at t = %.6g: mean ratio %.3g, maximum "
           "ratio %.3g, kinetic energy %.3g\n",
           why, (unsigned long long)r.steps, w->time, r.ratio_mean, r.ratio_max, r.kinetic);
  lua_createtable(L, 0, 6);
  lua_pushstring(L, why);
  lua_setfield(L, -2, "reason");
  lua_pushinteger(L, (lua_Integer)r.steps);
  lua_setfield(L, -2, "steps");
  lua_pushnumber(L, w->time);
  lua_setfield(L, -2, "time");
  lua_pushnumber(L, r.ratio_mean);
  lua_setfield(L, -2, "ratio");
  lua_pushnumber(L, r.ratio_max);
  lua_setfield(L, -2, "ratio_max");
  lua_pushnumber(L, r.kinetic);
  lua_setfield(L, -2, "kinetic");
  return 1;
}

/* model.ratio() -> mean, maximum unbalanced-force ratio of the last force pass */
static int l_ratio(lua_State *L) {
  double mean, max;
  cycle_ratios(ctx_world_reduced(L), &mean, &max);
  lua_pushnumber(L, mean);
  lua_pushnumber(L, max);
  return 2;
}

/* model.calm(): every ball's velocity and spin to zero */
static int l_calm(lua_State *L) {
  cycle_calm(ctx_world(L));
  return 0;
}

static int l_time(lua_State *L) {
  lua_pushnumber(L, ctx_world_as_is(L)->time);
  return 1;
}

static int l_step(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)ctx_world_as_is(L)->step);
  return 1;
}

static int l_clean(lua_State *L) {
  cairn_diag d;
  cairn_status s = cycle_detect_only(ctx_world(L), &d);
  if (s) return raise_diag(L, s, &d);
  return 0;
}

/* model.destroyed(): the balls the domain has destroyed (while divided, every rank's summed) */
static int l_destroyed(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)par_destroyed(ctx_world_reduced(L)));
  return 1;
}

void open_model(lua_State *L) {
  static const luaL_Reg f[] = {{"new", l_new},
                               {"dim", l_dim},
                               {"gravity", l_gravity},
                               {"domain", l_domain},
                               {"timestep", l_timestep},
                               {"cycle", l_cycle},
                               {"solve", l_solve},
                               {"ratio", l_ratio},
                               {"calm", l_calm},
                               {"time", l_time},
                               {"step", l_step},
                               {"clean", l_clean},
                               {"destroyed", l_destroyed},
                               {"load", l_load},
                               {"threads", l_threads},
                               {"ranks", l_ranks},
                               {"wallclock", l_wallclock},
                               {"view", l_view},
                               {"neighbours", l_neighbours},
                               {"save", l_save},
                               {"restore", l_restore},
                               {NULL, NULL}};
  luaL_newlib(L, f);
  lua_setglobal(L, "model");
}
