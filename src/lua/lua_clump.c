/* Script module 'clump': templates (pebbles and the mass properties of their union), clumps made
   from them, and each clump's state, fixity and deletion (docs/clumps.md). */
#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"
#include "contact/energy.h"
#include "io/io.h"
#include "lua/lua_api.h"
#include "world/specimen.h"

/* The default resolution of the mass properties: cells of 1/512 (3D) or 1/20000 (2D) of the
   pebbles' extent, whose error is reported with the template. */
#define TEMPLATE_REL_3D (1.0 / 512)
#define TEMPLATE_REL_2D (1.0 / 20000)

/* The template's bounding radius about its centroid, and the radius of a ball of its volume. */
static void template_radii(const cairn_world *w, uint32_t ti, double *bound, double *equiv) {
  const clump_template *t = &w->clumps.tmpl_v[ti];
  double rb = 0;
  for (int k = 0; k < t->n; k++) {
    double e[3];
    v3_sub(t->peb[k], t->centre, e);
    if (w->dim == 2) e[2] = 0;
    rb = fmax(rb, v3_norm(e) + t->peb[k][3]);
  }
  *bound = rb;
  *equiv = w->dim == 2 ? sqrt(t->volume / M_PI) : cbrt(3 * t->volume / (4 * M_PI));
}

/* Push template t's description: a table that clump.create takes as its template. */
static void push_template(lua_State *L, const cairn_world *w, uint32_t index) {
  const clump_template *t = &w->clumps.tmpl_v[index];
  lua_createtable(L, 0, 9);
  lua_pushstring(L, t->name);
  lua_setfield(L, -2, "name");
  lua_pushinteger(L, t->n);
  lua_setfield(L, -2, "pebbles");
  lua_pushnumber(L, t->volume);
  lua_setfield(L, -2, w->dim == 2 ? "area" : "volume");
  lua_pushnumber(L, t->vol_err);
  lua_setfield(L, -2, w->dim == 2 ? "area_error" : "volume_error");
  push_vec(L, t->centre, w->dim);
  lua_setfield(L, -2, "centroid");
  if (w->dim == 2) {
    lua_pushnumber(L, t->inertia[2]);
  } else {
    push_vec(L, t->inertia, 3);
  }
  lua_setfield(L, -2, "inertia");
  lua_pushnumber(L, t->inertia_err);
  lua_setfield(L, -2, "inertia_error");
  lua_pushnumber(L, t->centre_err);
  lua_setfield(L, -2, "centroid_error");
  double rb, re;
  template_radii(w, index, &rb, &re);
  lua_pushnumber(L, rb);
  lua_setfield(L, -2, "bounding_radius");
  lua_pushnumber(L, re);
  lua_setfield(L, -2, "equivalent_radius");
  if (w->dim == 3) {
    lua_createtable(L, 3, 0);
    for (int i = 0; i < 3; i++) {
      push_vec(L, t->axes[i], 3);
      lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "axes");
  } else {
    lua_pushnumber(L, atan2(t->axes[0][1], t->axes[0][0]));
    lua_setfield(L, -2, "axis_angle");
  }
}

static int find_template(const cairn_world *w, const char *name) {
  for (size_t k = w->clumps.n_tmpl; k-- > 0;)
    if (strcmp(w->clumps.tmpl_v[k].name, name) == 0) return (int)k;
  return -1;
}

static const char *const TEMPLATE_OPTS[] = {"name", "pebbles", "file", "resolution", "mass", NULL};

/* The pebbles of a text file, one a line: x y (z) radius, separated by blanks or commas; '#'
   starts a comment. Pushes a userdata of rows; returns their count. */
static lua_Integer read_pebble_file(lua_State *L, cairn_world *w, const char *path,
                                    double (**out)[4]) {
  FILE *f = fopen(path, "r");
  if (!f) lua_raisef(L, "clump.template: cannot read the pebble file '%s'", path);
  size_t cap = 64, n = 0;
  double(*peb)[4] = mem_realloc(NULL, 0, cap * sizeof *peb, "clump:pebble_file");
  char line[1024];
  long ln = 0;
  const char *bad = NULL;
  while (!bad && peb && fgets(line, sizeof line, f)) {
    ln++;
    double v[4];
    int k = io_text_numbers(line, v, 4);
    if (k == IO_TEXT_TOO_MANY) bad = "has more numbers than a pebble";
    if (k == IO_TEXT_NOT_A_NUMBER) bad = "holds something that is not a number";
    if (bad || k == 0) continue;
    if (k != w->dim + 1) {
      bad = w->dim == 3 ? "is not x y z radius" : "is not x y radius";
      break;
    }
    if (n == cap) {
      double(*grown)[4] =
          mem_realloc(peb, cap * sizeof *peb, 2 * cap * sizeof *peb, "clump:pebble_file");
      if (!grown) {
        mem_free(peb, 0);
        peb = NULL;
        break;
      }
      peb = grown, cap *= 2;
    }
    peb[n][0] = v[0], peb[n][1] = v[1], peb[n][2] = w->dim == 3 ? v[2] : 0.0;
    peb[n][3] = v[w->dim];
    n++;
  }
  fclose(f);
  if (!peb) lua_raisef(L, "clump.template: out of memory reading '%s'", path);
  double(*rows)[4] = lua_newuserdatauv(L, (n ? n : 1) * sizeof *rows, 0);
  memcpy(rows, peb, n * sizeof *rows);
  mem_free(peb, 0);
  if (bad) lua_raisef(L, "clump.template: '%s' line %ld %s", path, ln, bad);
  *out = rows;
  return (lua_Integer)n;
}

/* mass = {volume = V, centroid = C, inertia = I}: the union's mass properties per unit density
   as the user gives them (PFC allows it): I the inertia tensor about the centroid, 3D as rows
   {{Ixx, Ixy, Ixz}, ...} (Ixy = -int x y), 2D the polar moment. */
static void given_mass(lua_State *L, cairn_world *w, int idx, clump_template *t) {
  const char *fn = "clump.template: mass";
  static const char *const opts[] = {"volume", "centroid", "inertia", NULL};
  check_opts(L, idx, fn, opts);
  memset(t, 0, sizeof *t);
  t->volume = opt_number(L, idx, "volume", NAN, fn);
  if (!(t->volume > 0) || !isfinite(t->volume))
    lua_raisef(L, "%s: volume (2D: area) must be a positive number (got %g)", fn, t->volume);
  lua_getfield(L, idx, "centroid");
  if (lua_isnil(L, -1)) lua_raisef(L, "%s: give centroid, in the template's coordinates", fn);
  get_vec(L, -1, w->dim, t->centre, "clump.template: mass.centroid");
  lua_pop(L, 1);
  lua_getfield(L, idx, "inertia");
  double T[3][3] = {{0}};
  if (w->dim == 2) {
    double j = lua_tonumber(L, -1);
    if (lua_type(L, -1) != LUA_TNUMBER || !(j > 0) || !isfinite(j))
      lua_raisef(L, "%s: inertia must be the polar moment about the centroid, a positive number",
                 fn);
    t->inertia[0] = t->inertia[1] = 0.5 * j, t->inertia[2] = j;
    for (int i = 0; i < 3; i++) t->axes[i][i] = 1;
  } else {
    if (!lua_istable(L, -1) || luaL_len(L, -1) != 3)
      lua_raisef(L, "%s: inertia must be the 3 x 3 tensor about the centroid, as three rows", fn);
    for (int i = 0; i < 3; i++) {
      lua_geti(L, -1, i + 1);
      get_vec(L, -1, 3, T[i], "clump.template: mass.inertia");
      lua_pop(L, 1);
    }
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
        if (!isfinite(T[i][j]) || fabs(T[i][j] - T[j][i]) > 1e-9 * (fabs(T[i][j]) + fabs(T[j][i])))
          lua_raisef(L, "%s: inertia must be a finite symmetric tensor", fn);
    clump_principal(T, t->inertia, t->axes);
    if (!(t->inertia[0] > 0) || t->inertia[0] + t->inertia[1] < t->inertia[2] * (1 - 1e-12))
      lua_raisef(L,
                 "%s: inertia's principal moments (%g, %g, %g) are not a body's (each positive, "
                 "none above the sum of the other two)",
                 fn, t->inertia[0], t->inertia[1], t->inertia[2]);
  }
  lua_pop(L, 1);
}

static int l_template(lua_State *L) {
  cairn_world *w = ctx_world(L);
  check_opts(L, 1, "clump.template", TEMPLATE_OPTS);
  lua_getfield(L, 1, "name");
  char name[64];
  if (lua_isnil(L, -1))
    snprintf(name, sizeof name, "template%zu", w->clumps.n_tmpl + 1);
  else
    snprintf(name, sizeof name, "%s", luaL_checkstring(L, -1));
  if (find_template(w, name) >= 0)
    lua_raisef(L, "clump.template: a template named '%s' exists; give another name", name);
  double rel = opt_number(L, 1, "resolution", w->dim == 3 ? TEMPLATE_REL_3D : TEMPLATE_REL_2D,
                          "clump.template");
  if (!(rel >= 1e-5 && rel <= 0.125))
    lua_raisef(L,
               "clump.template: resolution must be from 1e-5 to 0.125 of the pebbles' extent "
               "(got %g)",
               rel);
  clump_template given;
  lua_getfield(L, 1, "mass");
  int has_mass = !lua_isnil(L, -1);
  if (has_mass) {
    if (!lua_istable(L, -1))
      lua_raisef(L, "clump.template: mass must be a table {volume = V, centroid = C, inertia = I}");
    given_mass(L, w, lua_gettop(L), &given);
  }
  lua_pop(L, 1);
  lua_getfield(L, 1, "file");
  lua_getfield(L, 1, "pebbles");
  int from_file = !lua_isnil(L, -2);
  if (from_file == !lua_isnil(L, -1))
    lua_raisef(L,
               "clump.template: give pebbles, a list of {x, y%s, radius}, or file, a file of "
               "them (one of the two)",
               w->dim == 3 ? ", z" : "");
  if (!from_file && !lua_istable(L, -1))
    lua_raisef(L, "clump.template: give pebbles, a list of {x, y%s, radius}",
               w->dim == 3 ? ", z" : "");
  int pt = lua_gettop(L);
  double(*peb)[4];
  lua_Integer n = 0;
  if (from_file) n = read_pebble_file(L, w, luaL_checkstring(L, pt - 1), &peb);
  int per = w->dim + 1;
  if (!from_file) {
    n = luaL_len(L, pt);
    peb = lua_newuserdatauv(L, (size_t)(n > 0 ? n : 1) * sizeof *peb, 0);
  }
  for (lua_Integer i = 1; i <= n && !from_file; i++) {
    lua_geti(L, pt, i);
    if (!lua_istable(L, -1) || luaL_len(L, -1) != per)
      lua_raisef(L, "clump.template: pebble %lld must be {x, y%s, radius} (%d numbers)",
                 (long long)i, w->dim == 3 ? ", z" : "", per);
    double v[4] = {0, 0, 0, 0};
    for (int k = 0; k < per; k++) {
      lua_geti(L, -1, k + 1);
      if (lua_type(L, -1) != LUA_TNUMBER)
        lua_raisef(L, "clump.template: pebble %lld: component %d is not a number", (long long)i,
                   k + 1);
      v[k] = lua_tonumber(L, -1);
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
    peb[i - 1][0] = v[0], peb[i - 1][1] = v[1];
    peb[i - 1][2] = w->dim == 3 ? v[2] : 0.0;
    peb[i - 1][3] = v[w->dim];
  }
  uint32_t index;
  cairn_diag d;
  cairn_status st = clump_template_add(w, name, (const double(*)[4])peb, (int)n, rel,
                                       has_mass ? &given : NULL, &index, &d);
  if (st) return raise_diag(L, st, &d);
  push_template(L, w, index);
  return 1;
}

/* clump.template_from_surface{file = PATH, name = NAME, pebbles = N, min_radius = R,
   resolution = H, overlap = F, scale = S, mass = "surface" | "pebbles"}: a template whose
   pebbles fill the closed surface of an STL file (clump_fill.c), with the solid's own mass
   properties (or the pebbles' union's), and how well the pebbles fit it. */
static int l_template_from_surface(lua_State *L) {
  static const char *const opts[] = {"file",    "name",  "pebbles", "min_radius", "resolution",
                                     "overlap", "scale", "mass",    NULL};
  const char *fn = "clump.template_from_surface";
  cairn_world *w = ctx_world(L);
  check_opts(L, 1, fn, opts);
  if (w->dim != 3)
    lua_raisef(L, "%s: a surface makes a 3D template; in 2D give the pebbles to clump.template",
               fn);
  lua_getfield(L, 1, "file");
  if (lua_type(L, -1) != LUA_TSTRING) lua_raisef(L, "%s: give file, the path of an STL file", fn);
  const char *path = lua_tostring(L, -1);
  char name[64];
  lua_getfield(L, 1, "name");
  if (lua_isnil(L, -1))
    snprintf(name, sizeof name, "template%zu", w->clumps.n_tmpl + 1);
  else
    snprintf(name, sizeof name, "%s", luaL_checkstring(L, -1));
  if (find_template(w, name) >= 0)
    lua_raisef(L, "%s: a template named '%s' exists; give another name", fn, name);
  clump_fill_opts fo;
  fo.max_pebbles = (int)opt_number(L, 1, "pebbles", 50, fn);
  fo.resolution = opt_number(L, 1, "resolution", 1.0 / 64, fn);
  fo.overlap = opt_number(L, 1, "overlap", 0.5, fn);
  double scale = opt_number(L, 1, "scale", 1.0, fn);
  if (!(fo.max_pebbles >= 1 && fo.max_pebbles <= 10000))
    lua_raisef(L, "%s: pebbles must be from 1 to 10000 (got %d)", fn, fo.max_pebbles);
  if (!(fo.resolution >= 1.0 / 512 && fo.resolution <= 0.25))
    lua_raisef(L, "%s: resolution must be from 1/512 to 0.25 of the surface's extent (got %g)", fn,
               fo.resolution);
  if (!(fo.overlap >= 0 && fo.overlap < 1))
    lua_raisef(L, "%s: overlap must be in [0, 1) (got %g)", fn, fo.overlap);
  lua_getfield(L, 1, "mass");
  const char *mass = lua_isnil(L, -1) ? "surface" : luaL_checkstring(L, -1);
  if (strcmp(mass, "surface") != 0 && strcmp(mass, "pebbles") != 0)
    lua_raisef(L, "%s: mass must be \"surface\" or \"pebbles\" (got '%s')", fn, mass);
  stl_mesh m;
  cairn_diag d;
  cairn_status st = io_read_stl(path, scale, &m, &d);
  if (st) return raise_diag(L, st, &d);
  char what[4200];
  snprintf(what, sizeof what, "'%s'", path);
  wall_mesh *mesh = NULL; /* (its checks: a surface, closed and oriented) */
  st = mesh_build((const double(*)[3][3])m.tri, m.n, what, &mesh, &d);
  if (!st) st = mesh_check_closed(mesh, what, &d);
  mesh_free(mesh);
  if (st) {
    stl_free(&m);
    return raise_diag(L, st, &d);
  }
  clump_template surf;
  memset(&surf, 0, sizeof surf);
  clump_surface_properties((const double(*)[3][3])m.tri, m.n, &surf);
  double lo = INFINITY, hi = -INFINITY;
  for (size_t k = 0; k < m.n; k++)
    for (int i = 0; i < 3; i++)
      for (int a = 0; a < 3; a++) lo = fmin(lo, m.tri[k][i][a]), hi = fmax(hi, m.tri[k][i][a]);
  fo.min_radius = opt_number(L, 1, "min_radius", 0.02 * (hi - lo), fn);
  if (!(fo.min_radius >= 0) || !isfinite(fo.min_radius))
    lua_raisef(L, "%s: min_radius must be a length >= 0 (got %g)", fn, fo.min_radius);
  double(*peb)[4] = NULL;
  int np = 0;
  clump_fill_report rep;
  st = clump_fill((const double(*)[3][3])m.tri, m.n, &fo, &peb, &np, &rep, &d);
  stl_free(&m);
  if (st) return raise_diag(L, st, &d);
  clump_template uni;
  memset(&uni, 0, sizeof uni);
  st = clump_mass_properties(3, (const double(*)[4])peb, np, 1.0 / 512, &uni, &d);
  uint32_t index = 0;
  if (!st)
    st = clump_template_add(w, name, (const double(*)[4])peb, np, 0,
                            strcmp(mass, "surface") == 0 ? &surf : &uni, &index, &d);
  mem_free(peb, 0);
  if (st) return raise_diag(L, st, &d);
  push_template(L, w, index);
  lua_pushnumber(L, surf.volume);
  lua_setfield(L, -2, "surface_volume");
  lua_pushnumber(L, uni.volume);
  lua_setfield(L, -2, "pebble_volume");
  lua_pushnumber(L, rep.surface_max);
  lua_setfield(L, -2, "surface_distance_max");
  lua_pushnumber(L, rep.surface_mean);
  lua_setfield(L, -2, "surface_distance_mean");
  lua_pushnumber(L, rep.voxel);
  lua_setfield(L, -2, "voxel");
  return 1;
}

static uint32_t check_clump(lua_State *L, cairn_world *w, int idx) {
  int64_t id = get_id(L, idx, "clump id");
  uint32_t s;
  cairn_diag d;
  cairn_status st = clump_slot(w, id, &s, &d);
  if (st) raise_diag(L, st, &d);
  return s;
}

static const char *const CREATE_OPTS[] = {"template", "pos",     "orientation", "vel",
                                          "spin",     "density", "damp",        "id",
                                          "group",    "scale",   "seed",        NULL};

/* The template named by the value at idx (a name, or clump.template's table). */
static uint32_t template_arg(lua_State *L, cairn_world *w, int idx, const char *fn) {
  const char *tn = NULL;
  if (lua_istable(L, idx)) {
    lua_getfield(L, idx, "name");
    tn = lua_tostring(L, -1);
    lua_pop(L, 1);
  } else if (lua_type(L, idx) == LUA_TSTRING) {
    tn = lua_tostring(L, idx);
  }
  if (!tn) lua_raisef(L, "%s: give template, a template's name or clump.template's table", fn);
  int ti = find_template(w, tn);
  if (ti < 0) lua_raisef(L, "%s: no template named '%s'; make it with clump.template", fn, tn);
  return (uint32_t)ti;
}

double template_inflation(lua_State *L, cairn_world *w, int idx, const char *fn) {
  double rb, re;
  template_radii(w, template_arg(L, w, idx, fn), &rb, &re);
  return rb / re;
}

/* A pseudo-random stream (splitmix64) for orientations: the same seed, the same orientations. */
static double next_unit(uint64_t *x) {
  return (double)(spec_splitmix64(x) >> 11) * 0x1p-53;
}

/* An orientation drawn uniformly over all turns (Shoemake's method; 2D: an angle about z). */
static void random_orientation(int dim, uint64_t *x, double q[4]) {
  if (dim == 2) {
    double a = 2 * M_PI * next_unit(x);
    q[0] = cos(0.5 * a), q[1] = q[2] = 0, q[3] = sin(0.5 * a);
    return;
  }
  double u1 = next_unit(x), u2 = 2 * M_PI * next_unit(x), u3 = 2 * M_PI * next_unit(x);
  double a = sqrt(1 - u1), b = sqrt(u1);
  q[0] = a * sin(u2), q[1] = a * cos(u2), q[2] = b * sin(u3), q[3] = b * cos(u3);
}

static int l_create(lua_State *L) {
  cairn_world *w = ctx_world(L);
  check_opts(L, 1, "clump.create", CREATE_OPTS);
  if (w->cell.on)
    lua_raisef(L, "clump.create: clumps do not work in a periodic cell yet; model them in a "
                  "box of walls");
  clump_spec s;
  memset(&s, 0, sizeof s);
  lua_getfield(L, 1, "template");
  s.tmpl = template_arg(L, w, lua_gettop(L), "clump.create");
  lua_getfield(L, 1, "pos");
  if (lua_isnil(L, -1)) lua_raisef(L, "clump.create: give pos, where the centroid goes");
  get_vec(L, -1, w->dim, s.pos, "clump.create: pos");
  s.orient[0] = 1;
  lua_getfield(L, 1, "orientation");
  if (lua_type(L, -1) == LUA_TSTRING) { /* "random": drawn from 'seed' */
    if (strcmp(lua_tostring(L, -1), "random") != 0)
      lua_raisef(L, "clump.create: orientation must be %s or \"random\" (got '%s')",
                 w->dim == 2 ? "an angle" : "a unit quaternion {w, x, y, z}", lua_tostring(L, -1));
    lua_getfield(L, 1, "seed");
    if (lua_isnil(L, -1))
      lua_raisef(L, "clump.create: a random orientation needs seed, a whole number (give each "
                    "clump its own)");
    uint64_t x =
        (uint64_t)check_whole(L, lua_gettop(L), "clump.create: seed") * 0x2545F4914F6CDD1Du + 1;
    random_orientation(w->dim, &x, s.orient);
  } else if (!lua_isnil(L, -1)) {
    if (w->dim == 2) {
      double a = check_number(L, lua_gettop(L), "clump.create: orientation (an angle)");
      s.orient[0] = cos(0.5 * a), s.orient[3] = sin(0.5 * a);
    } else {
      if (!lua_istable(L, -1) || luaL_len(L, -1) != 4)
        lua_raisef(L, "clump.create: orientation must be a unit quaternion {w, x, y, z}");
      for (int k = 0; k < 4; k++) {
        lua_geti(L, -1, k + 1);
        s.orient[k] = check_number(L, lua_gettop(L), "clump.create: orientation");
        lua_pop(L, 1);
      }
    }
  }
  lua_getfield(L, 1, "vel");
  if (!lua_isnil(L, -1)) get_vec(L, -1, w->dim, s.vel, "clump.create: vel");
  lua_getfield(L, 1, "spin");
  if (lua_type(L, -1) == LUA_TNUMBER && w->dim == 2)
    s.spin[2] = lua_tonumber(L, -1);
  else if (!lua_isnil(L, -1))
    get_vec(L, -1, 3, s.spin, "clump.create: spin");
  s.density = opt_number(L, 1, "density", 1.0, "clump.create");
  s.damp = opt_number(L, 1, "damp", 0.0, "clump.create");
  s.scale = opt_number(L, 1, "scale", 1.0, "clump.create");
  if (!(s.scale > 0) || !isfinite(s.scale))
    lua_raisef(L, "clump.create: scale must be a positive number (got %g)", s.scale);
  lua_getfield(L, 1, "id");
  if (!lua_isnil(L, -1)) {
    s.id = get_id(L, -1, "clump.create: id");
    if (s.id < 1)
      lua_raisef(L, "clump id must be an integer from 1 to %ld (got %lld); choose another id",
                 CAIRN_ID_MAX, (long long)s.id);
  }
  lua_getfield(L, 1, "group");
  s.group = lua_isnil(L, -1) ? NULL : luaL_checkstring(L, -1);
  int64_t id;
  cairn_diag d;
  cairn_status st = clump_create(w, &s, &id, &d);
  if (st) return raise_diag(L, st, &d);
  lua_pushinteger(L, (lua_Integer)id);
  return 1;
}

static int l_list(lua_State *L) {
  cairn_world *w = ctx_world(L);
  const clump_store *cs = &w->clumps;
  lua_createtable(L, (int)cs->n, 0);
  /* in the order of their ids, whatever order they were made or deleted in */
  int64_t *ids = lua_newuserdatauv(L, (cs->n ? cs->n : 1) * sizeof *ids, 0);
  if (cs->n) memcpy(ids, cs->id, cs->n * sizeof *ids); /* (no ids: NULL, not to be copied) */
  for (size_t i = 1; i < cs->n; i++)
    for (size_t j = i; j > 0 && ids[j] < ids[j - 1]; j--) {
      int64_t t = ids[j];
      ids[j] = ids[j - 1], ids[j - 1] = t;
    }
  for (size_t i = 0; i < cs->n; i++) {
    lua_pushinteger(L, (lua_Integer)ids[i]);
    lua_rawseti(L, -3, (lua_Integer)i + 1);
  }
  lua_pop(L, 1);
  return 1;
}

static int l_count(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)ctx_world(L)->clumps.n);
  return 1;
}

static int l_exists(lua_State *L) {
  cairn_world *w = ctx_world(L);
  int64_t id = get_id(L, 1, "clump id");
  lua_pushboolean(L, id >= 1 && id <= CAIRN_ID_MAX &&
                         idmap_get(&w->clumps.map, (uint64_t)id) != IDMAP_NONE);
  return 1;
}

static int l_pos(lua_State *L) {
  cairn_world *w = ctx_world(L);
  push_vec(L, w->clumps.pos[check_clump(L, w, 1)], w->dim);
  return 1;
}

static int l_vel(lua_State *L) {
  cairn_world *w = ctx_world(L);
  uint32_t c = check_clump(L, w, 1);
  if (lua_gettop(L) >= 2) {
    double v[3];
    get_vec(L, 2, w->dim, v, "clump.vel");
    for (int k = 0; k < 3; k++)
      if (!isfinite(v[k])) lua_raisef(L, "clump.vel: components must be finite");
    clump_set_velocity(w, c, v);
    return 0;
  }
  push_vec(L, w->clumps.vel[c], w->dim);
  return 1;
}

static int l_spin(lua_State *L) {
  cairn_world *w = ctx_world(L);
  uint32_t c = check_clump(L, w, 1);
  if (lua_gettop(L) >= 2) {
    double s[3] = {0, 0, 0};
    if (w->dim == 2)
      s[2] = check_number(L, 2, "clump.spin");
    else
      get_vec(L, 2, 3, s, "clump.spin");
    for (int k = 0; k < 3; k++)
      if (!isfinite(s[k])) lua_raisef(L, "clump.spin: components must be finite");
    clump_set_spin(w, c, s);
    return 0;
  }
  push_rot(L, w, w->clumps.spin[c]);
  return 1;
}

static int l_angular_momentum(lua_State *L) {
  cairn_world *w = ctx_world(L);
  push_rot(L, w, w->clumps.amom[check_clump(L, w, 1)]);
  return 1;
}

static int l_orientation(lua_State *L) {
  cairn_world *w = ctx_world(L);
  uint32_t c = check_clump(L, w, 1);
  double q[4];
  clump_orientation(w, c, q);
  if (w->dim == 2) {
    lua_pushnumber(L, 2 * atan2(q[3], q[0]));
    return 1;
  }
  lua_createtable(L, 4, 0);
  for (int k = 0; k < 4; k++) {
    lua_pushnumber(L, q[k]);
    lua_rawseti(L, -2, k + 1);
  }
  return 1;
}

/* The principal axes of clump c in the global frame (3D): rows of the rotation of its body
   frame. */
static int l_axes(lua_State *L) {
  cairn_world *w = ctx_world(L);
  uint32_t c = check_clump(L, w, 1);
  double m[3][3];
  quat_matrix(w->clumps.q[c], m);
  lua_createtable(L, 3, 0);
  for (int i = 0; i < 3; i++) {
    double a[3] = {m[0][i], m[1][i], m[2][i]};
    push_vec(L, a, w->dim);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

static int l_force(lua_State *L) {
  cairn_world *w = ctx_world(L);
  push_vec(L, w->clumps.force[check_clump(L, w, 1)], w->dim);
  return 1;
}

static int l_moment(lua_State *L) {
  cairn_world *w = ctx_world(L);
  push_rot(L, w, w->clumps.moment[check_clump(L, w, 1)]);
  return 1;
}

static int l_mass(lua_State *L) {
  cairn_world *w = ctx_world(L);
  lua_pushnumber(L, w->clumps.mass[check_clump(L, w, 1)]);
  return 1;
}

static int l_inertia(lua_State *L) {
  cairn_world *w = ctx_world(L);
  uint32_t c = check_clump(L, w, 1);
  if (w->dim == 2)
    lua_pushnumber(L, w->clumps.inertia[c][2]);
  else
    push_vec(L, w->clumps.inertia[c], 3);
  return 1;
}

static int l_volume(lua_State *L) {
  cairn_world *w = ctx_world(L);
  uint32_t c = check_clump(L, w, 1);
  double s = w->clumps.scale[c], v = w->clumps.tmpl_v[w->clumps.tmpl[c]].volume * s * s;
  lua_pushnumber(L, w->dim == 3 ? v * s : v);
  return 1;
}

static int l_damp(lua_State *L) {
  cairn_world *w = ctx_world(L);
  uint32_t c = check_clump(L, w, 1);
  if (lua_gettop(L) >= 2) {
    double a = check_number(L, 2, "clump.damp");
    if (!(a >= 0 && a < 1))
      lua_raisef(L, "clump.damp: local damping must be in [0, 1) (got %g)", a);
    w->clumps.damp[c] = a;
    return 0;
  }
  lua_pushnumber(L, w->clumps.damp[c]);
  return 1;
}

/* clump.scale(ID [, S]): the clump's scale (of its template's lengths), read or set. */
static int l_scale(lua_State *L) {
  cairn_world *w = ctx_world(L);
  uint32_t c = check_clump(L, w, 1);
  if (lua_gettop(L) >= 2) {
    cairn_diag d;
    cairn_status st = clump_slots(w, &d);
    if (!st) st = clump_set_scale(w, c, check_number(L, 2, "clump.scale"), &d);
    if (st) return raise_diag(L, st, &d);
    return 0;
  }
  lua_pushnumber(L, w->clumps.scale[c]);
  return 1;
}

/* clump.grow(F): every clump's scale times F (a radius expansion of clumps); all or nothing. */
static int l_grow(lua_State *L) {
  cairn_world *w = ctx_world(L);
  double f = check_number(L, 1, "clump.grow");
  if (!(f > 0) || !isfinite(f)) lua_raisef(L, "clump.grow: the factor must be > 0 (got %g)", f);
  cairn_diag d;
  cairn_status st = clump_slots(w, &d);
  if (st) return raise_diag(L, st, &d);
  for (uint32_t c = 0; c < w->clumps.n; c++) { /* every clump checked first */
    double s = w->clumps.scale[c] * f, m = w->clumps.mass[c] * f * f * (w->dim == 3 ? f : 1);
    if (!(isfinite(s) && s >= 1e-100 && s <= 1e100 && isfinite(m) && m > 0))
      lua_raisef(L, "clump.grow: clump %lld would get scale %g and mass %g; use a factor nearer 1",
                 (long long)w->clumps.id[c], s, m);
  }
  for (uint32_t c = 0; c < w->clumps.n && !st; c++)
    st = clump_set_scale(w, c, w->clumps.scale[c] * f, &d);
  if (st) return raise_diag(L, st, &d);
  return 0;
}

static int l_pebbles(lua_State *L) {
  cairn_world *w = ctx_world(L);
  uint32_t c = check_clump(L, w, 1);
  const clump_store *cs = &w->clumps;
  lua_createtable(L, (int)cs->count[c], 0);
  for (uint32_t k = 0; k < cs->count[c]; k++) {
    lua_pushinteger(L, (lua_Integer)cs->peb_id[cs->first[c] + k]);
    lua_rawseti(L, -2, (lua_Integer)k + 1);
  }
  return 1;
}

/* clump.of(ball id): the id of the clump the ball is a pebble of, or nil. */
static int l_of(lua_State *L) {
  cairn_world *w = ctx_world(L);
  int64_t id = get_id(L, 1, "ball id");
  uint32_t s;
  cairn_diag d;
  cairn_status st = ball_slot(w, id, &s, &d);
  if (st) return raise_diag(L, st, &d);
  if (!(w->balls.fix[s] & FIX_CLUMP)) {
    lua_pushnil(L);
    return 1;
  }
  st = clump_slots(w, &d);
  if (st) return raise_diag(L, st, &d);
  lua_pushinteger(L, (lua_Integer)w->clumps.id[w->clumps.body_of[s]]);
  return 1;
}

static int fix_or_free(lua_State *L, const char *fn, int fix) {
  static const char *const opts[] = {"id", NULL};
  cairn_world *w = ctx_world(L);
  check_opts(L, 1, fn, opts);
  unsigned bits = fix_bits(L, fn);
  lua_getfield(L, 1, "id");
  if (lua_isnil(L, -1)) lua_raisef(L, "%s: give id, the clump's id", fn);
  uint32_t c = check_clump(L, w, lua_gettop(L));
  if (fix) {
    w->clumps.fix[c] |= (uint8_t)bits;
    /* fixed components hold their velocity (as a ball's) */
  } else {
    w->clumps.fix[c] &= (uint8_t)~bits;
  }
  return 0;
}

static int l_fix(lua_State *L) {
  return fix_or_free(L, "clump.fix", 1);
}
static int l_free(lua_State *L) {
  return fix_or_free(L, "clump.free", 0);
}

static int l_delete(lua_State *L) {
  cairn_world *w = ctx_world(L);
  uint32_t c = check_clump(L, w, 1);
  cairn_diag d;
  cairn_status st = clump_slots(w, &d);
  if (!st) st = balls_mark_reserve(w, &d);
  if (st) return raise_diag(L, st, &d);
  clump_store *cs = &w->clumps;
  for (uint32_t p = cs->first[c]; p < cs->first[c] + cs->count[c]; p++)
    w->del_mark[cs->peb_slot[p]] = 1;
  energy_remove_clump(w, c); /* (its pebbles book none of their own) */
  st = contact_delete_marked_balls(w, &d);
  if (st) return raise_diag(L, st, &d);
  clump_remove(w, c);
  return 0;
}

/* clump.replace_balls{template = T, ids = {...} | RANGE, density = RHO, seed = N}: each ball (of
   the selection; all balls that are not pebbles without one) replaced by a clump of the same
   volume (2D: area), its template scaled to it, its centroid at the ball's centre, turned at
   random (seeded), with the ball's velocity, damping, group and density (or RHO). Returns the
   new clump ids in the order of the balls' ids. */
static int l_replace_balls(lua_State *L) {
  static const char *const opts[] = {"template", "ids", "density", "seed", RANGE_OPTS, NULL};
  const char *fn = "clump.replace_balls";
  cairn_world *w = ctx_world(L);
  check_opts(L, 1, fn, opts);
  if (w->cell.on)
    lua_raisef(L, "%s: clumps do not work in a periodic cell yet; model them in a box of walls",
               fn);
  lua_getfield(L, 1, "template");
  uint32_t ti = template_arg(L, w, lua_gettop(L), fn);
  lua_pop(L, 1);
  lua_getfield(L, 1, "density");
  int has_rho = !lua_isnil(L, -1);
  lua_pop(L, 1);
  double rho = opt_number(L, 1, "density", 1, fn);
  if (has_rho && !(rho > 0 && isfinite(rho)))
    lua_raisef(L, "%s: density must be > 0 (got %g)", fn, rho);
  double seed = opt_number(L, 1, "seed", 1, fn);
  ball_range r;
  int ranged = range_read(L, 1, fn, &r);
  lua_getfield(L, 1, "ids");
  int has_ids = !lua_isnil(L, -1);
  if (has_ids && ranged) lua_raisef(L, "%s: give ids or a range, not both", fn);
  /* the balls' ids, each checked before anything changes */
  size_t cap = has_ids ? (size_t)luaL_len(L, -1) : w->balls.n;
  int64_t *ids = lua_newuserdatauv(L, (cap ? cap : 1) * sizeof *ids, 0);
  size_t n = 0;
  if (has_ids) {
    for (size_t i = 1; i <= cap; i++) {
      lua_geti(L, -2, (lua_Integer)i);
      int64_t id = get_id(L, -1, "clump.replace_balls: ids");
      lua_pop(L, 1);
      uint32_t s;
      cairn_diag d;
      cairn_status st = ball_slot(w, id, &s, &d);
      if (st) return raise_diag(L, st, &d);
      refuse_pebble(L, w, s, fn);
      ids[n++] = id;
    }
  } else {
    for (size_t i = 0; i < w->balls.n; i++)
      if (!(w->balls.fix[i] & FIX_CLUMP) && (!ranged || range_holds(w, &r, (uint32_t)i)))
        ids[n++] = w->balls.id[i];
  }
  for (size_t i = 1; i < n; i++) /* in the order of their ids */
    for (size_t j = i; j > 0 && ids[j] < ids[j - 1]; j--) {
      int64_t t = ids[j];
      ids[j] = ids[j - 1], ids[j - 1] = t;
    }
  for (size_t i = 1; i < n; i++)
    if (ids[i] == ids[i - 1]) lua_raisef(L, "%s: ball %lld is given twice", fn, (long long)ids[i]);
  double tvol = w->clumps.tmpl_v[ti].volume;
  uint64_t x = (uint64_t)(int64_t)seed * 0x2545F4914F6CDD1Du + 1;
  lua_createtable(L, (int)n, 0);
  int out = lua_gettop(L);
  for (size_t i = 0; i < n; i++) {
    const ball_store *b = &w->balls;
    uint32_t s = idmap_get(&b->map, (uint64_t)ids[i]);
    double rad = b->rad[s];
    double vol = w->dim == 2 ? M_PI * rad * rad : 4.0 / 3.0 * M_PI * rad * rad * rad;
    clump_spec sp;
    memset(&sp, 0, sizeof sp);
    sp.tmpl = ti;
    sp.scale = w->dim == 2 ? sqrt(vol / tvol) : cbrt(vol / tvol);
    v3_copy(b->pos[s], sp.pos);
    v3_copy(b->vel[s], sp.vel);
    sp.density = has_rho ? rho : b->density[s];
    sp.damp = b->damp[s];
    sp.group = world_group_name(w, b->group[s]);
    random_orientation(w->dim, &x, sp.orient);
    int64_t cid;
    cairn_diag d;
    cairn_status st = clump_create(w, &sp, &cid, &d);
    if (st) return raise_diag(L, st, &d);
    lua_pushinteger(L, (lua_Integer)cid);
    lua_rawseti(L, out, (lua_Integer)i + 1);
  }
  /* the balls go, with their contacts (all at once) */
  cairn_diag d;
  cairn_status st = balls_mark_reserve(w, &d);
  if (st) return raise_diag(L, st, &d);
  for (size_t i = 0; i < n; i++) w->del_mark[idmap_get(&w->balls.map, (uint64_t)ids[i])] = 1;
  st = contact_delete_marked_balls(w, &d);
  if (st) return raise_diag(L, st, &d);
  return 1;
}

void open_clump(lua_State *L) {
  static const luaL_Reg f[] = {{"template", l_template},
                               {"template_from_surface", l_template_from_surface},
                               {"create", l_create},
                               {"replace_balls", l_replace_balls},
                               {"delete", l_delete},
                               {"list", l_list},
                               {"count", l_count},
                               {"exists", l_exists},
                               {"pos", l_pos},
                               {"vel", l_vel},
                               {"spin", l_spin},
                               {"angular_momentum", l_angular_momentum},
                               {"orientation", l_orientation},
                               {"axes", l_axes},
                               {"force", l_force},
                               {"moment", l_moment},
                               {"mass", l_mass},
                               {"inertia", l_inertia},
                               {"volume", l_volume},
                               {"damp", l_damp},
                               {"pebbles", l_pebbles},
                               {"scale", l_scale},
                               {"grow", l_grow},
                               {"of", l_of},
                               {"fix", l_fix},
                               {"free", l_free},
                               {NULL, NULL}};
  luaL_newlib(L, f);
  lua_setglobal(L, "clump");
}
