/* Script module 'cell': the periodic cell (src/world/periodic.c): creating it, deforming it with
   a velocity gradient, holding a stress on its axes, and reading its stress, size and strain.
   Every MPI rank holds the cell alike, so only cell.create gathers a divided model and
   cell.stress sums over the ranks (docs/parallel.md). */
#include <string.h>

#include "lua/lua_api.h"
#include "measure/measure.h"

static const char AXES[] = "xyz";

static periodic_cell *need_cell(lua_State *L, cairn_world *w, const char *fn) {
  if (!w->cell.on)
    lua_raisef(L,
               "%s: the model has no periodic cell; make one first with cell.create{min = ..., "
               "max = ...}",
               fn);
  return &w->cell;
}

/* The axis index of letter c in a model of dimension dim, or raise. */
static int axis_of(lua_State *L, char c, int dim, const char *fn) {
  const char *p = c ? strchr(AXES, c) : NULL;
  if (!p || p - AXES >= dim)
    lua_raisef(L, "%s: '%c' is not an axis of a %dD model; use %s", fn, c ? c : '?', dim,
               dim == 2 ? "x or y" : "x, y or z");
  return (int)(p - AXES);
}

/* axes = "xz" or {"x", "z"}: flags per axis. */
static void get_axes(lua_State *L, int idx, int dim, int axes[3], const char *fn, const char *key) {
  axes[0] = axes[1] = axes[2] = 0;
  if (lua_type(L, idx) == LUA_TSTRING) {
    const char *s = lua_tostring(L, idx);
    if (!*s) lua_raisef(L, "%s: %s is empty; name axes like \"xy\"", fn, key);
    for (; *s; s++) axes[axis_of(L, *s, dim, fn)] = 1;
    return;
  }
  if (!lua_istable(L, idx))
    lua_raisef(L,
               "%s: %s must be a string of axes like \"xy\" or an array like {\"x\", \"y\"} "
               "(got %s)",
               fn, key, luaL_typename(L, idx));
  lua_Integer n = luaL_len(L, idx);
  if (n < 1) lua_raisef(L, "%s: %s is empty; name at least one axis", fn, key);
  for (lua_Integer i = 1; i <= n; i++) {
    lua_geti(L, idx, i);
    const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    if (!s || strlen(s) != 1)
      lua_raisef(L, "%s: %s[%d] must be an axis name \"x\", \"y\" or \"z\"", fn, key, (int)i);
    axes[axis_of(L, s[0], dim, fn)] = 1;
    lua_pop(L, 1);
  }
}

static int l_create(lua_State *L) {
  const char *fn = "cell.create";
  static const char *const opts[] = {"min", "max", "axes", NULL};
  cairn_world *w = ctx_world(L);
  check_opts(L, 1, fn, opts);
  if (w->clumps.n)
    lua_raisef(L, "cell.create: the model has clumps, which do not work in a periodic cell yet; "
                  "model them in a box of walls");
  double lo[3], hi[3];
  lua_getfield(L, 1, "min");
  get_vec(L, -1, w->dim, lo, "cell.create: min");
  lua_getfield(L, 1, "max");
  get_vec(L, -1, w->dim, hi, "cell.create: max");
  lua_pop(L, 2);
  int axes[3] = {1, 1, w->dim == 3};
  lua_getfield(L, 1, "axes");
  if (!lua_isnil(L, -1)) get_axes(L, -1, w->dim, axes, fn, "axes");
  lua_pop(L, 1);
  if (w->cell.on) lua_raisef(L, "%s: the model has a periodic cell already; one is allowed", fn);
  cairn_diag d;
  cairn_status s = periodic_create(w, lo, hi, axes, &d);
  if (s) return raise_diag(L, s, &d);
  return 0;
}

static void push_rows(lua_State *L, const double *m, int stride, int dim) {
  lua_createtable(L, dim, 0);
  for (int i = 0; i < dim; i++) {
    lua_createtable(L, dim, 0);
    for (int j = 0; j < dim; j++) {
      lua_pushnumber(L, m[stride * i + j]);
      lua_rawseti(L, -2, j + 1);
    }
    lua_rawseti(L, -2, i + 1);
  }
}

/* A component "xy" of a dim x dim matrix: its row and column, or raise. */
static void component(lua_State *L, const char *name, int dim, int *i, int *j, const char *fn) {
  if (strlen(name) != 2)
    lua_raisef(L, "%s: '%s' is not a component; use two axes like \"xy\"", fn, name);
  *i = axis_of(L, name[0], dim, fn);
  *j = axis_of(L, name[1], dim, fn);
}

static int l_rate(lua_State *L) {
  const char *fn = "cell.rate";
  cairn_world *w = ctx_world_as_is(L);
  periodic_cell *pc = need_cell(L, w, fn);
  int dim = w->dim;
  if (lua_gettop(L) == 0) {
    push_rows(L, &pc->L[0][0], 3, dim);
    return 1;
  }
  luaL_checktype(L, 1, LUA_TTABLE);
  double L2[3][3];
  memcpy(L2, pc->L, sizeof L2);
  int remap = 1;
  lua_pushnil(L);
  while (lua_next(L, 1)) {
    if (lua_type(L, -2) != LUA_TSTRING)
      lua_raisef(L, "%s: give components by name, like {xy = 0.01}", fn);
    const char *k = lua_tostring(L, -2);
    if (strcmp(k, "remap") == 0) {
      if (!lua_isboolean(L, -1)) lua_raisef(L, "%s: remap must be true or false", fn);
      remap = lua_toboolean(L, -1);
    } else {
      int i, j;
      component(L, k, dim, &i, &j, fn);
      char what[64];
      snprintf(what, sizeof what, "%s: %s", fn, k);
      double v = check_number(L, -1, what);
      if (!isfinite(v))
        lua_raisef(L, "%s is %s; give a finite rate", what,
                   isnan(v) ? "NaN (not a number)"
                   : v > 0  ? "+inf"
                            : "-inf");
      if (i == j && pc->servo[i])
        lua_raisef(L,
                   "%s: the %c axis is held by cell.servo, which sets %s; turn the servo off "
                   "first (cell.servo{axis = \"%c\", off = true})",
                   fn, AXES[i], k, AXES[i]);
      L2[i][j] = v;
    }
    lua_pop(L, 1);
  }
  periodic_set_rate(w, (const double(*)[3])L2, remap);
  return 0;
}

static int l_servo(lua_State *L) {
  const char *fn = "cell.servo";
  static const char *const opts[] = {"axis", "stress", "rate_max", "alpha", "off", NULL};
  cairn_world *w = ctx_world_as_is(L);
  periodic_cell *pc = need_cell(L, w, fn);
  check_opts(L, 1, fn, opts);
  int axes[3];
  lua_getfield(L, 1, "axis");
  if (lua_isnil(L, -1)) lua_raisef(L, "%s: give axis, like axis = \"y\" or \"xyz\"", fn);
  get_axes(L, -1, w->dim, axes, fn, "axis");
  lua_pop(L, 1);
  for (int j = 0; j < w->dim; j++)
    if (axes[j] && !pc->periodic[j])
      lua_raisef(L,
                 "%s: the %c axis is not periodic, so the cell cannot hold a stress on it; "
                 "use a servo wall (wall.servo) there",
                 fn, AXES[j]);
  lua_getfield(L, 1, "off");
  int off = lua_toboolean(L, -1);
  lua_pop(L, 1);
  if (off) {
    periodic_set_control(pc, axes, 0, 0, 0, 0);
    return 0;
  }
  lua_getfield(L, 1, "stress");
  if (lua_isnil(L, -1))
    lua_raisef(L, "%s: give the target stress (stress = ...), or off = true", fn);
  lua_pop(L, 1);
  double S = opt_number(L, 1, "stress", 0, fn);
  double rmax = opt_number(L, 1, "rate_max", NAN, fn);
  double alpha = opt_number(L, 1, "alpha", 0.5, fn);
  if (!(S >= 0 && isfinite(S)))
    lua_raisef(L, "%s: stress must be a finite number >= 0, compression positive (got %g)", fn, S);
  if (isnan(rmax))
    lua_raisef(L, "%s: give rate_max, the most strain rate the cell may take (1/s)", fn);
  if (!(rmax > 0 && isfinite(rmax)))
    lua_raisef(L, "%s: rate_max must be a finite number > 0 (got %g)", fn, rmax);
  if (!(alpha > 0 && alpha <= 1)) lua_raisef(L, "%s: alpha must be in (0, 1] (got %g)", fn, alpha);
  periodic_set_control(pc, axes, 1, S, rmax, alpha);
  return 0;
}

static int l_stress(lua_State *L) {
  const char *fn = "cell.stress";
  cairn_world *w = ctx_world_reduced(L);
  need_cell(L, w, fn);
  double st[9];
  periodic_stress(w, st, NULL); /* from the contacts of the last force pass (every rank's) */
  if (lua_gettop(L) >= 1 && !lua_isnil(L, 1)) {
    const char *k = luaL_checkstring(L, 1);
    if (strcmp(k, "mean") == 0) {
      double t = 0;
      for (int i = 0; i < w->dim; i++) t += st[4 * i];
      lua_pushnumber(L, t / w->dim);
      return 1;
    }
    int i, j;
    component(L, k, w->dim, &i, &j, fn);
    lua_pushnumber(L, st[3 * i + j]);
    return 1;
  }
  push_rows(L, st, 3, w->dim);
  return 1;
}

static int l_edges(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  periodic_cell *pc = need_cell(L, w, "cell.edges");
  lua_createtable(L, w->dim, 0);
  for (int j = 0; j < w->dim; j++) {
    double e[3] = {pc->H[0][j], pc->H[1][j], pc->H[2][j]};
    push_vec(L, e, w->dim);
    lua_rawseti(L, -2, j + 1);
  }
  return 1;
}

static int l_origin(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  push_vec(L, need_cell(L, w, "cell.origin")->origin, w->dim);
  return 1;
}

static int l_volume(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  lua_pushnumber(L, periodic_volume(need_cell(L, w, "cell.volume"), w->dim));
  return 1;
}

/* The displacement gradient since creation, F - I. */
static int l_strain(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  periodic_cell *pc = need_cell(L, w, "cell.strain");
  double g[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) g[3 * i + j] = pc->F[i][j] - (i == j);
  push_rows(L, g, 3, w->dim);
  return 1;
}

static int l_exists(lua_State *L) {
  lua_pushboolean(L, ctx_world_as_is(L)->cell.on);
  return 1;
}

static int l_periodic(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  lua_newtable(L);
  int n = 0;
  for (int j = 0; j < w->dim; j++)
    if (w->cell.on && w->cell.periodic[j]) {
      char a[2] = {AXES[j], 0};
      lua_pushstring(L, a);
      lua_rawseti(L, -2, ++n);
    }
  return 1;
}

void open_cell(lua_State *L) {
  static const luaL_Reg f[] = {{"create", l_create},     {"rate", l_rate},     {"servo", l_servo},
                               {"stress", l_stress},     {"edges", l_edges},   {"origin", l_origin},
                               {"volume", l_volume},     {"strain", l_strain}, {"exists", l_exists},
                               {"periodic", l_periodic}, {NULL, NULL}};
  luaL_newlib(L, f);
  lua_setglobal(L, "cell");
}
