/* Script module 'vtk': snapshots and periodic output for ParaView (VTK XML, see src/io/vtk.c).
   Each prefix keeps its own series, so repeated writes build one time series in PREFIX.pvd. */
#include <string.h>

#include "contact/contact.h"
#include "cycle/cycle.h"
#include "io/io.h"
#include "lua/lua_api.h"

#define SERIES "cairn.vtk_series"              /* metatable of a series */
#define BY_PREFIX "cairn.vtk_series_by_prefix" /* registry table: prefix -> series */

typedef struct series_ud {
  vtk_series s;
} series_ud;

static int series_gc(lua_State *L) {
  series_ud *u = luaL_checkudata(L, 1, SERIES);
  mem_free(u->s.time, 0);
  u->s.time = NULL;
  return 0;
}

/* The series of a prefix, created on first use and kept in the registry. */
static vtk_series *series_of(lua_State *L, const char *prefix) {
  lua_getfield(L, LUA_REGISTRYINDEX, BY_PREFIX);
  lua_getfield(L, -1, prefix);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    series_ud *u = lua_newuserdatauv(L, sizeof *u, 0);
    memset(u, 0, sizeof *u);
    luaL_setmetatable(L, SERIES);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, prefix);
  }
  series_ud *u = lua_touserdata(L, -1);
  lua_pop(L, 2);
  return &u->s;
}

/* (detected_world: the contacts shown match the balls shown, in the order of their ids) */
/* vtk.write(prefix): one snapshot, added to the prefix's series. */
static int l_write(lua_State *L) {
  collective_call(L, CALL_VTK_WRITE);
  cairn_world *w = detected_world(L);
  const char *prefix = luaL_checkstring(L, 1);
  cairn_diag d;
  cairn_status s = io_vtk_write(w, series_of(L, prefix), prefix, &d);
  if (s) return lua_raisef(L, "vtk.write: %s", d.msg);
  return 0;
}

typedef struct periodic {
  uint64_t every;
  char prefix[4000];
  vtk_series *s;
} periodic;

static cairn_status every_step(void *ud, cairn_world *w, cairn_diag *d) {
  periodic *p = ud;
  if (w->step % p->every) return CAIRN_OK;
  CAIRN_TRY(contact_sort_by_key(w, d)); /* (the file lists them in the order of their ids) */
  return io_vtk_write(w, p->s, p->prefix, d);
}

/* vtk.every{steps = K, prefix = P}: a snapshot every K steps (and one now) until vtk.stop() or
   model.new. */
static int l_every(lua_State *L) {
  static const char *const opts[] = {"steps", "prefix", NULL};
  collective_call(L, CALL_VTK_EVERY);
  cairn_world *w = detected_world(L);
  check_opts(L, 1, "vtk.every", opts);
  double k = opt_number(L, 1, "steps", NAN, "vtk.every");
  if (!(k >= 1 && k == floor(k)))
    lua_raisef(L, "vtk.every: steps must be a whole number >= 1 (got %g)", k);
  lua_getfield(L, 1, "prefix");
  const char *prefix = luaL_checkstring(L, -1);
  if (strlen(prefix) >= sizeof((periodic *)0)->prefix) lua_raisef(L, "vtk.every: prefix too long");
  periodic *p = lua_newuserdatauv(L, sizeof *p, 0);
  lua_setfield(L, LUA_REGISTRYINDEX, "cairn.vtk_periodic"); /* keep it alive */
  p->every = (uint64_t)k;
  snprintf(p->prefix, sizeof p->prefix, "%s", prefix);
  p->s = series_of(L, prefix);
  cairn_diag d;
  cairn_status s = io_vtk_write(w, p->s, prefix, &d);
  if (s) return lua_raisef(L, "vtk.every: %s", d.msg);
  world_set_after_step(w, every_step, p);
  return 0;
}

static int l_stop(lua_State *L) {
  cairn_world *w = ctx_world(L);
  world_set_after_step(w, NULL, NULL);
  return 0;
}

void open_vtk(lua_State *L) {
  luaL_newmetatable(L, SERIES);
  lua_pushcfunction(L, series_gc);
  lua_setfield(L, -2, "__gc");
  lua_pop(L, 1);
  lua_newtable(L);
  lua_setfield(L, LUA_REGISTRYINDEX, BY_PREFIX);
  static const luaL_Reg f[] = {
      {"write", l_write}, {"every", l_every}, {"stop", l_stop}, {NULL, NULL}};
  luaL_newlib(L, f);
  lua_setglobal(L, "vtk");
}
