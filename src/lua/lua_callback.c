/* Script module 'callback': Lua functions called on contact events (created, deleted,
   activated, slip change, bond break) and at points of the cycle (before and after the force
   computation). An error in a callback stops the run with the callback's file and line. */
#include <string.h>

#include "contact/events.h"
#include "core/comm.h"
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

/* Under MPI decomposition, the ranks meet as their callbacks return: first that every rank is
   returning (a collective call that a callback made on some ranks alone is found here), then
   that every rank's callbacks succeeded (a failure on one rank is every rank's). */
static cairn_status meet(lua_State *L, cairn_status s, const char *what, cairn_diag *d) {
  if (collective_agree(L, CALL_CALLBACK_RETURN, what, d) != CAIRN_OK)
    return CAIRN_ECALLBACK; /* (the message names each rank's call) */
  return comm_agree(s, d);
}

/* Events queued since the last call, in batches (events_batch: in contact order, whatever the
   order the contacts lie in memory, and under MPI every rank's, on every rank); the events the
   callbacks cause make the next batch. Then the cycle point's own callbacks. Under MPI
   decomposition every rank calls the same callbacks with the same arguments, as the whole
   script runs on every rank; as they return the ranks meet, so that a collective call made in
   them on some ranks alone is found here, and a failure on one rank is every rank's. */
static cairn_status hook(void *ud, cairn_world *w, hook_point p, cairn_diag *d) {
  script_ctx *c = ud;
  lua_State *L = c->L;
  cairn_status s = CAIRN_OK;
  int divided = w->par != NULL;
  while (s == CAIRN_OK && events_mask(w)) {
    event_rec *batch;
    size_t n;
    s = events_batch(w, &batch, &n, d);
    for (size_t i = 0; i < n && s == CAIRN_OK; i++) {
      push_contact_ids(L, batch[i].kind, batch[i].id1, batch[i].id2);
      lua_pushinteger(L, batch[i].mode);
      s = call_all(c, batch[i].type, 2, d);
    }
    mem_free(batch, 0);
    if (n == 0) break;
    if (divided) s = meet(L, s, "event", d);
  }
  events_clear(w);
  int point = p == HOOK_BEFORE_FORCE ? EV_COUNT : p == HOOK_AFTER_FORCE ? EV_COUNT + 1 : -1;
  if (s == CAIRN_OK && point >= 0 && c->cb_ref[point] != LUA_NOREF) {
    s = call_all(c, point, 0, d);
    if (divided) s = meet(L, s, EVENT_NAMES[point], d);
  }
  return s;
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
