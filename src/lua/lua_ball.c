/* Script module 'ball': create, delete, find and iterate balls; read and set their attributes;
   fix velocity components and spin. */
#include <string.h>

#include "contact/contact.h"
#include "core/comm.h"
#include "lua/lua_api.h"
#include "par/par.h"

static const char *const CREATE_OPTS[] = {"id",      "rad",  "pos",   "vel", "spin",
                                          "density", "damp", "group", NULL};

/* Ball id's slot when this rank owns it (every ball, on a whole model), else IDMAP_NONE. */
static uint32_t own_slot(const cairn_world *w, int64_t id) {
  uint32_t s = id >= 1 && id <= CAIRN_ID_MAX ? idmap_get(&w->balls.map, (uint64_t)id) : IDMAP_NONE;
  return s < balls_owned(w) ? s : IDMAP_NONE;
}

/* ball_slot's refusal, for a ball that no rank owns. */
static int no_ball(lua_State *L, int64_t id) {
  return lua_raisef(L, "ball %lld does not exist; check the id (ball.list() gives all ids)",
                    (long long)id);
}

/* ball.create while the model is divided: the ball is made on the rank whose brick holds its
   centre, as one of its own balls, and every rank learns its id and group; the next step's
   rebuild finds its neighbours (the pairs are stale on every rank). Nothing is gathered. The
   id, checked over every rank, and the owner's refusal, if it refuses, are every rank's. */
static int create_divided(lua_State *L, cairn_world *w, ball_spec *s) {
  int64_t id = s->id ? s->id : w->next_ball_id;
  uint64_t taken = own_slot(w, id) != IDMAP_NONE;
  comm_or_u64(&taken, 1);
  if (taken)
    lua_raisef(L, "ball %lld already exists; give each ball a unique id (or leave id out)",
               (long long)id);
  s->id = id;
  cairn_diag d;
  cairn_status st = CAIRN_OK;
  if (par_owns_point(w, s->pos)) {
    st = ball_create(w, s, &id, &d);
    if (st == CAIRN_OK) st = par_adopt_last(w, &d);
  }
  st = comm_agree(st, &d);
  if (st) return raise_diag(L, st, &d);
  uint16_t g; /* (the group, on every rank: a new name is numbered alike everywhere) */
  st = world_group_index(w, s->group, &g, &d);
  if (st) return raise_diag(L, st, &d);
  if (id >= w->next_ball_id) w->next_ball_id = id + 1;
  world_mark_dirty(w);
  par_note_change(w); /* (in a history function, the step to come must rebuild too) */
  lua_pushinteger(L, (lua_Integer)id);
  return 1;
}

static int l_create(lua_State *L) {
  cairn_world *w = ctx_world_reduced(L); /* (divided: made on its rank alone, create_divided) */
  check_opts(L, 1, "ball.create", CREATE_OPTS);
  ball_spec s;
  memset(&s, 0, sizeof s);
  lua_getfield(L, 1, "id");
  if (!lua_isnil(L, -1)) {
    s.id = get_id(L, -1, "ball.create: id");
    if (s.id < 1)
      lua_raisef(L, "ball id must be an integer from 1 to %ld (got %lld); choose another id",
                 CAIRN_ID_MAX, (long long)s.id);
  }
  lua_getfield(L, 1, "rad");
  if (lua_isnil(L, -1)) lua_raisef(L, "ball.create: give rad, the radius (a positive length)");
  s.rad = opt_number(L, 1, "rad", 0, "ball.create");
  s.density = opt_number(L, 1, "density", 1.0, "ball.create");
  s.damp = opt_number(L, 1, "damp", 0.0, "ball.create");
  lua_getfield(L, 1, "pos");
  if (lua_isnil(L, -1)) lua_raisef(L, "ball.create: give pos, the centre position");
  get_vec(L, -1, w->dim, s.pos, "ball.create: pos");
  lua_getfield(L, 1, "vel");
  if (!lua_isnil(L, -1)) get_vec(L, -1, w->dim, s.vel, "ball.create: vel");
  lua_getfield(L, 1, "spin");
  if (lua_type(L, -1) == LUA_TNUMBER && w->dim == 2)
    s.spin[2] = lua_tonumber(L, -1);
  else if (!lua_isnil(L, -1))
    get_vec(L, -1, 3, s.spin, "ball.create: spin");
  lua_getfield(L, 1, "group");
  s.group = lua_isnil(L, -1) ? NULL : luaL_checkstring(L, -1);
  if (w->par) return create_divided(L, w, &s);
  int64_t id;
  cairn_diag d;
  cairn_status st = ball_create(w, &s, &id, &d);
  if (st) return raise_diag(L, st, &d);
  lua_pushinteger(L, (lua_Integer)id);
  return 1;
}

void refuse_pebble(lua_State *L, cairn_world *w, uint32_t s, const char *fn) {
  if (!(w->balls.fix[s] & FIX_CLUMP)) return;
  cairn_diag d;
  cairn_status st = clump_slots(w, &d);
  if (st) raise_diag(L, st, &d);
  lua_raisef(L,
             "%s: ball %lld is a pebble of clump %lld, which moves it; set the clump's state "
             "with clump.vel, clump.spin, clump.fix or clump.delete instead",
             fn, (long long)w->balls.id[s], (long long)w->clumps.id[w->clumps.body_of[s]]);
}

static uint32_t check_slot(lua_State *L, cairn_world *w, int idx) {
  int64_t id = get_id(L, idx, "ball id");
  uint32_t s;
  cairn_diag d;
  cairn_status st = ball_slot(w, id, &s, &d);
  if (st) raise_diag(L, st, &d);
  return s;
}

static int l_delete(lua_State *L) {
  cairn_world *w = ctx_world(L);
  refuse_pebble(L, w, check_slot(L, w, 1), "ball.delete");
  cairn_diag d;
  cairn_status st = contact_delete_ball(w, get_id(L, 1, "ball.delete: id"), &d);
  if (st) return raise_diag(L, st, &d);
  return 0;
}

/* The range of an optional options table at index 1 of ball.list or ball.count. */
static int list_range(lua_State *L, const char *fn, ball_range *r) {
  static const char *const opts[] = {RANGE_OPTS, NULL};
  if (lua_isnoneornil(L, 1)) return 0;
  check_opts(L, 1, fn, opts);
  return range_read(L, 1, fn, r);
}

/* ball.list while the model is divided among MPI ranks: each rank takes its own balls in the
   range, and the ids come together in the order the gathered model would list them (by the key
   of their place at the last neighbour rebuild, then id: par.c), with nothing else gathered. */
typedef struct listed {
  uint64_t skey;
  int64_t id;
} listed;
static int listed_cmp(const void *x, const void *y) {
  const listed *a = x, *b = y;
  return ball_order_cmp(a->skey, a->id, b->skey, b->id);
}
static int list_divided(lua_State *L, cairn_world *w, const ball_range *r) {
  const ball_store *b = &w->balls;
  size_t n = 0, own = b->n_owned;
  listed *mine = mem_realloc(NULL, 0, (own + 1) * sizeof *mine, "ball.list");
  if (!mine) return lua_raisef(L, "ball.list: out of memory listing %zu balls", own);
  for (size_t i = 0; i < own; i++)
    if (!r || range_holds(w, r, (uint32_t)i)) mine[n++] = (listed){b->skey[i], b->id[i]};
  size_t total;
  listed *all = gather_sorted(L, mine, n, sizeof *mine, listed_cmp, &total);
  lua_createtable(L, (int)total, 0);
  for (size_t k = 0; k < total; k++) {
    lua_pushinteger(L, (lua_Integer)all[k].id);
    lua_rawseti(L, -2, (lua_Integer)k + 1);
  }
  mem_free(all, 0);
  return 1;
}

static int l_list(lua_State *L) {
  cairn_world *w = ctx_world_reduced(L);
  ball_range r;
  int ranged = list_range(L, "ball.list", &r);
  if (w->par) return list_divided(L, w, ranged ? &r : NULL);
  lua_createtable(L, ranged ? 0 : (int)w->balls.n, 0);
  lua_Integer k = 0;
  for (size_t i = 0; i < w->balls.n; i++) {
    if (ranged && !range_holds(w, &r, (uint32_t)i)) continue;
    lua_pushinteger(L, (lua_Integer)w->balls.id[i]);
    lua_rawseti(L, -2, ++k);
  }
  return 1;
}

/* (under MPI decomposition each rank counts its own balls) */
static int l_count(lua_State *L) {
  cairn_world *w = ctx_world_reduced(L);
  ball_range r;
  int ranged = list_range(L, "ball.count", &r);
  int64_t n = (int64_t)balls_owned(w);
  if (ranged) {
    n = 0;
    for (size_t i = 0; i < balls_owned(w); i++) n += range_holds(w, &r, (uint32_t)i);
  }
  if (w->par) comm_sum_i64(&n, 1);
  lua_pushinteger(L, (lua_Integer)n);
  return 1;
}

static int l_exists(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  uint32_t s = own_slot(w, get_id(L, 1, "ball id"));
  if (w->par) { /* (its owner says) */
    collective_call_named(L, CALL_ASK);
    double none[3] = {0, 0, 0};
    lua_pushboolean(L, owner_reply(s != IDMAP_NONE ? none : NULL, none));
    return 1;
  }
  lua_pushboolean(L, s != IDMAP_NONE);
  return 1;
}

/* Spin and moment are scalars (about z) in 2D, vectors in 3D (push_rot: lua_api.h). */
void push_rot(lua_State *L, const cairn_world *w, const double v[3]) {
  if (w->dim == 2)
    lua_pushnumber(L, v[2]);
  else
    push_vec(L, v, 3);
}

static void get_rot(lua_State *L, cairn_world *w, int idx, double out[3], const char *what) {
  if (w->dim == 2) {
    out[0] = out[1] = 0;
    out[2] = check_number(L, idx, what);
  } else {
    get_vec(L, idx, 3, out, what);
  }
}

/* A getter of one ball while the model is divided among MPI ranks (docs/parallel.md): the rank
   that owns the ball reads it (the others hold none, or a ghost's copy), and the value reaches
   every rank in one reduction, bit for bit, with nothing gathered. 0 when the model is whole or
   the call sets the value (the caller then reads or sets it on the whole model), 1 when the
   value is pushed. */
/* clang-format off */
typedef enum ball_field {
  /* vectors (spin and moment: push_rot), then numbers */
  F_POS, F_VEL, F_FORCE, F_SPIN, F_MOMENT, F_RAD, F_DENSITY, F_DAMP, F_MASS, F_INERTIA
} ball_field;
/* clang-format on */
static const double *field_of(const ball_store *b, ball_field f, uint32_t s) {
  switch (f) {
  case F_POS:
    return b->pos[s];
  case F_VEL:
    return b->vel[s];
  case F_FORCE:
    return b->force[s];
  case F_SPIN:
    return b->spin[s];
  case F_MOMENT:
    return b->moment[s];
  case F_RAD:
    return &b->rad[s];
  case F_DENSITY:
    return &b->density[s];
  case F_DAMP:
    return &b->damp[s];
  case F_MASS:
    return &b->mass[s];
  case F_INERTIA:
    return &b->inertia[s];
  }
  return NULL;
}
static int asked_owner(lua_State *L, ball_field f) {
  if (lua_gettop(L) >= 2 || !owner_answers(L)) return 0;
  cairn_world *w = ctx_world_as_is(L);
  int64_t id = get_id(L, 1, "ball id");
  uint32_t s = own_slot(w, id);
  int n = f <= F_MOMENT ? 3 : 1, owned = s != IDMAP_NONE;
  double v[3] = {0, 0, 0};
  if (owned) memcpy(v, field_of(&w->balls, f, s), (size_t)n * sizeof *v);
  if (!owner_reply(owned ? v : NULL, v)) no_ball(L, id);
  if (n == 1)
    lua_pushnumber(L, v[0]);
  else if (f == F_SPIN || f == F_MOMENT)
    push_rot(L, w, v);
  else
    push_vec(L, v, w->dim);
  return 1;
}

/* Vector attributes: ball.pos(id [, v]) and friends. moves: a write moves the ball, so the
   neighbour lists are stale (marked only once the call has been accepted: a refused call
   changes nothing). */
static int vec_attr(lua_State *L, double (*arr)[3], const char *what, int moves) {
  cairn_world *w = ctx_world(L);
  uint32_t s = check_slot(L, w, 1);
  if (lua_gettop(L) >= 2) {
    double v[3];
    refuse_pebble(L, w, s, what);
    get_vec(L, 2, w->dim, v, what);
    for (int k = 0; k < 3; k++)
      if (!isfinite(v[k])) lua_raisef(L, "%s: components must be finite", what);
    v3_copy(v, arr[s]);
    if (moves) world_mark_dirty(w);
    return 0;
  }
  push_vec(L, arr[s], w->dim);
  return 1;
}

static int l_pos(lua_State *L) {
  if (asked_owner(L, F_POS)) return 1;
  return vec_attr(L, ctx_world(L)->balls.pos, "ball.pos", 1);
}
static int l_vel(lua_State *L) {
  if (asked_owner(L, F_VEL)) return 1;
  return vec_attr(L, ctx_world(L)->balls.vel, "ball.vel", 0);
}

static int l_force(lua_State *L) {
  if (asked_owner(L, F_FORCE)) return 1;
  cairn_world *w = ctx_world(L);
  push_vec(L, w->balls.force[check_slot(L, w, 1)], w->dim);
  return 1;
}

static int l_spin(lua_State *L) {
  if (asked_owner(L, F_SPIN)) return 1;
  cairn_world *w = ctx_world(L);
  uint32_t s = check_slot(L, w, 1);
  if (lua_gettop(L) >= 2) {
    refuse_pebble(L, w, s, "ball.spin");
    get_rot(L, w, 2, w->balls.spin[s], "ball.spin");
    return 0;
  }
  push_rot(L, w, w->balls.spin[s]);
  return 1;
}

static int l_moment(lua_State *L) {
  if (asked_owner(L, F_MOMENT)) return 1;
  cairn_world *w = ctx_world(L);
  push_rot(L, w, w->balls.moment[check_slot(L, w, 1)]);
  return 1;
}

/* ---- getters of one ball whose answers are not a few numbers: while the model is divided, the
   owner's answer (owner_run), else read from the whole model ---- */

static int owns_ball(lua_State *L, cairn_world *w) {
  return own_slot(w, get_id(L, 1, "ball id")) != IDMAP_NONE;
}

static int ball_getter(lua_State *L, lua_CFunction here) {
  int r = owner_run(L, owns_ball, here);
  if (r == 0) return no_ball(L, get_id(L, 1, "ball id"));
  if (r == 1) return 1;
  ctx_world(L);
  return here(L);
}

/* ball.force_app(id [, F]) and ball.moment_app(id [, M]): the force and moment a script applies
   to a ball every step, until changed (zero removes it). */
static int load_here(lua_State *L, int which) {
  cairn_world *w = ctx_world_as_is(L);
  double v[3] = {0, 0, 0};
  loads_get(w, w->balls.id[check_slot(L, w, 1)], which, v);
  if (which)
    push_rot(L, w, v);
  else
    push_vec(L, v, w->dim);
  return 1;
}
static int force_app_here(lua_State *L) {
  return load_here(L, 0);
}
static int moment_app_here(lua_State *L) {
  return load_here(L, 1);
}

static int load_attr(lua_State *L, int which, const char *what) {
  if (lua_gettop(L) < 2) return ball_getter(L, which ? moment_app_here : force_app_here);
  cairn_world *w = ctx_world(L);
  uint32_t s = check_slot(L, w, 1);
  double v[3] = {0, 0, 0};
  if (which)
    get_rot(L, w, 2, v, what);
  else
    get_vec(L, 2, w->dim, v, what);
  for (int k = 0; k < 3; k++)
    if (!isfinite(v[k])) lua_raisef(L, "%s: components must be finite (got %g)", what, v[k]);
  cairn_diag d;
  cairn_status st = loads_set(w, w->balls.id[s], which, v, &d);
  if (st) return raise_diag(L, st, &d);
  return 0;
}

static int l_force_app(lua_State *L) {
  return load_attr(L, 0, "ball.force_app");
}

static int l_moment_app(lua_State *L) {
  return load_attr(L, 1, "ball.moment_app");
}

typedef cairn_status (*scalar_setter)(cairn_world *, uint32_t, double, cairn_diag *);

static int scalar_attr(lua_State *L, double *arr, scalar_setter set, const char *name) {
  cairn_world *w = ctx_world(L);
  uint32_t s = check_slot(L, w, 1);
  if (lua_gettop(L) >= 2) {
    if (!set)
      return lua_raisef(L, "ball.%s is read-only (it follows from radius and density)", name);
    cairn_diag d;
    char what[64];
    snprintf(what, sizeof what, "ball.%s: the value", name);
    cairn_status st = set(w, s, check_number(L, 2, what), &d);
    if (st) return raise_diag(L, st, &d);
    return 0;
  }
  lua_pushnumber(L, arr[s]);
  return 1;
}

static int l_rad(lua_State *L) {
  if (asked_owner(L, F_RAD)) return 1;
  return scalar_attr(L, ctx_world(L)->balls.rad, ball_set_radius, "rad");
}
static int l_density(lua_State *L) {
  if (asked_owner(L, F_DENSITY)) return 1;
  return scalar_attr(L, ctx_world(L)->balls.density, ball_set_density, "density");
}
static int l_damp(lua_State *L) {
  if (asked_owner(L, F_DAMP)) return 1;
  return scalar_attr(L, ctx_world(L)->balls.damp, ball_set_damp, "damp");
}
static int l_mass(lua_State *L) {
  if (asked_owner(L, F_MASS)) return 1;
  return scalar_attr(L, ctx_world(L)->balls.mass, NULL, "mass");
}
static int l_inertia(lua_State *L) {
  if (asked_owner(L, F_INERTIA)) return 1;
  return scalar_attr(L, ctx_world(L)->balls.inertia, NULL, "inertia");
}

static int group_here(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  lua_pushstring(L, world_group_name(w, w->balls.group[check_slot(L, w, 1)]));
  return 1;
}

static int l_group(lua_State *L) {
  if (lua_gettop(L) < 2) return ball_getter(L, group_here);
  cairn_world *w = ctx_world(L);
  uint32_t s = check_slot(L, w, 1);
  cairn_diag d;
  uint16_t g;
  cairn_status st = world_group_index(w, luaL_checkstring(L, 2), &g, &d);
  if (st) return raise_diag(L, st, &d);
  ball_set_group(w, s, g);
  return 0;
}

/* The slots of the balls a call selects (id = ID, ids = {...}, a range: in_group, in_box,
   in_sphere, in_cylinder, together; or all), every id checked before the call changes anything
   (all-or-nothing). The list lives in a userdata left on the stack, so an error frees it. */
static uint32_t *selection(lua_State *L, cairn_world *w, int idx, const char *fn_name, size_t *n) {
  idx = lua_absindex(L, idx);
  ball_range r;
  int has_range = range_read(L, idx, fn_name, &r);
  lua_getfield(L, idx, "id");
  lua_getfield(L, idx, "ids");
  int has_id = !lua_isnil(L, -2), has_ids = !lua_isnil(L, -1);
  if (has_id + has_ids + has_range > 1)
    lua_raisef(L,
               "%s: give at most one of id, ids and a range (in_group, in_box, in_sphere, "
               "in_cylinder, which combine)",
               fn_name);
  size_t cap = has_id ? 1 : w->balls.n;
  if (has_ids) {
    luaL_checktype(L, -1, LUA_TTABLE);
    cap = (size_t)luaL_len(L, -1);
  }
  uint32_t *slots = lua_newuserdatauv(L, (cap ? cap : 1) * sizeof *slots, 0);
  size_t k = 0;
  if (has_id) {
    slots[k++] = check_slot(L, w, -3);
  } else if (has_ids) {
    for (size_t i = 1; i <= cap; i++) {
      lua_geti(L, -2, (lua_Integer)i);
      slots[k++] = check_slot(L, w, -1);
      lua_pop(L, 1);
    }
  } else {
    for (size_t i = 0; i < w->balls.n; i++)
      if (!has_range || range_holds(w, &r, (uint32_t)i)) slots[k++] = (uint32_t)i;
  }
  lua_replace(L, -3); /* the list in place of 'id'; 'ids' popped */
  lua_pop(L, 1);
  *n = k;
  return slots;
}

typedef struct attr_set {
  int has_rad, has_density, has_damp, has_vel, has_spin, has_group;
  double rad, density, damp, vel[3], spin[3];
  uint16_t group;
} attr_set;

/* Set a's attributes on ball s (checked before: ball_check_attributes). */
static void apply_attr(lua_State *L, cairn_world *w, uint32_t s, const attr_set *a) {
  cairn_diag d;
  cairn_status st = CAIRN_OK;
  if (a->has_rad) st = ball_set_radius(w, s, a->rad, &d);
  if (!st && a->has_density) st = ball_set_density(w, s, a->density, &d);
  if (!st && a->has_damp) st = ball_set_damp(w, s, a->damp, &d);
  if (st) raise_diag(L, st, &d);
  if (a->has_vel) ball_set_velocity(w, s, a->vel);
  if (a->has_spin) ball_set_spin(w, s, a->spin);
  if (a->has_group) ball_set_group(w, s, a->group);
}

static int l_attribute(lua_State *L) {
  static const char *const opts[] = {"rad",   "density", "damp", "vel",      "spin",
                                     "group", "id",      "ids",  RANGE_OPTS, NULL};
  cairn_world *w = ctx_world(L);
  check_opts(L, 1, "ball.attribute", opts);
  attr_set a;
  memset(&a, 0, sizeof a);
  lua_getfield(L, 1, "rad");
  if ((a.has_rad = !lua_isnil(L, -1))) a.rad = opt_number(L, 1, "rad", 0, "ball.attribute");
  lua_getfield(L, 1, "density");
  if ((a.has_density = !lua_isnil(L, -1)))
    a.density = opt_number(L, 1, "density", 0, "ball.attribute");
  lua_getfield(L, 1, "damp");
  if ((a.has_damp = !lua_isnil(L, -1))) a.damp = opt_number(L, 1, "damp", 0, "ball.attribute");
  lua_getfield(L, 1, "vel");
  if ((a.has_vel = !lua_isnil(L, -1))) get_vec(L, -1, w->dim, a.vel, "ball.attribute: vel");
  lua_getfield(L, 1, "spin");
  if ((a.has_spin = !lua_isnil(L, -1)))
    get_rot(L, w, lua_gettop(L), a.spin, "ball.attribute: spin");
  lua_getfield(L, 1, "group");
  if ((a.has_group = !lua_isnil(L, -1))) {
    cairn_diag d;
    cairn_status st = world_group_index(w, luaL_checkstring(L, -1), &a.group, &d);
    if (st) return raise_diag(L, st, &d);
  }
  lua_settop(L, 1);
  size_t n;
  const uint32_t *slots = selection(L, w, 1, "ball.attribute", &n);
  for (size_t i = 0; i < n; i++) { /* every ball checked first: all-or-nothing */
    if (a.has_rad || a.has_density || a.has_damp || a.has_vel || a.has_spin)
      refuse_pebble(L, w, slots[i], "ball.attribute");
    cairn_diag d;
    cairn_status st = ball_check_attributes(w, slots[i], a.has_rad, a.rad, a.has_density, a.density,
                                            a.has_damp, a.damp, &d);
    if (st) return raise_diag(L, st, &d);
  }
  for (size_t i = 0; i < n; i++) apply_attr(L, w, slots[i], &a);
  return 0;
}

/* ball.fix{"velocity", "spin", ...} and ball.free{...}: positional names of what to fix. */
unsigned fix_bits(lua_State *L, const char *fn) {
  unsigned bits = 0;
  lua_Integer n = luaL_len(L, 1);
  if (n == 0)
    lua_raisef(L,
               "%s: name what to fix: \"velocity\", \"xvelocity\", \"yvelocity\", "
               "\"zvelocity\" or \"spin\"",
               fn);
  for (lua_Integer i = 1; i <= n; i++) {
    lua_geti(L, 1, i);
    const char *s = luaL_checkstring(L, -1);
    if (strcmp(s, "velocity") == 0)
      bits |= FIX_VEL;
    else if (strcmp(s, "xvelocity") == 0)
      bits |= FIX_VX;
    else if (strcmp(s, "yvelocity") == 0)
      bits |= FIX_VY;
    else if (strcmp(s, "zvelocity") == 0)
      bits |= FIX_VZ;
    else if (strcmp(s, "spin") == 0)
      bits |= FIX_SPIN;
    else
      lua_raisef(L,
                 "%s: unknown name '%s'; use \"velocity\", \"xvelocity\", \"yvelocity\", "
                 "\"zvelocity\" or \"spin\"",
                 fn, s);
    lua_pop(L, 1);
  }
  return bits;
}

static int l_fix(lua_State *L) {
  static const char *const opts[] = {"id", "ids", RANGE_OPTS, NULL};
  cairn_world *w = ctx_world(L);
  check_opts(L, 1, "ball.fix", opts);
  unsigned bits = fix_bits(L, "ball.fix");
  size_t n;
  const uint32_t *slots = selection(L, w, 1, "ball.fix", &n); /* (every id checked first) */
  for (size_t i = 0; i < n; i++) refuse_pebble(L, w, slots[i], "ball.fix");
  for (size_t i = 0; i < n; i++) ball_fix(w, slots[i], bits);
  return 0;
}

static int l_free(lua_State *L) {
  static const char *const opts[] = {"id", "ids", RANGE_OPTS, NULL};
  cairn_world *w = ctx_world(L);
  check_opts(L, 1, "ball.free", opts);
  unsigned bits = fix_bits(L, "ball.free");
  size_t n;
  const uint32_t *slots = selection(L, w, 1, "ball.free", &n); /* (every id checked first) */
  for (size_t i = 0; i < n; i++) refuse_pebble(L, w, slots[i], "ball.free");
  for (size_t i = 0; i < n; i++) ball_free(w, slots[i], bits);
  return 0;
}

/* ball.extra(ID, K [, V]): extra variable K (1 .. BALL_EXTRAS) of the ball, read (0 until set)
   or set. */
/* ball.extra(ID, K [, V]): the index checked, the ball found (slot s) */
static int extra_index(lua_State *L, cairn_world *w, uint32_t *s) {
  *s = check_slot(L, w, 1);
  lua_Integer k = check_whole(L, 2, "ball.extra: the variable's index");
  if (k < 1 || k > BALL_EXTRAS)
    lua_raisef(L, "ball.extra: the index must be from 1 to %d (got %lld)", BALL_EXTRAS,
               (long long)k);
  return (int)k - 1;
}

static int extra_here(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  uint32_t s;
  int k = extra_index(L, w, &s);
  lua_pushnumber(L, ball_extra_get(&w->balls, w->balls.id[s], k));
  return 1;
}

static int l_extra(lua_State *L) {
  if (lua_gettop(L) < 3) return ball_getter(L, extra_here);
  cairn_world *w = ctx_world(L);
  uint32_t s;
  int k = extra_index(L, w, &s);
  double v = check_number(L, 3, "ball.extra: the value");
  cairn_diag d;
  cairn_status st = ball_extra_set(&w->balls, w->balls.id[s], k, v, &d);
  if (st) return raise_diag(L, st, &d);
  return 0;
}

/* ball.track_displacement(ON): count every ball's displacement from now (true), or stop. */
static int l_track_displacement(lua_State *L) {
  cairn_world *w = ctx_world(L);
  luaL_checktype(L, 1, LUA_TBOOLEAN);
  cairn_diag d;
  cairn_status st = ball_cumdisp_track(&w->balls, lua_toboolean(L, 1), &d);
  if (st) return raise_diag(L, st, &d);
  return 0;
}

/* ball.displacement(ID): the ball's displacement since tracking began (or since it was made). */
static int l_displacement(lua_State *L) {
  cairn_world *w = ctx_world(L);
  uint32_t s = check_slot(L, w, 1);
  if (!w->balls.cum.on)
    lua_raisef(L, "ball.displacement: displacements are not tracked; call "
                  "ball.track_displacement(true) first (they count from then)");
  double v[3];
  ball_cumdisp_get(&w->balls, s, v);
  push_vec(L, v, w->dim);
  return 1;
}

static int fixed_here(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  uint32_t s = check_slot(L, w, 1);
  unsigned f = w->balls.fix[s];
  lua_createtable(L, 0, 4);
  const char *names[] = {"xvelocity", "yvelocity", "zvelocity", "spin"};
  for (int k = 0; k < 4; k++) {
    lua_pushboolean(L, (f >> k) & 1);
    lua_setfield(L, -2, names[k]);
  }
  return 1;
}

static int l_fixed(lua_State *L) {
  return ball_getter(L, fixed_here);
}

void open_ball(lua_State *L) {
  static const luaL_Reg f[] = {{"create", l_create},
                               {"delete", l_delete},
                               {"list", l_list},
                               {"count", l_count},
                               {"exists", l_exists},
                               {"pos", l_pos},
                               {"vel", l_vel},
                               {"spin", l_spin},
                               {"force", l_force},
                               {"moment", l_moment},
                               {"force_app", l_force_app},
                               {"moment_app", l_moment_app},
                               {"rad", l_rad},
                               {"density", l_density},
                               {"damp", l_damp},
                               {"mass", l_mass},
                               {"inertia", l_inertia},
                               {"group", l_group},
                               {"attribute", l_attribute},
                               {"fix", l_fix},
                               {"free", l_free},
                               {"fixed", l_fixed},
                               {"extra", l_extra},
                               {"track_displacement", l_track_displacement},
                               {"displacement", l_displacement},
                               {NULL, NULL}};
  luaL_newlib(L, f);
  lua_setglobal(L, "ball");
}
