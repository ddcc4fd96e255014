/* Walls: 2D line segments, 3D infinite planes, planar convex polygons (triangles included) and
   cylinders. Each may translate with a set velocity, segments and polygons may turn, and a
   cylinder's radius may grow. Creation checks the geometry once, so contact detection can trust
   it. Removing a wall leaves its contacts to the contact layer (contact/cascade.c). */
#include <string.h>

#include "world/world.h"

const char *wall_kind_name(wall_kind k) {
  switch (k) {
  case WALL_SEGMENT:
    return "segment";
  case WALL_PLANE:
    return "plane";
  case WALL_POLYGON:
    return "polygon";
  case WALL_CYLINDER:
    return "cylinder";
  case WALL_MESH:
    return "mesh";
  }
  return "?";
}

/* Whether each component of v lies within WALL_RANGE (NaN does not). */
static int within_range(const double v[3]) {
  return fabs(v[0]) <= WALL_RANGE && fabs(v[1]) <= WALL_RANGE && fabs(v[2]) <= WALL_RANGE;
}

/* The text for a wall's velocity or spin: a 2D spin is one number (about z). */
static void format_vec(const cairn_world *w, const double v[3], int spin, char *buf, size_t n) {
  if (w->dim == 2 && spin)
    snprintf(buf, n, "%g", v[2]);
  else if (w->dim == 2)
    snprintf(buf, n, "(%g, %g)", v[0], v[1]);
  else
    snprintf(buf, n, "(%g, %g, %g)", v[0], v[1], v[2]);
}

/* Refuse a velocity beyond WALL_RANGE in size: a step of any timestep near a second would move
   the wall out of that range. */
static cairn_status check_velocity(const cairn_world *w, int64_t id, const double v[3],
                                   cairn_diag *d) {
  if (within_range(v)) return CAIRN_OK;
  char t[96];
  format_vec(w, v, 0, t, sizeof t);
  return diag_set(d, CAIRN_EINVAL,
                  "wall %lld: velocity %s is beyond %g in size, where a step would move the wall "
                  "out of the range of coordinates its distances can be computed in; give a speed "
                  "of a physical size",
                  (long long)id, t, WALL_RANGE);
}

void wall_store_free(wall_store *ws) {
  for (size_t i = 0; i < ws->n; i++) mesh_free(ws->w[i].mesh);
  mem_free(ws->w, 0);
  idmap_free(&ws->map);
  memset(ws, 0, sizeof *ws);
}

/* Check a polygon: planar, convex, not degenerate; set its plane. Newell's normal follows the
   node order (counter-clockwise seen from the normal's side). */
static cairn_status polygon_plane(wall *wl, cairn_diag *d) {
  int n = wl->n_nodes;
  double nn[3] = {0, 0, 0}, c[3] = {0, 0, 0};
  for (int i = 0; i < n; i++) {
    const double *p = wl->nodes[i], *q = wl->nodes[(i + 1) % n];
    nn[0] += (p[1] - q[1]) * (p[2] + q[2]);
    nn[1] += (p[2] - q[2]) * (p[0] + q[0]);
    nn[2] += (p[0] - q[0]) * (p[1] + q[1]);
    v3_add(c, p, c);
  }
  v3_scale(c, 1.0 / n, c);
  double len = v3_norm(nn), size = 0;
  for (int i = 0; i < n; i++) {
    double e[3];
    v3_sub(wl->nodes[i], c, e);
    if (v3_norm(e) > size) size = v3_norm(e);
  }
  CAIRN_CHECK(size > 0 && len > 1e-12 * size * size, d, CAIRN_EINVAL,
              "wall %lld: polygon has no area (its nodes are collinear or repeated); give at "
              "least 3 distinct, non-collinear nodes",
              (long long)wl->id);
  v3_scale(nn, 1.0 / len, wl->normal);
  v3_copy(c, wl->point);
  for (int i = 0; i < n; i++) {
    double e[3];
    v3_sub(wl->nodes[i], c, e);
    CAIRN_CHECK(fabs(v3_dot(e, wl->normal)) <= 1e-9 * size, d, CAIRN_EINVAL,
                "wall %lld: polygon is not planar (node %d lies %g off its plane); give nodes "
                "in one plane",
                (long long)wl->id, i + 1, v3_dot(e, wl->normal));
    const double *p = wl->nodes[i], *q = wl->nodes[(i + 1) % n], *r = wl->nodes[(i + 2) % n];
    double e1[3], e2[3], x[3];
    v3_sub(q, p, e1);
    v3_sub(r, q, e2);
    v3_cross(e1, e2, x);
    CAIRN_CHECK(v3_dot(x, wl->normal) > 0, d, CAIRN_EINVAL,
                "wall %lld: polygon is not convex or has repeated/collinear nodes (at node %d); "
                "split it into convex polygons or triangles, nodes in order around the edge",
                (long long)wl->id, (i + 1) % n + 1);
  }
  return CAIRN_OK;
}

/* A mesh wall's triangles into their own frame: about the vertices' centroid, which becomes the
   wall's centre and point. */
static void mesh_to_frame(wall *wl, wall_mesh *m) {
  double c[3] = {0, 0, 0}, e[3];
  for (size_t i = 0; i < m->nv; i++) v3_add(c, m->v[i], c);
  v3_scale(c, 1.0 / (double)m->nv, c);
  v3_scale(c, -1.0, e);
  mesh_shift(m, e);
  v3_copy(c, wl->point);
  v3_copy(c, wl->centre);
  wl->orient[0] = 1, wl->orient[1] = wl->orient[2] = wl->orient[3] = 0;
  wall_note_orient(wl);
}

static cairn_status create_checked(cairn_world *w, const wall_spec *s, int64_t *id_out,
                                   cairn_diag *d);

cairn_status wall_create(cairn_world *w, const wall_spec *s, int64_t *id_out, cairn_diag *d) {
  cairn_status st = create_checked(w, s, id_out, d);
  if (st && s->mesh) mesh_free(s->mesh); /* (taken over either way) */
  return st;
}

static cairn_status create_checked(cairn_world *w, const wall_spec *s, int64_t *id_out,
                                   cairn_diag *d) {
  wall_store *ws = &w->walls;
  int64_t id = s->id ? s->id : w->next_wall_id;
  while (!s->id && idmap_get(&ws->map, (uint64_t)id) != IDMAP_NONE) id++;
  CAIRN_CHECK(id >= 1 && id <= CAIRN_ID_MAX, d, CAIRN_EINVAL,
              "wall id must be an integer from 1 to %ld (got %lld)", CAIRN_ID_MAX, (long long)id);
  CAIRN_CHECK(idmap_get(&ws->map, (uint64_t)id) == IDMAP_NONE, d, CAIRN_EINVAL,
              "wall %lld already exists; give each wall a unique id (or leave id out)",
              (long long)id);
  wall wl;
  memset(&wl, 0, sizeof wl);
  wl.id = id;
  wl.kind = s->kind;
  v3_copy(s->vel, wl.vel);
  for (int k = 0; k < 3; k++)
    CAIRN_CHECK(isfinite(s->vel[k]), d, CAIRN_EINVAL, "wall %lld: velocity must be finite",
                (long long)id);
  CAIRN_TRY(check_velocity(w, id, s->vel, d));
  if (w->dim == 2) wl.vel[2] = 0;
  switch (s->kind) {
  case WALL_SEGMENT:
    CAIRN_CHECK(w->dim == 2, d, CAIRN_EINVAL,
                "wall %lld: line segments are 2D walls; in 3D use kind = \"plane\" or "
                "\"polygon\"",
                (long long)id);
    CAIRN_CHECK(s->n_nodes == 2, d, CAIRN_EINVAL,
                "wall %lld: a segment takes exactly 2 nodes (got %d)", (long long)id, s->n_nodes);
    wl.n_nodes = 2;
    for (int i = 0; i < 2; i++) {
      v3_copy(s->nodes[i], wl.nodes[i]);
      wl.nodes[i][2] = 0;
    }
    v3_copy(wl.nodes[0], wl.point); /* a reference point that moves with the wall */
    {
      double e[3];
      v3_sub(wl.nodes[1], wl.nodes[0], e);
      CAIRN_CHECK(v3_norm(e) > 0, d, CAIRN_EINVAL,
                  "wall %lld: segment has zero length (both nodes at (%g, %g)); give two "
                  "distinct nodes",
                  (long long)id, wl.nodes[0][0], wl.nodes[0][1]);
    }
    break;
  case WALL_PLANE: {
    CAIRN_CHECK(w->dim == 3, d, CAIRN_EINVAL,
                "wall %lld: planes are 3D walls; in 2D use kind = \"segment\"", (long long)id);
    double len = v3_norm(s->normal);
    CAIRN_CHECK(isfinite(len) && len > 0, d, CAIRN_EINVAL,
                "wall %lld: plane normal must be a non-zero vector; give the direction into the "
                "domain",
                (long long)id);
    v3_scale(s->normal, 1.0 / len, wl.normal);
    v3_copy(s->point, wl.point);
    break;
  }
  case WALL_CYLINDER: {
    CAIRN_CHECK(w->dim == 3, d, CAIRN_EINVAL,
                "wall %lld: cylinders are 3D walls; in 2D bound the balls with segments",
                (long long)id);
    double len = v3_norm(s->normal);
    CAIRN_CHECK(isfinite(len) && len > 0, d, CAIRN_EINVAL,
                "wall %lld: a cylinder's axis must be a non-zero vector", (long long)id);
    CAIRN_CHECK(isfinite(s->radius) && s->radius > 0, d, CAIRN_EINVAL,
                "wall %lld: a cylinder's radius must be > 0 (got %g)", (long long)id, s->radius);
    for (int k = 0; k < 3; k++)
      CAIRN_CHECK(isfinite(s->point[k]), d, CAIRN_EINVAL,
                  "wall %lld: a cylinder's point must be finite", (long long)id);
    v3_scale(s->normal, 1.0 / len, wl.normal);
    v3_copy(s->point, wl.point);
    wl.radius = s->radius;
    break;
  }
  case WALL_MESH:
    CAIRN_CHECK(s->mesh, d, CAIRN_EINVAL, "wall %lld: a mesh wall needs its mesh", (long long)id);
    CAIRN_CHECK((w->dim == 2) == (s->mesh->segments != 0), d, CAIRN_EINVAL,
                "wall %lld: a mesh of %s is a %dD wall, and this model is %dD", (long long)id,
                s->mesh->segments ? "segments" : "triangles", s->mesh->segments ? 2 : 3, w->dim);
    wl.mesh = s->mesh;
    mesh_to_frame(&wl, s->mesh);
    break;
  case WALL_POLYGON:
    CAIRN_CHECK(w->dim == 3, d, CAIRN_EINVAL,
                "wall %lld: polygons are 3D walls; in 2D use kind = \"segment\"", (long long)id);
    CAIRN_CHECK(s->n_nodes >= 3 && s->n_nodes <= WALL_MAX_NODES, d, CAIRN_EINVAL,
                "wall %lld: a polygon takes 3 to %d nodes (got %d)", (long long)id, WALL_MAX_NODES,
                s->n_nodes);
    wl.n_nodes = s->n_nodes;
    for (int i = 0; i < s->n_nodes; i++) v3_copy(s->nodes[i], wl.nodes[i]);
    CAIRN_TRY(polygon_plane(&wl, d));
    break;
  }
  for (int i = 0; i < wl.n_nodes; i++)
    for (int k = 0; k < 3; k++)
      CAIRN_CHECK(isfinite(wl.nodes[i][k]), d, CAIRN_EINVAL,
                  "wall %lld: node %d has a non-finite coordinate", (long long)id, i + 1);
  if (s->has_centre && wl.kind == WALL_MESH) { /* it turns about the centre given */
    double e[3];
    v3_sub(wl.centre, s->centre, e);
    mesh_shift(wl.mesh, e);
    v3_copy(s->centre, wl.centre);
    v3_copy(s->centre, wl.point);
  } else if (wl.kind == WALL_MESH)
    ; /* (mesh_to_frame set it) */
  else if (s->has_centre)
    v3_copy(s->centre, wl.centre);
  else if (wl.kind == WALL_SEGMENT)
    for (int k = 0; k < 3; k++) wl.centre[k] = 0.5 * (wl.nodes[0][k] + wl.nodes[1][k]);
  else
    v3_copy(wl.point, wl.centre);
  if (w->dim == 2) wl.centre[2] = 0;
  CAIRN_TRY(wall_set_spin(w, &wl, s->spin, d));
  CAIRN_CHECK(!(w->cell.on && wl.kind == WALL_MESH), d, CAIRN_EINVAL,
              "wall %lld: mesh walls do not work in a periodic cell yet", (long long)id);
  CAIRN_TRY(periodic_check_wall(w, &wl, d));
  CAIRN_TRY(world_group_index(w, s->group, &wl.group, d));
  CAIRN_TRY(mem_grow((void **)&ws->w, &ws->cap, ws->n + 1, sizeof *ws->w, "walls", d));
  CAIRN_TRY(idmap_put(&ws->map, (uint64_t)id, (uint32_t)ws->n, d));
  ws->w[ws->n++] = wl;
  if (id >= w->next_wall_id) w->next_wall_id = id + 1;
  world_mark_dirty(w);
  *id_out = id;
  return CAIRN_OK;
}

cairn_status wall_slot(const cairn_world *w, int64_t id, uint32_t *slot, cairn_diag *d) {
  uint32_t s = id >= 1 && id <= CAIRN_ID_MAX ? idmap_get(&w->walls.map, (uint64_t)id) : IDMAP_NONE;
  CAIRN_CHECK(s != IDMAP_NONE, d, CAIRN_ENOTFOUND,
              "wall %lld does not exist; check the id (wall.list() gives all ids)", (long long)id);
  *slot = s;
  return CAIRN_OK;
}

void wall_remove(cairn_world *w, uint32_t s) {
  walls_settle(w); /* (the pass's sums name walls by slot) */
  wall_store *ws = &w->walls;
  uint32_t last = (uint32_t)ws->n - 1;
  mesh_free(ws->w[s].mesh);
  idmap_del(&ws->map, (uint64_t)ws->w[s].id);
  if (s != last) {
    ws->w[s] = ws->w[last];
    idmap_put(&ws->map, (uint64_t)ws->w[s].id, s, NULL);
  }
  ws->n--;
  world_mark_dirty(w);
}

cairn_status wall_set_spin(cairn_world *w, wall *wl, const double spin[3], cairn_diag *d) {
  for (int k = 0; k < 3; k++)
    CAIRN_CHECK(isfinite(spin[k]), d, CAIRN_EINVAL, "wall %lld: spin must be finite",
                (long long)wl->id);
  if (!within_range(spin)) {
    char v[96];
    format_vec(w, spin, 1, v, sizeof v);
    return diag_set(d, CAIRN_EINVAL,
                    "wall %lld: spin %s is beyond %g in size, where the angle of one step "
                    "overflows; give a spin of a physical size",
                    (long long)wl->id, v, WALL_RANGE);
  }
  int turns = spin[0] != 0 || spin[1] != 0 || spin[2] != 0;
  CAIRN_CHECK(!turns || wl->kind != WALL_PLANE, d, CAIRN_EINVAL,
              "wall %lld: an infinite plane cannot turn; build a turning wall from polygons",
              (long long)wl->id);
  CAIRN_CHECK(!turns || wl->kind != WALL_CYLINDER, d, CAIRN_EINVAL,
              "wall %lld: a cylinder does not turn (it changes its radius: wall.radial_vel)",
              (long long)wl->id);
  CAIRN_CHECK(w->dim == 3 || (spin[0] == 0 && spin[1] == 0), d, CAIRN_EINVAL,
              "wall %lld: a 2D wall turns about z only; give the spin as a number",
              (long long)wl->id);
  v3_copy(spin, wl->spin);
  return CAIRN_OK;
}

/* v turned by the angle |th| about the unit axis th / |th| (Rodrigues). */
static void turn_vec(double v[3], const double k[3], double c, double s) {
  double kxv[3], kv = v3_dot(k, v);
  v3_cross(k, v, kxv);
  for (int i = 0; i < 3; i++) v[i] = v[i] * c + kxv[i] * s + k[i] * kv * (1 - c);
}

void wall_turn(wall *wl, const double th[3]) {
  double a = sqrt(v3_dot(th, th));
  if (!(a > 0)) return;
  double k[3] = {th[0] / a, th[1] / a, th[2] / a}, c = cos(a), s = sin(a), rmax = 0;
  for (int n = 0; n < wl->n_nodes; n++) {
    double e[3];
    v3_sub(wl->nodes[n], wl->centre, e);
    double r = sqrt(v3_dot(e, e));
    if (r > rmax) rmax = r;
    turn_vec(e, k, c, s);
    v3_add(wl->centre, e, wl->nodes[n]);
  }
  double e[3];
  v3_sub(wl->point, wl->centre, e);
  turn_vec(e, k, c, s);
  v3_add(wl->centre, e, wl->point);
  turn_vec(wl->normal, k, c, s);
  if (wl->mesh) { /* its frame turns: the vertices stay as they are in it */
    double r[4];
    quat_from_rotvec(th, r);
    quat_mul(r, wl->orient, wl->orient);
    quat_normalise(wl->orient);
    wall_note_orient(wl);
    rmax = wl->mesh->radius;
  }
  wl->rot_disp += a * rmax; /* a chord is shorter than its arc */
}

void wall_plane(const wall *wl, double p[3], double n[3]) {
  if (wl->kind == WALL_SEGMENT) {
    double t[3];
    v3_sub(wl->nodes[1], wl->nodes[0], t);
    double l = sqrt(t[0] * t[0] + t[1] * t[1]);
    n[0] = -t[1] / l, n[1] = t[0] / l, n[2] = 0;
    v3_copy(wl->nodes[0], p);
  } else {
    v3_copy(wl->point, p);
    v3_copy(wl->normal, n);
  }
}

cairn_status wall_set_velocity(const cairn_world *w, wall *wl, const double v[3], cairn_diag *d) {
  CAIRN_TRY(check_velocity(w, wl->id, v, d));
  v3_copy(v, wl->vel);
  return CAIRN_OK;
}

/* Whether every point of the wall, moved by dx, stays within WALL_RANGE. */
static int moved_within_range(const wall *wl, const double dx[3]) {
  double p[3];
  v3_add(wl->point, dx, p);
  int ok = within_range(p);
  v3_add(wl->centre, dx, p);
  ok &= within_range(p);
  for (int n = 0; n < wl->n_nodes; n++) {
    v3_add(wl->nodes[n], dx, p);
    ok &= within_range(p);
  }
  return ok;
}

cairn_status wall_check_step(const cairn_world *w, const wall *wl, double dt, cairn_diag *d) {
  char v[96];
  unsigned long long step = (unsigned long long)w->step + 1;
  if (wl->vel[0] != 0 || wl->vel[1] != 0 || wl->vel[2] != 0) {
    double dx[3];
    v3_scale(wl->vel, dt, dx); /* as the motion pass moves it */
    if (!moved_within_range(wl, dx)) {
      format_vec(w, wl->vel, 0, v, sizeof v);
      return diag_set(d, CAIRN_ESTATE,
                      "wall %lld's velocity %s%s would move it by %g in one step (step %llu, "
                      "timestep %g), out of the range (coordinates up to %g) where its distances "
                      "to the balls can be computed; give it a speed of a physical size%s",
                      (long long)wl->id, v, wl->servo.mode ? " (set by its servo)" : "",
                      v3_norm(dx), step, dt, WALL_RANGE,
                      wl->servo.mode ? " (the servo's vmax)" : " (wall.vel)");
    }
  }
  if (wl->spin[0] != 0 || wl->spin[1] != 0 || wl->spin[2] != 0) {
    double th[3];
    v3_scale(wl->spin, dt, th); /* as wall_turn measures the angle */
    if (!isfinite(sqrt(v3_dot(th, th)))) {
      format_vec(w, wl->spin, 1, v, sizeof v);
      return diag_set(d, CAIRN_ESTATE,
                      "wall %lld's spin %s would turn it by a non-finite angle in one step (step "
                      "%llu, timestep %g); give wall.spin a rate of a physical size",
                      (long long)wl->id, v, step, dt);
    }
  }
  if (wl->kind == WALL_CYLINDER) {
    double r = wl->radius + wl->radial_vel * dt; /* as the motion pass grows it */
    if (!(r > 0 && r <= WALL_RANGE))
      return diag_set(d, CAIRN_ESTATE,
                      "cylinder wall %lld's radial velocity %g%s would take its radius from %g "
                      "to %g at step %llu (timestep %g); %s",
                      (long long)wl->id, wl->radial_vel,
                      wl->servo.mode ? " (set by its servo)" : "", wl->radius, r, step, dt,
                      r > 0            ? "give wall.radial_vel a rate of a physical size"
                      : wl->servo.mode ? "lower its servo's vmax or stop it before it closes"
                                       : "slow it (wall.radial_vel) or stop it before it closes");
  }
  return CAIRN_OK;
}

void wall_set_centre(wall *wl, const double c[3]) {
  v3_copy(c, wl->centre);
}

void wall_set_radius(wall *wl, double r) {
  wl->rot_disp += fabs(r - wl->radius); /* counts towards the next neighbour rebuild */
  wl->radius = r;
}

cairn_status wall_set_radial_velocity(wall *wl, double v, cairn_diag *d) {
  CAIRN_CHECK(fabs(v) <= WALL_RANGE, d, CAIRN_EINVAL,
              "wall %lld: radial velocity %g is beyond %g in size, where one step would take the "
              "radius out of the range of coordinates; give a rate of a physical size",
              (long long)wl->id, v, WALL_RANGE);
  wl->radial_vel = v;
  return CAIRN_OK;
}

cairn_status wall_append(cairn_world *w, const wall *wl, cairn_diag *d) {
  wall_store *ws = &w->walls;
  CAIRN_TRY(mem_grow((void **)&ws->w, &ws->cap, ws->n + 1, sizeof *wl, "walls", d));
  CAIRN_TRY(idmap_put(&ws->map, (uint64_t)wl->id, (uint32_t)ws->n, d));
  ws->w[ws->n++] = *wl;
  return CAIRN_OK;
}

void wall_restore(cairn_world *w, uint32_t s, const wall *wl) {
  w->walls.w[s] = *wl;
}
