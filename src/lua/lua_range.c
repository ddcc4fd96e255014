/* Ranges of balls (lua_api.h, ball_range): the options a call that selects balls takes beside a
   group, read from its table, and the test of one ball. A ball is in a range if its centre is
   in every shape given, and in the group if one is given. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lua/lua_api.h"

/* A field of the table at idx that must be a table: pushed, or nil left pushed if absent. */
static int field_table(lua_State *L, int idx, const char *key, const char *what) {
  lua_getfield(L, idx, key);
  if (lua_isnil(L, -1)) return 0;
  if (!lua_istable(L, -1)) lua_raisef(L, "%s must be a table (got %s)", what, luaL_typename(L, -1));
  return 1;
}

/* A positive finite radius from field 'key' of the table on top. */
static double field_radius(lua_State *L, const char *key, const char *what) {
  lua_getfield(L, -1, key);
  if (lua_type(L, -1) != LUA_TNUMBER)
    lua_raisef(L, "%s: give %s = R, a number > 0 (got %s)", what, key, luaL_typename(L, -1));
  double r = lua_tonumber(L, -1);
  if (!(r > 0 && isfinite(r)))
    lua_raisef(L, "%s: %s must be a finite number > 0 (got %g)", what, key, r);
  lua_pop(L, 1);
  return r;
}

/* A point from field 'key' of the table on top. */
static void field_point(lua_State *L, int dim, const char *key, double p[3], const char *what) {
  char name[160];
  snprintf(name, sizeof name, "%.96s: %.32s", what, key);
  lua_getfield(L, -1, key);
  if (lua_isnil(L, -1)) lua_raisef(L, "%s: give %s = {x, y%s}", what, key, dim == 3 ? ", z" : "");
  get_vec(L, -1, dim, p, name);
  lua_pop(L, 1);
}

/* Only the keys given may be in the table on top. */
static void only_keys(lua_State *L, const char *what, const char *const *keys) {
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    lua_pop(L, 1);
    int ok = 0;
    if (lua_type(L, -1) == LUA_TSTRING)
      for (const char *const *k = keys; *k; k++) ok |= strcmp(*k, lua_tostring(L, -1)) == 0;
    if (!ok) {
      char list[128] = "";
      for (const char *const *k = keys; *k; k++) {
        if (list[0]) strncat(list, ", ", sizeof list - strlen(list) - 1);
        strncat(list, *k, sizeof list - strlen(list) - 1);
      }
      lua_raisef(L, "%s: unknown key '%s'; the keys are: %s", what,
                 lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : luaL_typename(L, -1), list);
    }
  }
}

int range_read(lua_State *L, int idx, const char *fn, ball_range *r) {
  cairn_world *w = ctx_world_as_is(L); /* (the names of the groups: alike on every rank) */
  const int dim = w->dim;
  char what[96];
  idx = lua_absindex(L, idx);
  memset(r, 0, sizeof *r);
  r->group = -1;
  lua_getfield(L, idx, "in_group");
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TSTRING)
      lua_raisef(L, "%s: in_group must be a group name (got %s)", fn, luaL_typename(L, -1));
    const char *g = lua_tostring(L, -1);
    r->group = 0; /* a name no ball has: nothing selected */
    r->any = 1;
    for (size_t i = 1; i < w->n_groups; i++)
      if (strcmp(w->groups[i], g) == 0) r->group = (int)i;
    if (r->group == 0) r->none = 1;
  }
  lua_pop(L, 1);
  snprintf(what, sizeof what, "%s: in_box", fn);
  if (field_table(L, idx, "in_box", what)) {
    static const char *const keys[] = {"min", "max", NULL};
    only_keys(L, what, keys);
    field_point(L, dim, "min", r->lo, what);
    field_point(L, dim, "max", r->hi, what);
    for (int k = 0; k < dim; k++)
      if (!(r->lo[k] <= r->hi[k]))
        lua_raisef(L, "%s: min must not exceed max (component %d: %g > %g)", what, k + 1, r->lo[k],
                   r->hi[k]);
    r->box = r->any = 1;
  }
  lua_pop(L, 1);
  snprintf(what, sizeof what, "%s: in_sphere", fn);
  if (field_table(L, idx, "in_sphere", what)) {
    static const char *const keys[] = {"centre", "radius", NULL};
    only_keys(L, what, keys);
    field_point(L, dim, "centre", r->centre, what);
    r->radius = field_radius(L, "radius", what);
    r->sphere = r->any = 1;
  }
  lua_pop(L, 1);
  snprintf(what, sizeof what, "%s: in_cylinder", fn);
  if (field_table(L, idx, "in_cylinder", what)) {
    static const char *const keys[] = {"from", "to", "radius", NULL};
    only_keys(L, what, keys);
    field_point(L, dim, "from", r->from, what);
    field_point(L, dim, "to", r->to, what);
    r->cyl_radius = field_radius(L, "radius", what);
    double len2 = 0;
    for (int k = 0; k < 3; k++) {
      r->axis[k] = r->to[k] - r->from[k];
      len2 += r->axis[k] * r->axis[k];
    }
    if (!(len2 > 0)) lua_raisef(L, "%s: from and to must differ (they give the axis)", what);
    r->axis_len2 = len2;
    r->cylinder = r->any = 1;
  }
  lua_pop(L, 1);
  return r->any;
}

int range_holds(const cairn_world *w, const ball_range *r, uint32_t s) {
  if (r->none) return 0;
  if (r->group >= 0 && w->balls.group[s] != r->group) return 0;
  const double *x = w->balls.pos[s];
  if (r->box)
    for (int k = 0; k < w->dim; k++)
      if (!(x[k] >= r->lo[k] && x[k] <= r->hi[k])) return 0;
  if (r->sphere) {
    double d2 = 0;
    for (int k = 0; k < 3; k++) d2 += (x[k] - r->centre[k]) * (x[k] - r->centre[k]);
    if (!(d2 <= r->radius * r->radius)) return 0;
  }
  if (r->cylinder) { /* within the axis segment, and within the radius of the axis */
    double e[3], t = 0, d2 = 0;
    for (int k = 0; k < 3; k++) e[k] = x[k] - r->from[k], t += e[k] * r->axis[k];
    if (!(t >= 0 && t <= r->axis_len2)) return 0;
    t /= r->axis_len2;
    for (int k = 0; k < 3; k++) d2 += (e[k] - t * r->axis[k]) * (e[k] - t * r->axis[k]);
    if (!(d2 <= r->cyl_radius * r->cyl_radius)) return 0;
  }
  return 1;
}
