/* Script module 'plot': draw histories to PNG or SVG with gnuplot. */
#include <string.h>
#include <unistd.h>

#include "io/io.h"
#include "lua/lua_api.h"

static const char *opt_str(lua_State *L, int idx, const char *key) {
  lua_getfield(L, idx, key);
  const char *s = lua_isnil(L, -1) ? NULL : luaL_checkstring(L, -1);
  lua_pop(L, 1); /* the string stays alive in the options table */
  return s;
}

/* plot.history{out = "f.png", x = "time", y = {"fn", "fn_exact"}, title =, xlabel =, ylabel =,
   csv = "file.csv"}: without csv, the current histories are plotted. */
static int l_history(lua_State *L) {
  static const char *const opts[] = {"out", "x", "y", "title", "xlabel", "ylabel", "csv", NULL};
  check_opts(L, 1, "plot.history", opts);
  plot_spec p;
  memset(&p, 0, sizeof p);
  p.out = opt_str(L, 1, "out");
  if (!p.out) lua_raisef(L, "plot.history: give out = \"file.png\" (or .svg)");
  p.x = opt_str(L, 1, "x");
  p.title = opt_str(L, 1, "title");
  p.xlabel = opt_str(L, 1, "xlabel");
  p.ylabel = opt_str(L, 1, "ylabel");
  p.csv = opt_str(L, 1, "csv");
  const char *ys[64];
  lua_getfield(L, 1, "y");
  if (!lua_isnil(L, -1)) {
    luaL_checktype(L, -1, LUA_TTABLE);
    lua_Integer n = luaL_len(L, -1);
    if (n > 64) lua_raisef(L, "plot.history: at most 64 columns in y (got %d)", (int)n);
    for (lua_Integer i = 1; i <= n; i++) {
      lua_geti(L, -1, i);
      ys[i - 1] = luaL_checkstring(L, -1);
      lua_pop(L, 1);
    }
    p.y = ys;
    p.n_y = (int)n;
  }
  char tmp[4200] = "";
  cairn_diag d;
  cairn_status s = CAIRN_OK;
  if (!p.csv) { /* plot the live histories through a temporary export */
    snprintf(tmp, sizeof tmp, "%s.data-%ld.csv", p.out, (long)getpid());
    s = io_history_csv(ctx_world(L), tmp, &d);
    p.csv = tmp;
  }
  if (s == CAIRN_OK) s = io_plot_csv(&p, &d);
  if (tmp[0]) remove(tmp);
  if (s) return lua_raisef(L, "%s", d.msg);
  return 0;
}

void open_plot(lua_State *L) {
  static const luaL_Reg f[] = {{"history", l_history}, {NULL, NULL}};
  luaL_newlib(L, f);
  lua_setglobal(L, "plot");
}
