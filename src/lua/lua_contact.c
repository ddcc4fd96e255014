/* Script module 'contact': the default assignment (model, properties, proximity per contact
   kind), finding and listing contacts, and reading/writing any property by name. A contact
   handle names its two sides by id, so it stays valid while the contact exists. */
#include <string.h>

#include "contact/contact.h"
#include "contact/cracks.h"
#include "core/comm.h"
#include "cycle/cycle.h"
#include "io/io.h"
#include "lua/lua_api.h"
#include "par/par.h"

#define HANDLE "cairn.contact"

typedef struct handle {
  int kind;         /* as in the contact's key: a mesh's further contacts with one ball count on */
  int64_t id1, id2; /* ball-ball: lower id, higher id; ball-wall: ball id, wall id */
} handle;

/* Contacts follow the balls' current positions: detect first if anything changed. */
void push_contact_ids(lua_State *L, int kind, int64_t id1, int64_t id2) {
  handle *h = lua_newuserdatauv(L, sizeof *h, 0);
  h->kind = kind;
  h->id1 = id1;
  h->id2 = id2;
  luaL_setmetatable(L, HANDLE);
}

static void push_handle(lua_State *L, const cairn_world *w, uint32_t c) {
  handle *h = lua_newuserdatauv(L, sizeof *h, 0);
  h->kind = w->contacts->kind[c] + w->contacts->sub[c];
  contact_ids(w, c, &h->id1, &h->id2);
  luaL_setmetatable(L, HANDLE);
}

/* The contact handle at idx (else a refusal naming what is there). */
static handle *contact_handle(lua_State *L, int idx) {
  handle *h = luaL_testudata(L, idx, HANDLE);
  if (!h)
    lua_raisef(L, "expected a contact (from contact.find or contact.list), got %s",
               luaL_typename(L, idx));
  return h;
}

/* The refusal of a contact that no longer exists. */
static int contact_gone(lua_State *L, const handle *h) {
  return lua_raisef(L,
                    "%s contact %lld-%lld%s no longer exists (its gap opened and it was deleted)",
                    contact_kind_name(h->kind), (long long)h->id1, (long long)h->id2,
                    h->kind > CAIRN_KIND_BALL_WALL ? " (a further one with the mesh)" : "");
}

/* Contact h's index when this rank books it (every contact, on a whole model), else IDMAP_NONE. */
static uint32_t booked_here(const cairn_world *w, const handle *h) {
  const contact_store *cs = w->contacts;
  uint32_t c;
  if (contact_find(w, h->kind, h->id1, h->id2, &c, NULL) != CAIRN_OK) return IDMAP_NONE;
  return rank_books_contact(w, cs->kind[c], cs->a[c], cs->b[c]) ? c : IDMAP_NONE;
}

static uint32_t check_contact(lua_State *L, cairn_world *w, int idx) {
  handle *h = contact_handle(L, idx);
  uint32_t c;
  cairn_diag d;
  cairn_status s = contact_find(w, h->kind, h->id1, h->id2, &c, &d);
  if (s == CAIRN_ENOTFOUND) contact_gone(L, h);
  if (s) raise_diag(L, s, &d);
  return c;
}

/* A getter of one contact while the model is divided among MPI ranks (docs/parallel.md): the
   rank that books the contact (the owner of its lower-id ball, or of its ball) reads it, and the
   value reaches every rank in one reduction, bit for bit, with nothing gathered. 0 when the
   model is whole (the caller reads it), 1 when the value is pushed. */
typedef enum contact_field {
  CF_FORCE,
  CF_FORCE_GLOBAL,
  CF_MOMENT,
  CF_NORMAL,
  CF_POINT,
  CF_GAP,
  CF_ACTIVE
} contact_field;
static int asked_owner(lua_State *L, contact_field f) {
  if (!owner_answers(L)) return 0;
  cairn_world *w = ctx_world_as_is(L);
  handle *h = contact_handle(L, 1);
  const contact_store *cs = w->contacts;
  uint32_t c = booked_here(w, h);
  double v[3] = {0, 0, 0};
  int booked = c != IDMAP_NONE;
  if (booked) {
    switch (f) {
    case CF_FORCE:
      contact_to_frame(w, c, cs->force[c], v);
      break; /* (normal, s, t) */
    case CF_FORCE_GLOBAL:
      contact_force_global(w, c, v);
      break;
    case CF_MOMENT:
      v3_copy(cs->moment[c], v);
      break;
    case CF_NORMAL:
      v3_copy(cs->normal[c], v);
      break;
    case CF_POINT:
      contact_point(w, c, v);
      break;
    case CF_GAP:
      v[0] = cs->gap[c];
      break;
    case CF_ACTIVE:
      v[0] = cs->active[c];
      break;
    }
  }
  if (!owner_reply(booked ? v : NULL, v)) contact_gone(L, h);
  switch (f) {
  case CF_FORCE:
    push_vec(L, v, 3);
    break;
  case CF_FORCE_GLOBAL:
  case CF_NORMAL:
  case CF_POINT:
    push_vec(L, v, w->dim);
    break;
  case CF_MOMENT:
    push_rot(L, w, v);
    break;
  case CF_GAP:
    lua_pushnumber(L, v[0]);
    break;
  case CF_ACTIVE:
    lua_pushboolean(L, v[0] != 0);
    break;
  }
  return 1;
}

static int h_tostring(lua_State *L) {
  handle *h = luaL_checkudata(L, 1, HANDLE);
  if (h->kind == CAIRN_KIND_BALL_BALL)
    lua_pushfstring(L, "contact ball-ball %I-%I", (lua_Integer)h->id1, (lua_Integer)h->id2);
  else if (h->kind == CAIRN_KIND_BALL_WALL)
    lua_pushfstring(L, "contact ball %I - wall %I", (lua_Integer)h->id1, (lua_Integer)h->id2);
  else
    lua_pushfstring(L, "contact ball %I - wall %I (its contact %d with the mesh)",
                    (lua_Integer)h->id1, (lua_Integer)h->id2, h->kind - CAIRN_KIND_BALL_WALL + 1);
  return 1;
}

static int h_eq(lua_State *L) {
  handle *a = luaL_checkudata(L, 1, HANDLE), *b = luaL_checkudata(L, 2, HANDLE);
  lua_pushboolean(L, a->kind == b->kind && a->id1 == b->id1 && a->id2 == b->id2);
  return 1;
}

static int check_kind(lua_State *L, int idx) {
  const char *k = luaL_checkstring(L, idx);
  int kind = contact_kind_parse(k);
  if (kind < 0) lua_raisef(L, "unknown contact kind '%s'; use \"ball-ball\" or \"ball-wall\"", k);
  return kind;
}

/* Read a property value (number, boolean or vector table) at idx into v; returns the count. */
static int get_value(lua_State *L, int idx, double v[3], const char *name) {
  if (lua_isboolean(L, idx)) {
    v[0] = lua_toboolean(L, idx);
    return 1;
  }
  if (lua_istable(L, idx)) {
    lua_Integer n = luaL_len(L, idx);
    if (n < 1 || n > 3) lua_raisef(L, "property '%s': give a number or up to 3 numbers", name);
    for (lua_Integer k = 1; k <= n; k++) {
      lua_geti(L, idx, k);
      int ok = lua_type(L, -1) == LUA_TNUMBER;
      v[k - 1] = lua_tonumber(L, -1);
      if (!ok) lua_raisef(L, "property '%s': component %d must be a number", name, (int)k);
      lua_pop(L, 1);
    }
    for (lua_Integer k = n; k < 3; k++) v[k] = 0;
    return 3;
  }
  if (lua_type(L, idx) != LUA_TNUMBER)
    lua_raisef(L, "property '%s' must be a number (got %s); write it without quotes", name,
               luaL_typename(L, idx));
  v[0] = lua_tonumber(L, idx);
  return 1;
}

/* Keys of an assignment table that are not property names. */
static int reserved_key(const char *k) {
  static const char *const keys[] = {"kind", "model", "proximity", "group", "groups", NULL};
  for (const char *const *p = keys; *p; p++)
    if (strcmp(*p, k) == 0) return 1;
  return 0;
}

typedef cairn_status (*prop_setter)(cairn_world *w, void *ud, const char *name, const double *v,
                                    int n, cairn_diag *d);

/* Call set() for every property (non-reserved key) of the table at idx. */
static void set_props(lua_State *L, cairn_world *w, int idx, const char *fn, prop_setter set,
                      void *ud) {
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    if (lua_type(L, -2) != LUA_TSTRING) lua_raisef(L, "%s: keys must be names", fn);
    const char *key = lua_tostring(L, -2);
    if (!reserved_key(key)) {
      double v[3];
      int n = get_value(L, -1, v, key);
      cairn_diag d;
      cairn_status s = set(w, ud, key, v, n, &d);
      if (s) raise_diag(L, s, &d);
    }
    lua_pop(L, 1);
  }
}

/* The dry run of a property table: each value written into a scratch block of the model the
   call will give its target, checking name, type and range as the real setter will, with the
   real setter's name for the target ('who'). Calls that change several things check everything
   this way first, so that a refused call leaves the model as it was (all-or-nothing). */
typedef struct prop_check {
  const model_entry *e;
  double scratch[256]; /* (at most 64 properties of up to 3 slots) */
  uint64_t mask;
  const char *who;
} prop_check;

static cairn_status check_prop(cairn_world *w, void *ud, const char *name, const double *v, int n,
                               cairn_diag *d) {
  prop_check *c = ud;
  cairn_status s = model_prop_write(c->e, c->scratch, &c->mask, name, v, n, c->who, d);
  if (s == CAIRN_ENOTFOUND) registry_name_owners(w->reg, name, d);
  return s;
}

static void check_props(lua_State *L, cairn_world *w, int idx, const char *fn, int model,
                        const char *who) {
  prop_check c = {.e = &w->reg->e[model], .mask = 0, .who = who};
  if (c.e->n_prop_slots > (int)(sizeof c.scratch / sizeof *c.scratch))
    lua_raisef(L, "%s: contact model '%s' has too many property slots", fn, c.e->m->name);
  model_props_default(c.e, c.scratch);
  set_props(L, w, idx, fn, check_prop, &c);
}

static cairn_status set_default_prop(cairn_world *w, void *ud, const char *name, const double *v,
                                     int n, cairn_diag *d) {
  return cmat_set_prop(w, *(int *)ud, name, v, n, d);
}

static cairn_status set_rule_prop(cairn_world *w, void *ud, const char *name, const double *v,
                                  int n, cairn_diag *d) {
  (void)ud;
  return cmat_rule_set_prop(w, name, v, n, d);
}

static cairn_status set_contact_prop(cairn_world *w, void *ud, const char *name, const double *v,
                                     int n, cairn_diag *d) {
  return contact_prop_set(w, *(uint32_t *)ud, name, v, n, d);
}

/* contact.cmat_default{kind = "ball-ball" (or omitted: both), model = NAME, proximity = P, props}
 */
static int l_cmat_default(lua_State *L) {
  cairn_world *w = ctx_world(L);
  luaL_checktype(L, 1, LUA_TTABLE);
  int kinds[2] = {CAIRN_KIND_BALL_BALL, CAIRN_KIND_BALL_WALL}, nk = 2;
  lua_getfield(L, 1, "kind");
  if (!lua_isnil(L, -1)) kinds[0] = check_kind(L, -1), nk = 1;
  lua_getfield(L, 1, "model");
  const char *model = lua_isnil(L, -1) ? NULL : luaL_checkstring(L, -1);
  lua_getfield(L, 1, "group");
  lua_getfield(L, 1, "groups");
  if (!lua_isnil(L, -1) || !lua_isnil(L, -2))
    lua_raisef(L,
               "contact.cmat_default: groups belong to rules; use contact.cmat_add{group = ...}");
  lua_settop(L, 1);
  double prox = opt_number(L, 1, "proximity", NAN, "contact.cmat_default");
  cairn_diag d;
  /* Everything is checked before anything changes (all-or-nothing). */
  int m = -1;
  if (model) {
    cairn_status s = registry_require(w->reg, model, &m, &d);
    if (s) return raise_diag(L, s, &d);
  }
  if (!model && !isnan(prox) && !(isfinite(prox) && prox >= 0)) /* (with a model: its setter's) */
    lua_raisef(L, "contact.cmat_default: proximity must be >= 0 (got %g)", prox);
  for (int i = 0; i < nk; i++) {
    char who[96];
    snprintf(who, sizeof who, "contact assignment (%s)", contact_kind_name(kinds[i]));
    check_props(L, w, 1, "contact.cmat_default", m >= 0 ? m : cmat_default_model(w, kinds[i]), who);
  }
  for (int i = 0; i < nk; i++) {
    int k = kinds[i];
    if (model) { /* a (new) model starts from its defaults */
      double p = isnan(prox) ? cmat_default_proximity(w, k) : prox;
      cairn_status s = cmat_set_default(w, k, model, p, &d);
      if (s) return raise_diag(L, s, &d);
    } else if (!isnan(prox)) { /* only the proximity: keep model and properties */
      cairn_status s = cmat_set_proximity(w, k, prox, &d);
      if (s) lua_raisef(L, "contact.cmat_default: %s", d.msg);
    }
    set_props(L, w, 1, "contact.cmat_default", set_default_prop, &k);
  }
  return 0;
}

/* contact.cmat_add{group = G | groups = {A, B}, kind = K, model = NAME, proximity = P, props}:
   a rule after the existing ones; the first rule that matches a new contact wins. */
static int l_cmat_add(lua_State *L) {
  cairn_world *w = ctx_world(L);
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_getfield(L, 1, "kind");
  int kind = lua_isnil(L, -1) ? -1 : check_kind(L, -1);
  lua_getfield(L, 1, "model");
  if (lua_isnil(L, -1)) lua_raisef(L, "contact.cmat_add: give model = NAME");
  const char *model = luaL_checkstring(L, -1);
  const char *g1 = NULL, *g2 = NULL;
  lua_getfield(L, 1, "group");
  lua_getfield(L, 1, "groups");
  if (!lua_isnil(L, -2)) {
    g1 = luaL_checkstring(L, -2);
  } else if (lua_istable(L, -1) && luaL_len(L, -1) == 2) {
    lua_geti(L, -1, 1);
    lua_geti(L, -2, 2);
    g1 = luaL_checkstring(L, -2);
    g2 = luaL_checkstring(L, -1);
  } else {
    lua_raisef(L, "contact.cmat_add: give group = NAME (either side in it) or groups = {A, B} "
                  "(one side in each)");
  }
  double prox = opt_number(L, 1, "proximity", 0.0, "contact.cmat_add");
  cairn_diag d;
  /* The properties are checked before the rule is added (all-or-nothing). */
  int m;
  cairn_status s = registry_require(w->reg, model, &m, &d);
  if (s) return raise_diag(L, s, &d);
  char who[64];
  snprintf(who, sizeof who, "contact assignment rule %zu", cmat_rule_count(w) + 1);
  check_props(L, w, 1, "contact.cmat_add", m, who);
  s = cmat_add_rule(w, kind, g1, g2, model, prox, &d);
  if (s) return raise_diag(L, s, &d);
  lua_settop(L, 1);
  set_props(L, w, 1, "contact.cmat_add", set_rule_prop, NULL);
  return 0;
}

static int l_cmat_clear(lua_State *L) {
  cmat_clear_rules(ctx_world(L));
  return 0;
}

/* contact.apply{kind = K, model = NAME, props}: give every existing contact (of a kind) the model
   (fresh state, default properties) and/or set properties on it. */
static int l_apply(lua_State *L) {
  cairn_world *w = ctx_world(L);
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_getfield(L, 1, "kind");
  int kind = lua_isnil(L, -1) ? -1 : check_kind(L, -1);
  lua_getfield(L, 1, "model");
  int model = -1;
  if (!lua_isnil(L, -1)) {
    const char *name = luaL_checkstring(L, -1);
    cairn_diag d;
    cairn_status s = registry_require(w->reg, name, &model, &d);
    if (s) return raise_diag(L, s, &d);
  }
  lua_settop(L, 1);
  detected_world(L);
  /* All-or-nothing: every contact's properties checked against the model it will have first. */
  for (uint32_t c = 0; c < w->contacts->n; c++) {
    if (kind >= 0 && w->contacts->kind[c] != kind) continue;
    char who[128];
    contact_describe(w, c, who, sizeof who);
    check_props(L, w, 1, "contact.apply", model >= 0 ? model : w->contacts->model[c], who);
  }
  for (uint32_t c = 0; c < w->contacts->n; c++) {
    if (kind >= 0 && w->contacts->kind[c] != kind) continue;
    if (model >= 0) {
      cairn_diag d;
      cairn_status s = contact_set_model(w, c, model, &d);
      if (s) return raise_diag(L, s, &d);
    }
    set_props(L, w, 1, "contact.apply", set_contact_prop, &c);
  }
  return 0;
}

/* A strength (or any property) for contact after contact: a number, or drawn from a seeded
   distribution {dist = "normal", mean = M, sd = S, seed = N} or
   {dist = "weibull", scale = L, shape = K, seed = N}; draws below zero are taken as 0. */
typedef struct draw_spec {
  const char *name;
  int dist; /* 0 fixed, 1 normal, 2 Weibull */
  double a, b, fixed;
  uint64_t rng;
} draw_spec;

static double draw_uniform(uint64_t *s) { /* splitmix64, in (0, 1) */
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

static double draw(draw_spec *p) {
  if (p->dist == 0) return p->fixed;
  double u = draw_uniform(&p->rng), v;
  if (p->dist == 1) { /* Box-Muller, one of the pair */
    double u2 = draw_uniform(&p->rng);
    v = p->a + p->b * sqrt(-2.0 * log(u)) * cos(6.283185307179586 * u2);
  } else { /* inverse of the Weibull distribution function */
    v = p->a * pow(-log(u), 1.0 / p->b);
  }
  return v > 0 ? v : 0.0;
}

static void read_draw(lua_State *L, int idx, draw_spec *p, const char *call) {
  char fn[96];
  snprintf(fn, sizeof fn, "%s: %s", call, p->name);
  if (!lua_istable(L, idx)) {
    p->dist = 0;
    p->fixed = check_number(L, idx, fn);
    return;
  }
  static const char *const opts[] = {"dist", "mean", "sd", "scale", "shape", "seed", NULL};
  check_opts(L, idx, fn, opts);
  lua_getfield(L, idx, "dist");
  const char *dist = lua_isnil(L, -1) ? "" : luaL_checkstring(L, -1);
  lua_pop(L, 1);
  double seed = opt_number(L, idx, "seed", 1, fn);
  p->rng = (uint64_t)seed * 0x2545f4914f6cdd1dull + 1;
  if (strcmp(dist, "normal") == 0) {
    p->dist = 1;
    p->a = opt_number(L, idx, "mean", NAN, fn), p->b = opt_number(L, idx, "sd", NAN, fn);
    if (!(isfinite(p->a) && isfinite(p->b) && p->b >= 0))
      lua_raisef(L, "%s: a normal distribution needs mean and sd >= 0", fn);
  } else if (strcmp(dist, "weibull") == 0) {
    p->dist = 2;
    p->a = opt_number(L, idx, "scale", NAN, fn), p->b = opt_number(L, idx, "shape", NAN, fn);
    if (!(p->a > 0 && p->b > 0 && isfinite(p->a) && isfinite(p->b)))
      lua_raisef(L, "%s: a Weibull distribution needs scale > 0 and shape > 0", fn);
  } else {
    lua_raisef(L,
               "%s: give a number, or {dist = \"normal\", mean = M, sd = S, seed = N} or "
               "{dist = \"weibull\", scale = L, shape = K, seed = N}",
               fn);
  }
}

/* contact.bond{model = NAME, in_group = G, kind = K, PROPERTY = VALUE or DISTRIBUTION, ...}: give
   every existing contact whose surfaces touch (of kind K and with a ball in the range: in_group,
   in_box, in_sphere, in_cylinder, either side, if given) the bonded model NAME with fresh state,
   and its properties, each drawn per contact where a distribution is given; returns the number
   of contacts bonded. */
/* Which contacts contact.bond bonds: those within 'gap' (touching: 0), of 'kind' (-1: any),
   with a ball in 'range' (if ranged). */
/* A joint (contact.joint): the plane through 'point' normal to 'normal' (unit), or the disk of
   'radius' about 'point' in it (radius < 0: the whole plane). */
typedef struct joint_plane {
  double point[3], normal[3], radius;
} joint_plane;

typedef struct bond_target {
  int kind, ranged;
  double gap;
  ball_range range;
  const joint_plane *joint; /* NULL, or: only ball-ball contacts whose centres one of these */
  size_t n_joint;           /* n_joint joints parts (the first that does gives its normal) */
} bond_target;

/* Whether the joint parts the centres of ball-ball contact c: they lie on opposite sides of its
   plane, and the line between them crosses the plane within the disk. Side 2's centre is taken
   as side 1's plus the branch vector n (r1 + r2 + gap), so that a contact across a periodic
   boundary is judged where it is. */
static int joint_parts(const cairn_world *w, uint32_t c, const joint_plane *j) {
  const contact_store *cs = w->contacts;
  if (cs->kind[c] != CAIRN_KIND_BALL_BALL) return 0;
  const double *p1 = w->balls.pos[cs->a[c]], *n = cs->normal[c];
  const double len = w->balls.rad[cs->a[c]] + w->balls.rad[cs->b[c]] + cs->gap[c];
  double p2[3];
  for (int k = 0; k < 3; k++) p2[k] = p1[k] + len * n[k];
  return cmat_joint_parts(j->point, j->normal, j->radius, p1, p2);
}

/* The first of t's joints that parts contact c, or -1. */
static long parting_joint(const cairn_world *w, uint32_t c, const bond_target *t) {
  for (size_t i = 0; i < t->n_joint; i++)
    if (joint_parts(w, c, &t->joint[i])) return (long)i;
  return -1;
}

static int bonds_contact(const cairn_world *w, uint32_t c, const bond_target *t) {
  const contact_store *cs = w->contacts;
  if (cs->gap[c] > t->gap) return 0; /* only contacts whose surfaces touch, or within gap */
  if (t->kind >= 0 && cs->kind[c] != t->kind) return 0;
  if (t->joint && parting_joint(w, c, t) < 0) return 0;
  if (!t->ranged) return 1;
  return range_holds(w, &t->range, cs->b[c]) ||
         (cs->kind[c] == CAIRN_KIND_BALL_BALL && range_holds(w, &t->range, cs->a[c]));
}

/* contact.bond and contact.joint: fn their name, joint the n_joint joints (contact.joint) or
   NULL. */
static int bond_contacts(lua_State *L, const char *fn, const joint_plane *joint, size_t n_joint) {
  cairn_world *w = ctx_world(L);
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_getfield(L, 1, "model");
  if (lua_isnil(L, -1) && joint) {
    lua_pop(L, 1);
    lua_pushstring(L, "smoothjoint");
  }
  if (lua_isnil(L, -1))
    lua_raisef(L, "%s: give model = NAME, a bonded model such as \"linearcbond\"", fn);
  const char *name = luaL_checkstring(L, -1);
  int model;
  cairn_diag d;
  cairn_status s = registry_require(w->reg, name, &model, &d);
  if (s) return raise_diag(L, s, &d);
  bond_target t;
  t.joint = joint, t.n_joint = n_joint;
  t.ranged = range_read(L, 1, fn, &t.range);
  if (t.range.none) {
    lua_getfield(L, 1, "in_group");
    lua_raisef(L, "%s: no ball is in group '%s'", fn, lua_tostring(L, -1));
  }
  lua_getfield(L, 1, "kind"); /* a specimen's balls, not its walls: kind = "ball-ball" */
  int kind = lua_isnil(L, -1) ? -1 : check_kind(L, -1);
  if (joint && kind < 0) kind = CAIRN_KIND_BALL_BALL; /* a joint parts balls only */
  lua_settop(L, 1);
  /* gap = G: bond the contacts whose gap is at most G. Across a gap only a model that declares
     the largest gap it bonds at (a property named *_gap) can bond; that property is set to G. */
  double gap = opt_number(L, 1, "gap", 0.0, fn);
  if (!(isfinite(gap) && gap >= 0))
    lua_raisef(L, "%s: gap must be a finite number >= 0 (got %g)", fn, gap);
  const cairn_contact_model *m = w->reg->e[model].m;
  const char *gap_prop = NULL;
  /* a bonded model says so with a switch named *_bond (linearcbond's cb_bond) */
  const char *bond_prop = NULL;
  int igap = 0; /* a model with a gap of its own besides (flatjoint's slits' fj_gap) names the
                   bonding gap *_igap, which wins */
  for (int i = 0; i < m->n_props; i++) {
    size_t len = strlen(m->props[i].name);
    if (len > 5 && strcmp(m->props[i].name + len - 5, "_igap") == 0)
      gap_prop = m->props[i].name, igap = 1;
    else if (!igap && len > 4 && strcmp(m->props[i].name + len - 4, "_gap") == 0)
      gap_prop = m->props[i].name;
    if (len > 5 && strcmp(m->props[i].name + len - 5, "_bond") == 0 &&
        m->props[i].type == CAIRN_PROP_BOOL)
      bond_prop = m->props[i].name;
  }
  /* a joint's model takes the joint's normal in its property *_normal (a VEC) */
  const char *normal_prop = NULL;
  for (int i = 0; joint && i < m->n_props; i++) {
    size_t len = strlen(m->props[i].name);
    if (len > 7 && strcmp(m->props[i].name + len - 7, "_normal") == 0 &&
        m->props[i].type == CAIRN_PROP_VEC)
      normal_prop = m->props[i].name;
  }
  if (joint && !normal_prop)
    lua_raisef(L,
               "%s: model '%s' takes no joint normal (it has no *_normal vector property); use "
               "smoothjoint",
               fn, m->name);
  if (!bond_prop)
    lua_raisef(L, "%s: model '%s' makes no bonds (it has no *_bond property); use %s", fn, m->name,
               joint ? "smoothjoint" : "a bonded model such as linearcbond or linearpbond");
  if (gap > 0 && !gap_prop)
    lua_raisef(L,
               "%s: model '%s' bonds only contacts whose surfaces touch (it has no "
               "*_gap property); leave gap out, or use a model that bonds across a gap, such "
               "as linearpbond",
               fn, m->name);
  draw_spec props[32];
  int np = 0;
  lua_pushnil(L);
  while (lua_next(L, 1)) {
    if (lua_type(L, -2) != LUA_TSTRING) lua_raisef(L, "%s: keys must be names", fn);
    const char *key = lua_tostring(L, -2);
    const int joint_key =
        joint && (!strcmp(key, "point") || !strcmp(key, "normal") || !strcmp(key, "radius") ||
                  !strcmp(key, "joints") || !strcmp(key, "later"));
    if (strcmp(key, "model") && strcmp(key, "in_group") && strcmp(key, "in_box") &&
        strcmp(key, "in_sphere") && strcmp(key, "in_cylinder") && strcmp(key, "kind") &&
        strcmp(key, "gap") && !joint_key) {
      if (np == 32) lua_raisef(L, "%s: at most 32 properties", fn);
      props[np].name = key;
      read_draw(L, lua_gettop(L), &props[np], fn);
      np++;
    }
    lua_pop(L, 1);
  }
  /* later = false: only the contacts there now; else contacts made later across the joint get
     it too (unbonded, with each property's value), as balls that slide along it meet new
     partners across it */
  int later = 0;
  if (joint) {
    lua_getfield(L, 1, "later");
    if (!lua_isnil(L, -1) && !lua_isboolean(L, -1))
      lua_raisef(L, "contact.joint: later must be true or false (got a %s)", luaL_typename(L, -1));
    later = lua_isnil(L, -1) || lua_toboolean(L, -1);
    lua_pop(L, 1);
  }
  double later_props[256];
  uint64_t later_mask = 0;
  if (later) { /* each property's value, then unbonded (the bond switch 0, whatever was given) */
    const model_entry *me = &w->reg->e[model];
    double off = 0;
    model_props_default(me, later_props);
    for (int k = 0; k < np; k++) {
      if (props[k].dist != 0)
        lua_raisef(L,
                   "contact.joint: '%s' is drawn from a distribution, and contacts made later "
                   "across the joint take one value; give a value, or later = false",
                   props[k].name);
      s = model_prop_write(me, later_props, &later_mask, props[k].name, &props[k].fixed, 1,
                           "contact.joint", &d);
      if (s) return raise_diag(L, s, &d);
    }
    s = model_prop_write(me, later_props, &later_mask, bond_prop, &off, 1, "contact.joint", &d);
    if (s) return raise_diag(L, s, &d);
  }
  detected_world(L);
  const contact_store *cs = w->contacts;
  t.kind = kind, t.gap = gap;
  /* All-or-nothing: first every value each contact would get, checked in a scratch block of the
     bond model, drawn from copies of the generators (so that the second pass draws the same). */
  draw_spec trial[32];
  memcpy(trial, props, (size_t)np * sizeof *props);
  prop_check chk = {.e = &w->reg->e[model]};
  model_props_default(chk.e, chk.scratch);
  for (uint32_t c = 0; c < cs->n; c++) {
    if (!bonds_contact(w, c, &t)) continue;
    char who[128];
    contact_describe(w, c, who, sizeof who);
    chk.who = who;
    for (int k = 0; k < np; k++) {
      double v = draw(&trial[k]);
      s = model_prop_write(chk.e, chk.scratch, &chk.mask, trial[k].name, &v, 1, who, &d);
      if (s) return raise_diag(L, s, &d);
    }
    if (gap > 0) s = model_prop_write(chk.e, chk.scratch, &chk.mask, gap_prop, &gap, 1, who, &d);
    if (s == CAIRN_OK && joint)
      s = model_prop_write(chk.e, chk.scratch, &chk.mask, normal_prop,
                           joint[parting_joint(w, c, &t)].normal, 3, who, &d);
    if (s) return raise_diag(L, s, &d);
  }
  for (size_t i = 0; later && i < n_joint; i++) { /* (all checked before any contact changes) */
    s = model_prop_write(&w->reg->e[model], later_props, &later_mask, normal_prop, joint[i].normal,
                         3, "contact.joint", &d);
    if (s) return raise_diag(L, s, &d);
  }
  lua_Integer n = 0;
  for (uint32_t c = 0; c < cs->n; c++) {
    if (!bonds_contact(w, c, &t)) continue;
    s = contact_set_model(w, c, model, &d);
    for (int k = 0; k < np && s == CAIRN_OK; k++) {
      double v = draw(&props[k]);
      s = contact_prop_set(w, c, props[k].name, &v, 1, &d);
    }
    if (s == CAIRN_OK && gap > 0) s = contact_prop_set(w, c, gap_prop, &gap, 1, &d);
    if (s == CAIRN_OK && joint)
      s = contact_prop_set(w, c, normal_prop, joint[parting_joint(w, c, &t)].normal, 3, &d);
    if (s) return raise_diag(L, s, &d);
    n++;
  }
  if (n == 0)
    lua_raisef(L,
               "%s: no %s%scontact %s%s%s; create the specimen and let "
               "contacts form first (model.clean(), or a few steps)%s",
               fn, gap > 0 ? "" : "touching ",
               kind < 0                       ? ""
               : kind == CAIRN_KIND_BALL_BALL ? "ball-ball "
                                              : "ball-wall ",
               joint ? "that the joint parts" : "to bond",
               t.range.group > 0 ? " in group "
               : t.ranged        ? " in the range"
                                 : "",
               t.range.group > 0 ? w->groups[t.range.group] : "",
               gap > 0 ? "; contacts exist only up to their proximity: set it to the gap at "
                         "least (contact.cmat_default{proximity = ...})"
                       : "");
  for (size_t i = 0; later && i < n_joint; i++) {
    s = model_prop_write(&w->reg->e[model], later_props, &later_mask, normal_prop, joint[i].normal,
                         3, "contact.joint", &d);
    if (s == CAIRN_OK)
      s = cmat_add_joint(w, joint[i].point, joint[i].normal, joint[i].radius, model, later_props,
                         later_mask, &d);
    if (s) return raise_diag(L, s, &d);
  }
  lua_pushinteger(L, n);
  return 1;
}

static int l_bond(lua_State *L) {
  return bond_contacts(L, "contact.bond", NULL, 0);
}

/* contact.joint{point = P, normal = N [, radius = R], model = NAME, PROPERTY = VALUE or
   DISTRIBUTION, ..., in_group = ..., gap = G}: give every ball-ball contact whose centres the
   joint parts (the plane through P normal to N, or its disk of radius R about P) the joint model
   (smoothjoint unless NAME is given), with the joint's normal and the properties, as
   contact.bond does; returns the number of contacts. */
static int l_joint(lua_State *L) {
  cairn_world *w = ctx_world(L);
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_getfield(L, 1, "joints");
  if (!lua_isnil(L, -1)) { /* a network's joints, disks (2D segments) */
    lua_getfield(L, 1, "point");
    lua_getfield(L, 1, "normal");
    lua_getfield(L, 1, "radius");
    if (!lua_isnil(L, -1) || !lua_isnil(L, -2) || !lua_isnil(L, -3))
      lua_raisef(L, "contact.joint: give joints = LIST or one joint's point, normal and radius, "
                    "not both");
    lua_pop(L, 3);
    const dfn_net *net = dfn_from_lua(L, -1, w->dim, "contact.joint");
    if (net->n == 0) lua_raisef(L, "contact.joint: the list of joints is empty");
    joint_plane *js = lua_newuserdatauv(L, net->n * sizeof *js, 0);
    for (size_t i = 0; i < net->n; i++) {
      memcpy(js[i].point, net->j[i].centre, sizeof js[i].point);
      memcpy(js[i].normal, net->j[i].normal, sizeof js[i].normal);
      js[i].radius = net->j[i].radius;
    }
    /* anchored in the registry while bond_contacts runs (it resets the stack to the options
       table); the next call's anchor replaces it, should it raise */
    const size_t n = net->n;
    lua_setfield(L, LUA_REGISTRYINDEX, "cairn.contact_joints");
    int r = bond_contacts(L, "contact.joint", js, n);
    lua_pushnil(L);
    lua_setfield(L, LUA_REGISTRYINDEX, "cairn.contact_joints");
    return r;
  }
  lua_pop(L, 1);
  joint_plane j = {{0, 0, 0}, {0, 0, 0}, -1.0};
  lua_getfield(L, 1, "point");
  if (lua_isnil(L, -1))
    lua_raisef(L,
               "contact.joint: give point = {x, y%s}, a point of the "
               "joint's plane",
               w->dim == 3 ? ", z" : "");
  get_vec(L, -1, w->dim, j.point, "contact.joint: point");
  lua_getfield(L, 1, "normal");
  if (lua_isnil(L, -1))
    lua_raisef(L,
               "contact.joint: give normal = {x, y%s}, the joint plane's "
               "normal",
               w->dim == 3 ? ", z" : "");
  get_vec(L, -1, w->dim, j.normal, "contact.joint: normal");
  lua_pop(L, 2);
  double l =
      sqrt(j.normal[0] * j.normal[0] + j.normal[1] * j.normal[1] + j.normal[2] * j.normal[2]);
  if (!(l > 0) || !isfinite(l))
    lua_raisef(L, "contact.joint: the normal is zero (or not finite); give the joint plane's "
                  "normal, a vector of any length but 0");
  for (int k = 0; k < 3; k++) j.normal[k] /= l;
  lua_getfield(L, 1, "radius");
  if (!lua_isnil(L, -1)) {
    j.radius = check_number(L, -1, "contact.joint: radius");
    if (!(j.radius > 0) || !isfinite(j.radius))
      lua_raisef(L,
                 "contact.joint: radius must be a finite number > 0 (got %g); leave it out "
                 "for a joint plane without bounds",
                 j.radius);
  }
  lua_pop(L, 1);
  return bond_contacts(L, "contact.joint", &j, 1);
}

/* contact.cracks() -> the number of bonds broken so far; contact.cracks{list = true} -> an array
   of {step, time, pos, kind, id1, id2, mode}; contact.cracks{export = PATH} writes them as CSV. */
/* The cracks in the order one process keeps them (step, then ids): the world's own, or while
   the model is divided every rank's (its own since the division) brought together, in *all (the
   caller's to mem_free). */
static const crack *cracks_everywhere(lua_State *L, cairn_world *w, size_t *n, crack **all) {
  *all = NULL;
  *n = w->cracks->n;
  if (!w->par) return w->cracks->c;
  size_t from = par_cracks_from(w), k = w->cracks->n - from;
  crack *mine = mem_realloc(NULL, 0, (k + 1) * sizeof *mine, "contact:cracks");
  if (!mine) lua_raisef(L, "contact.cracks: out of memory listing %zu cracks", k);
  if (k) memcpy(mine, w->cracks->c + from, k * sizeof *mine);
  *all = gather_sorted(L, mine, k, sizeof *mine, crack_order, n);
  return *all;
}

static int l_cracks(lua_State *L) {
  if (lua_isnoneornil(L, 1)) { /* the count: while divided, every rank's own cracks summed */
    cairn_world *w = ctx_world_reduced(L);
    int64_t n = (int64_t)(w->cracks->n - par_cracks_from(w));
    if (w->par) comm_sum_i64(&n, 1);
    lua_pushinteger(L, (lua_Integer)n);
    return 1;
  }
  static const char *const opts[] = {"list", "export", NULL};
  check_opts(L, 1, "contact.cracks", opts);
  lua_getfield(L, 1, "export");
  const char *path = lua_isnil(L, -1) ? NULL : luaL_checkstring(L, -1);
  if (path) collective_call(L, CALL_CRACKS_EXPORT);
  cairn_world *w = path ? ctx_world_as_is(L) : ctx_world_reduced(L);
  size_t n;
  crack *all;
  const crack *cr = cracks_everywhere(L, w, &n, &all);
  if (path) {
    cairn_diag d;
    cairn_status s = io_cracks_csv(cr, n, path, &d);
    mem_free(all, 0);
    if (s) return lua_raisef(L, "contact.cracks: %s", d.msg);
    return 0;
  }
  lua_createtable(L, (int)n, 0);
  for (size_t i = 0; i < n; i++) {
    const crack *k = &cr[i];
    lua_createtable(L, 0, 7);
    lua_pushinteger(L, (lua_Integer)k->step);
    lua_setfield(L, -2, "step");
    lua_pushnumber(L, k->time);
    lua_setfield(L, -2, "time");
    push_vec(L, k->pos, w->dim);
    lua_setfield(L, -2, "pos");
    lua_pushstring(L, k->kind == CAIRN_KIND_BALL_BALL ? "ball-ball" : "ball-wall");
    lua_setfield(L, -2, "kind");
    lua_pushinteger(L, (lua_Integer)k->id1);
    lua_setfield(L, -2, "id1");
    lua_pushinteger(L, (lua_Integer)k->id2);
    lua_setfield(L, -2, "id2");
    lua_pushstring(L, k->tension ? "tension" : "shear");
    lua_setfield(L, -2, "mode");
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  mem_free(all, 0);
  return 1;
}

/* contact.find and contact.list while the model is divided among MPI ranks: each rank takes the
   contacts it books (of kind 'kind', -1: any; with find, only the one asked), and they come
   together in the order of their keys, the order the whole model lists them in, with nothing
   else gathered. Pushes the list, or with find the handle or nil. */
typedef struct listed_contact {
  uint64_t key;
  int64_t kind, id1, id2;
} listed_contact;
static int listed_cmp(const void *x, const void *y) {
  uint64_t a = ((const listed_contact *)x)->key, b = ((const listed_contact *)y)->key;
  return (a > b) - (a < b);
}
static int list_divided(lua_State *L, cairn_world *w, int kind, const handle *find) {
  const contact_store *cs = w->contacts;
  listed_contact *mine = mem_realloc(NULL, 0, (cs->n + 1) * sizeof *mine, "contact.list");
  if (!mine) return lua_raisef(L, "contact.list: out of memory listing %zu contacts", cs->n);
  size_t n = 0;
  for (size_t c = 0; c < cs->n; c++) {
    if (kind >= 0 && cs->kind[c] != kind) continue;
    if (!rank_books_contact(w, cs->kind[c], cs->a[c], cs->b[c])) continue;
    listed_contact e = {contact_key_of(w, (uint32_t)c), cs->kind[c] + cs->sub[c], 0, 0};
    contact_ids(w, (uint32_t)c, &e.id1, &e.id2);
    if (find && (e.kind != find->kind || e.id1 != find->id1 || e.id2 != find->id2)) continue;
    mine[n++] = e;
  }
  size_t total;
  listed_contact *l = gather_sorted(L, mine, n, sizeof *mine, listed_cmp, &total);
  if (find) {
    if (total)
      push_contact_ids(L, (int)l[0].kind, l[0].id1, l[0].id2);
    else
      lua_pushnil(L);
  } else {
    lua_createtable(L, (int)total, 0);
    for (size_t k = 0; k < total; k++) {
      push_contact_ids(L, (int)l[k].kind, l[k].id1, l[k].id2);
      lua_rawseti(L, -2, (lua_Integer)k + 1);
    }
  }
  mem_free(l, 0);
  return 1;
}

static int l_find(lua_State *L) {
  ctx_world_as_is(L); /* (no model: said first) */
  int kind = check_kind(L, 1);
  int64_t id1 = get_id(L, 2, "contact.find: first id"),
          id2 = get_id(L, 3, "contact.find: second id");
  if (!lua_isnoneornil(L, 4)) { /* which of a ball's contacts with a mesh wall */
    lua_Integer which = luaL_checkinteger(L, 4);
    if (kind != CAIRN_KIND_BALL_WALL || which < 1 || which > MESH_CONTACTS)
      return lua_raisef(L,
                        "contact.find: the fourth argument picks one of a ball's contacts with a "
                        "mesh wall, 1 to %d (got %lld for a %s contact)",
                        MESH_CONTACTS, (long long)which, contact_kind_name(kind));
    kind += (int)which - 1;
  }
  cairn_world *w = summed_world(L);
  if (w->par) {
    handle h = {.kind = kind, .id1 = id1, .id2 = id2};
    return list_divided(L, w, -1, &h);
  }
  uint32_t c;
  if (contact_find(w, kind, id1, id2, &c, NULL) != CAIRN_OK) {
    lua_pushnil(L);
    return 1;
  }
  push_handle(L, w, c);
  return 1;
}

static int l_list(lua_State *L) {
  ctx_world_as_is(L); /* (no model: said first) */
  int kind = lua_isnoneornil(L, 1) ? -1 : check_kind(L, 1);
  cairn_world *w = summed_world(L);
  if (w->par) return list_divided(L, w, kind, NULL);
  lua_newtable(L);
  lua_Integer n = 0;
  for (size_t c = 0; c < w->contacts->n; c++) {
    if (kind >= 0 && w->contacts->kind[c] != kind) continue;
    push_handle(L, w, (uint32_t)c);
    lua_rawseti(L, -2, ++n);
  }
  return 1;
}

/* contact.count() -> every contact; contact.count{kind = K, active = true} -> only those (counted
   without making a handle per contact, for large models). */
static int l_count(lua_State *L) {
  ctx_world_as_is(L); /* (no model: said first) */
  int kind = -1, active = 0;
  if (!lua_isnoneornil(L, 1)) {
    luaL_checktype(L, 1, LUA_TTABLE);
    if (lua_getfield(L, 1, "kind") != LUA_TNIL) {
      kind = contact_kind_parse(luaL_checkstring(L, -1));
      if (kind < 0)
        return lua_raisef(L,
                          "contact.count: kind must be \"ball-ball\" or \"ball-wall\" (got '%s')",
                          lua_tostring(L, -1));
    }
    if (lua_getfield(L, 1, "active") != LUA_TNIL) active = lua_toboolean(L, -1);
    lua_pop(L, 2);
  }
  cairn_world *w = summed_world(L); /* (under MPI: each rank counts the contacts it books) */
  const contact_store *cs = w->contacts;
  int64_t n = 0;
  for (size_t c = 0; c < cs->n; c++)
    if ((kind < 0 || cs->kind[c] == kind) && (!active || cs->active[c]) &&
        rank_books_contact(w, cs->kind[c], cs->a[c], cs->b[c]))
      n++;
  if (w->par) comm_sum_i64(&n, 1);
  lua_pushinteger(L, (lua_Integer)n);
  return 1;
}

static void push_values(lua_State *L, const double *v, int n) {
  if (n == 1) {
    lua_pushnumber(L, v[0]);
    return;
  }
  lua_createtable(L, n, 0);
  for (int k = 0; k < n; k++) {
    lua_pushnumber(L, v[k]);
    lua_rawseti(L, -2, k + 1);
  }
}

/* ---- getters of one contact whose answers are not a few numbers: while the model is divided,
   the answer of the rank that books it (owner_run), else read from the whole model ---- */

static int books_contact(lua_State *L, cairn_world *w) {
  return booked_here(w, contact_handle(L, 1)) != IDMAP_NONE;
}

static int contact_getter(lua_State *L, lua_CFunction here) {
  int r = owner_run(L, books_contact, here);
  if (r == 0) return contact_gone(L, contact_handle(L, 1));
  if (r == 1) return 1;
  ctx_world(L);
  return here(L);
}

static int prop_here(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  uint32_t c = check_contact(L, w, 1);
  const char *name = luaL_checkstring(L, 2);
  cairn_diag d;
  const double *items;
  int n = contact_state_array(w, c, name, &items);
  if (n) {
    push_values(L, items, n);
    return 1;
  }
  double v[3];
  cairn_status s = contact_prop_get(w, c, name, v, &n, &d);
  if (s) return raise_diag(L, s, &d);
  push_values(L, v, n);
  return 1;
}

static int l_prop(lua_State *L) {
  if (lua_gettop(L) < 3) return contact_getter(L, prop_here);
  cairn_world *w = ctx_world(L);
  uint32_t c = check_contact(L, w, 1);
  const char *name = luaL_checkstring(L, 2);
  cairn_diag d;
  double v[3];
  int n = get_value(L, 3, v, name);
  cairn_status s = contact_prop_set(w, c, name, v, n, &d);
  if (s) return raise_diag(L, s, &d);
  return 0;
}

static int props_here(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  uint32_t c = check_contact(L, w, 1);
  const model_entry *e = &w->reg->e[w->contacts->model[c]];
  lua_newtable(L);
  for (int pass = 0; pass < 2; pass++) {
    int n = pass ? e->m->n_state : e->m->n_props;
    for (int i = 0; i < n; i++) {
      const char *name = pass ? e->m->state[i].name : e->m->props[i].name;
      double v[3];
      const double *items;
      int k = pass ? contact_state_array(w, c, name, &items) : 0;
      if (k)
        push_values(L, items, k);
      else if (contact_prop_get(w, c, name, v, &k, NULL) == CAIRN_OK)
        push_values(L, v, k);
      else
        continue;
      lua_setfield(L, -2, name);
    }
  }
  return 1;
}

static int l_props(lua_State *L) {
  return contact_getter(L, props_here);
}

static int l_force(lua_State *L) {
  if (asked_owner(L, CF_FORCE)) return 1;
  cairn_world *w = ctx_world(L);
  uint32_t c = check_contact(L, w, 1);
  double f[3];
  contact_to_frame(w, c, w->contacts->force[c], f); /* (normal, s, t) */
  push_vec(L, f, 3);
  return 1;
}

static int l_force_global(lua_State *L) {
  if (asked_owner(L, CF_FORCE_GLOBAL)) return 1;
  cairn_world *w = ctx_world(L);
  double f[3];
  contact_force_global(w, check_contact(L, w, 1), f);
  push_vec(L, f, w->dim);
  return 1;
}

/* The extra moment on side 2 (beyond that of the force about its centre), global; a number in
   2D (its z component). */
static int l_moment(lua_State *L) {
  if (asked_owner(L, CF_MOMENT)) return 1;
  cairn_world *w = ctx_world(L);
  push_rot(L, w, w->contacts->moment[check_contact(L, w, 1)]);
  return 1;
}

static int l_normal(lua_State *L) {
  if (asked_owner(L, CF_NORMAL)) return 1;
  cairn_world *w = ctx_world(L);
  push_vec(L, w->contacts->normal[check_contact(L, w, 1)], w->dim);
  return 1;
}

static int l_point(lua_State *L) {
  if (asked_owner(L, CF_POINT)) return 1;
  cairn_world *w = ctx_world(L);
  double pt[3];
  contact_point(w, check_contact(L, w, 1), pt);
  push_vec(L, pt, w->dim);
  return 1;
}

static int l_gap(lua_State *L) {
  if (asked_owner(L, CF_GAP)) return 1;
  cairn_world *w = ctx_world(L);
  lua_pushnumber(L, w->contacts->gap[check_contact(L, w, 1)]);
  return 1;
}

static int l_active(lua_State *L) {
  if (asked_owner(L, CF_ACTIVE)) return 1;
  cairn_world *w = ctx_world(L);
  lua_pushboolean(L, w->contacts->active[check_contact(L, w, 1)]);
  return 1;
}

static int model_here(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  lua_pushstring(L, w->reg->e[w->contacts->model[check_contact(L, w, 1)]].m->name);
  return 1;
}

static int l_model(lua_State *L) {
  if (lua_gettop(L) < 2) return contact_getter(L, model_here);
  cairn_world *w = ctx_world(L);
  uint32_t c = check_contact(L, w, 1);
  const char *name = luaL_checkstring(L, 2);
  int m;
  cairn_diag d;
  cairn_status s = registry_require(w->reg, name, &m, &d);
  if (s == CAIRN_OK) s = contact_set_model(w, c, m, &d);
  if (s) return raise_diag(L, s, &d);
  return 0;
}

static int l_ends(lua_State *L) {
  handle *h = luaL_checkudata(L, 1, HANDLE);
  lua_pushstring(L, contact_kind_name(h->kind));
  lua_pushinteger(L, (lua_Integer)h->id1);
  lua_pushinteger(L, (lua_Integer)h->id2);
  if (h->kind == CAIRN_KIND_BALL_BALL) return 3;
  lua_pushinteger(L, h->kind - CAIRN_KIND_BALL_WALL + 1); /* which of the ball's with the wall */
  return 4;
}

void open_contact(lua_State *L) {
  luaL_newmetatable(L, HANDLE);
  lua_pushcfunction(L, h_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pushcfunction(L, h_eq);
  lua_setfield(L, -2, "__eq");
  lua_pop(L, 1);
  static const luaL_Reg f[] = {{"cmat_default", l_cmat_default},
                               {"cmat_add", l_cmat_add},
                               {"cmat_clear", l_cmat_clear},
                               {"apply", l_apply},
                               {"bond", l_bond},
                               {"joint", l_joint},
                               {"cracks", l_cracks},
                               {"find", l_find},
                               {"list", l_list},
                               {"count", l_count},
                               {"prop", l_prop},
                               {"props", l_props},
                               {"force", l_force},
                               {"force_global", l_force_global},
                               {"moment", l_moment},
                               {"normal", l_normal},
                               {"point", l_point},
                               {"gap", l_gap},
                               {"active", l_active},
                               {"model", l_model},
                               {"ends", l_ends},
                               {NULL, NULL}};
  luaL_newlib(L, f);
  lua_setglobal(L, "contact");
}
