/* Helpers shared by the script modules: the context, argument checks that raise one clear
   message with the script's file:line in front, vectors and ids. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"
#include "core/comm.h"
#include "cycle/cycle.h"
#include "detect/detect.h"
#include "lua/lua_api.h"
#include "par/par.h"

static const char CTX_KEY = 'c';

script_ctx *ctx_of(lua_State *L) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &CTX_KEY);
  script_ctx *c = lua_touserdata(L, -1);
  lua_pop(L, 1);
  return c;
}

void ctx_install(lua_State *L, script_ctx *c) {
  lua_pushlightuserdata(L, c);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &CTX_KEY);
}

int lua_raisef(lua_State *L, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  luaL_where(L, 1);
  lua_pushstring(L, buf);
  lua_concat(L, 2);
  return lua_error(L);
}

void refuse_inside_callback(lua_State *L, const char *fn) {
  const char *in = ctx_of(L)->inside;
  if (!in) return;
  int sampler = strcmp(in, "history") == 0;
  int vowel = strchr("aeiou", in[0]) != NULL;
  const char *article = sampler || !vowel ? "a" : "an";
  lua_raisef(L,
             "%s cannot be called inside %s %s%s: it runs in the middle of a step; call it "
             "between cycles, after model.cycle or model.solve returns",
             fn, article, in, sampler ? " function" : " callback");
}

cairn_world *ctx_world_as_is(lua_State *L) {
  script_ctx *c = ctx_of(L);
  if (!c->w) lua_raisef(L, "no model yet; call model.new{dim = 2} or model.new{dim = 3} first");
  return c->w;
}

/* The running C function's name as a script writes it ("ball.pos"): looked up in the modules'
   tables (their functions are plain fields), else the name Lua knows it by. */
static void call_name(lua_State *L, char *out, size_t cap) {
  static const char *const MODULES[] = {
      "model", "ball", "wall", "contact", "clump",    "measure",  "energy", "history",
      "vtk",   "plot", "cell", "dfn",     "specimen", "callback", "verify", NULL};
  lua_Debug ar;
  snprintf(out, cap, "a function");
  if (!lua_getstack(L, 0, &ar) || !lua_getinfo(L, "nf", &ar)) return;
  if (ar.name) snprintf(out, cap, "%s", ar.name);
  for (int m = 0; MODULES[m]; m++) {
    if (lua_getglobal(L, MODULES[m]) != LUA_TTABLE) {
      lua_pop(L, 1);
      continue;
    }
    for (lua_pushnil(L); lua_next(L, -2);) {
      if (lua_rawequal(L, -1, -4) && lua_type(L, -2) == LUA_TSTRING) {
        snprintf(out, cap, "%s.%s", MODULES[m], lua_tostring(L, -2));
        lua_pop(L, 3);
        lua_pop(L, 1); /* (the function) */
        return;
      }
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

void collective_call_named(lua_State *L, script_call k) {
  char name[64];
  call_name(L, name, sizeof name);
  cairn_diag d;
  if (collective_agree(L, k, name, &d) != CAIRN_OK) {
    lua_pushstring(L, d.msg);
    lua_error(L);
  }
}

cairn_world *ctx_world(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  if (!w->par) return w;
  collective_call_named(L, CALL_GATHER);
  cairn_diag d;
  cairn_status s = par_whole(w, &d);
  if (s) raise_diag(L, s, &d);
  return w;
}

cairn_world *ctx_world_reduced(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  if (w->par) collective_call_named(L, CALL_REDUCE);
  return w;
}

void *gather_sorted(lua_State *L, void *mine, size_t n, size_t size,
                    int (*cmp)(const void *, const void *), size_t *total) {
  void *all = NULL;
  size_t cap = 0, *counts = calloc((size_t)comm_size(), sizeof *counts);
  cairn_diag d;
  cairn_status st = counts ? comm_gather_all(mine, n * size, &all, &cap, counts, &d)
                           : diag_set(&d, CAIRN_ENOMEM, "out of memory gathering a list");
  mem_free(mine, 0);
  *total = 0;
  for (int q = 0; counts && q < comm_size(); q++) *total += counts[q] / size;
  free(counts);
  if (st) {
    mem_free(all, 0);
    raise_diag(L, st, &d);
  }
  qsort(all, *total, size, cmp);
  return all;
}

int owner_answers(lua_State *L) {
  script_ctx *c = ctx_of(L);
  cairn_world *w = ctx_world_as_is(L);
  if (!w->par) return 0;
  if (c->ask_step != w->step || c->asks == 0) c->ask_step = w->step, c->asks = 0;
  if (++c->asks > OWNER_ASKS) { /* (the same count on every rank: these calls are collective) */
    ctx_world(L);
    return 0;
  }
  collective_call_named(L, CALL_ASK);
  return 1;
}

int owner_reply(const double *mine, double v[3]) {
  uint64_t u[4] = {0, 0, 0, 0}; /* found, then the value's bits */
  if (mine) {
    u[0] = 1;
    memcpy(&u[1], mine, 3 * sizeof *mine);
  }
  comm_or_u64(u, 4); /* (4 words whatever the call: ranks out of step get a wrong value, no hang) */
  memcpy(v, &u[1], 3 * sizeof *v);
  return u[0] != 0;
}

/* ---- owner_run: a Lua value as bytes ---- */

typedef struct obytes {
  char *p;
  size_t n, cap;
  int oom;
} obytes;

static void ob_put(obytes *b, const void *x, size_t n) {
  cairn_diag d;
  if (b->oom || mem_grow((void **)&b->p, &b->cap, b->n + n, 1, "owner:answer", &d) != CAIRN_OK) {
    b->oom = 1;
    return;
  }
  memcpy(b->p + b->n, x, n);
  b->n += n;
}

/* The value at idx: a tag ('-' nil, 'b', 'i', 'n', 's', 't' a table, two levels deep at most),
   then its bytes. */
static void ob_value(obytes *b, lua_State *L, int idx, int depth) {
  idx = lua_absindex(L, idx);
  char tag = '-';
  switch (lua_type(L, idx)) {
  case LUA_TBOOLEAN: {
    uint8_t v = (uint8_t)lua_toboolean(L, idx);
    ob_put(b, "b", 1), ob_put(b, &v, 1);
    return;
  }
  case LUA_TNUMBER:
    if (lua_isinteger(L, idx)) {
      lua_Integer v = lua_tointeger(L, idx);
      ob_put(b, "i", 1), ob_put(b, &v, sizeof v);
    } else {
      lua_Number v = lua_tonumber(L, idx);
      ob_put(b, "n", 1), ob_put(b, &v, sizeof v);
    }
    return;
  case LUA_TSTRING: {
    size_t len;
    const char *str = lua_tolstring(L, idx, &len);
    uint64_t n = len;
    ob_put(b, "s", 1), ob_put(b, &n, sizeof n), ob_put(b, str, len);
    return;
  }
  case LUA_TTABLE:
    if (depth > 1) break; /* (a table of names, whose values may be lists of numbers) */
    uint64_t count = 0;
    for (lua_pushnil(L); lua_next(L, idx); lua_pop(L, 1)) count++;
    ob_put(b, "t", 1), ob_put(b, &count, sizeof count);
    for (lua_pushnil(L); lua_next(L, idx); lua_pop(L, 1)) {
      ob_value(b, L, -2, depth + 1);
      ob_value(b, L, -1, depth + 1);
    }
    return;
  }
  ob_put(b, &tag, 1);
}

/* The value ob_value wrote at p[*at ..), pushed; its bytes come from this program on another
   rank, so they hold together. */
static void ob_push(lua_State *L, const char *p, size_t *at) {
  char tag = p[(*at)++];
  if (tag == 'b') {
    lua_pushboolean(L, p[(*at)++]);
  } else if (tag == 'i' || tag == 'n') {
    lua_Integer i;
    lua_Number x;
    memcpy(tag == 'i' ? (void *)&i : (void *)&x, p + *at, 8);
    *at += 8;
    if (tag == 'i')
      lua_pushinteger(L, i);
    else
      lua_pushnumber(L, x);
  } else if (tag == 's') {
    uint64_t n;
    memcpy(&n, p + *at, 8);
    lua_pushlstring(L, p + *at + 8, (size_t)n);
    *at += 8 + (size_t)n;
  } else if (tag == 't') {
    uint64_t count;
    memcpy(&count, p + *at, 8);
    *at += 8;
    lua_createtable(L, 0, (int)count);
    for (uint64_t k = 0; k < count; k++) {
      ob_push(L, p, at);
      ob_push(L, p, at);
      lua_rawset(L, -3);
    }
  } else
    lua_pushnil(L);
}

int owner_run(lua_State *L, int (*owns)(lua_State *L, cairn_world *w), lua_CFunction here) {
  if (!owner_answers(L)) return -1;
  cairn_world *w = ctx_world_as_is(L);
  obytes b = {NULL, 0, 0, 0};
  if (owns(L, w)) { /* its answer or its error, as bytes ('V' value, 'E' message) */
    int nargs = lua_gettop(L);
    lua_pushcfunction(L, here);
    for (int i = 1; i <= nargs; i++) lua_pushvalue(L, i);
    int failed = lua_pcall(L, nargs, 1, 0) != LUA_OK;
    ob_put(&b, failed ? "E" : "V", 1);
    ob_value(&b, L, -1, 0);
    lua_pop(L, 1);
  }
  void *all = NULL;
  size_t cap = 0, *counts = calloc((size_t)comm_size(), sizeof *counts);
  cairn_diag d;
  cairn_status st =
      counts && !b.oom ? CAIRN_OK : diag_set(&d, CAIRN_ENOMEM, "out of memory answering");
  st = comm_agree(st, &d); /* (every rank gathers, or none) */
  if (st == CAIRN_OK) st = comm_gather_all(b.p, b.n, &all, &cap, counts, &d);
  mem_free(b.p, 0);
  size_t got = 0;
  for (int q = 0; counts && q < comm_size(); q++) got += counts[q];
  free(counts);
  if (st) {
    mem_free(all, 0);
    raise_diag(L, st, &d);
  }
  if (got == 0) {
    mem_free(all, 0);
    return 0;
  }
  size_t at = 1;
  int failed = ((char *)all)[0] == 'E';
  ob_push(L, all, &at);
  mem_free(all, 0);
  if (failed) { /* the owner's message, on every rank, at the script's line (as raised there) */
    luaL_where(L, 1);
    lua_insert(L, -2);
    lua_concat(L, 2);
    return lua_error(L);
  }
  return 1;
}

cairn_world *summed_world(lua_State *L) {
  ctx_world_reduced(L);
  return current_world(L);
}

cairn_world *current_world(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  if (w->par) {
    double stale = pairs_stale(w); /* (a ball that left the domain, on one rank) */
    comm_max(&stale, 1);
    if (stale > 0) ctx_world(L);
  }
  return w->par ? w : detected_world(L);
}

cairn_world *detected_world(lua_State *L) {
  cairn_world *w = ctx_world(L);
  cairn_diag d;
  cairn_status s = pairs_stale(w) ? cycle_detect_only(w, &d) : CAIRN_OK;
  if (s == CAIRN_OK) s = contact_sort_by_key(w, &d);
  if (s) raise_diag(L, s, &d);
  return w;
}

int raise_diag(lua_State *L, cairn_status s, const cairn_diag *d) {
  if (s == CAIRN_ECALLBACK) { /* the message already names the callback's file and line */
    lua_pushstring(L, d->msg);
    return lua_error(L);
  }
  return lua_raisef(L, "%s", d->msg);
}

void get_vec_bound(lua_State *L, int idx, int dim, double out[3], const char *what, int allow_inf) {
  idx = lua_absindex(L, idx);
  if (!lua_istable(L, idx))
    lua_raisef(L, "%s must be a table of %d numbers, like {%s} (got %s)", what, dim,
               dim == 2 ? "1.0, 2.0" : "1.0, 2.0, 3.0", luaL_typename(L, idx));
  lua_Integer n = luaL_len(L, idx);
  if (!(n == dim || (dim == 2 && n == 3)))
    lua_raisef(L, "%s must have %d components in a %dD model (got %d)", what, dim, dim, (int)n);
  out[0] = out[1] = out[2] = 0;
  for (int k = 0; k < n; k++) {
    lua_geti(L, idx, k + 1);
    int ok = lua_type(L, -1) == LUA_TNUMBER;
    double v = lua_tonumber(L, -1);
    if (!ok)
      lua_raisef(L, "%s: component %d must be a number (got %s)", what, k + 1,
                 luaL_typename(L, -1));
    lua_pop(L, 1);
    if (isnan(v))
      lua_raisef(L, "%s: component %d is NaN (not a number); give a finite number", what, k + 1);
    if (!(isfinite(v) || allow_inf))
      lua_raisef(L, "%s: component %d is %s; give a finite number", what, k + 1,
                 v > 0 ? "+inf" : "-inf");
    out[k] = v;
  }
  if (dim == 2 && n == 3 && out[2] != 0)
    lua_raisef(L, "%s: a 2D model has no z component (got %g); give 2 numbers", what, out[2]);
}

void get_vec(lua_State *L, int idx, int dim, double out[3], const char *what) {
  get_vec_bound(L, idx, dim, out, what, 0);
}

void push_vec(lua_State *L, const double v[3], int dim) {
  lua_createtable(L, dim, 0);
  for (int k = 0; k < dim; k++) {
    lua_pushnumber(L, v[k]);
    lua_rawseti(L, -2, k + 1);
  }
}

void check_opts(lua_State *L, int idx, const char *fn, const char *const *allowed) {
  idx = lua_absindex(L, idx);
  luaL_checktype(L, idx, LUA_TTABLE);
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    lua_pop(L, 1);
    if (lua_type(L, -1) != LUA_TSTRING) continue; /* positional entries are checked by fn */
    const char *k = lua_tostring(L, -1);
    int ok = 0;
    for (const char *const *a = allowed; *a; a++)
      if (strcmp(*a, k) == 0) ok = 1;
    if (!ok) {
      char list[512] = "";
      for (const char *const *a = allowed; *a; a++) {
        if (list[0]) strncat(list, ", ", sizeof list - strlen(list) - 1);
        strncat(list, *a, sizeof list - strlen(list) - 1);
      }
      lua_raisef(L, "%s: unknown option '%s'; the options are: %s", fn, k, list);
    }
  }
}

double opt_number(lua_State *L, int idx, const char *key, double def, const char *fn) {
  lua_getfield(L, idx, key);
  double v = def;
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TNUMBER)
      lua_raisef(L, "%s: option '%s' must be a number (got %s); write it without quotes", fn, key,
                 luaL_typename(L, -1));
    v = lua_tonumber(L, -1);
    if (isnan(v)) lua_raisef(L, "%s: option '%s' is NaN (not a number); give a number", fn, key);
  }
  lua_pop(L, 1);
  return v;
}

double check_number(lua_State *L, int idx, const char *what) {
  if (lua_type(L, idx) != LUA_TNUMBER)
    lua_raisef(L, "%s must be a number (got %s); write it without quotes", what,
               luaL_typename(L, idx));
  double v = lua_tonumber(L, idx);
  if (isnan(v)) lua_raisef(L, "%s is NaN (not a number); give a number", what);
  return v;
}

lua_Integer check_whole(lua_State *L, int idx, const char *what) {
  double v = check_number(L, idx, what);
  if (!(v == floor(v) && fabs(v) < 9e15))
    lua_raisef(L, "%s must be a whole number (got %g)", what, v);
  return (lua_Integer)v;
}

int64_t get_id(lua_State *L, int idx, const char *what) {
  if (lua_type(L, idx) == LUA_TSTRING)
    lua_raisef(L, "%s must be an integer id (got a string); write it without quotes", what);
  int ok;
  lua_Integer v = lua_tointegerx(L, idx, &ok);
  if (!ok)
    lua_raisef(L, "%s must be an integer id (got %s)", what,
               lua_isnumber(L, idx) ? "a non-integer number" : luaL_typename(L, idx));
  return (int64_t)v;
}
