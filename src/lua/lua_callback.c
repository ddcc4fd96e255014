/* Script module 'callback': Lua functions called on contact events (created, deleted,
   activated, slip change, bond break) and at points of the cycle (before and after the force
   computation). An error in a callback stops the run with the callback's file and line. */
#include <string.h>

#include "contact/events.h"
#include "lua/lua_api.h"

static const char *const EVENT_NAMES[EV_COUNT + 2] = {
    "contact_created", "contact_deleted", "contact_activated", "slip_change",
    "bond_break",      "before_force",    "after_force"};

static int event_index(lua_State *L, int idx) {
  const char *name = luaL_checkstring(L, idx);
  for (int i = 0; i < EV_COUNT + 2; i++)
    if (strcmp(name, EVENT_NAMES[i]) == 0) return i;
  return lua_raisef(L,
                    "callback: unknown event '%s'; use contact_created, contact_deleted, "
                    "contact_activated, slip_change, bond_break, before_force or after_force",
                    name);
}

/* Call every function registered for slot i with nargs arguments on the stack (popped). */
static cairn_status call_all(script_ctx *c, int i, int nargs, cairn_diag *d) {
  lua_State *L = c->L;
  if (c->cb_ref[i] == LUA_NOREF) {
    lua_pop(L, nargs);
    return CAIRN_OK;
  }
  int base = lua_gettop(L) - nargs;
  lua_rawgeti(L, LUA_REGISTRYINDEX, c->cb_ref[i]);
  lua_Integer n = luaL_len(L, -1);
  for (lua_Integer k = 1; k <= n; k++) {
    lua_geti(L, base + nargs + 1, k);
    for (int a = 1; a <= nargs; a++) lua_pushvalue(L, base + a);
    const char *was = c->inside;
    c->inside = EVENT_NAMES[i];
    int rc = lua_pcall(L, nargs, 0, 0);
    c->inside = was;
    if (rc != LUA_OK) {
      diag_set(d, CAIRN_ECALLBACK, "%s (in the %s callback)", lua_tostring(L, -1), EVENT_NAMES[i]);
      lua_settop(L, base);
      return CAIRN_ECALLBACK;
    }
  }
  lua_settop(L, base);
  return CAIRN_OK;
}

static cairn_status hook(void *ud, cairn_world *w, hook_point p, cairn_diag *d) {
  script_ctx *c = ud;
  lua_State *L = c->L;
  cairn_status s = CAIRN_OK;
  /* Events queued since the last call; callbacks may queue more, which are handled too. */
  for (size_t i = 0; s == CAIRN_OK; i++) {
    size_t n = 0;
    const event_rec *queued = events_queued(w, &n); /* (callbacks may queue more and move them) */
    if (i >= n) break;
    event_rec e = queued[i];
    push_contact_ids(L, e.kind, e.id1, e.id2);
    lua_pushinteger(L, e.mode);
    s = call_all(c, e.type, 2, d);
  }
  events_clear(w);
  if (s != CAIRN_OK) return s;
  if (p == HOOK_BEFORE_FORCE) return call_all(c, EV_COUNT, 0, d);
  if (p == HOOK_AFTER_FORCE) return call_all(c, EV_COUNT + 1, 0, d);
  return CAIRN_OK;
}

void callback_install(lua_State *L, script_ctx *c) {
  (void)L;
  if (!c->w) return;
  unsigned mask = 0;
  int any = 0;
  for (int i = 0; i < EV_COUNT + 2; i++)
    if (c->cb_ref[i] != LUA_NOREF) {
      any = 1;
      if (i < EV_COUNT) mask |= 1u << i;
    }
  events_listen(c->w, mask);
  world_set_hook(c->w, any ? hook : NULL, c);
}

/* callback.on(event, fn): call fn on each event (fn(contact, mode)) or cycle point (fn()). */
static int l_on(lua_State *L) {
  script_ctx *c = ctx_of(L);
  int i = event_index(L, 1);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  if (c->cb_ref[i] == LUA_NOREF) {
    lua_newtable(L);
    c->cb_ref[i] = luaL_ref(L, LUA_REGISTRYINDEX);
  }
  lua_rawgeti(L, LUA_REGISTRYINDEX, c->cb_ref[i]);
  lua_pushvalue(L, 2);
  lua_seti(L, -2, luaL_len(L, -2) + 1);
  callback_install(L, c);
  return 0;
}

/* callback.off(event): remove every function registered for the event. */
static int l_off(lua_State *L) {
  script_ctx *c = ctx_of(L);
  int i = event_index(L, 1);
  luaL_unref(L, LUA_REGISTRYINDEX, c->cb_ref[i]);
  c->cb_ref[i] = LUA_NOREF;
  callback_install(L, c);
  return 0;
}

void open_callback(lua_State *L) {
  static const luaL_Reg f[] = {{"on", l_on}, {"off", l_off}, {NULL, NULL}};
  luaL_newlib(L, f);
  lua_setglobal(L, "callback");
}
