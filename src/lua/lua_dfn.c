/* dfn.*: discrete fracture networks for scripts (docs/joints.md). A network is a Lua list of
   joints, each {centre = P, normal = N, radius = R, set = S} (2D: radius is the segment's
   half-length); dfn.read and dfn.fisher make one, dfn.write and dfn.vtk write one, and
   contact.joint{joints = LIST} installs the smooth joint where they part contacts. */
#include <math.h>
#include <string.h>

#include "io/io.h"
#include "lua/lua_api.h"

/* A network held by a userdata (freed by its __gc), so that a raise leaks nothing. */
static int net_gc(lua_State *L) {
  dfn_free(luaL_checkudata(L, 1, "cairn.dfn_net"));
  return 0;
}
static dfn_net *net_new(lua_State *L) {
  dfn_net *net = lua_newuserdatauv(L, sizeof *net, 0);
  memset(net, 0, sizeof *net);
  if (luaL_newmetatable(L, "cairn.dfn_net")) {
    lua_pushcfunction(L, net_gc);
    lua_setfield(L, -2, "__gc");
  }
  lua_setmetatable(L, -2);
  return net;
}

dfn_net *dfn_from_lua(lua_State *L, int idx, int dim, const char *fn) {
  idx = lua_absindex(L, idx);
  if (!lua_istable(L, idx))
    lua_raisef(L, "%s: joints must be a list of {centre = P, normal = N, radius = R, set = S}", fn);
  dfn_net *net = net_new(L);
  const lua_Integer n = luaL_len(L, idx);
  char what[96];
  for (lua_Integer i = 1; i <= n; i++) {
    lua_rawgeti(L, idx, i);
    if (!lua_istable(L, -1))
      lua_raisef(L, "%s: joint %lld is not a table {centre = P, normal = N, radius = R, set = S}",
                 fn, (long long)i);
    dfn_joint j;
    memset(&j, 0, sizeof j);
    snprintf(what, sizeof what, "%s: joint %lld's centre", fn, (long long)i);
    lua_getfield(L, -1, "centre");
    get_vec(L, -1, dim, j.centre, what);
    snprintf(what, sizeof what, "%s: joint %lld's normal", fn, (long long)i);
    lua_getfield(L, -2, "normal");
    get_vec(L, -1, dim, j.normal, what);
    if (!dfn_unit(j.normal)) /* (made of unit length) */
      lua_raisef(L, "%s: joint %lld's normal is zero; give its plane's normal", fn, (long long)i);
    lua_getfield(L, -3, "radius");
    snprintf(what, sizeof what, "%s: joint %lld's radius", fn, (long long)i);
    j.radius = check_number(L, -1, what);
    if (!(j.radius > 0) || !isfinite(j.radius))
      lua_raisef(L, "%s: joint %lld's radius is %g; give a finite length > 0", fn, (long long)i,
                 j.radius);
    lua_getfield(L, -4, "set");
    if (!lua_isnil(L, -1)) {
      snprintf(what, sizeof what, "%s: joint %lld's set", fn, (long long)i);
      lua_Integer s = check_whole(L, -1, what);
      if (s < 0 || s > 2147483647)
        lua_raisef(L, "%s: joint %lld's set is %lld; give a whole number >= 0", fn, (long long)i,
                   (long long)s);
      j.set = (int)s;
    }
    lua_pop(L, 5);
    cairn_diag d;
    cairn_status s = dfn_push(net, &j, &d);
    if (s) raise_diag(L, s, &d);
  }
  return net;
}

static void push_net(lua_State *L, const dfn_net *net, int dim) {
  lua_createtable(L, (int)net->n, 0);
  for (size_t i = 0; i < net->n; i++) {
    const dfn_joint *j = &net->j[i];
    lua_createtable(L, 0, 4);
    push_vec(L, j->centre, dim);
    lua_setfield(L, -2, "centre");
    push_vec(L, j->normal, dim);
    lua_setfield(L, -2, "normal");
    lua_pushnumber(L, j->radius);
    lua_setfield(L, -2, "radius");
    lua_pushinteger(L, j->set);
    lua_setfield(L, -2, "set");
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
}

/* dfn.read(PATH) -> joints */
static int l_read(lua_State *L) {
  cairn_world *w = ctx_world(L);
  const char *path = luaL_checkstring(L, 1);
  dfn_net *net = net_new(L);
  cairn_diag d;
  cairn_status s = io_dfn_read(path, w->dim, net, &d);
  if (s) return lua_raisef(L, "dfn.read: %s", d.msg);
  push_net(L, net, w->dim);
  return 1;
}

/* dfn.write(PATH, joints) and dfn.vtk(PATH, joints): a network written by 'writer'. */
typedef cairn_status (*net_writer)(const char *, int, const dfn_net *, cairn_diag *);
static int write_net(lua_State *L, const char *fn, net_writer writer) {
  cairn_world *w = ctx_world(L);
  const char *path = luaL_checkstring(L, 1);
  dfn_net *net = dfn_from_lua(L, 2, w->dim, fn);
  cairn_diag d;
  cairn_status s = writer(path, w->dim, net, &d);
  if (s) return lua_raisef(L, "%s: %s", fn, d.msg);
  return 0;
}
static int l_write(lua_State *L) {
  return write_net(L, "dfn.write", io_dfn_write);
}
static int l_vtk(lua_State *L) {
  return write_net(L, "dfn.vtk", io_vtk_joints);
}

/* dfn.fisher{box = {min = P, max = P}, seed = N, sets = {{dip = D, dip_direction = A,
   kappa = K, count = C, radius = R or {min = A, max = B, power = E}, set = S}, ...}} -> joints */
static int l_fisher(lua_State *L) {
  cairn_world *w = ctx_world(L);
  const int dim = w->dim;
  luaL_checktype(L, 1, LUA_TTABLE);
  static const char *const opts[] = {"box", "seed", "sets", NULL};
  check_opts(L, 1, "dfn.fisher", opts);
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  lua_getfield(L, 1, "box");
  if (!lua_istable(L, -1))
    lua_raisef(L, "dfn.fisher: give box = {min = P, max = P}, where the joints' centres lie");
  lua_getfield(L, -1, "min");
  get_vec(L, -1, dim, lo, "dfn.fisher: box.min");
  lua_getfield(L, -2, "max");
  get_vec(L, -1, dim, hi, "dfn.fisher: box.max");
  lua_pop(L, 3);
  for (int k = 0; k < dim; k++)
    if (!(hi[k] > lo[k]))
      lua_raisef(L, "dfn.fisher: box.max must exceed box.min in every coordinate");
  lua_getfield(L, 1, "seed");
  const lua_Integer seed = lua_isnil(L, -1) ? 1 : check_whole(L, -1, "dfn.fisher: seed");
  lua_pop(L, 1);
  lua_getfield(L, 1, "sets");
  if (!lua_istable(L, -1) || luaL_len(L, -1) < 1)
    lua_raisef(L, "dfn.fisher: give sets = {{dip = D, dip_direction = A, kappa = K, count = C, "
                  "radius = R}, ...}");
  const int sets = lua_gettop(L);
  dfn_net *net = net_new(L);
  spec_rng g;
  spec_rng_seed(&g, (uint64_t)seed);
  static const char *const set_opts[] = {"dip",    "dip_direction", "kappa", "count",
                                         "radius", "set",           NULL};
  for (lua_Integer i = 1; i <= luaL_len(L, sets); i++) {
    lua_rawgeti(L, sets, i);
    if (!lua_istable(L, -1)) lua_raisef(L, "dfn.fisher: set %lld is not a table", (long long)i);
    char fn[64];
    snprintf(fn, sizeof fn, "dfn.fisher: set %lld", (long long)i);
    const int t = lua_gettop(L);
    check_opts(L, t, fn, set_opts);
    dfn_fisher_set s;
    memset(&s, 0, sizeof s);
    s.dip = opt_number(L, t, "dip", 0.0, fn);
    s.ddir = opt_number(L, t, "dip_direction", 0.0, fn);
    s.kappa = opt_number(L, t, "kappa", 0.0, fn);
    char what[96];
    lua_getfield(L, t, "count");
    snprintf(what, sizeof what, "%s's count", fn);
    const lua_Integer count = check_whole(L, -1, what);
    if (count < 0) lua_raisef(L, "%s: count must be a whole number >= 0", fn);
    s.count = (size_t)count;
    lua_getfield(L, t, "set");
    snprintf(what, sizeof what, "%s's set", fn);
    const lua_Integer set = lua_isnil(L, -1) ? i - 1 : check_whole(L, -1, what);
    if (set < 0 || set > 2147483647)
      lua_raisef(L, "%s: set is %lld; give a whole number >= 0", fn, (long long)set);
    s.set = (int)set;
    lua_getfield(L, t, "radius");
    snprintf(what, sizeof what, "%s's radius", fn);
    if (lua_istable(L, -1)) {
      s.rmin = opt_number(L, -1, "min", NAN, what);
      s.rmax = opt_number(L, -1, "max", NAN, what);
      s.power = opt_number(L, -1, "power", 0.0, what);
    } else {
      s.rmin = s.rmax = check_number(L, -1, what);
    }
    lua_settop(L, t - 1);
    cairn_diag d;
    cairn_status st = dfn_fisher(&s, dim, lo, hi, &g, net, &d);
    if (st) return lua_raisef(L, "dfn.fisher: %s", d.msg);
  }
  push_net(L, net, dim);
  return 1;
}

void open_dfn(lua_State *L) {
  static const luaL_Reg f[] = {
      {"read", l_read}, {"write", l_write}, {"vtk", l_vtk}, {"fisher", l_fisher}, {NULL, NULL}};
  luaL_newlib(L, f);
  lua_setglobal(L, "dfn");
}
