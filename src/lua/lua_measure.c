/* Script module 'measure': measurement regions (circle, sphere, box) as handles whose methods
   give porosity, coordination number, average stress and strain rate, so a history can sample
   them. The geometry and the sums are in src/world/measure.c. */
#include <string.h>

#include "cycle/cycle.h"
#include "lua/lua_api.h"
#include "measure/measure.h"

#define REGION "cairn.measure"

static const char *const CREATE_OPTS[] = {"shape", "centre", "radius", "min", "max", NULL};

/* The region at idx and the world; how the world is wanted under MPI decomposition: MEASURED
   (every rank's part summed: measure.h), CONTACTS (the same, with the contacts current:
   summed_world), or AS_IS (the region alone). */
enum { MEASURED, CONTACTS, AS_IS };
static meas_region *check_region(lua_State *L, int idx, cairn_world **w, int how) {
  meas_region *r = luaL_testudata(L, idx, REGION);
  if (!r)
    lua_raisef(L,
               "expected a measurement region (from measure.create), got %s; call it as "
               "m:porosity(), with a colon",
               luaL_typename(L, idx));
  *w = how == AS_IS ? ctx_world_as_is(L) : how == CONTACTS ? summed_world(L) : ctx_world_reduced(L);
  if ((*w)->dim != r->dim)
    lua_raisef(L,
               "this measurement region is %dD, the model is %dD; create it again after "
               "model.new",
               r->dim, (*w)->dim);
  return r;
}

/* Contacts must describe the current balls: detect first if anything changed (as contact.find). */
static int l_create(lua_State *L) {
  const char *fn = "measure.create";
  cairn_world *w = ctx_world_as_is(L);
  check_opts(L, 1, fn, CREATE_OPTS);
  meas_region r;
  memset(&r, 0, sizeof r);
  r.dim = w->dim;
  lua_getfield(L, 1, "shape");
  const char *shape = lua_tostring(L, -1);
  if (!shape) lua_raisef(L, "%s: give shape, one of \"circle\" (2D), \"sphere\" (3D), \"box\"", fn);
  if (strcmp(shape, "box") == 0) {
    r.shape = MEAS_BOX;
    lua_getfield(L, 1, "min");
    lua_getfield(L, 1, "max");
    if (lua_isnil(L, -1) || lua_isnil(L, -2))
      lua_raisef(L, "%s: a box needs min and max, its corners", fn);
    get_vec(L, -2, w->dim, r.lo, "measure.create: min");
    get_vec(L, -1, w->dim, r.hi, "measure.create: max");
    lua_pop(L, 2);
  } else if (strcmp(shape, "circle") == 0 || strcmp(shape, "sphere") == 0) {
    r.shape = shape[0] == 'c' ? MEAS_CIRCLE : MEAS_SPHERE;
    lua_getfield(L, 1, "centre");
    if (lua_isnil(L, -1)) lua_raisef(L, "%s: a %s needs centre and radius", fn, shape);
    get_vec(L, -1, w->dim, r.centre, "measure.create: centre");
    lua_pop(L, 1);
    lua_getfield(L, 1, "radius");
    if (lua_isnil(L, -1)) lua_raisef(L, "%s: a %s needs centre and radius", fn, shape);
    lua_pop(L, 1);
    r.radius = opt_number(L, 1, "radius", 0, fn);
  } else {
    lua_raisef(L, "%s: unknown shape '%s'; use \"circle\" (2D), \"sphere\" (3D) or \"box\"", fn,
               shape);
  }
  lua_pop(L, 1);
  cairn_diag d;
  cairn_status s = meas_region_check(&r, fn, &d);
  if (s) return raise_diag(L, s, &d);
  meas_region *u = lua_newuserdatauv(L, sizeof *u, 0);
  *u = r;
  luaL_setmetatable(L, REGION);
  return 1;
}

static int l_porosity(lua_State *L) {
  cairn_world *w;
  meas_region *r = check_region(L, 1, &w, MEASURED);
  lua_pushnumber(L, meas_porosity(w, r));
  return 1;
}

static int l_volume(lua_State *L) {
  cairn_world *w;
  meas_region *r = check_region(L, 1, &w, AS_IS);
  lua_pushnumber(L, meas_volume(r));
  return 1;
}

static int l_count(lua_State *L) {
  cairn_world *w;
  meas_region *r = check_region(L, 1, &w, MEASURED);
  lua_pushinteger(L, (lua_Integer)meas_count(w, r));
  return 1;
}

/* m:coordination() or m:coordination{all = true}: mean contacts per ball with its centre inside,
   and the number of those balls. */
static int l_coordination(lua_State *L) {
  cairn_world *w;
  int all = 0;
  if (!lua_isnoneornil(L, 2)) {
    static const char *const opts[] = {"all", NULL};
    check_opts(L, 2, "coordination", opts);
    lua_getfield(L, 2, "all");
    all = lua_toboolean(L, -1);
    lua_pop(L, 1);
  }
  meas_region *r = check_region(L, 1, &w, CONTACTS);
  size_t nb;
  lua_pushnumber(L, meas_coordination(w, r, all, &nb));
  lua_pushinteger(L, (lua_Integer)nb);
  return 2;
}

/* Push the tensor t (3x3, row-major) as a dim x dim array of rows, or one component by name:
   "xx" .. "zz", or the scalar named 'sname' (trace divided by 'sdiv'). */
static int push_tensor(lua_State *L, int dim, const double t[9], int idx, const char *sname,
                       double sdiv) {
  if (lua_isnoneornil(L, idx)) {
    lua_createtable(L, dim, 0);
    for (int i = 0; i < dim; i++) {
      lua_createtable(L, dim, 0);
      for (int j = 0; j < dim; j++) {
        lua_pushnumber(L, t[3 * i + j]);
        lua_rawseti(L, -2, j + 1);
      }
      lua_rawseti(L, -2, i + 1);
    }
    return 1;
  }
  const char *c = luaL_checkstring(L, idx);
  if (strcmp(c, sname) == 0) {
    double tr = 0;
    for (int k = 0; k < dim; k++) tr += t[4 * k];
    lua_pushnumber(L, tr / sdiv);
    return 1;
  }
  const char *axes = dim == 2 ? "xy" : "xyz";
  const char *i = strlen(c) == 2 ? strchr(axes, c[0]) : NULL;
  const char *j = strlen(c) == 2 ? strchr(axes, c[1]) : NULL;
  if (!i || !j || !c[0] || !c[1])
    return lua_raisef(L, "unknown component '%s'; use %s or \"%s\"", c,
                      dim == 2 ? "\"xx\", \"xy\", \"yx\", \"yy\"" : "\"xx\", \"xy\", ... \"zz\"",
                      sname);
  lua_pushnumber(L, t[3 * (i - axes) + (j - axes)]);
  return 1;
}

static int l_stress(lua_State *L) {
  cairn_world *w;
  meas_region *r = check_region(L, 1, &w, CONTACTS);
  double s[9];
  meas_stress(w, r, s, NULL);
  return push_tensor(L, w->dim, s, 2, "mean", w->dim);
}

static int l_strain_rate(lua_State *L) {
  cairn_world *w;
  meas_region *r = check_region(L, 1, &w, MEASURED);
  double e[9];
  cairn_diag d;
  cairn_status s = meas_strain_rate(w, r, e, &d);
  if (s) return raise_diag(L, s, &d);
  return push_tensor(L, w->dim, e, 2, "vol", 1.0);
}

static int l_tostring(lua_State *L) {
  meas_region *r = luaL_checkudata(L, 1, REGION);
  if (r->shape == MEAS_BOX)
    lua_pushfstring(L, "measurement box (%dD)", r->dim);
  else
    lua_pushfstring(L, "measurement %s (radius %f)", r->shape == MEAS_CIRCLE ? "circle" : "sphere",
                    r->radius);
  return 1;
}

static const luaL_Reg METHODS[] = {{"porosity", l_porosity},
                                   {"coordination", l_coordination},
                                   {"stress", l_stress},
                                   {"strain_rate", l_strain_rate},
                                   {"volume", l_volume},
                                   {"count", l_count},
                                   {NULL, NULL}};

void open_measure(lua_State *L) {
  luaL_newmetatable(L, REGION);
  luaL_newlib(L, METHODS);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, l_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pop(L, 1);
  /* The module holds create and the same functions as the methods: measure.porosity(m). */
  luaL_newlib(L, METHODS);
  lua_pushcfunction(L, l_create);
  lua_setfield(L, -2, "create");
  lua_setglobal(L, "measure");
}
