/* Script module 'wall': 2D segments, 3D planes and convex polygons; wall velocity and turning. */
#include <math.h>
#include <string.h>

#include "contact/contact.h"
#include "io/io.h"
#include "lua/lua_api.h"
#include "measure/measure.h"

/* A wall's angular velocity: a number (about z) in 2D, a vector in 3D. */
static void get_spin(lua_State *L, int idx, cairn_world *w, double out[3], const char *what) {
  v3_zero(out);
  if (w->dim == 2)
    out[2] = check_number(L, idx, what);
  else
    get_vec(L, idx, 3, out, what);
}

static void push_spin(lua_State *L, cairn_world *w, const double v[3]) {
  if (w->dim == 2)
    lua_pushnumber(L, v[2]);
  else
    push_vec(L, v, 3);
}

static int l_create(lua_State *L) {
  static const char *const opts[] = {"id",    "kind", "nodes",  "point", "normal", "vel",
                                     "group", "spin", "centre", "axis",  "radius", NULL};
  cairn_world *w = ctx_world(L);
  check_opts(L, 1, "wall.create", opts);
  wall_spec s;
  memset(&s, 0, sizeof s);
  lua_getfield(L, 1, "id");
  if (!lua_isnil(L, -1)) {
    s.id = get_id(L, -1, "wall.create: id");
    if (s.id < 1)
      lua_raisef(L, "wall id must be an integer from 1 to %ld (got %lld)", CAIRN_ID_MAX,
                 (long long)s.id);
  }
  lua_getfield(L, 1, "nodes");
  int has_nodes = !lua_isnil(L, -1);
  lua_getfield(L, 1, "kind");
  const char *kind = luaL_optstring(L, -1,
                                    w->dim == 2 ? "segment"
                                    : has_nodes ? "polygon"
                                                : "plane");
  if (strcmp(kind, "segment") == 0)
    s.kind = WALL_SEGMENT;
  else if (strcmp(kind, "plane") == 0)
    s.kind = WALL_PLANE;
  else if (strcmp(kind, "polygon") == 0 || strcmp(kind, "triangle") == 0)
    s.kind = WALL_POLYGON;
  else if (strcmp(kind, "cylinder") == 0)
    s.kind = WALL_CYLINDER;
  else
    return lua_raisef(L,
                      "wall.create: unknown kind '%s'; use \"segment\" (2D), \"plane\", "
                      "\"polygon\"/\"triangle\" or \"cylinder\" (3D)",
                      kind);
  /* The dimension first: a wall of the other dimension is told so, not that its points have
     the wrong number of components. */
  if (s.kind == WALL_SEGMENT && w->dim == 3)
    lua_raisef(L, "wall.create: line segments are 2D walls; in 3D use kind = \"plane\" or "
                  "\"polygon\"");
  if ((s.kind == WALL_POLYGON || s.kind == WALL_PLANE) && w->dim == 2)
    lua_raisef(L, "wall.create: %ss are 3D walls; in 2D use kind = \"segment\"", kind);
  if (s.kind == WALL_CYLINDER) {
    if (w->dim != 3)
      lua_raisef(L, "wall.create: cylinders are 3D walls; in 2D bound the balls with segments");
    lua_getfield(L, 1, "point");
    lua_getfield(L, 1, "axis");
    lua_getfield(L, 1, "radius");
    if (lua_isnil(L, -1) || lua_isnil(L, -2) || lua_isnil(L, -3))
      lua_raisef(L, "wall.create: a cylinder needs point = {x, y, z} (on its axis), axis = "
                    "{ax, ay, az} and radius = R (the balls inside)");
    get_vec(L, -3, 3, s.point, "wall.create: point");
    get_vec(L, -2, 3, s.normal, "wall.create: axis");
    s.radius = check_number(L, -1, "wall.create: radius");
    lua_pop(L, 3);
  } else if (s.kind != WALL_PLANE) {
    if (!has_nodes) lua_raisef(L, "wall.create: a %s needs nodes = {{x, y...}, ...}", kind);
    luaL_checktype(L, -2, LUA_TTABLE);
    lua_Integer n = luaL_len(L, -2);
    if (n > WALL_MAX_NODES)
      lua_raisef(L, "wall.create: at most %d nodes (got %d)", WALL_MAX_NODES, (int)n);
    s.n_nodes = (int)n;
    for (lua_Integer i = 1; i <= n; i++) {
      lua_geti(L, -2, i);
      char what[64];
      snprintf(what, sizeof what, "wall.create: node %d", (int)i);
      get_vec(L, -1, w->dim, s.nodes[i - 1], what);
      lua_pop(L, 1);
    }
  } else {
    lua_getfield(L, 1, "point");
    if (lua_isnil(L, -1)) lua_raisef(L, "wall.create: a plane needs point = {x, y, z} and normal");
    get_vec(L, -1, 3, s.point, "wall.create: point");
    lua_getfield(L, 1, "normal");
    if (lua_isnil(L, -1))
      lua_raisef(L, "wall.create: a plane needs normal = {nx, ny, nz}, into the domain");
    get_vec(L, -1, 3, s.normal, "wall.create: normal");
  }
  lua_getfield(L, 1, "vel");
  if (!lua_isnil(L, -1)) get_vec(L, -1, w->dim, s.vel, "wall.create: vel");
  lua_getfield(L, 1, "spin");
  if (!lua_isnil(L, -1)) get_spin(L, lua_gettop(L), w, s.spin, "wall.create: spin");
  lua_getfield(L, 1, "centre");
  if (!lua_isnil(L, -1)) {
    get_vec(L, -1, w->dim, s.centre, "wall.create: centre");
    s.has_centre = 1;
  }
  lua_getfield(L, 1, "group");
  s.group = lua_isnil(L, -1) ? NULL : luaL_checkstring(L, -1);
  int64_t id;
  cairn_diag d;
  cairn_status st = wall_create(w, &s, &id, &d);
  if (st) return raise_diag(L, st, &d);
  lua_pushinteger(L, (lua_Integer)id);
  return 1;
}

/* wall.box{min = P, max = P, id = FIRST, group = G}: the walls around a box, facing in: in 3D six
   planes through its faces, in 2D four segments along its edges, in the order -x, +x, -y, +y
   (-z, +z); returns their ids in that order. All or none: a wall that cannot be made removes
   those made before it. */
/* The first id of a set of nw walls made in one call (the option 'id' of the table at 1, or 0:
   the next free ids), every one of the ids checked free. */
static int64_t set_first_id(lua_State *L, cairn_world *w, int nw, const char *fn,
                            const char *what) {
  int64_t first = 0;
  lua_getfield(L, 1, "id");
  if (!lua_isnil(L, -1)) {
    first = get_id(L, -1, fn);
    if (first < 1 || first > CAIRN_ID_MAX - nw + 1)
      lua_raisef(L,
                 "%s: id must be an integer from 1 to %ld (got %lld); the set takes %d ids from it",
                 fn, CAIRN_ID_MAX - nw + 1, (long long)first, nw);
    for (int i = 0; i < nw; i++)
      if (idmap_get(&w->walls.map, (uint64_t)(first + i)) != IDMAP_NONE)
        lua_raisef(L, "%s: wall %lld exists already; the %s takes ids %lld to %lld", fn,
                   (long long)(first + i), what, (long long)first, (long long)(first + nw - 1));
  }
  lua_pop(L, 1);
  return first;
}

/* Make the nw walls of sp (ids from 'first' on, or the next ones; the group of the option
   'group'), all or none, and return their ids as a list. */
static int make_set(lua_State *L, cairn_world *w, wall_spec *sp, int nw, int64_t first) {
  lua_getfield(L, 1, "group");
  const char *group = lua_isnil(L, -1) ? NULL : luaL_checkstring(L, -1);
  int64_t ids[8];
  for (int i = 0; i < nw; i++) {
    sp[i].id = first ? first + i : 0;
    sp[i].group = group;
    cairn_diag d;
    cairn_status st = wall_create(w, &sp[i], &ids[i], &d);
    if (st) {
      for (int j = i - 1; j >= 0; j--) { /* (walls made just now: no contacts yet) */
        uint32_t slot;
        if (wall_slot(w, ids[j], &slot, NULL) == CAIRN_OK) wall_remove(w, slot);
      }
      return raise_diag(L, st, &d);
    }
  }
  lua_createtable(L, nw, 0);
  for (int i = 0; i < nw; i++) {
    lua_pushinteger(L, (lua_Integer)ids[i]);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

static int l_box(lua_State *L) {
  static const char *const opts[] = {"min", "max", "id", "group", NULL};
  cairn_world *w = ctx_world(L);
  check_opts(L, 1, "wall.box", opts);
  const int dim = w->dim, nw = 2 * dim;
  double lo[3], hi[3];
  lua_getfield(L, 1, "min");
  lua_getfield(L, 1, "max");
  if (lua_isnil(L, -1) || lua_isnil(L, -2))
    lua_raisef(L, "wall.box: give min = {x, y%s} and max = {x, y%s}, the box's corners",
               dim == 3 ? ", z" : "", dim == 3 ? ", z" : "");
  get_vec(L, -2, dim, lo, "wall.box: min");
  get_vec(L, -1, dim, hi, "wall.box: max");
  lua_pop(L, 2);
  for (int k = 0; k < dim; k++)
    if (!(lo[k] < hi[k]))
      lua_raisef(L, "wall.box: min must be below max in every component (component %d: %g, %g)",
                 k + 1, lo[k], hi[k]);
  int64_t first = set_first_id(L, w, nw, "wall.box", "box");
  wall_spec sp[6];
  memset(sp, 0, sizeof sp);
  for (int i = 0; i < nw; i++) {
    const int axis = i / 2, upper = i % 2;
    if (dim == 3) { /* the plane of the face, its normal into the box */
      sp[i].kind = WALL_PLANE;
      for (int k = 0; k < 3; k++) sp[i].point[k] = upper ? hi[k] : lo[k];
      sp[i].normal[axis] = upper ? -1.0 : 1.0;
    } else { /* the edge, from corner to corner */
      const int other = 1 - axis;
      sp[i].kind = WALL_SEGMENT;
      sp[i].n_nodes = 2;
      sp[i].nodes[0][axis] = sp[i].nodes[1][axis] = upper ? hi[axis] : lo[axis];
      sp[i].nodes[0][other] = lo[other], sp[i].nodes[1][other] = hi[other];
    }
  }
  return make_set(L, w, sp, nw, first);
}

/* wall.cylinder_specimen{base = P, radius = R, height = H, id = FIRST, group = G} (3D): a
   triaxial cell's walls: the bottom plane through P (its normal up, +z), the top plane at
   P + H z (its normal down) and the cylinder of radius R about the vertical axis through P,
   the balls inside. Returns {bottom, top, cylinder}. */
static int l_cylinder_specimen(lua_State *L) {
  static const char *const opts[] = {"base", "radius", "height", "id", "group", NULL};
  const char *fn = "wall.cylinder_specimen";
  cairn_world *w = ctx_world(L);
  check_opts(L, 1, fn, opts);
  if (w->dim != 3) lua_raisef(L, "%s: a cylinder is 3D; in 2D use wall.box", fn);
  lua_getfield(L, 1, "base");
  if (lua_isnil(L, -1)) lua_raisef(L, "%s: give base = {x, y, z}, the centre of the bottom", fn);
  double p[3];
  get_vec(L, -1, 3, p, "wall.cylinder_specimen: base");
  lua_pop(L, 1);
  double r = opt_number(L, 1, "radius", NAN, fn), h = opt_number(L, 1, "height", NAN, fn);
  if (!(r > 0) || !isfinite(r) || !(h > 0) || !isfinite(h))
    lua_raisef(L, "%s: give radius and height, positive lengths (got %g and %g)", fn, r, h);
  int64_t first = set_first_id(L, w, 3, fn, "cell");
  wall_spec sp[3];
  memset(sp, 0, sizeof sp);
  sp[0].kind = sp[1].kind = WALL_PLANE;
  v3_copy(p, sp[0].point);
  v3_copy(p, sp[1].point);
  sp[1].point[2] += h;
  sp[0].normal[2] = 1, sp[1].normal[2] = -1;
  sp[2].kind = WALL_CYLINDER;
  v3_copy(p, sp[2].point);
  sp[2].normal[2] = 1;
  sp[2].radius = r;
  return make_set(L, w, sp, 3, first);
}

/* wall.mesh{file = PATH, scale = S, rotate = {axis = A, angle = DEG}, translate = T, id = ID,
   group = G, vel = V, spin = W, centre = C}: in 3D a wall of the triangles of an STL file, in 2D
   one of the segments of a polyline file (rotate = DEG about z), each vertex scaled, turned and
   moved in that order. */
static int l_mesh(lua_State *L) {
  static const char *const opts[] = {"file",  "scale", "rotate", "translate", "id",
                                     "group", "vel",   "spin",   "centre",    NULL};
  const char *fn = "wall.mesh";
  cairn_world *w = ctx_world(L);
  const int dim = w->dim;
  check_opts(L, 1, fn, opts);
  lua_getfield(L, 1, "file");
  if (lua_type(L, -1) != LUA_TSTRING)
    lua_raisef(L, "%s: give file, the path of %s", fn,
               dim == 3 ? "an STL file" : "a polyline file (\"x y\" a line)");
  const char *path = lua_tostring(L, -1);
  double scale = opt_number(L, 1, "scale", 1.0, fn), t[3] = {0, 0, 0}, q[4] = {1, 0, 0, 0};
  if (!(scale > 0) || !isfinite(scale))
    lua_raisef(L,
               "%s: scale must be a positive number (got %g); a zero scale would flatten the "
               "mesh to a point",
               fn, scale);
  lua_getfield(L, 1, "translate");
  if (!lua_isnil(L, -1)) get_vec(L, -1, dim, t, "wall.mesh: translate");
  lua_getfield(L, 1, "rotate");
  if (!lua_isnil(L, -1) && dim == 2) { /* degrees about z */
    double ang = check_number(L, -1, "wall.mesh: rotate (degrees about z, in 2D)") * M_PI / 180;
    if (!isfinite(ang)) lua_raisef(L, "%s: rotate needs a finite angle (degrees)", fn);
    double th[3] = {0, 0, ang};
    quat_from_rotvec(th, q);
  } else if (!lua_isnil(L, -1)) {
    int ri = lua_gettop(L);
    static const char *const ropts[] = {"axis", "angle", NULL};
    check_opts(L, ri, "wall.mesh: rotate", ropts);
    lua_getfield(L, ri, "axis");
    double ax[3];
    if (lua_isnil(L, -1))
      lua_raisef(L, "%s: rotate needs axis = {x, y, z} and angle (degrees)", fn);
    get_vec(L, -1, 3, ax, "wall.mesh: rotate.axis");
    double len = v3_norm(ax), ang = opt_number(L, ri, "angle", NAN, fn) * M_PI / 180;
    if (!(len > 0) || !isfinite(len) || !isfinite(ang))
      lua_raisef(L, "%s: rotate needs a non-zero axis and a finite angle (degrees)", fn);
    double th[3];
    v3_scale(ax, ang / len, th);
    quat_from_rotvec(th, q);
  }
  wall_spec s;
  memset(&s, 0, sizeof s);
  s.kind = WALL_MESH;
  lua_getfield(L, 1, "id");
  if (!lua_isnil(L, -1)) s.id = get_id(L, -1, "wall.mesh: id");
  lua_getfield(L, 1, "group");
  s.group = lua_isnil(L, -1) ? NULL : luaL_checkstring(L, -1);
  lua_getfield(L, 1, "vel");
  if (!lua_isnil(L, -1)) get_vec(L, -1, dim, s.vel, "wall.mesh: vel");
  lua_getfield(L, 1, "spin");
  if (!lua_isnil(L, -1)) get_spin(L, -1, w, s.spin, "wall.mesh: spin");
  lua_getfield(L, 1, "centre");
  if (!lua_isnil(L, -1)) {
    get_vec(L, -1, dim, s.centre, "wall.mesh: centre");
    s.has_centre = 1;
  }
  cairn_diag d;
  char what[4200];
  snprintf(what, sizeof what, "'%s'", path);
  cairn_status st;
  if (dim == 2) {
    polyline_segments pl;
    st = io_read_polyline(path, scale, &pl, &d);
    if (st) return raise_diag(L, st, &d);
    for (size_t k = 0; k < pl.n; k++)
      for (int i = 0; i < 2; i++) {
        quat_rotate(q, pl.seg[k][i], pl.seg[k][i]);
        v3_add(pl.seg[k][i], t, pl.seg[k][i]);
        pl.seg[k][i][2] = 0; /* (a turn about z leaves z = 0, to the last bit) */
      }
    st = mesh_build_segments((const double(*)[2][3])pl.seg, pl.n, what, &s.mesh, &d);
    polyline_free(&pl);
  } else {
    stl_mesh m;
    st = io_read_stl(path, scale, &m, &d);
    if (st) return raise_diag(L, st, &d);
    for (size_t k = 0; k < m.n; k++)
      for (int i = 0; i < 3; i++) {
        quat_rotate(q, m.tri[k][i], m.tri[k][i]);
        v3_add(m.tri[k][i], t, m.tri[k][i]);
      }
    st = mesh_build((const double(*)[3][3])m.tri, m.n, what, &s.mesh, &d);
    stl_free(&m);
  }
  if (st) return raise_diag(L, st, &d);
  int64_t id;
  st = wall_create(w, &s, &id, &d); /* (it takes the mesh over) */
  if (st) return raise_diag(L, st, &d);
  lua_pushinteger(L, (lua_Integer)id);
  return 1;
}

/* wall.triangles(ID): a mesh wall's triangle count. */
static int l_triangles(lua_State *L);

static wall *check_wall(lua_State *L, cairn_world *w, int idx) {
  uint32_t s;
  cairn_diag d;
  cairn_status st = wall_slot(w, get_id(L, idx, "wall id"), &s, &d);
  if (st) raise_diag(L, st, &d);
  walls_settle(w); /* (its force and the servo's readings) */
  return &w->walls.w[s];
}

static int l_delete(lua_State *L) {
  cairn_diag d;
  cairn_status st = contact_delete_wall(ctx_world(L), get_id(L, 1, "wall.delete: id"), &d);
  if (st) return raise_diag(L, st, &d);
  return 0;
}

static int l_list(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  lua_createtable(L, (int)w->walls.n, 0);
  for (size_t i = 0; i < w->walls.n; i++) {
    lua_pushinteger(L, (lua_Integer)w->walls.w[i].id);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

static int l_count(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)ctx_world_as_is(L)->walls.n);
  return 1;
}

static int l_vel(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  wall *wl = check_wall(L, w, 1);
  if (lua_gettop(L) >= 2) {
    double v[3];
    get_vec(L, 2, w->dim, v, "wall.vel");
    cairn_diag d;
    cairn_status st = wall_set_velocity(w, wl, v, &d);
    if (st) return raise_diag(L, st, &d);
    return 0;
  }
  push_vec(L, wl->vel, w->dim);
  return 1;
}

static int l_force(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  push_vec(L, check_wall(L, w, 1)->force, w->dim);
  return 1;
}

static int l_nodes(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  wall *wl = check_wall(L, w, 1);
  if (lua_gettop(L) >= 2)
    return lua_raisef(L, "wall.nodes gives a wall's nodes and cannot set them: move a wall with "
                         "wall.move(ID, D) or wall.vel(ID, V); for another shape, delete it and "
                         "create a new one");
  lua_createtable(L, wl->n_nodes, 0);
  for (int i = 0; i < wl->n_nodes; i++) {
    push_vec(L, wl->nodes[i], w->dim);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

/* wall.move(id, D): translate the wall by D at once (nodes and point); walls never rotate. */
static int l_move(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  wall *wl = check_wall(L, w, 1);
  double dx[3];
  get_vec(L, 2, w->dim, dx, "wall.move");
  for (int n = 0; n < wl->n_nodes; n++) v3_add(wl->nodes[n], dx, wl->nodes[n]);
  v3_add(wl->point, dx, wl->point);
  v3_add(wl->centre, dx, wl->centre);
  v3_add(wl->disp, dx, wl->disp); /* counts towards the next neighbour rebuild */
  v3_add(wl->moved, dx, wl->moved);
  world_mark_dirty(w);
  return 0;
}

/* wall.spin(id [, w]): the angular velocity about the wall's centre. */
static int l_spin(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  wall *wl = check_wall(L, w, 1);
  if (lua_gettop(L) >= 2) {
    double v[3];
    get_spin(L, 2, w, v, "wall.spin");
    cairn_diag d;
    cairn_status st = wall_set_spin(w, wl, v, &d);
    if (st) return raise_diag(L, st, &d);
    return 0;
  }
  push_spin(L, w, wl->spin);
  return 1;
}

/* wall.centre(id [, c]): the point the wall turns about (it moves with the wall). */
static int l_centre(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  wall *wl = check_wall(L, w, 1);
  if (lua_gettop(L) >= 2) {
    double c[3];
    get_vec(L, 2, w->dim, c, "wall.centre");
    wall_set_centre(wl, c);
    return 0;
  }
  push_vec(L, wl->centre, w->dim);
  return 1;
}

/* wall.torque(id): moment about the centre of the forces the balls put on the wall. */
static int l_torque(lua_State *L) {
  cairn_world *w = ctx_world(L);
  wall *wl = check_wall(L, w, 1);
  double t[3];
  wall_torque(w, (uint32_t)(wl - w->walls.w), t);
  push_spin(L, w, t);
  return 1;
}

static int l_kind(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  lua_pushstring(L, wall_kind_name(check_wall(L, w, 1)->kind));
  return 1;
}

static int l_point(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  push_vec(L, check_wall(L, w, 1)->point, w->dim);
  return 1;
}

/* A pair of wall ids {A, B} under key, for a servo's area; 0s when absent. */
static void get_pair(lua_State *L, const char *key, int64_t out[2]) {
  out[0] = out[1] = 0;
  lua_getfield(L, 1, key);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return;
  }
  char what[64];
  snprintf(what, sizeof what, "wall.servo: %s", key);
  if (!lua_istable(L, -1) || luaL_len(L, -1) != 2)
    lua_raisef(L, "wall.servo: %s must be two wall ids, {A, B}, the walls the area spans", key);
  for (int i = 0; i < 2; i++) {
    lua_geti(L, -1, i + 1);
    out[i] = get_id(L, -1, what);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

/* The servo's target: a number, or {time = {...}, value = {...}} (piecewise linear). */
/* The wall named by the 'id' of the options table at index 1 of a call FN{id = ID, ...}. */
static wall *id_wall(lua_State *L, cairn_world *w, const char *fn) {
  lua_getfield(L, 1, "id");
  if (lua_isnil(L, -1)) lua_raisef(L, "%s: give id = the wall's id", fn);
  wall *wl = check_wall(L, w, lua_gettop(L));
  lua_pop(L, 1);
  return wl;
}

static void get_target(lua_State *L, int idx, wall_servo *sv, const char *key) {
  char what[64];
  snprintf(what, sizeof what, "wall.servo: %s", key);
  if (!lua_istable(L, idx)) {
    sv->n_points = 1, sv->t[0] = 0, sv->target[0] = check_number(L, idx, what);
    return;
  }
  lua_getfield(L, idx, "time");
  lua_getfield(L, idx, "value");
  if (!lua_istable(L, -1) || !lua_istable(L, -2) || luaL_len(L, -1) != luaL_len(L, -2) ||
      luaL_len(L, -1) < 1 || luaL_len(L, -1) > SERVO_MAX_POINTS)
    lua_raisef(L,
               "wall.servo: %s is a number, or a table {time = {...}, value = {...}} of 1 to %d "
               "points of the same length",
               key, SERVO_MAX_POINTS);
  sv->n_points = (int)luaL_len(L, -1);
  for (int i = 0; i < sv->n_points; i++) {
    lua_geti(L, -2, i + 1);
    sv->t[i] = check_number(L, -1, "wall.servo: a time of the target");
    lua_geti(L, -2, i + 1);
    sv->target[i] = check_number(L, -1, what);
    lua_pop(L, 2);
  }
  lua_pop(L, 2);
}

/* wall.servo{id = ID, stress = S | force = F, vmax = V, alpha = 0.5, area = A | width = {a, b}
   (3D: and depth = {c, d}), axis = {...}} puts a servo on the wall; wall.servo{id = ID,
   off = true} removes it; wall.servo(ID) returns its state (nil without one). */
static int l_servo(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  if (!lua_istable(L, 1)) {
    wall *wl = check_wall(L, w, 1);
    const wall_servo *sv = &wl->servo;
    if (sv->mode == SERVO_OFF) {
      lua_pushnil(L);
      return 1;
    }
    lua_createtable(L, 0, 8);
    lua_pushstring(L, sv->mode == SERVO_STRESS ? "stress" : "force");
    lua_setfield(L, -2, "mode");
    lua_pushnumber(L, servo_target(sv, w->time));
    lua_setfield(L, -2, "target");
    lua_pushnumber(L, servo_normal_force(wl));
    lua_setfield(L, -2, "force");
    if (sv->mode == SERVO_STRESS) {
      double a;
      cairn_diag d;
      cairn_status st = servo_area(w, wl, &a, &d);
      if (st) return raise_diag(L, st, &d);
      lua_pushnumber(L, a);
      lua_setfield(L, -2, "area");
      lua_pushnumber(L, servo_normal_force(wl) / a);
      lua_setfield(L, -2, "stress");
    }
    lua_pushnumber(L, sv->vmax);
    lua_setfield(L, -2, "vmax");
    lua_pushnumber(L, sv->alpha);
    lua_setfield(L, -2, "alpha");
    push_vec(L, sv->axis, w->dim);
    lua_setfield(L, -2, "axis");
    lua_pushboolean(L, sv->saturated > 0);
    lua_setfield(L, -2, "at_vmax");
    return 1;
  }
  static const char *const opts[] = {"id",    "stress", "force", "vmax", "alpha", "area",
                                     "width", "depth",  "axis",  "off",  NULL};
  check_opts(L, 1, "wall.servo", opts);
  wall *wl = id_wall(L, w, "wall.servo");
  wall_servo sv;
  memset(&sv, 0, sizeof sv);
  cairn_diag d;
  lua_getfield(L, 1, "off");
  int off = lua_toboolean(L, -1);
  lua_pop(L, 1);
  if (off) {
    cairn_status st = servo_set(w, wl, &sv, &d);
    if (st) return raise_diag(L, st, &d);
    return 0;
  }
  lua_getfield(L, 1, "stress");
  lua_getfield(L, 1, "force");
  if (lua_isnil(L, -1) == lua_isnil(L, -2))
    lua_raisef(L, "wall.servo: give one of stress = S (with its area) or force = F");
  if (!lua_isnil(L, -2)) {
    sv.mode = SERVO_STRESS;
    get_target(L, lua_gettop(L) - 1, &sv, "stress");
  } else {
    sv.mode = SERVO_FORCE;
    get_target(L, lua_gettop(L), &sv, "force");
  }
  lua_pop(L, 2);
  lua_getfield(L, 1, "vmax");
  if (lua_isnil(L, -1))
    lua_raisef(L, "wall.servo: give vmax, the most speed the wall may move at (m/s)");
  sv.vmax = check_number(L, -1, "wall.servo: vmax");
  lua_pop(L, 1);
  sv.alpha = opt_number(L, 1, "alpha", 0.5, "wall.servo");
  sv.area = opt_number(L, 1, "area", 0.0, "wall.servo");
  lua_getfield(L, 1, "area");
  if (!lua_isnil(L, -1) && !(sv.area > 0))
    lua_raisef(L, "wall.servo: area must be > 0 (got %g)", sv.area);
  lua_pop(L, 1);
  get_pair(L, "width", sv.width);
  get_pair(L, "depth", sv.depth);
  lua_getfield(L, 1, "axis");
  if (!lua_isnil(L, -1)) {
    get_vec(L, -1, w->dim, sv.axis, "wall.servo: axis");
  } else if (wl->kind == WALL_PLANE || wl->kind == WALL_CYLINDER) {
    v3_copy(wl->normal, sv.axis); /* a plane's: into the domain (a cylinder moves radially) */
  } else { /* across the wall, on the side of the balls' centroid (of every rank's balls) */
    ctx_world(L);
    if (w->balls.n == 0)
      lua_raisef(L,
                 "wall.servo: wall %lld is two-sided and there are no balls to find its side "
                 "from; give axis, the direction from the wall towards the balls",
                 (long long)wl->id);
    double c[3] = {0, 0, 0}, p[3], n[3], r[3];
    for (size_t i = 0; i < w->balls.n; i++) v3_add(c, w->balls.pos[i], c);
    v3_scale(c, 1.0 / (double)w->balls.n, c);
    wall_plane(wl, p, n);
    v3_sub(c, p, r);
    v3_scale(n, v3_dot(r, n) < 0 ? -1.0 : 1.0, sv.axis);
  }
  lua_pop(L, 1);
  cairn_status st = servo_set(w, wl, &sv, &d);
  if (st) return raise_diag(L, st, &d);
  return 0;
}

/* wall.motion{id = ID, time = {...}, vel = {V, ...}, spin = {W, ...}}: velocities and spins
   against time; wall.motion{id = ID} removes the table; wall.motion(ID) gives it (or nil). */
static void push_points(lua_State *L, cairn_world *w, const double (*v)[3], int n, int spin) {
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; i++) {
    if (spin)
      push_spin(L, w, v[i]);
    else
      push_vec(L, v[i], w->dim);
    lua_rawseti(L, -2, i + 1);
  }
}

static int get_points(lua_State *L, cairn_world *w, const char *key, double (*out)[3], int n) {
  lua_getfield(L, 1, key);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return 0;
  }
  if (!lua_istable(L, -1) || (int)lua_rawlen(L, -1) != n)
    lua_raisef(L, "wall.motion: %s must be a list of %d values, one for each time", key, n);
  for (int i = 0; i < n; i++) {
    char what[48];
    snprintf(what, sizeof what, "wall.motion: %s[%d]", key, i + 1);
    lua_rawgeti(L, -1, i + 1);
    if (key[0] == 's')
      get_spin(L, lua_gettop(L), w, out[i], what);
    else
      get_vec(L, lua_gettop(L), w->dim, out[i], what);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return 1;
}

static int l_motion(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  if (!lua_istable(L, 1)) {
    const wall_motion *m = &check_wall(L, w, 1)->motion;
    if (!m->n_points) {
      lua_pushnil(L);
      return 1;
    }
    lua_createtable(L, 0, 3);
    lua_createtable(L, m->n_points, 0);
    for (int i = 0; i < m->n_points; i++) {
      lua_pushnumber(L, m->t[i]);
      lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "time");
    if (m->has_vel) {
      push_points(L, w, (const double(*)[3])m->vel, m->n_points, 0);
      lua_setfield(L, -2, "vel");
    }
    if (m->has_spin) {
      push_points(L, w, (const double(*)[3])m->spin, m->n_points, 1);
      lua_setfield(L, -2, "spin");
    }
    return 1;
  }
  static const char *const opts[] = {"id", "time", "vel", "spin", NULL};
  check_opts(L, 1, "wall.motion", opts);
  wall *wl = id_wall(L, w, "wall.motion");
  wall_motion m;
  memset(&m, 0, sizeof m);
  lua_getfield(L, 1, "time");
  if (!lua_isnil(L, -1)) {
    if (!lua_istable(L, -1) || lua_rawlen(L, -1) < 1 || lua_rawlen(L, -1) > WALL_MOTION_MAX_POINTS)
      lua_raisef(L, "wall.motion: time must be a list of 1 to %d model times",
                 WALL_MOTION_MAX_POINTS);
    m.n_points = (int)lua_rawlen(L, -1);
    for (int i = 0; i < m.n_points; i++) {
      lua_rawgeti(L, -1, i + 1);
      m.t[i] = check_number(L, -1, "wall.motion: time");
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  if (m.n_points) {
    m.has_vel = (uint8_t)get_points(L, w, "vel", m.vel, m.n_points);
    m.has_spin = (uint8_t)get_points(L, w, "spin", m.spin, m.n_points);
  } else {
    lua_getfield(L, 1, "vel");
    lua_getfield(L, 1, "spin");
    if (!lua_isnil(L, -1) || !lua_isnil(L, -2))
      lua_raisef(L, "wall.motion: give the times of the velocities or spins (time = {...})");
    lua_pop(L, 2);
  }
  cairn_diag d;
  cairn_status st = wall_set_motion(w, wl, &m, w->time, &d);
  if (st) return raise_diag(L, st, &d);
  return 0;
}

/* wall.stress(id [, area]): the normal force of the balls on the wall over an area: the servo's
   (now) unless given. */
static int l_stress(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  wall *wl = check_wall(L, w, 1);
  if (lua_gettop(L) >= 2) {
    double a = check_number(L, 2, "wall.stress: area");
    if (!(isfinite(a) && a > 0))
      lua_raisef(L, "wall.stress: area must be a finite number > 0 (got %g)", a);
    double n[3];
    if (wl->kind == WALL_CYLINDER) {
      lua_pushnumber(L, fabs(wl->fn_sum) / a);
      return 1;
    }
    if (wl->servo.mode != SERVO_OFF) {
      v3_copy(wl->servo.axis, n);
    } else {
      double p[3];
      wall_plane(wl, p, n);
    }
    lua_pushnumber(L, fabs(v3_dot(wl->force, n)) / a);
    return 1;
  }
  if (wl->servo.mode != SERVO_STRESS)
    lua_raisef(L,
               "wall.stress: wall %lld has no stress servo, so no area: give one, "
               "wall.stress(ID, AREA)",
               (long long)wl->id);
  double a;
  cairn_diag d;
  cairn_status st = servo_area(w, wl, &a, &d);
  if (st) return raise_diag(L, st, &d);
  lua_pushnumber(L, servo_normal_force(wl) / a);
  return 1;
}

/* wall.radius(id [, R]), wall.radial_vel(id [, v]): a cylinder's radius, and the rate it grows. */
static wall *check_cylinder(lua_State *L, cairn_world *w, const char *fn) {
  wall *wl = check_wall(L, w, 1);
  if (wl->kind != WALL_CYLINDER)
    lua_raisef(L, "%s: wall %lld is a %s, not a cylinder", fn, (long long)wl->id,
               wall_kind_name(wl->kind));
  return wl;
}

static int l_radius(lua_State *L) {
  cairn_world *w = ctx_world(L);
  wall *wl = check_cylinder(L, w, "wall.radius");
  if (lua_gettop(L) >= 2) {
    double r = check_number(L, 2, "wall.radius");
    if (!(isfinite(r) && r > 0)) lua_raisef(L, "wall.radius: the radius must be > 0 (got %g)", r);
    wall_set_radius(wl, r);
    world_mark_dirty(w);
    return 0;
  }
  lua_pushnumber(L, wl->radius);
  return 1;
}

static int l_radial_vel(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  wall *wl = check_cylinder(L, w, "wall.radial_vel");
  if (lua_gettop(L) >= 2) {
    double v = check_number(L, 2, "wall.radial_vel");
    if (!isfinite(v)) lua_raisef(L, "wall.radial_vel: the rate must be finite (got %g)", v);
    cairn_diag d;
    cairn_status st = wall_set_radial_velocity(wl, v, &d);
    if (st) return raise_diag(L, st, &d);
    return 0;
  }
  lua_pushnumber(L, wl->radial_vel);
  return 1;
}

/* wall.disp(id): the wall's translation since it was created. */
static int l_disp(lua_State *L) {
  cairn_world *w = ctx_world_as_is(L);
  push_vec(L, check_wall(L, w, 1)->moved, w->dim);
  return 1;
}

static int l_triangles(lua_State *L) {
  cairn_world *w = ctx_world(L);
  wall *wl = check_wall(L, w, 1);
  lua_pushinteger(L, wl->mesh ? (lua_Integer)wl->mesh->nt : 0);
  return 1;
}

/* wall.triangle_forces(ID): the balls' force on each triangle of a mesh wall, in the file's
   order. */
static int l_triangle_forces(lua_State *L) {
  cairn_world *w = detected_world(L);
  wall *wl = check_wall(L, w, 1);
  if (!wl->mesh)
    lua_raisef(L, "wall.triangle_forces: wall %lld is a %s, not a mesh", (long long)wl->id,
               wall_kind_name(wl->kind));
  size_t nt = wl->mesh->nt;
  double(*f)[3] = lua_newuserdatauv(L, nt * sizeof *f, 0);
  cairn_diag d;
  cairn_status st = mesh_triangle_forces(w, (uint32_t)(wl - w->walls.w), f, &d);
  if (st) return raise_diag(L, st, &d);
  lua_createtable(L, (int)nt, 0);
  for (size_t t = 0; t < nt; t++) {
    push_vec(L, f[t], 3);
    lua_rawseti(L, -2, (lua_Integer)t + 1);
  }
  return 1;
}

void open_wall(lua_State *L) {
  static const luaL_Reg f[] = {{"create", l_create},
                               {"box", l_box},
                               {"cylinder_specimen", l_cylinder_specimen},
                               {"mesh", l_mesh},
                               {"triangles", l_triangles},
                               {"triangle_forces", l_triangle_forces},
                               {"delete", l_delete},
                               {"list", l_list},
                               {"count", l_count},
                               {"vel", l_vel},
                               {"force", l_force},
                               {"nodes", l_nodes},
                               {"kind", l_kind},
                               {"point", l_point},
                               {"move", l_move},
                               {"spin", l_spin},
                               {"motion", l_motion},
                               {"centre", l_centre},
                               {"torque", l_torque},
                               {"servo", l_servo},
                               {"stress", l_stress},
                               {"disp", l_disp},
                               {"radius", l_radius},
                               {"radial_vel", l_radial_vel},
                               {NULL, NULL}};
  luaL_newlib(L, f);
  lua_setglobal(L, "wall");
}
