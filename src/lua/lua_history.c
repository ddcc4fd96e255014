/* Script module 'history': Lua functions sampled every K steps, exported as CSV. */
#include <string.h>

#include "cycle/cycle.h"
#include "io/io.h"
#include "lua/lua_api.h"

typedef struct sampler {
  lua_State *L;
  int ref;
  char name[CAIRN_MAX_NAME];
} sampler;

/* Call the sampler's function; an error or a non-number stops the run with its position. Under
   MPI the ranks meet again as it returns, however it ended (collective_agree): it runs in the
   middle of a cycle, between the cycle's own exchanges, and a collective call that it made on
   some ranks alone must be found here, not by a rank waiting in the next exchange. */
static cairn_status sample(void *ud, double *value, cairn_diag *d) {
  sampler *s = ud;
  lua_State *L = s->L;
  lua_rawgeti(L, LUA_REGISTRYINDEX, s->ref);
  script_ctx *c = ctx_of(L);
  const char *was = c->inside;
  c->inside = "history";
  int rc = lua_pcall(L, 0, 1, 0);
  c->inside = was;
  if (collective_agree(L, CALL_HISTORY_RETURN, s->name, d) != CAIRN_OK) {
    lua_pop(L, 1);
    return CAIRN_ECALLBACK; /* (the message carries its position) */
  }
  if (rc != LUA_OK) {
    diag_set(d, CAIRN_ECALLBACK, "%s (in history '%s')", lua_tostring(L, -1), s->name);
    lua_pop(L, 1);
    return CAIRN_ECALLBACK;
  }
  /* a number only: a numeric string ("12") is refused as everywhere else in the scripts */
  int ok = lua_type(L, -1) == LUA_TNUMBER;
  *value = ok ? lua_tonumber(L, -1) : 0;
  if (!ok) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->ref);
    lua_Debug ar;
    lua_getinfo(L, ">S", &ar);
    diag_set(d, CAIRN_ECALLBACK, "%s:%d: history '%s': the function returned %s, not a number",
             ar.short_src, ar.linedefined, s->name, luaL_typename(L, -1));
    lua_pop(L, 1);
    return CAIRN_ECALLBACK;
  }
  lua_pop(L, 1);
  return CAIRN_OK;
}

static int l_add(lua_State *L) {
  refuse_inside_callback(L, "history.add");
  cairn_world *w = ctx_world_as_is(L);
  const char *name = luaL_checkstring(L, 1);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  const char *unit = lua_isnoneornil(L, 3) ? NULL : luaL_checkstring(L, 3);
  sampler *s = lua_newuserdatauv(L, sizeof *s, 0);
  s->L = L;
  snprintf(s->name, sizeof s->name, "%s", name);
  lua_pushvalue(L, 2);
  s->ref = luaL_ref(L, LUA_REGISTRYINDEX);
  cairn_diag d;
  cairn_status st = history_add(w, name, unit, sample, s, &d);
  if (st) {
    luaL_unref(L, LUA_REGISTRYINDEX, s->ref);
    return raise_diag(L, st, &d);
  }
  luaL_ref(L, LUA_REGISTRYINDEX); /* keep the sampler alive as long as the state */
  return 0;
}

/* history.interval{by = FN | NAME, every = D}: a row whenever FN's value (or history NAME's
   function's) has moved by D since the last row. */
static int interval_by(lua_State *L, cairn_world *w) {
  static const char *const opts[] = {"by", "every", NULL};
  const char *fn = "history.interval";
  check_opts(L, 1, fn, opts);
  double every = opt_number(L, 1, "every", NAN, fn);
  if (!(every > 0) || !isfinite(every))
    lua_raisef(L, "%s: every must be a positive step of the quantity (got %g)", fn, every);
  lua_getfield(L, 1, "by");
  if (lua_type(L, -1) == LUA_TSTRING) { /* a history's function, by its name */
    const char *name = lua_tostring(L, -1);
    const history_set *hs = w->hist;
    size_t i = 0;
    while (i < hs->n && strcmp(hs->h[i].name, name) != 0) i++;
    if (i == hs->n || !hs->h[i].fn)
      lua_raisef(L, "%s: no history '%s' with a function to sample by; add it first", fn, name);
    history_set_by(w, hs->h[i].fn, hs->h[i].ud, every);
    return 0;
  }
  if (!lua_isfunction(L, -1))
    lua_raisef(L, "%s: by must be a function returning the quantity, or a history's name", fn);
  sampler *s = lua_newuserdatauv(L, sizeof *s, 0);
  s->L = L;
  snprintf(s->name, sizeof s->name, "%s", "interval by");
  lua_pushvalue(L, -2);
  s->ref = luaL_ref(L, LUA_REGISTRYINDEX);
  luaL_ref(L, LUA_REGISTRYINDEX); /* keep the sampler alive as long as the state */
  history_set_by(w, sample, s, every);
  return 0;
}

static int l_interval(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  if (lua_istable(L, 1)) return interval_by(L, w);
  if (lua_gettop(L) >= 1) {
    lua_Integer k = check_whole(L, 1, "history.interval: the interval");
    if (k < 1)
      lua_raisef(L, "history.interval: give a whole number of steps >= 1 (got %d)", (int)k);
    history_set_interval(w, (uint64_t)k);
    return 0;
  }
  lua_pushinteger(L, (lua_Integer)w->hist->interval);
  return 1;
}

static int l_export(lua_State *L) {
  collective_call(L, CALL_HISTORY_EXPORT);
  cairn_world *w = ctx_world_as_is(L);
  cairn_diag d;
  cairn_status st = io_history_csv(w, luaL_checkstring(L, 1), &d);
  if (st) return lua_raisef(L, "history.export: %s", d.msg);
  return 0;
}

static void push_column(lua_State *L, const double *v, size_t n) {
  lua_createtable(L, (int)n, 0);
  for (size_t r = 0; r < n; r++) {
    lua_pushnumber(L, v[r]);
    lua_rawseti(L, -2, (lua_Integer)r + 1);
  }
}

/* The history named by argument 1, or an error saying to add it. */
static const history *named_history(lua_State *L, const history_set *hs) {
  const char *name = luaL_checkstring(L, 1);
  for (size_t i = 0; i < hs->n; i++)
    if (strcmp(hs->h[i].name, name) == 0) return &hs->h[i];
  lua_raisef(L, "history '%s' does not exist; add it with history.add first", name);
  return NULL;
}

/* history.get(name) -> values, times, steps (arrays) */
static int l_get(lua_State *L) {
  const history_set *hs = ctx_world_as_is(L)->hist;
  const history *h = named_history(L, hs);
  push_column(L, h->v, hs->n_rows);
  push_column(L, hs->time, hs->n_rows);
  push_column(L, hs->step, hs->n_rows);
  return 3;
}

/* history.unit(NAME): the history's unit, or nil if it has none. */
static int l_unit(lua_State *L) {
  const history *h = named_history(L, ctx_world_as_is(L)->hist);
  if (h->unit[0])
    lua_pushstring(L, h->unit);
  else
    lua_pushnil(L);
  return 1;
}

static int l_names(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  lua_createtable(L, (int)w->hist->n, 0);
  for (size_t i = 0; i < w->hist->n; i++) {
    lua_pushstring(L, w->hist->h[i].name);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

static int l_clear(lua_State *L) {
  refuse_inside_callback(L, "history.clear");
  history_clear(ctx_world_as_is(L));
  return 0;
}

void open_history(lua_State *L) {
  static const luaL_Reg f[] = {
      {"add", l_add},     {"interval", l_interval}, {"export", l_export}, {"get", l_get},
      {"names", l_names}, {"clear", l_clear},       {"unit", l_unit},     {NULL, NULL}};
  luaL_newlib(L, f);
  lua_setglobal(L, "history");
}
