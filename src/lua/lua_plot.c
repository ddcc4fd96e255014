/* Script module 'plot': draw histories to PNG, SVG or PDF with gnuplot. */
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

/* An array of strings from option 'key' into out (at most max), its length; 0 when absent. */
static int opt_strings(lua_State *L, const char *key, const char **out, int max) {
  lua_getfield(L, 1, key);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return 0;
  }
  if (!lua_istable(L, -1))
    lua_raisef(L, "plot.history: %s must be an array of names, like {\"a\", \"b\"}", key);
  lua_Integer n = luaL_len(L, -1);
  if (n > max) lua_raisef(L, "plot.history: at most %d entries in %s (got %d)", max, key, (int)n);
  for (lua_Integer i = 1; i <= n; i++) {
    lua_geti(L, -1, i);
    if (lua_type(L, -1) != LUA_TSTRING)
      lua_raisef(L, "plot.history: %s[%d] must be a string", key, (int)i);
    out[i - 1] = lua_tostring(L, -1);
    lua_pop(L, 1); /* the string stays alive in the options table */
  }
  lua_pop(L, 1);
  return (int)n;
}

static int opt_flag(lua_State *L, const char *key) {
  lua_getfield(L, 1, key);
  int v = lua_toboolean(L, -1);
  lua_pop(L, 1);
  return v;
}

/* plot.history{out = "f.png", x = "time", y = {"fn", "fn_exact"}, y2 = {...}, labels = {...},
   styles = {...}, title =, xlabel =, ylabel =, y2label =, logx =, logy =, logy2 =, together =,
   csv = "file.csv"}: without csv, the current histories are plotted. */
/* An option of one string per drawn series (labels, styles): how many were given (0: none);
   any other count than the series' is an error. */
static int per_series(lua_State *L, const char *key, const char *one, const char **out,
                      const plot_spec *p) {
  int n = opt_strings(L, key, out, 128);
  if (n && (p->n_y == 0 || n != p->n_y + p->n_y2))
    lua_raisef(L,
               "plot.history: %s needs one %s per series of y and y2, in order (%d series, %d "
               "%s)",
               key, one, p->n_y + p->n_y2, n, key);
  return n;
}

static int l_history(lua_State *L) {
  static const char *const opts[] = {"out",  "x",     "y",        "title",  "xlabel", "ylabel",
                                     "csv",  "y2",    "y2label",  "labels", "styles", "logx",
                                     "logy", "logy2", "together", NULL};
  collective_call(L, CALL_PLOT_HISTORY);
  check_opts(L, 1, "plot.history", opts);
  plot_spec p;
  memset(&p, 0, sizeof p);
  p.out = opt_str(L, 1, "out");
  if (!p.out) lua_raisef(L, "plot.history: give out = \"file.png\" (or .svg, .pdf)");
  p.x = opt_str(L, 1, "x");
  p.title = opt_str(L, 1, "title");
  p.xlabel = opt_str(L, 1, "xlabel");
  p.ylabel = opt_str(L, 1, "ylabel");
  p.y2label = opt_str(L, 1, "y2label");
  p.csv = opt_str(L, 1, "csv");
  const char *ys[64], *y2s[64], *labels[128], *styles[128];
  p.n_y = opt_strings(L, "y", ys, 64);
  p.y = ys;
  p.n_y2 = opt_strings(L, "y2", y2s, 64);
  p.y2 = y2s;
  if (per_series(L, "labels", "legend", labels, &p)) p.labels = labels;
  if (per_series(L, "styles", "style", styles, &p)) p.styles = styles;
  p.logx = opt_flag(L, "logx"), p.logy = opt_flag(L, "logy"), p.logy2 = opt_flag(L, "logy2");
  p.together = opt_flag(L, "together");
  char tmp[4200] = "";
  cairn_diag d;
  cairn_status s = CAIRN_OK;
  if (!p.csv) { /* plot the live histories through a temporary export */
    char shown[4300];
    snprintf(tmp, sizeof tmp, "%s.data-%ld.csv", p.out, (long)getpid());
    snprintf(shown, sizeof shown, "the data of '%s' (a file beside it, removed after)", p.out);
    s = io_history_csv_as(ctx_world_as_is(L), tmp, shown, &d);
    p.csv = tmp;
  }
  if (s == CAIRN_OK) s = io_plot_csv(&p, &d);
  if (tmp[0]) remove(tmp);
  if (s) return lua_raisef(L, "%s%s", strncmp(d.msg, "plot: ", 6) ? "plot: " : "", d.msg);
  return 0;
}

void open_plot(lua_State *L) {
  static const luaL_Reg f[] = {{"history", l_history}, {NULL, NULL}};
  luaL_newlib(L, f);
  lua_setglobal(L, "plot");
}
