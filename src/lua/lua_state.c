/* Runs a script file in a fresh Lua state with cairn's modules preloaded as globals. */
#include <limits.h>
#include <string.h>

#include "contact/events.h"
#include "contact/registry.h"
#include "core/comm.h"
#include "lua/lua_api.h"

void ctx_install(lua_State *L, script_ctx *c);

int lua_msg_handler(lua_State *L) {
  if (lua_type(L, 1) != LUA_TSTRING) {
    if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) return 1;
    lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
  }
  return 1;
}

static void *l_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud;
  return mem_realloc(ptr, osize, nsize, "lua");
}

/* Lua's libraries and cairn's modules, opened in protected mode: an allocation that fails there
   is an error, not a panic. */
static int open_modules(lua_State *L) {
  script_ctx *c = lua_touserdata(L, 1);
  luaL_openlibs(L);
  ctx_install(L, c);
  open_model(L);
  open_ball(L);
  open_wall(L);
  open_contact(L);
  open_history(L);
  open_verify(L);
  open_callback(L);
  open_plot(L);
  open_vtk(L);
  open_specimen(L);
  open_measure(L);
  open_energy(L);
  open_cell(L);
  open_clump(L);
  open_dfn(L);
  open_lab(L);
  return 0;
}

cairn_status ctx_open(script_ctx *c, int quiet, const char *const *plugins, int n_plugins,
                      cairn_diag *d) {
  memset(c, 0, sizeof *c);
  c->quiet = quiet;
  for (int i = 0; i < EV_COUNT + 2; i++) c->cb_ref[i] = LUA_NOREF;
  lua_State *L = lua_newstate(l_alloc, NULL);
  if (!L) return diag_set(d, CAIRN_ENOMEM, "out of memory starting Lua");
  c->L = L;
  lua_pushcfunction(L, open_modules); /* (a light C function and pointer: no allocation) */
  lua_pushlightuserdata(L, c);
  if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
    diag_set(d, CAIRN_ENOMEM, "out of memory starting Lua (%s)", lua_tostring(L, -1));
    lua_close(L);
    c->L = NULL;
    return CAIRN_ENOMEM;
  }
  cairn_status s = CAIRN_OK;
  for (int i = 0; i < n_plugins && s == CAIRN_OK; i++) s = ctx_load_plugin(c, plugins[i], d);
  if (s != CAIRN_OK) ctx_close(c);
  return s;
}

static int view_port_request = -1; /* cairn run --view: the port (0 a free one); -1 none */

void script_request_view(int port) {
  view_port_request = port;
}

cairn_status ctx_start_view(script_ctx *c, int port, double refresh, cairn_diag *d) {
  if (c->view) return CAIRN_OK;
  CAIRN_CHECK(comm_size() == 1, d, CAIRN_ESTATE,
              "the live view runs in a serial cairn; run the script without mpirun to watch it");
  view_opts o = {.port = port, .refresh = refresh};
  CAIRN_TRY(view_start(&o, &c->view, d));
  view_run r = {.fraction = -1, .what = "idle"};
  view_publish(c->view, c->w, &r, 1);
  fprintf(stderr,
          "cairn: the live view is at %s (open it in a browser on this machine; the token in it "
          "keeps other users out)\n",
          view_address(c->view));
  fflush(stderr);
  return CAIRN_OK;
}

void ctx_close(script_ctx *c) {
  if (!c->L) return;
  progress_end(c);
  if (c->view) { /* the last state for the page, then the server goes */
    view_run r = {.fraction = 1, .what = "finished"};
    view_publish(c->view, c->w, &r, 1);
    view_stop(c->view);
    c->view = NULL;
  }
  lua_close(c->L);
  c->L = NULL;
  cairn_world_destroy(&c->w);
  ctx_free_plugins(c);
}

cairn_status ctx_run_file(script_ctx *c, const char *path, cairn_diag *d) {
  lua_State *L = c->L;
  int top = lua_gettop(L);
  lua_pushcfunction(L, lua_msg_handler);
  int st = luaL_loadfile(L, path);
  if (st == LUA_OK) st = lua_pcall(L, 0, 0, -2);
  cairn_status s = CAIRN_OK;
  if (st != LUA_OK && c->view_stopped) { /* the page's stop: the script ends there, cleanly */
    fprintf(stderr, "cairn: %s\n", lua_tostring(L, -1) ? lua_tostring(L, -1) : "stopped");
    st = LUA_OK;
  }
  if (st != LUA_OK) {
    const char *m = lua_tostring(L, -1);
    s = st == LUA_ERRMEM ? CAIRN_ENOMEM : st == LUA_ERRFILE ? CAIRN_EIO : CAIRN_EINVAL;
    if (st == LUA_ERRFILE) /* Lua's message: "cannot open <path>: <reason>" (or read) */
      diag_set(d, s, "cairn: %s; check the script's path and permissions",
               m ? m : "cannot open the script");
    else
      diag_set(d, s, "%s", m ? m : "unknown Lua error");
  }
  lua_settop(L, top);
  return s;
}

cairn_status script_run_file(const char *path, const char *case_name, int quiet,
                             const char *const *plugins, int n_plugins, script_result *res,
                             cairn_diag *d) {
  script_ctx ctx;
  char base[256];
  if (!case_name) {
    const char *b = strrchr(path, '/');
    snprintf(base, sizeof base, "%s", b ? b + 1 : path);
    char *dot = strrchr(base, '.');
    if (dot && strcmp(dot, ".lua") == 0) *dot = 0;
    case_name = base;
  }
  CAIRN_TRY(ctx_open(&ctx, quiet, plugins, n_plugins, d));
  ctx.case_name = case_name;
  cairn_status s =
      view_port_request >= 0 ? ctx_start_view(&ctx, view_port_request, 0, d) : CAIRN_OK;
  if (s == CAIRN_OK) s = ctx_run_file(&ctx, path, d);
  /* under MPI, the end of the script is where the ranks meet last: a rank that reached it while
     another waits in a collective call stops both with a message (lua_collective.c) */
  if (s == CAIRN_OK) s = collective_agree(ctx.L, CALL_END, NULL, d);
  ctx_close(&ctx);
  if (res) res->n_pass = ctx.n_pass, res->n_fail = ctx.n_fail;
  return s;
}

cairn_status ctx_new_world(script_ctx *c, int dim, cairn_world **out, cairn_diag *d) {
  cairn_world_opts o = {.dim = dim};
  CAIRN_TRY(cairn_world_create(&o, out, d));
  for (size_t i = 0; i < c->n_plugins; i++) {
    cairn_status s = registry_add_plugin((*out)->reg, &c->plugins[i], d);
    if (s != CAIRN_OK) {
      cairn_world_destroy(out);
      return s;
    }
  }
  return CAIRN_OK;
}

cairn_status ctx_load_plugin(script_ctx *c, const char *name, cairn_diag *d) {
  char path[PATH_MAX];
  CAIRN_TRY(plugin_resolve(name, path, sizeof path, d));
  for (size_t i = 0; i < c->n_plugins; i++)
    if (strcmp(c->plugins[i].path, path) == 0) {
      if (!c->quiet) fprintf(stderr, "note: plugin %s is already loaded; nothing to do\n", path);
      return CAIRN_OK;
    }
  CAIRN_TRY(mem_grow((void **)&c->plugins, &c->cap_plugins, c->n_plugins + 1, sizeof *c->plugins,
                     "plugins", d));
  plugin_lib *lib = &c->plugins[c->n_plugins];
  CAIRN_TRY(plugin_open(path, lib, d));
  /* Check the models against everything already registered before keeping the library. */
  cairn_status s;
  if (c->w) {
    s = registry_add_plugin(c->w->reg, lib, d);
  } else {
    cairn_world *probe = NULL;
    s = ctx_new_world(c, 2, &probe, d);
    if (s == CAIRN_OK) s = registry_add_plugin(probe->reg, lib, d);
    cairn_world_destroy(&probe);
  }
  if (s != CAIRN_OK) {
    plugin_close(lib);
    return s;
  }
  c->n_plugins++;
  return CAIRN_OK;
}

void ctx_free_plugins(script_ctx *c) {
  for (size_t i = 0; i < c->n_plugins; i++) plugin_close(&c->plugins[i]);
  mem_free(c->plugins, 0);
  c->plugins = NULL;
  c->n_plugins = c->cap_plugins = 0;
}
