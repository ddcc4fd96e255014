/* Balls: creation with validated attributes, removal, mass and inertia (their contacts are the
   contact layer's: contact/cascade.c deletes a ball with its contacts).
   2D balls are disks of unit thickness: m = rho pi r^2, I = m r^2 / 2; 3D: m = 4/3 rho pi r^3,
   I = 2/5 m r^2 (design.md). */
#include <string.h>

#include "world/world.h"

/* Every per-ball array of the store, for growing, moving, reordering and freeing them together
   (a field added to ball_store goes here once). */
// clang-format off
#define BALL_FIELDS(X) \
  X(id) X(pos) X(vel) X(spin) X(force) X(moment) X(disp) X(rad) X(density) X(mass) X(inertia) \
  X(damp) X(k_tran) X(k_rot) X(fix) X(group) X(skey)
/* The columns of a save file, in its order (BALL_SAVED_COLUMNS of them; ball_columns). */
#define BALL_SAVED(X) \
  X(id) X(pos) X(vel) X(spin) X(force) X(moment) X(disp) X(rad) X(density) X(mass) X(inertia) \
  X(damp) X(k_tran) X(k_rot) X(fix) X(group)
// clang-format on

static cairn_status grow(ball_store *b, size_t need, cairn_diag *d) {
  if (need <= b->cap) return CAIRN_OK;
  size_t old = b->cap, cap = mem_next_cap(old, need);
#define G(f) CAIRN_TRY(mem_resize_raw((void **)&b->f, old, cap, sizeof *b->f, "ball:" #f, d));
  BALL_FIELDS(G)
#undef G
  b->cap = cap;
  return CAIRN_OK;
}

void ball_columns(ball_store *b, void *col[BALL_SAVED_COLUMNS], size_t size[BALL_SAVED_COLUMNS]) {
  int k = 0;
#define C(f) col[k] = (void *)b->f, size[k++] = sizeof *b->f;
  BALL_SAVED(C)
#undef C
}

double ball_extra_get(const ball_store *b, int64_t id, int k) {
  uint32_t r = idmap_get(&b->extras.map, (uint64_t)id);
  return r == IDMAP_NONE ? 0.0 : b->extras.v[r][k];
}

cairn_status ball_extra_set(ball_store *b, int64_t id, int k, double v, cairn_diag *d) {
  ball_extras *e = &b->extras;
  uint32_t r = idmap_get(&e->map, (uint64_t)id);
  if (r == IDMAP_NONE) {
    if (e->n == e->cap) {
      size_t cap = mem_next_cap(e->cap, e->n + 1);
      CAIRN_TRY(mem_resize((void **)&e->id, e->cap, cap, sizeof *e->id, "ball:extras", d));
      CAIRN_TRY(mem_resize((void **)&e->v, e->cap, cap, sizeof *e->v, "ball:extras", d));
      e->cap = cap;
    }
    r = (uint32_t)e->n;
    CAIRN_TRY(idmap_put(&e->map, (uint64_t)id, r, d));
    e->id[r] = id;
    memset(e->v[r], 0, sizeof e->v[r]);
    e->n++;
  }
  e->v[r][k] = v;
  return CAIRN_OK;
}

/* The row of ball id in the displacement store, made (0) if it has none. */
static cairn_status cum_row(ball_cumdisp *c, int64_t id, uint32_t *row, cairn_diag *d) {
  uint32_t r = idmap_get(&c->map, (uint64_t)id);
  if (r == IDMAP_NONE) {
    if (c->n == c->cap) {
      size_t cap = mem_next_cap(c->cap, c->n + 1);
      CAIRN_TRY(mem_resize((void **)&c->id, c->cap, cap, sizeof *c->id, "ball:displacement", d));
      CAIRN_TRY(mem_resize((void **)&c->d, c->cap, cap, sizeof *c->d, "ball:displacement", d));
      c->cap = cap;
    }
    r = (uint32_t)c->n;
    CAIRN_TRY(idmap_put(&c->map, (uint64_t)id, r, d));
    c->id[r] = id;
    v3_zero(c->d[r]);
    c->n++;
  }
  *row = r;
  return CAIRN_OK;
}

static void cum_free(ball_cumdisp *c) {
  mem_free(c->id, 0);
  mem_free(c->d, 0);
  idmap_free(&c->map);
  memset(c, 0, sizeof *c);
}

cairn_status ball_cumdisp_track(ball_store *b, int on, cairn_diag *d) {
  cum_free(&b->cum);
  if (!on) return CAIRN_OK;
  b->cum.on = 1;
  for (size_t i = 0; i < b->n; i++) { /* from now: less what 'disp' holds already */
    uint32_t r;
    CAIRN_TRY(cum_row(&b->cum, b->id[i], &r, d));
    v3_scale(b->disp[i], -1.0, b->cum.d[r]);
  }
  return CAIRN_OK;
}

cairn_status balls_fold_disp(ball_store *b, size_t n, cairn_diag *d) {
  if (!b->cum.on) return CAIRN_OK;
  for (size_t i = 0; i < n; i++) {
    uint32_t r;
    CAIRN_TRY(cum_row(&b->cum, b->id[i], &r, d));
    v3_add(b->cum.d[r], b->disp[i], b->cum.d[r]);
  }
  return CAIRN_OK;
}

void ball_cumdisp_get(const ball_store *b, uint32_t s, double out[3]) {
  uint32_t r = idmap_get(&b->cum.map, (uint64_t)b->id[s]);
  if (r == IDMAP_NONE)
    v3_copy(b->disp[s], out);
  else
    v3_add(b->cum.d[r], b->disp[s], out);
}

void ball_extra_drop(ball_store *b, int64_t id) {
  ball_cumdisp *c = &b->cum;
  uint32_t cr = c->on ? idmap_get(&c->map, (uint64_t)id) : IDMAP_NONE;
  if (cr != IDMAP_NONE) {
    idmap_del(&c->map, (uint64_t)id);
    size_t last = c->n - 1;
    if (cr != last) {
      c->id[cr] = c->id[last];
      v3_copy(c->d[last], c->d[cr]);
      idmap_put(&c->map, (uint64_t)c->id[cr], cr, NULL); /* replaces: never allocates */
    }
    c->n = last;
  }
  ball_extras *e = &b->extras;
  uint32_t r = idmap_get(&e->map, (uint64_t)id);
  if (r == IDMAP_NONE) return;
  idmap_del(&e->map, (uint64_t)id);
  size_t last = e->n - 1;
  if (r != last) { /* the last row moves into its place */
    e->id[r] = e->id[last];
    memcpy(e->v[r], e->v[last], sizeof e->v[r]);
    idmap_put(&e->map, (uint64_t)e->id[r], r, NULL); /* replaces: never allocates */
  }
  e->n = last;
}

void ball_store_free(ball_store *b) {
#define F(f) mem_free(b->f, 0);
  BALL_FIELDS(F)
#undef F
  mem_free(b->extras.id, 0);
  mem_free(b->extras.v, 0);
  idmap_free(&b->extras.map);
  cum_free(&b->cum);
  idmap_free(&b->map);
  memset(b, 0, sizeof *b);
}

size_t ball_row_size(void) {
  size_t n = 0;
  const ball_store *b = NULL;
#define S(f) n += sizeof *b->f;
  BALL_FIELDS(S)
#undef S
  return n;
}

void ball_row_pack(const ball_store *b, uint32_t s, uint8_t *out) {
#define P(f) memcpy(out, &b->f[s], sizeof *b->f), out += sizeof *b->f;
  BALL_FIELDS(P)
#undef P
}

cairn_status ball_row_append(cairn_world *w, const uint8_t *row, cairn_diag *d) {
  ball_store *b = &w->balls;
  CAIRN_TRY(grow(b, b->n + 1, d));
  size_t s = b->n;
#define U(f) memcpy(&b->f[s], row, sizeof *b->f), row += sizeof *b->f;
  BALL_FIELDS(U)
#undef U
  CAIRN_TRY(idmap_put(&b->map, (uint64_t)b->id[s], (uint32_t)s, d));
  b->n++;
  return CAIRN_OK;
}

/* The balls' slots moved: the mesh walls' lists, made per slot at the last rebuild, say
   nothing of the balls now in those slots (a ball without a list takes the search that serves
   any ball, detect/geometry.c, until the next rebuild makes its list). */
static void mesh_lists_forget(cairn_world *w) {
  for (size_t k = 0; k < w->walls.n; k++)
    if (w->walls.w[k].mesh) w->walls.w[k].mesh->list_next = 0;
}

cairn_status balls_keep(cairn_world *w, const uint32_t *order, size_t n, cairn_diag *d) {
  ball_store *b = &w->balls;
  size_t all = b->n;
  uint8_t *seen = mem_realloc(NULL, 0, all + 1, "balls:keep");
  uint32_t *full = mem_realloc(NULL, 0, (all + 1) * sizeof *full, "balls:keep");
  cairn_status s = CAIRN_OK;
  if (!seen || !full) {
    s = diag_set(d, CAIRN_ENOMEM, "out of memory reordering %zu balls", all);
    goto done;
  }
  /* the order completed with the dropped slots after the kept ones, then one permutation */
  memset(seen, 0, all);
  for (size_t i = 0; i < n; i++) full[i] = order[i], seen[order[i]] = 1;
  size_t k = n;
  for (size_t i = 0; i < all; i++)
    if (!seen[i]) full[k++] = (uint32_t)i;
  for (size_t i = n; i < all; i++) idmap_del(&b->map, (uint64_t)b->id[full[i]]);
#define P(f) mem_permute(b->f, sizeof *b->f, all, full, seen);
  BALL_FIELDS(P)
#undef P
  b->n = n;
  w->clumps.slots_ok = 0;
  mesh_lists_forget(w);
  for (size_t i = 0; i < n && s == CAIRN_OK; i++)
    s = idmap_put(&b->map, (uint64_t)b->id[i], (uint32_t)i, d); /* (replaces) */
done:
  mem_free(seen, 0);
  mem_free(full, 0);
  return s;
}

void balls_fit(ball_store *b) {
  size_t cap = b->n + b->n / 8 + 16;
  if (cap >= b->cap) return;
#define F(f)                                                                                       \
  {                                                                                                \
    void *q = mem_realloc(b->f, b->cap * sizeof *b->f, cap * sizeof *b->f, "ball:" #f);            \
    if (q) b->f = q; /* (else it keeps its larger size: still at least cap) */                     \
  }
  BALL_FIELDS(F)
#undef F
  b->cap = cap;
  idmap_fit(&b->map);
}

void ball_sort(cairn_world *w, const uint32_t *order, uint32_t *inv, uint8_t *seen) {
  ball_store *b = &w->balls;
  size_t n = b->n;
#define P(f) mem_permute(b->f, sizeof *b->f, n, order, seen);
  BALL_FIELDS(P)
#undef P
  w->clumps.slots_ok = 0; /* (the pebbles' slots moved) */
  mesh_lists_forget(w);
  for (size_t i = 0; i < n; i++) {
    inv[order[i]] = (uint32_t)i;
    idmap_put(&b->map, (uint64_t)b->id[i], (uint32_t)i, NULL); /* replaces: never allocates */
  }
}

void ball_update_mass(cairn_world *w, uint32_t s) {
  ball_store *b = &w->balls;
  double r = b->rad[s];
  if (w->dim == 2) {
    b->mass[s] = b->density[s] * M_PI * r * r;
    b->inertia[s] = 0.5 * b->mass[s] * r * r;
  } else {
    b->mass[s] = b->density[s] * 4.0 / 3.0 * M_PI * r * r * r;
    b->inertia[s] = 0.4 * b->mass[s] * r * r;
  }
}

static cairn_status check_vec(const double v[3], const char *what, int64_t id, cairn_diag *d) {
  for (int k = 0; k < 3; k++)
    CAIRN_CHECK(isfinite(v[k]), d, CAIRN_EINVAL,
                "ball %lld: %s must be finite (component %d is %g); give finite numbers",
                (long long)id, what, k + 1, v[k]);
  return CAIRN_OK;
}

/* A radius and density whose mass and moment of inertia a double holds (neither overflowing nor
   underflowing to 0): a radius of 1e300 passes "> 0 and finite" but its r^5 does not. */
static cairn_status check_mass(int dim, int64_t id, double r, double rho, cairn_diag *d) {
  double m = dim == 2 ? rho * M_PI * r * r : rho * 4.0 / 3.0 * M_PI * r * r * r;
  double I = (dim == 2 ? 0.5 : 0.4) * m * r * r;
  CAIRN_CHECK(isfinite(m) && isfinite(I) && m > 0 && I > 0, d, CAIRN_EINVAL,
              "ball %lld: radius %g and density %g give a mass of %g and a moment of inertia of "
              "%g, which are not finite positive numbers; give sizes and densities in units "
              "that keep them so (metres and kg/m^3, say)",
              (long long)id, r, rho, m, I);
  return CAIRN_OK;
}

cairn_status ball_create(cairn_world *w, const ball_spec *s, int64_t *id_out, cairn_diag *d) {
  ball_store *b = &w->balls;
  int64_t id = s->id ? s->id : w->next_ball_id;
  while (!s->id && idmap_get(&b->map, (uint64_t)id) != IDMAP_NONE) id++;
  CAIRN_CHECK(s->id || id <= CAIRN_ID_MAX, d, CAIRN_EINVAL,
              "the automatic ball ids are used up (the next would be %lld, above %ld); give the "
              "new balls ids yourself (ids of deleted balls are free again)",
              (long long)id, CAIRN_ID_MAX);
  CAIRN_CHECK(id >= 1 && id <= CAIRN_ID_MAX, d, CAIRN_EINVAL,
              "ball id must be an integer from 1 to %ld (got %lld); choose another id",
              CAIRN_ID_MAX, (long long)id);
  CAIRN_CHECK(idmap_get(&b->map, (uint64_t)id) == IDMAP_NONE, d, CAIRN_EINVAL,
              "ball %lld already exists; give each ball a unique id (or leave id out)",
              (long long)id);
  CAIRN_CHECK(isfinite(s->rad) && s->rad > 0, d, CAIRN_EINVAL,
              "ball %lld: radius must be > 0 (got %g); pass rad as a positive length",
              (long long)id, s->rad);
  CAIRN_CHECK(isfinite(s->density) && s->density > 0, d, CAIRN_EINVAL,
              "ball %lld: density must be > 0 (got %g); pass density as a positive number",
              (long long)id, s->density);
  CAIRN_CHECK(isfinite(s->damp) && s->damp >= 0 && s->damp < 1, d, CAIRN_EINVAL,
              "ball %lld: local damping must be in [0, 1) (got %g)", (long long)id, s->damp);
  CAIRN_TRY(check_mass(w->dim, id, s->rad, s->density, d));
  CAIRN_TRY(check_vec(s->pos, "position", id, d));
  CAIRN_TRY(check_vec(s->vel, "velocity", id, d));
  CAIRN_TRY(check_vec(s->spin, "spin", id, d));
  if (w->has_domain)
    for (int k = 0; k < w->dim; k++)
      CAIRN_CHECK(s->pos[k] >= w->dom_min[k] && s->pos[k] <= w->dom_max[k], d, CAIRN_EINVAL,
                  "ball %lld: position lies outside the model domain (coordinate %d = %g, domain "
                  "[%g, %g]); create it inside or enlarge the domain",
                  (long long)id, k + 1, s->pos[k], w->dom_min[k], w->dom_max[k]);
  uint16_t g;
  CAIRN_TRY(world_group_index(w, s->group, &g, d));
  CAIRN_TRY(grow(b, b->n + 1, d));
  uint32_t i = (uint32_t)b->n;
  CAIRN_TRY(idmap_put(&b->map, (uint64_t)id, i, d));
  b->id[i] = id;
  v3_copy(s->pos, b->pos[i]);
  v3_copy(s->vel, b->vel[i]);
  v3_copy(s->spin, b->spin[i]);
  if (w->dim == 2) { /* disks move in the plane and spin about z */
    b->pos[i][2] = b->vel[i][2] = 0;
    b->spin[i][0] = b->spin[i][1] = 0;
  }
  v3_zero(b->force[i]);
  v3_zero(b->moment[i]);
  v3_zero(b->disp[i]);
  b->skey[i] = UINT64_MAX;
  b->rad[i] = s->rad;
  if (s->rad < w->rad_floor) w->rad_floor = s->rad;
  b->density[i] = s->density;
  b->damp[i] = s->damp;
  b->fix[i] = 0;
  b->group[i] = g;
  b->k_tran[i] = b->k_rot[i] = 0;
  ball_update_mass(w, i);
  b->n++;
  if (id >= w->next_ball_id) w->next_ball_id = id + 1;
  world_mark_dirty(w);
  *id_out = id;
  return CAIRN_OK;
}

cairn_status ball_slot(const cairn_world *w, int64_t id, uint32_t *slot, cairn_diag *d) {
  uint32_t s = id >= 1 && id <= CAIRN_ID_MAX ? idmap_get(&w->balls.map, (uint64_t)id) : IDMAP_NONE;
  CAIRN_CHECK(s != IDMAP_NONE, d, CAIRN_ENOTFOUND,
              "ball %lld does not exist; check the id (ball.list() gives all ids)", (long long)id);
  *slot = s;
  return CAIRN_OK;
}

void ball_remove(cairn_world *w, uint32_t s) {
  ball_store *b = &w->balls;
  loads_remove(w, b->id[s]);
  uint32_t last = (uint32_t)b->n - 1;
  idmap_del(&b->map, (uint64_t)b->id[s]);
  if (s != last) {
#define MV(f) memcpy(&b->f[s], &b->f[last], sizeof b->f[s]);
    BALL_FIELDS(MV)
#undef MV
    idmap_put(&b->map, (uint64_t)b->id[s], s, NULL); /* replaces: never allocates */
  }
  b->n--;
  world_mark_dirty(w);
}

cairn_status balls_mark_reserve(cairn_world *w, cairn_diag *d) {
  size_t n = w->balls.n ? w->balls.n : 1;
  CAIRN_TRY(mem_grow((void **)&w->del_mark, &w->cap_del_mark, n, 1, "balls:delete_marks", d));
  memset(w->del_mark, 0, n);
  return CAIRN_OK;
}

cairn_status balls_remove_marked(cairn_world *w, cairn_diag *d) {
  ball_store *b = &w->balls;
  uint8_t *mark = w->del_mark;
  size_t n = b->n, kept = 0;
  CAIRN_TRY(mem_grow((void **)&w->del_remap, &w->cap_del_remap, n ? n : 1, sizeof *w->del_remap,
                     "balls:delete_remap", d));
  uint32_t *to = w->del_remap;
  /* the kept balls move down in order */
  for (size_t s = 0; s < n; s++) {
    if (mark[s]) {
      loads_remove(w, b->id[s]);
      idmap_del(&b->map, (uint64_t)b->id[s]);
      to[s] = UINT32_MAX;
      continue;
    }
    if (kept != s) {
#define MV(f) memcpy(&b->f[kept], &b->f[s], sizeof b->f[kept]);
      BALL_FIELDS(MV)
#undef MV
      idmap_put(&b->map, (uint64_t)b->id[kept], (uint32_t)kept, NULL); /* replaces */
    }
    to[s] = (uint32_t)kept++;
  }
  memset(mark, 0, n);
  b->n = kept;
  world_mark_dirty(w);
  return CAIRN_OK;
}

cairn_status ball_set_radius(cairn_world *w, uint32_t s, double r, cairn_diag *d) {
  CAIRN_CHECK(isfinite(r) && r > 0, d, CAIRN_EINVAL,
              "ball %lld: radius must be > 0 (got %g); pass a positive length",
              (long long)w->balls.id[s], r);
  CAIRN_TRY(check_mass(w->dim, w->balls.id[s], r, w->balls.density[s], d));
  w->balls.rad[s] = r;
  if (r < w->rad_floor) w->rad_floor = r;
  ball_update_mass(w, s);
  world_mark_dirty(w);
  return CAIRN_OK;
}

cairn_status ball_set_density(cairn_world *w, uint32_t s, double rho, cairn_diag *d) {
  CAIRN_CHECK(isfinite(rho) && rho > 0, d, CAIRN_EINVAL,
              "ball %lld: density must be > 0 (got %g); pass a positive number",
              (long long)w->balls.id[s], rho);
  CAIRN_TRY(check_mass(w->dim, w->balls.id[s], w->balls.rad[s], rho, d));
  w->balls.density[s] = rho;
  ball_update_mass(w, s);
  return CAIRN_OK;
}

cairn_status ball_set_damp(cairn_world *w, uint32_t s, double a, cairn_diag *d) {
  CAIRN_CHECK(isfinite(a) && a >= 0 && a < 1, d, CAIRN_EINVAL,
              "ball %lld: local damping must be in [0, 1) (got %g); 0 is none, 0.7 is PFC's "
              "classic value",
              (long long)w->balls.id[s], a);
  w->balls.damp[s] = a;
  return CAIRN_OK;
}

void ball_set_group(cairn_world *w, uint32_t s, uint16_t group) {
  w->balls.group[s] = group;
}

void ball_set_velocity(cairn_world *w, uint32_t s, const double v[3]) {
  v3_copy(v, w->balls.vel[s]);
}

void ball_set_spin(cairn_world *w, uint32_t s, const double spin[3]) {
  v3_copy(spin, w->balls.spin[s]);
}

cairn_status ball_check_attributes(const cairn_world *w, uint32_t s, int has_rad, double rad,
                                   int has_density, double density, int has_damp, double damp,
                                   cairn_diag *d) {
  const ball_store *b = &w->balls;
  long long id = (long long)b->id[s];
  double r = has_rad ? rad : b->rad[s], rho = has_density ? density : b->density[s];
  CAIRN_CHECK(!has_rad || (isfinite(rad) && rad > 0), d, CAIRN_EINVAL,
              "ball %lld: radius must be > 0 (got %g); pass a positive length", id, rad);
  CAIRN_CHECK(!has_density || (isfinite(density) && density > 0), d, CAIRN_EINVAL,
              "ball %lld: density must be > 0 (got %g); pass a positive number", id, density);
  if (has_rad || has_density) CAIRN_TRY(check_mass(w->dim, b->id[s], r, rho, d));
  CAIRN_CHECK(!has_damp || (isfinite(damp) && damp >= 0 && damp < 1), d, CAIRN_EINVAL,
              "ball %lld: local damping must be in [0, 1) (got %g); 0 is none, 0.7 is PFC's "
              "classic value",
              id, damp);
  return CAIRN_OK;
}

void ball_fix(cairn_world *w, uint32_t s, unsigned bits) {
  w->balls.fix[s] |= (uint8_t)bits;
}

void ball_free(cairn_world *w, uint32_t s, unsigned bits) {
  w->balls.fix[s] &= (uint8_t)~bits;
}
