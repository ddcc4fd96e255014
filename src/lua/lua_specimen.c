/* Script module 'specimen': packings of non-overlapping balls in a region with a size
   distribution and a target porosity or count (specimen.generate), and regular lattices
   (specimen.lattice). The work is in src/world/specimen.c; this file checks and converts. */
#include <string.h>

#include "lua/lua_api.h"
#include "world/specimen.h"

static const char *const GEN_OPTS[] = {
    "shape", "min",   "max",       "centre",  "radius", "height", "size",  "porosity", "count",
    "seed",  "tries", "max_count", "density", "damp",   "group",  "clump", NULL};
static const char *const SIZE_OPTS[] = {"kind",     "rmin",    "rmax", "mean", "std",
                                        "diameter", "passing", "by",   NULL};
static const char *const LAT_OPTS[] = {"kind",    "rad",  "spacing", "n", "origin",
                                       "density", "damp", "group",   NULL};

/* A required number field; raises naming fn and what the field means. */
static double need_number(lua_State *L, int idx, const char *key, const char *fn,
                          const char *meaning) {
  lua_getfield(L, idx, key);
  int nil = lua_isnil(L, -1);
  lua_pop(L, 1);
  if (nil) lua_raisef(L, "%s: give %s, %s", fn, key, meaning);
  return opt_number(L, idx, key, 0, fn);
}

/* A whole number >= lo from an options field (absent: def). */
static double opt_whole(lua_State *L, int idx, const char *key, double def, double lo,
                        const char *fn) {
  double v = opt_number(L, idx, key, def, fn);
  if (!(v >= lo && v == floor(v) && v < 9.007199254740992e15))
    lua_raisef(L, "%s: %s must be a whole number >= %g (got %g)", fn, key, lo, v);
  return v;
}

/* Read an array of numbers (at most max) from field key of the table at idx. */
static int get_numbers(lua_State *L, int idx, const char *key, double *out, int max,
                       const char *fn) {
  lua_getfield(L, idx, key);
  if (!lua_istable(L, -1))
    lua_raisef(L, "%s: %s must be an array of numbers (got %s)", fn, key, luaL_typename(L, -1));
  int n = (int)luaL_len(L, -1);
  if (n > max) lua_raisef(L, "%s: %s has %d entries, at most %d are allowed", fn, key, n, max);
  for (int i = 0; i < n; i++) {
    lua_geti(L, -1, i + 1);
    if (lua_type(L, -1) != LUA_TNUMBER)
      lua_raisef(L, "%s: %s[%d] must be a number (got %s)", fn, key, i + 1, luaL_typename(L, -1));
    out[i] = lua_tonumber(L, -1);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return n;
}

static void get_size(lua_State *L, int idx, spec_size *z) {
  const char *fn = "specimen.generate: size";
  idx = lua_absindex(L, idx);
  if (!lua_istable(L, idx))
    lua_raisef(L,
               "%s must be a table, like {kind = \"uniform\", rmin = 0.01, rmax = 0.02} (got "
               "%s)",
               fn, luaL_typename(L, idx));
  check_opts(L, idx, fn, SIZE_OPTS);
  memset(z, 0, sizeof *z);
  lua_getfield(L, idx, "kind");
  const char *k = lua_tostring(L, -1);
  if (!k) lua_raisef(L, "%s: give kind, one of \"uniform\", \"normal\", \"curve\"", fn);
  if (strcmp(k, "uniform") == 0 || strcmp(k, "normal") == 0) {
    z->kind = k[0] == 'u' ? SIZE_UNIFORM : SIZE_NORMAL;
    z->rmin = need_number(L, idx, "rmin", fn, "the smallest radius");
    z->rmax = need_number(L, idx, "rmax", fn, "the largest radius");
    if (z->kind == SIZE_NORMAL) {
      z->mean = need_number(L, idx, "mean", fn, "the mean radius");
      z->std = need_number(L, idx, "std", fn, "the standard deviation of the radius");
    }
  } else if (strcmp(k, "curve") == 0) {
    z->kind = SIZE_CURVE;
    int nd = get_numbers(L, idx, "diameter", z->diam, SPEC_CURVE_MAX, fn);
    int np = get_numbers(L, idx, "passing", z->frac, SPEC_CURVE_MAX, fn);
    if (nd != np)
      lua_raisef(L, "%s: diameter and passing must have the same length (got %d and %d)", fn, nd,
                 np);
    z->n_pts = nd;
    for (int i = 0; i < np; i++) z->frac[i] /= 100.0; /* percent passing */
    lua_getfield(L, idx, "by");
    const char *by = lua_isnil(L, -1) ? "mass" : luaL_checkstring(L, -1);
    if (strcmp(by, "mass") && strcmp(by, "number"))
      lua_raisef(L, "%s: by must be \"mass\" or \"number\" (got '%s')", fn, by);
    z->by_number = by[0] == 'n';
    lua_pop(L, 1);
  } else {
    lua_raisef(L, "%s: unknown kind '%s'; use \"uniform\", \"normal\" or \"curve\"", fn, k);
  }
  lua_pop(L, 1);
  cairn_diag d;
  cairn_status s = spec_size_check(z, &d);
  if (s) lua_raisef(L, "specimen.generate: %s", d.msg);
}

static void push_result(lua_State *L, const spec_result *r, int with_porosity) {
  lua_createtable(L, 0, 4);
  lua_pushinteger(L, (lua_Integer)r->count);
  lua_setfield(L, -2, "count");
  if (with_porosity) {
    lua_pushnumber(L, r->porosity);
    lua_setfield(L, -2, "porosity");
  }
  lua_pushinteger(L, (lua_Integer)r->first_id);
  lua_setfield(L, -2, "first_id");
  lua_pushinteger(L, (lua_Integer)r->last_id);
  lua_setfield(L, -2, "last_id");
}

static const char *opt_group(lua_State *L, int idx) {
  lua_getfield(L, idx, "group");
  const char *g = lua_isnil(L, -1) ? NULL : luaL_checkstring(L, -1);
  lua_pop(L, 1); /* the string stays alive: the options table holds it */
  return g;
}

static int l_generate(lua_State *L) {
  const char *fn = "specimen.generate";
  cairn_world *w = ctx_world(L);
  check_opts(L, 1, fn, GEN_OPTS);
  spec_gen g;
  memset(&g, 0, sizeof g);
  lua_getfield(L, 1, "shape");
  const char *shape = lua_isnil(L, -1) ? "box" : luaL_checkstring(L, -1);
  lua_pop(L, 1);
  spec_region *r = &g.region;
  if (strcmp(shape, "box") == 0) {
    r->shape = SPEC_BOX;
    lua_getfield(L, 1, "min");
    if (lua_isnil(L, -1)) lua_raisef(L, "%s: a box needs min and max, its corners", fn);
    get_vec(L, -1, w->dim, r->lo, "specimen.generate: min");
    lua_getfield(L, 1, "max");
    if (lua_isnil(L, -1)) lua_raisef(L, "%s: a box needs min and max, its corners", fn);
    get_vec(L, -1, w->dim, r->hi, "specimen.generate: max");
    lua_pop(L, 2);
  } else {
    if (strcmp(shape, "disk") == 0)
      r->shape = SPEC_DISK;
    else if (strcmp(shape, "cylinder") == 0)
      r->shape = SPEC_CYLINDER;
    else if (strcmp(shape, "sphere") == 0)
      r->shape = SPEC_SPHERE;
    else
      lua_raisef(L,
                 "%s: unknown shape '%s'; use \"box\", \"disk\" (2D), \"cylinder\" or "
                 "\"sphere\" (3D)",
                 fn, shape);
    lua_getfield(L, 1, "centre");
    if (lua_isnil(L, -1)) lua_raisef(L, "%s: a %s needs centre and radius", fn, shape);
    get_vec(L, -1, w->dim, r->centre, "specimen.generate: centre");
    lua_pop(L, 1);
    r->radius = need_number(L, 1, "radius", fn, "the region's radius");
    if (r->shape == SPEC_CYLINDER)
      r->height = need_number(L, 1, "height", fn, "the cylinder's height (its axis is z)");
  }
  cairn_diag d;
  cairn_status st = spec_region_check(r, w->dim, &d);
  if (st) lua_raisef(L, "%s: %s", fn, d.msg);
  lua_getfield(L, 1, "size");
  if (lua_isnil(L, -1))
    lua_raisef(L,
               "%s: give size, the size distribution, like {kind = \"uniform\", rmin = 0.01, "
               "rmax = 0.02}",
               fn);
  get_size(L, -1, &g.size);
  lua_pop(L, 1);
  lua_getfield(L, 1, "porosity");
  int has_por = !lua_isnil(L, -1);
  lua_getfield(L, 1, "count");
  int has_count = !lua_isnil(L, -1);
  lua_pop(L, 2);
  if (has_por == has_count)
    lua_raisef(L,
               "%s: give exactly one of porosity (a target in (0, 1)) or count (a number of "
               "balls)%s",
               fn, has_por ? "; got both" : "");
  g.porosity = has_por ? opt_number(L, 1, "porosity", 0, fn) : NAN;
  if (has_por && !(g.porosity > 0 && g.porosity < 1))
    lua_raisef(L, "%s: porosity must be in (0, 1) (got %g)", fn, g.porosity);
  g.count = has_count ? (size_t)opt_whole(L, 1, "count", 0, 1, fn) : 0;
  g.seed = (uint64_t)opt_whole(L, 1, "seed", 1, 0, fn);
  g.tries = (int)fmin(opt_whole(L, 1, "tries", 1000, 1, fn), 1e9);
  g.max_count = (size_t)opt_whole(L, 1, "max_count", 1e7, 1, fn);
  g.density = opt_number(L, 1, "density", 1.0, fn);
  g.damp = opt_number(L, 1, "damp", 0.0, fn);
  if (!(g.density > 0)) lua_raisef(L, "%s: density must be > 0 (got %g)", fn, g.density);
  if (!(g.damp >= 0 && g.damp < 1))
    lua_raisef(L, "%s: damp must be in [0, 1) (got %g)", fn, g.damp);
  g.group = opt_group(L, 1);
  /* clump = TEMPLATE: each ball placed with room for the template's bounding sphere at its
     volume, then replaced by the clump (clump.replace_balls) */
  lua_getfield(L, 1, "clump");
  int clumped = !lua_isnil(L, -1);
  if (clumped) g.inflate = template_inflation(L, w, lua_gettop(L), fn);
  spec_result res;
  st = specimen_generate(w, &g, &res, &d);
  if (st) return raise_diag(L, st, &d);
  push_result(L, &res, 1);
  if (clumped) {
    lua_getglobal(L, "clump");
    lua_getfield(L, -1, "replace_balls");
    lua_createtable(L, 0, 3);
    lua_pushvalue(L, -5); /* the template */
    lua_setfield(L, -2, "template");
    lua_pushinteger(L, (lua_Integer)g.seed);
    lua_setfield(L, -2, "seed");
    lua_createtable(L, (int)res.count, 0); /* the new balls: the last of the store */
    for (size_t i = 0; i < res.count; i++) {
      lua_pushinteger(L, (lua_Integer)w->balls.id[w->balls.n - res.count + i]);
      lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_setfield(L, -2, "ids");
    lua_call(L, 1, 1);
    lua_setfield(L, -3, "clumps"); /* the new clumps' ids, in the result */
    lua_pop(L, 1);
  }
  return 1;
}

static int l_lattice(lua_State *L) {
  const char *fn = "specimen.lattice";
  cairn_world *w = ctx_world(L);
  check_opts(L, 1, fn, LAT_OPTS);
  spec_lattice l;
  memset(&l, 0, sizeof l);
  lua_getfield(L, 1, "kind");
  const char *k = lua_tostring(L, -1);
  if (!k) lua_raisef(L, "%s: give kind: \"square\" or \"hex\" (2D), \"cubic\" or \"fcc\" (3D)", fn);
  static const char *const kinds[] = {"square", "hex", "cubic", "fcc"};
  int ki = -1;
  for (int i = 0; i < 4; i++)
    if (strcmp(k, kinds[i]) == 0) ki = i;
  if (ki < 0)
    lua_raisef(L,
               "%s: unknown kind '%s'; use \"square\" or \"hex\" (2D), \"cubic\" or \"fcc\" "
               "(3D)",
               fn, k);
  lua_pop(L, 1);
  l.kind = (spec_lattice_kind)ki;
  l.rad = need_number(L, 1, "rad", fn, "the balls' radius");
  l.spacing = opt_number(L, 1, "spacing", 2 * l.rad, fn);
  double nn[3] = {1, 1, 1};
  lua_getfield(L, 1, "n");
  if (lua_isnil(L, -1))
    lua_raisef(L, "%s: give n, the number of balls (cells for fcc) per direction, like {10, 10}",
               fn);
  get_vec(L, -1, w->dim, nn, "specimen.lattice: n");
  lua_pop(L, 1);
  for (int i = 0; i < w->dim; i++) {
    if (!(nn[i] >= 1 && nn[i] <= 1e5 && nn[i] == floor(nn[i])))
      lua_raisef(L, "%s: n[%d] must be a whole number from 1 to 100000 (got %g)", fn, i + 1, nn[i]);
    l.n[i] = (int)nn[i];
  }
  lua_getfield(L, 1, "origin");
  if (!lua_isnil(L, -1)) get_vec(L, -1, w->dim, l.origin, "specimen.lattice: origin");
  lua_pop(L, 1);
  l.density = opt_number(L, 1, "density", 1.0, fn);
  l.damp = opt_number(L, 1, "damp", 0.0, fn);
  l.group = opt_group(L, 1);
  spec_result res;
  cairn_diag d;
  cairn_status st = specimen_lattice(w, &l, &res, &d);
  if (st) return raise_diag(L, st, &d);
  push_result(L, &res, 0);
  return 1;
}

void open_specimen(lua_State *L) {
  static const luaL_Reg f[] = {{"generate", l_generate}, {"lattice", l_lattice}, {NULL, NULL}};
  luaL_newlib(L, f);
  lua_setglobal(L, "specimen");
}
