/* The clump store: templates, clumps and their pebbles (world/clump.h), and the quaternions
   that turn a body frame into the global one. */
#include <string.h>

#include "world/world.h"

void quat_mul(const double a[4], const double b[4], double out[4]) {
  double w = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  double x = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  double y = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  double z = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
  out[0] = w, out[1] = x, out[2] = y, out[3] = z;
}

void quat_matrix(const double q[4], double m[3][3]) {
  double w = q[0], x = q[1], y = q[2], z = q[3];
  m[0][0] = 1 - 2 * (y * y + z * z), m[0][1] = 2 * (x * y - w * z), m[0][2] = 2 * (x * z + w * y);
  m[1][0] = 2 * (x * y + w * z), m[1][1] = 1 - 2 * (x * x + z * z), m[1][2] = 2 * (y * z - w * x);
  m[2][0] = 2 * (x * z - w * y), m[2][1] = 2 * (y * z + w * x), m[2][2] = 1 - 2 * (x * x + y * y);
}

void quat_rotate(const double q[4], const double v[3], double out[3]) {
  double m[3][3], r[3];
  quat_matrix(q, m);
  for (int i = 0; i < 3; i++) r[i] = m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2];
  v3_copy(r, out);
}

void quat_from_rotvec(const double th[3], double q[4]) {
  double a = v3_norm(th);
  if (a == 0) {
    q[0] = 1, q[1] = q[2] = q[3] = 0;
    return;
  }
  double s = sin(0.5 * a) / a;
  q[0] = cos(0.5 * a), q[1] = th[0] * s, q[2] = th[1] * s, q[3] = th[2] * s;
}

void clump_axes_quat(const double axes[3][3], double q[4]) {
  double m[3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) m[i][j] = axes[j][i]; /* columns: the axes */
  quat_from_matrix(m, q);
}

void quat_normalise(double q[4]) {
  double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (int k = 0; k < 4; k++) q[k] /= n;
}

void quat_from_matrix(const double m[3][3], double q[4]) {
  /* Shepperd's method: from the largest of the four squared components, without cancellation */
  double tr = m[0][0] + m[1][1] + m[2][2];
  if (tr >= m[0][0] && tr >= m[1][1] && tr >= m[2][2]) {
    double s = 2 * sqrt(1 + tr);
    q[0] = 0.25 * s, q[1] = (m[2][1] - m[1][2]) / s, q[2] = (m[0][2] - m[2][0]) / s,
    q[3] = (m[1][0] - m[0][1]) / s;
  } else if (m[0][0] >= m[1][1] && m[0][0] >= m[2][2]) {
    double s = 2 * sqrt(1 + m[0][0] - m[1][1] - m[2][2]);
    q[0] = (m[2][1] - m[1][2]) / s, q[1] = 0.25 * s, q[2] = (m[0][1] + m[1][0]) / s,
    q[3] = (m[0][2] + m[2][0]) / s;
  } else if (m[1][1] >= m[2][2]) {
    double s = 2 * sqrt(1 + m[1][1] - m[0][0] - m[2][2]);
    q[0] = (m[0][2] - m[2][0]) / s, q[1] = (m[0][1] + m[1][0]) / s, q[2] = 0.25 * s,
    q[3] = (m[1][2] + m[2][1]) / s;
  } else {
    double s = 2 * sqrt(1 + m[2][2] - m[0][0] - m[1][1]);
    q[0] = (m[1][0] - m[0][1]) / s, q[1] = (m[0][2] + m[2][0]) / s, q[2] = (m[1][2] + m[2][1]) / s,
    q[3] = 0.25 * s;
  }
  if (q[0] < 0)
    for (int k = 0; k < 4; k++) q[k] = -q[k];
  quat_normalise(q);
}

// clang-format off
#define CLUMP_FIELDS(X) \
  X(id) X(tmpl) X(pos) X(vel) X(spin) X(amom) X(q) X(density) X(mass) X(damp) X(scale) X(inertia) \
  X(force) X(moment) X(fix) X(group) X(first) X(count)
#define PEBBLE_FIELDS(X) X(peb_id) X(peb_off) X(peb_clump) X(peb_slot)
// clang-format on

void clump_store_free(clump_store *cs) {
#define F(f) mem_free(cs->f, 0);
  CLUMP_FIELDS(F)
  PEBBLE_FIELDS(F)
#undef F
  mem_free(cs->body_of, 0);
  mem_free(cs->ework, 0);
  for (size_t t = 0; t < cs->n_tmpl; t++) mem_free(cs->tmpl_v[t].peb, 0);
  mem_free(cs->tmpl_v, 0);
  idmap_free(&cs->map);
  memset(cs, 0, sizeof *cs);
}

static cairn_status grow(clump_store *cs, size_t need, size_t need_peb, cairn_diag *d) {
  if (need > cs->cap) {
    size_t old = cs->cap, cap = mem_next_cap(old, need);
#define G(f) CAIRN_TRY(mem_resize((void **)&cs->f, old, cap, sizeof *cs->f, "clump:" #f, d));
    CLUMP_FIELDS(G)
#undef G
    cs->cap = cap;
  }
  if (need_peb > cs->cap_peb) {
    size_t old = cs->cap_peb, cap = mem_next_cap(old, need_peb);
#define G(f) CAIRN_TRY(mem_resize((void **)&cs->f, old, cap, sizeof *cs->f, "clump:" #f, d));
    PEBBLE_FIELDS(G)
#undef G
    cs->cap_peb = cap;
  }
  return CAIRN_OK;
}

cairn_status clump_template_add(cairn_world *w, const char *name, const double (*peb)[4], int n,
                                double rel, const clump_template *given, uint32_t *index,
                                cairn_diag *d) {
  clump_store *cs = &w->clumps;
  const char *who = name && *name ? name : "clump template";
  CAIRN_CHECK(n >= 1, d, CAIRN_EINVAL,
              "%s has no pebbles; give at least one pebble {x, y%s, radius}", who,
              w->dim == 3 ? ", z" : "");
  CAIRN_CHECK(n <= CLUMP_MAX_PEBBLES, d, CAIRN_EINVAL,
              "%s has %d pebbles, more than %d; use fewer, larger pebbles", who, n,
              CLUMP_MAX_PEBBLES);
  for (int k = 0; k < n; k++) {
    for (int a = 0; a < 3; a++)
      CAIRN_CHECK(isfinite(peb[k][a]) && fabs(peb[k][a]) <= 1e150, d, CAIRN_EINVAL,
                  "%s: pebble %d has a non-finite or out-of-range coordinate (%g); give finite "
                  "coordinates",
                  who, k + 1, peb[k][a]);
    CAIRN_CHECK(isfinite(peb[k][3]) && peb[k][3] > 0 && peb[k][3] <= 1e100, d, CAIRN_EINVAL,
                "%s: pebble %d has radius %g; a pebble's radius must be a positive length", who,
                k + 1, peb[k][3]);
    CAIRN_CHECK(w->dim == 3 || peb[k][2] == 0, d, CAIRN_EINVAL,
                "%s: pebble %d has z = %g in a 2D model; 2D pebbles are {x, y, radius}", who, k + 1,
                peb[k][2]);
  }
  CAIRN_TRY(mem_grow((void **)&cs->tmpl_v, &cs->cap_tmpl, cs->n_tmpl + 1, sizeof *cs->tmpl_v,
                     "clump:templates", d));
  clump_template t;
  memset(&t, 0, sizeof t);
  if (name) snprintf(t.name, sizeof t.name, "%s", name);
  t.n = n;
  if (given) {
    t.volume = given->volume;
    v3_copy(given->centre, t.centre);
    v3_copy(given->inertia, t.inertia);
    memcpy(t.axes, given->axes, sizeof t.axes);
    clump_axes_quat(t.axes, t.q_axes);
    t.given = 1;
  } else if (n == 1) { /* one ball: its own, exactly */
    double r = peb[0][3];
    t.volume = w->dim == 2 ? M_PI * r * r : 4.0 / 3.0 * M_PI * r * r * r;
    v3_copy(peb[0], t.centre);
    for (int k = 0; k < 3; k++) t.inertia[k] = (w->dim == 2 ? 0.5 : 0.4) * t.volume * r * r;
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) t.axes[i][j] = i == j;
    t.q_axes[0] = 1;
  } else {
    CAIRN_TRY(clump_mass_properties(w->dim, peb, n, rel, &t, d));
  }
  t.peb = mem_realloc(NULL, 0, (size_t)n * sizeof *t.peb, "clump:template");
  CAIRN_CHECK(t.peb, d, CAIRN_ENOMEM, "out of memory storing a template of %d pebbles", n);
  memcpy(t.peb, peb, (size_t)n * sizeof *t.peb);
  *index = (uint32_t)cs->n_tmpl;
  cs->tmpl_v[cs->n_tmpl++] = t;
  return CAIRN_OK;
}

cairn_status clump_slot(const cairn_world *w, int64_t id, uint32_t *slot, cairn_diag *d) {
  uint32_t s = id >= 1 && id <= CAIRN_ID_MAX ? idmap_get(&w->clumps.map, (uint64_t)id) : IDMAP_NONE;
  CAIRN_CHECK(s != IDMAP_NONE, d, CAIRN_EINVAL,
              "no clump with id %lld; clump.list() gives the ids there are", (long long)id);
  *slot = s;
  return CAIRN_OK;
}

cairn_status clump_slots(cairn_world *w, cairn_diag *d) {
  clump_store *cs = &w->clumps;
  if (cs->slots_ok && cs->slots_layout == w->layout) return CAIRN_OK;
  size_t nb = w->balls.n;
  if (nb > cs->cap_body_of) {
    size_t cap = mem_next_cap(cs->cap_body_of, nb);
    CAIRN_TRY(mem_resize_raw((void **)&cs->body_of, cs->cap_body_of, cap, sizeof *cs->body_of,
                             "clump:body_of", d));
    cs->cap_body_of = cap;
  }
  for (size_t i = 0; i < nb; i++) cs->body_of[i] = UINT32_MAX;
  for (size_t p = 0; p < cs->n_peb; p++) {
    uint32_t s = idmap_get(&w->balls.map, (uint64_t)cs->peb_id[p]);
    CAIRN_CHECK(s != IDMAP_NONE, d, CAIRN_ESTATE,
                "pebble ball %lld of clump %lld is gone; delete clumps with clump.delete",
                (long long)cs->peb_id[p], (long long)cs->id[cs->peb_clump[p]]);
    cs->peb_slot[p] = s;
    cs->body_of[s] = cs->peb_clump[p];
  }
  cs->slots_layout = w->layout;
  cs->slots_ok = 1;
  return CAIRN_OK;
}

void clump_place(cairn_world *w, uint32_t c) {
  clump_store *cs = &w->clumps;
  ball_store *b = &w->balls;
  double m[3][3];
  quat_matrix(cs->q[c], m);
  const double *x = cs->pos[c], *v = cs->vel[c], *om = cs->spin[c];
  for (uint32_t p = cs->first[c]; p < cs->first[c] + cs->count[c]; p++) {
    uint32_t s = cs->peb_slot[p];
    const double *o = cs->peb_off[p];
    double r[3], at[3], u[3];
    for (int i = 0; i < 3; i++) r[i] = m[i][0] * o[0] + m[i][1] * o[1] + m[i][2] * o[2];
    v3_add(x, r, at);
    if (w->dim == 2) at[2] = 0, r[2] = 0;
    for (int k = 0; k < 3; k++) b->disp[s][k] += at[k] - b->pos[s][k];
    v3_copy(at, b->pos[s]);
    v3_cross(om, r, u);
    v3_add(v, u, b->vel[s]);
    v3_copy(om, b->spin[s]);
    if (w->dim == 2) b->vel[s][2] = 0;
  }
}

void clump_amom_of_spin(const clump_store *cs, uint32_t c, const double om[3], double l[3]) {
  double m[3][3], wb[3];
  quat_matrix(cs->q[c], m);
  for (int i = 0; i < 3; i++)
    wb[i] = (m[0][i] * om[0] + m[1][i] * om[1] + m[2][i] * om[2]) * cs->inertia[c][i];
  for (int i = 0; i < 3; i++) l[i] = m[i][0] * wb[0] + m[i][1] * wb[1] + m[i][2] * wb[2];
}

void clump_set_velocity(cairn_world *w, uint32_t c, const double v[3]) {
  clump_store *cs = &w->clumps;
  v3_copy(v, cs->vel[c]);
  if (w->dim == 2) cs->vel[c][2] = 0;
  if (clump_slots(w, NULL) == CAIRN_OK) clump_place(w, c);
}

void clump_set_spin(cairn_world *w, uint32_t c, const double s[3]) {
  clump_store *cs = &w->clumps;
  v3_copy(s, cs->spin[c]);
  if (w->dim == 2) cs->spin[c][0] = cs->spin[c][1] = 0;
  clump_amom_of_spin(cs, c, cs->spin[c], cs->amom[c]);
  if (clump_slots(w, NULL) == CAIRN_OK) clump_place(w, c);
}

cairn_status clump_set_scale(cairn_world *w, uint32_t c, double scale, cairn_diag *d) {
  clump_store *cs = &w->clumps;
  ball_store *b = &w->balls;
  CAIRN_CHECK(isfinite(scale) && scale >= 1e-100 && scale <= 1e100, d, CAIRN_EINVAL,
              "clump %lld: scale must be a positive finite number (got %g)", (long long)cs->id[c],
              scale);
  double k = scale / cs->scale[c], k2 = k * k, kv = w->dim == 2 ? k2 : k2 * k;
  double ki = w->dim == 2 ? k2 * k2 : k2 * k2 * k;
  double mass = cs->mass[c] * kv, inertia[3];
  for (int i = 0; i < 3; i++) inertia[i] = cs->inertia[c][i] * ki;
  int ok = isfinite(mass) && mass > 0;
  for (int i = w->dim == 2 ? 2 : 0; i < 3; i++) ok = ok && isfinite(inertia[i]) && inertia[i] > 0;
  CAIRN_CHECK(ok, d, CAIRN_EINVAL,
              "clump %lld: scale %g gives a mass of %g, which with its moments is not finite and "
              "positive; choose a scale nearer 1",
              (long long)cs->id[c], scale, mass);
  double least = w->dim == 2 ? inertia[2] : fmin(inertia[0], fmin(inertia[1], inertia[2]));
  for (uint32_t p = cs->first[c]; p < cs->first[c] + cs->count[c]; p++) {
    uint32_t s = cs->peb_slot[p];
    double r = b->rad[s] * k;
    b->rad[s] = r;
    if (r < w->rad_floor) w->rad_floor = r;
    b->mass[s] = mass; /* (the body's, as at creation: clump.h) */
    b->inertia[s] = least;
    v3_scale(cs->peb_off[p], k, cs->peb_off[p]);
  }
  cs->scale[c] = scale;
  cs->mass[c] = mass;
  v3_copy(inertia, cs->inertia[c]);
  clump_amom_of_spin(cs, c, cs->spin[c], cs->amom[c]);
  world_mark_dirty(w); /* (the pebbles' sizes changed) */
  CAIRN_TRY(clump_slots(w, d));
  clump_place(w, c);
  return CAIRN_OK;
}

void clump_orientation(const cairn_world *w, uint32_t c, double q[4]) {
  const clump_store *cs = &w->clumps;
  const double *qa = cs->tmpl_v[cs->tmpl[c]].q_axes;
  double inv[4] = {qa[0], -qa[1], -qa[2], -qa[3]};
  quat_mul(cs->q[c], inv, q);
  if (q[0] < 0)
    for (int k = 0; k < 4; k++) q[k] = -q[k];
}

cairn_status clump_create(cairn_world *w, const clump_spec *s, int64_t *id_out, cairn_diag *d) {
  clump_store *cs = &w->clumps;
  CAIRN_CHECK(s->tmpl < cs->n_tmpl, d, CAIRN_EINVAL, "no clump template %u", s->tmpl);
  const clump_template *t = &cs->tmpl_v[s->tmpl];
  int64_t id = s->id ? s->id : (cs->next_id ? cs->next_id : 1);
  while (!s->id && idmap_get(&cs->map, (uint64_t)id) != IDMAP_NONE) id++;
  CAIRN_CHECK(id >= 1 && id <= CAIRN_ID_MAX, d, CAIRN_EINVAL,
              "clump id must be an integer from 1 to %ld (got %lld); choose another id",
              CAIRN_ID_MAX, (long long)id);
  CAIRN_CHECK(idmap_get(&cs->map, (uint64_t)id) == IDMAP_NONE, d, CAIRN_EINVAL,
              "clump %lld already exists; give each clump a unique id (or leave id out)",
              (long long)id);
  CAIRN_CHECK(isfinite(s->density) && s->density > 0, d, CAIRN_EINVAL,
              "clump %lld: density must be > 0 (got %g); pass density as a positive number",
              (long long)id, s->density);
  CAIRN_CHECK(isfinite(s->damp) && s->damp >= 0 && s->damp < 1, d, CAIRN_EINVAL,
              "clump %lld: local damping must be in [0, 1) (got %g)", (long long)id, s->damp);
  double sc = s->scale > 0 ? s->scale : 1.0;
  CAIRN_CHECK(isfinite(sc) && sc <= 1e100 && sc >= 1e-100, d, CAIRN_EINVAL,
              "clump %lld: scale must be a positive finite number (got %g)", (long long)id,
              s->scale);
  double s2 = sc * sc, sv = w->dim == 2 ? s2 : s2 * sc, si = w->dim == 2 ? s2 * s2 : s2 * s2 * sc;
  double mass = s->density * t->volume * sv, inertia[3];
  for (int k = 0; k < 3; k++) inertia[k] = s->density * t->inertia[k] * si;
  int ok = isfinite(mass) && mass > 0;
  for (int k = w->dim == 2 ? 2 : 0; k < 3; k++) ok = ok && isfinite(inertia[k]) && inertia[k] > 0;
  CAIRN_CHECK(ok, d, CAIRN_EINVAL,
              "clump %lld: density %g gives a mass of %g and principal moments (%g, %g, %g), "
              "which are not all finite and positive; give sizes and densities in units that "
              "keep them so",
              (long long)id, s->density, mass, inertia[0], inertia[1], inertia[2]);
  for (int k = 0; k < 3; k++)
    CAIRN_CHECK(isfinite(s->pos[k]) && isfinite(s->vel[k]) && isfinite(s->spin[k]), d, CAIRN_EINVAL,
                "clump %lld: position, velocity and spin must be finite", (long long)id);
  double qn = sqrt(s->orient[0] * s->orient[0] + s->orient[1] * s->orient[1] +
                   s->orient[2] * s->orient[2] + s->orient[3] * s->orient[3]);
  CAIRN_CHECK(isfinite(qn) && fabs(qn - 1) < 1e-6, d, CAIRN_EINVAL,
              "clump %lld: the orientation quaternion has norm %g; give a unit quaternion "
              "{w, x, y, z}",
              (long long)id, qn);
  CAIRN_CHECK(w->dim == 3 || (s->orient[1] == 0 && s->orient[2] == 0), d, CAIRN_EINVAL,
              "clump %lld: a 2D clump turns about z only", (long long)id);
  size_t c = cs->n, p0 = cs->n_peb;
  /* the slots stay current through the pebbles made here (no full rebuild per clump made) */
  int current = cs->slots_ok && cs->slots_layout == w->layout;
  CAIRN_TRY(grow(cs, c + 1, p0 + (size_t)t->n, d));
  uint16_t g;
  CAIRN_TRY(world_group_index(w, s->group, &g, d));
  CAIRN_TRY(idmap_put(&cs->map, (uint64_t)id, (uint32_t)c, d));
  double q[4], qu[4];
  memcpy(qu, s->orient, sizeof qu);
  quat_normalise(qu);
  quat_mul(qu, t->q_axes, q);
  quat_normalise(q);
  if (w->dim == 2) q[1] = q[2] = 0, quat_normalise(q);
  cs->id[c] = id;
  cs->tmpl[c] = s->tmpl;
  v3_copy(s->pos, cs->pos[c]);
  memcpy(cs->q[c], q, sizeof q);
  cs->density[c] = s->density;
  cs->mass[c] = mass;
  cs->damp[c] = s->damp;
  cs->scale[c] = sc;
  v3_copy(inertia, cs->inertia[c]);
  v3_zero(cs->force[c]);
  v3_zero(cs->moment[c]);
  cs->fix[c] = 0;
  cs->group[c] = g;
  cs->first[c] = (uint32_t)p0;
  cs->count[c] = (uint32_t)t->n;
  cs->n = c + 1;
  double qa_inv[4] = {t->q_axes[0], -t->q_axes[1], -t->q_axes[2], -t->q_axes[3]};
  /* the pebbles as balls, where the body holds them */
  double least = w->dim == 2 ? inertia[2] : inertia[0];
  cairn_status st = CAIRN_OK;
  int made = 0;
  for (int k = 0; k < t->n && st == CAIRN_OK; k++) {
    double rel[3], off[3], at[3];
    v3_sub(t->peb[k], t->centre, rel);
    quat_rotate(qa_inv, rel, off); /* template frame -> body frame */
    if (w->dim == 2) off[2] = 0;
    if (sc != 1) v3_scale(off, sc, off);
    quat_rotate(q, off, at);
    v3_add(s->pos, at, at);
    ball_spec bs;
    memset(&bs, 0, sizeof bs);
    bs.rad = t->peb[k][3] * sc;
    bs.density = s->density;
    v3_copy(at, bs.pos);
    bs.group = s->group;
    int64_t bid;
    st = ball_create(w, &bs, &bid, d);
    if (st) break;
    made++;
    uint32_t bslot = (uint32_t)w->balls.n - 1;
    if (t->n == 1 && !t->given) { /* one pebble: exactly the ball's mass and inertia */
      mass = cs->mass[c] = w->balls.mass[bslot];
      for (int i = 0; i < 3; i++) cs->inertia[c][i] = w->balls.inertia[bslot];
      least = w->balls.inertia[bslot];
    }
    w->balls.fix[bslot] = FIX_CLUMP;
    w->balls.mass[bslot] = mass; /* contacts see the body's mass (clump.h) */
    w->balls.inertia[bslot] = least;
    w->balls.damp[bslot] = 0;
    size_t p = p0 + (size_t)k;
    cs->peb_id[p] = bid;
    v3_copy(off, cs->peb_off[p]);
    cs->peb_clump[p] = (uint32_t)c;
  }
  if (st) { /* undo: the pebbles made are the last balls */
    for (int k = 0; k < made; k++) ball_remove(w, (uint32_t)w->balls.n - 1);
    idmap_del(&cs->map, (uint64_t)id);
    cs->n = c;
    world_mark_dirty(w);
    return st;
  }
  cs->n_peb = p0 + (size_t)t->n;
  if (current && w->balls.n <= cs->cap_body_of) {
    for (size_t p = p0; p < cs->n_peb; p++) {
      uint32_t bs = idmap_get(&w->balls.map, (uint64_t)cs->peb_id[p]);
      cs->peb_slot[p] = bs;
      cs->body_of[bs] = (uint32_t)c;
    }
    cs->slots_layout = w->layout;
  } else {
    cs->slots_ok = 0;
  }
  CAIRN_TRY(clump_slots(w, d));
  clump_set_velocity(w, (uint32_t)c, s->vel);
  clump_set_spin(w, (uint32_t)c, s->spin);
  for (uint32_t p = cs->first[c]; p < cs->first[c] + cs->count[c]; p++)
    v3_zero(w->balls.disp[cs->peb_slot[p]]); /* (new balls: no displacement yet) */
  if (id >= cs->next_id) cs->next_id = id + 1;
  *id_out = id;
  return CAIRN_OK;
}

void clump_remove(cairn_world *w, uint32_t c) {
  clump_store *cs = &w->clumps;
  uint32_t f = cs->first[c], n = cs->count[c];
  for (uint32_t p = f; p < f + n; p++) { /* unmark the pebbles that are still balls */
    uint32_t s = idmap_get(&w->balls.map, (uint64_t)cs->peb_id[p]);
    if (s != IDMAP_NONE) w->balls.fix[s] &= (uint8_t)~FIX_CLUMP;
  }
  /* close the gap in the pebble arrays */
  size_t tail = cs->n_peb - (f + n);
  memmove(&cs->peb_id[f], &cs->peb_id[f + n], tail * sizeof *cs->peb_id);
  memmove(&cs->peb_off[f], &cs->peb_off[f + n], tail * sizeof *cs->peb_off);
  memmove(&cs->peb_clump[f], &cs->peb_clump[f + n], tail * sizeof *cs->peb_clump);
  cs->n_peb -= n;
  for (size_t k = 0; k < cs->n; k++)
    if (cs->first[k] > f) cs->first[k] -= n;
  idmap_del(&cs->map, (uint64_t)cs->id[c]);
  uint32_t last = (uint32_t)cs->n - 1;
  if (c != last) {
#define M(f) memcpy(&cs->f[c], &cs->f[last], sizeof *cs->f);
    CLUMP_FIELDS(M)
#undef M
    idmap_put(&cs->map, (uint64_t)cs->id[c], c, NULL); /* replaces: never allocates */
  }
  cs->n = last;
  for (size_t p = 0; p < cs->n_peb; p++)
    if (cs->peb_clump[p] == last) cs->peb_clump[p] = c;
  cs->slots_ok = 0;
}

cairn_status clump_template_restore(cairn_world *w, const clump_template *t, cairn_diag *d) {
  clump_store *cs = &w->clumps;
  CAIRN_TRY(mem_grow((void **)&cs->tmpl_v, &cs->cap_tmpl, cs->n_tmpl + 1, sizeof *cs->tmpl_v,
                     "clump:templates", d));
  cs->tmpl_v[cs->n_tmpl++] = *t;
  return CAIRN_OK;
}

cairn_status clump_restore(cairn_world *w, const clump_row *r, cairn_diag *d) {
  clump_store *cs = &w->clumps;
  size_t c = cs->n, p0 = cs->n_peb;
  CAIRN_TRY(grow(cs, c + 1, p0 + r->count, d));
  CAIRN_TRY(idmap_put(&cs->map, (uint64_t)r->id, (uint32_t)c, d));
  cs->id[c] = r->id;
  cs->tmpl[c] = r->tmpl;
  v3_copy(r->pos, cs->pos[c]), v3_copy(r->vel, cs->vel[c]), v3_copy(r->spin, cs->spin[c]);
  v3_copy(r->amom, cs->amom[c]);
  memcpy(cs->q[c], r->q, sizeof r->q);
  cs->density[c] = r->density, cs->mass[c] = r->mass, cs->damp[c] = r->damp;
  cs->scale[c] = r->scale;
  v3_copy(r->inertia, cs->inertia[c]), v3_copy(r->force, cs->force[c]);
  v3_copy(r->moment, cs->moment[c]);
  cs->fix[c] = r->fix, cs->group[c] = r->group;
  cs->first[c] = (uint32_t)p0, cs->count[c] = r->count;
  cs->n = c + 1;
  cs->n_peb = p0 + r->count;
  for (size_t p = p0; p < cs->n_peb; p++) cs->peb_clump[p] = (uint32_t)c, cs->peb_id[p] = 0;
  cs->slots_ok = 0;
  return CAIRN_OK;
}

void clump_restore_pebble(cairn_world *w, size_t p, int64_t id, const double off[3]) {
  w->clumps.peb_id[p] = id;
  v3_copy(off, w->clumps.peb_off[p]);
}
