/* Script module 'verify': compare a simulated quantity (or curve) with a reference and print one
   tab-separated row: PASS|FAIL, case, quantity, simulated, reference, error, tolerance, rel|abs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>

#include "lua/lua_api.h"

static void row(lua_State *L, const char *q, double sim, double ref, double err, double tol,
                int rel) {
  script_ctx *c = ctx_of(L);
  int pass = err <= tol; /* NaN fails */
  if (pass)
    c->n_pass++;
  else
    c->n_fail++;
  printf("%s\t%s\t%s\t%.10g\t%.10g\t%.3g\t%.3g\t%s\n", pass ? "PASS" : "FAIL", c->case_name, q, sim,
         ref, err, tol, rel ? "rel" : "abs");
  fflush(stdout);
}

static int parse_kind(lua_State *L, int idx) {
  lua_getfield(L, idx, "kind");
  const char *k = luaL_optstring(L, -1, "rel");
  lua_pop(L, 1);
  if (strcmp(k, "rel") == 0) return 1;
  if (strcmp(k, "abs") == 0) return 0;
  return lua_raisef(L, "verify: kind must be \"rel\" or \"abs\" (got '%s')", k);
}

static double need(lua_State *L, int idx, const char *key) {
  lua_getfield(L, idx, key);
  int ok;
  double v = lua_tonumberx(L, -1, &ok);
  if (!ok) lua_raisef(L, "verify: give %s as a number (got %s)", key, luaL_typename(L, -1));
  lua_pop(L, 1);
  return v;
}

static double error_of(double s, double r, int rel) {
  return rel ? fabs(s - r) / fabs(r) : fabs(s - r);
}

/* verify.check{quantity = "name", sim = x, ref = y, tol = t, kind = "rel"|"abs"} -> passed */
static int l_check(lua_State *L) {
  static const char *const opts[] = {"quantity", "sim", "ref", "tol", "kind", NULL};
  check_opts(L, 1, "verify.check", opts);
  lua_getfield(L, 1, "quantity");
  const char *q = luaL_checkstring(L, -1);
  double s = need(L, 1, "sim"), r = need(L, 1, "ref"), tol = need(L, 1, "tol");
  int rel = parse_kind(L, 1);
  double err = error_of(s, r, rel);
  row(L, q, s, r, err, tol, rel);
  lua_pushboolean(L, err <= tol);
  return 1;
}

/* verify.curve{quantity = "fn(t)", sim = {...}, ref = {...}, tol = t, kind = ..., scale = S}:
   the error is the maximum over the points; with 'scale', each error is divided by it (a
   relative error against a scale, for curves that cross zero). */
static int l_curve(lua_State *L) {
  static const char *const opts[] = {"quantity", "sim", "ref", "tol", "kind", "scale", NULL};
  check_opts(L, 1, "verify.curve", opts);
  lua_getfield(L, 1, "quantity");
  const char *q = luaL_checkstring(L, -1);
  lua_getfield(L, 1, "sim");
  luaL_checktype(L, -1, LUA_TTABLE);
  lua_getfield(L, 1, "ref");
  luaL_checktype(L, -1, LUA_TTABLE);
  double tol = need(L, 1, "tol");
  int rel = parse_kind(L, 1);
  double scale = 0;
  lua_getfield(L, 1, "scale");
  if (!lua_isnil(L, -1)) scale = luaL_checknumber(L, -1);
  lua_pop(L, 1);
  lua_Integer n = luaL_len(L, -2);
  if (n != luaL_len(L, -1) || n == 0)
    lua_raisef(L, "verify.curve: sim and ref must have the same, non-zero length (%d vs %d)",
               (int)n, (int)luaL_len(L, -1));
  double worst = -1, ws = NAN, wr = NAN;
  for (lua_Integer i = 1; i <= n; i++) {
    lua_geti(L, -2, i);
    lua_geti(L, -2, i);
    double s = luaL_checknumber(L, -2), r = luaL_checknumber(L, -1);
    lua_pop(L, 2);
    double e = scale > 0 ? fabs(s - r) / scale : error_of(s, r, rel);
    if (isnan(e)) e = INFINITY;
    if (e > worst) worst = e, ws = s, wr = r;
  }
  row(L, q, ws, wr, worst, tol, rel || scale > 0);
  lua_pushboolean(L, worst <= tol);
  return 1;
}

/* verify.path(name) -> where a case writes its figures and data: $CAIRN_VERIFY_OUT, else
   "verify-out" in the current folder (created when missing). */
static int l_path(lua_State *L) {
  const char *name = luaL_checkstring(L, 1);
  if (strchr(name, '/'))
    lua_raisef(L, "verify.path: give a file name without folders (got '%s')", name);
  const char *dir = getenv("CAIRN_VERIFY_OUT");
  if (!dir || !dir[0]) dir = "verify-out";
  if (mkdir(dir, 0777) != 0 && errno != EEXIST)
    lua_raisef(L, "verify.path: cannot create the folder '%s': %s", dir, strerror(errno));
  lua_pushfstring(L, "%s/%s", dir, name);
  return 1;
}

/* verify.expect_warning(text): the case runs into the warning holding 'text' on purpose (a
   regime it tests), so that warning is not shown; others still are. */
static int l_expect_warning(lua_State *L) {
  size_t n;
  const char *text = luaL_checklstring(L, 1, &n);
  script_ctx *c = ctx_of(L);
  if (n == 0 || n >= sizeof c->expect_warn)
    lua_raisef(L,
               "verify.expect_warning: give a part of the warning's text, 1 to %d characters "
               "(got %d)",
               (int)sizeof c->expect_warn - 1, (int)n);
  memcpy(c->expect_warn, text, n + 1);
  return 0;
}

void open_verify(lua_State *L) {
  static const luaL_Reg f[] = {{"check", l_check},
                               {"curve", l_curve},
                               {"path", l_path},
                               {"expect_warning", l_expect_warning},
                               {NULL, NULL}};
  luaL_newlib(L, f);
  lua_setglobal(L, "verify");
}
