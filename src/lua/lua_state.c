/* Runs a script file in a fresh Lua state with cairn's modules preloaded as globals. */
#include <string.h>

#include "lua/lua_api.h"

void ctx_install(lua_State *L, script_ctx *c);

static int msg_handler(lua_State *L) {
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

cairn_status script_run_file(const char *path, const char *case_name, int quiet,
                             script_result *res, cairn_diag *d) {
  script_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.quiet = quiet;
  char base[256];
  if (!case_name) {
    const char *b = strrchr(path, '/');
    snprintf(base, sizeof base, "%s", b ? b + 1 : path);
    char *dot = strrchr(base, '.');
    if (dot && strcmp(dot, ".lua") == 0) *dot = 0;
    case_name = base;
  }
  ctx.case_name = case_name;
  lua_State *L = lua_newstate(l_alloc, NULL);
  if (!L) return diag_set(d, CAIRN_ENOMEM, "out of memory starting Lua");
  luaL_openlibs(L);
  ctx_install(L, &ctx);
  open_model(L);
  open_ball(L);
  open_wall(L);
  open_contact(L);
  open_history(L);
  open_verify(L);
  cairn_status s = CAIRN_OK;
  lua_pushcfunction(L, msg_handler);
  int st = luaL_loadfile(L, path);
  if (st == LUA_OK) st = lua_pcall(L, 0, 0, -2);
  if (st != LUA_OK) {
    const char *m = lua_tostring(L, -1);
    s = st == LUA_ERRMEM ? CAIRN_ENOMEM : st == LUA_ERRFILE ? CAIRN_EIO : CAIRN_EINVAL;
    if (st == LUA_ERRFILE)
      diag_set(d, s, "cannot open script '%s'; check the path", path);
    else
      diag_set(d, s, "%s", m ? m : "unknown Lua error");
  }
  lua_close(L);
  cairn_world_destroy(&ctx.w);
  if (res) res->n_pass = ctx.n_pass, res->n_fail = ctx.n_fail;
  return s;
}
