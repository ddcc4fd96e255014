/* Script module 'vtk': snapshots and periodic output for ParaView (VTK XML, see src/io/vtk.c).
   Each prefix keeps its own series, so repeated writes build one time series in PREFIX.pvd. */
#include <string.h>

#include "contact/contact.h"
#include "core/comm.h"
#include "cycle/cycle.h"
#include "io/io.h"
#include "lua/lua_api.h"
#include "par/par.h"

#define SERIES "cairn.vtk_series"              /* metatable of a series */
#define BY_PREFIX "cairn.vtk_series_by_prefix" /* registry table: prefix -> series */

typedef struct series_ud {
  vtk_series s;
} series_ud;

static int series_gc(lua_State *L) {
  series_ud *u = luaL_checkudata(L, 1, SERIES);
  mem_free(u->s.frame, 0);
  u->s.frame = NULL;
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

/* (current_world: the contacts shown match the balls shown; a divided model stays divided and
   is written in pieces) */
/* vtk.write(prefix): one snapshot, added to the prefix's series. */
static int l_write(lua_State *L) {
  collective_call(L, CALL_VTK_WRITE);
  cairn_world *w = current_world(L);
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

/* (called on the steps due only: world_set_after_step; a divided model is written in pieces,
   its ghosts brought up to this step's motion first, for the contacts' ends) */
static cairn_status every_step(void *ud, cairn_world *w, cairn_diag *d) {
  periodic *p = ud;
  par_sync_ghosts(w);
  return io_vtk_write(w, p->s, p->prefix, d);
}

/* vtk.every{steps = K, prefix = P}: a snapshot every K steps (and one now) until vtk.stop() or
   model.new. */
static int l_every(lua_State *L) {
  static const char *const opts[] = {"steps", "prefix", NULL};
  collective_call(L, CALL_VTK_EVERY);
  cairn_world *w = current_world(L);
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
  world_set_after_step(w, p->every, every_step, p);
  return 0;
}

static int l_stop(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  world_set_after_step(w, 1, NULL, NULL);
  return 0;
}

/* vtk.render{series = PVD, out = PNG, view =, walls =, color =, unit =, section =, keep =,
   size =, contacts =, all =, mp4 =}: cairn render's picture of a series (io_render), drawn by
   rank 0; a refusal or a missing VTK is an error with render's message. */
static int l_render(lua_State *L) {
  static const char *const opts[] = {"series",   "out",     "view", "walls", "color",
                                     "unit",     "section", "keep", "size",  "all",
                                     "contacts", "mp4",     NULL};
  static const char *const words[] = {"view", "walls", "color", "unit", "section", "keep", "size"};
  collective_call(L, CALL_VTK_RENDER);
  check_opts(L, 1, "vtk.render", opts);
  const char *argv[32];
  int argc = 0;
  lua_getfield(L, 1, "series");
  argv[argc++] = lua_isstring(L, -1) ? lua_tostring(L, -1) : NULL;
  lua_getfield(L, 1, "out");
  argv[argc++] = lua_isstring(L, -1) ? lua_tostring(L, -1) : NULL;
  if (!argv[0] || !argv[1])
    lua_raisef(L, "vtk.render: give series = \"PREFIX.pvd\" (a series of vtk.every or vtk.write) "
                  "and out = \"picture.png\"");
  for (size_t k = 0; k < sizeof words / sizeof *words; k++) {
    lua_getfield(L, 1, words[k]); /* (kept on the stack: the strings stay alive) */
    if (lua_isnil(L, -1)) continue;
    if (!lua_isstring(L, -1))
      lua_raisef(L, "vtk.render: %s must be a string, like \"front\" or \"y=0.01\"", words[k]);
    lua_pushfstring(L, "--%s", words[k]);
    argv[argc++] = lua_tostring(L, -1);
    argv[argc++] = lua_tostring(L, -2);
  }
  lua_getfield(L, 1, "contacts");
  if (!lua_isnil(L, -1) && !lua_toboolean(L, -1)) argv[argc++] = "--no-contacts";
  lua_getfield(L, 1, "all");
  if (lua_toboolean(L, -1)) argv[argc++] = "--all";
  lua_getfield(L, 1, "mp4");
  if (lua_toboolean(L, -1)) argv[argc++] = "--mp4";
  argv[argc++] = "--quiet"; /* (no line naming the picture on stdout) */
  char err[2048] = "";
  int rc = comm_rank() == 0 ? io_render(argv, argc, err, sizeof err) : 0;
  cairn_diag d;
  /* the message's last line is render's own (xvfb-run or Python may say more before it) */
  const char *last = strrchr(err, '\n');
  last = last ? last + 1 : err;
  if (!strncmp(last, "cairn render: ", 14)) last += 14;
  /* the command's options are this call's: "--view 'x'" reads "view 'x'" */
  char said[2048];
  size_t k = 0;
  for (const char *q = last; *q && k + 1 < sizeof said; q++)
    if (!(q[0] == '-' && q[1] == '-' && q[2] >= 'a' && q[2] <= 'z'))
      said[k++] = *q;
    else
      q++;
  said[k] = 0;
  last = said;
  cairn_status s = rc == 0   ? CAIRN_OK
                   : last[0] ? diag_set(&d, CAIRN_EIO, "vtk.render: %s", last)
                             : diag_set(&d, CAIRN_EIO,
                                        "vtk.render: the render script stopped with status %d and "
                                        "no message; run `cairn render` with the same options to "
                                        "see why",
                                        rc);
  s = comm_agree(s, &d);
  if (s) return raise_diag(L, s, &d);
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
      {"write", l_write}, {"every", l_every}, {"stop", l_stop}, {"render", l_render}, {NULL, NULL}};
  luaL_newlib(L, f);
  lua_setglobal(L, "vtk");
}
