/* The save file's readers: one per store, each reading its section of format 8, or that store's
   part of the single payload of formats 1 to 7 (b->version says which), into a new world. A
   reader that finds damage marks its buffer bad and returns; save.c refuses the file then. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "contact/cracks.h"
#include "contact/energy.h"
#include "contact/model_call.h"
#include "cycle/cycle.h"
#include "detect/detect.h"
#include "io/save_format.h"

void get(rbuf *b, void *dst, size_t n) {
  if (n == 0) return;
  if (b->bad || n > b->n - b->pos) {
    b->bad = 1;
    memset(dst, 0, n);
    return;
  }
  memcpy(dst, b->p + b->pos, n);
  b->pos += n;
}

void get_str(rbuf *b, char *out, size_t cap) {
  uint32_t n = get_u32(b);
  if (n >= cap) {
    b->bad = 1;
    out[0] = 0;
    return;
  }
  get(b, out, n);
  out[n] = 0;
}

uint64_t get_count(rbuf *b, size_t elem) {
  uint64_t n = get_u64(b);
  if (elem && n > (b->n - b->pos) / elem) b->bad = 1;
  return b->bad ? 0 : n;
}

void bad_value(rbuf *b, const char *fmt, ...) {
  if (!b->bad) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->why, sizeof b->why, fmt, ap);
    va_end(ap);
    /* a NaN as the other messages show it ("NaN", as in "got NaN"), not printf's "nan" */
    for (char *p = strstr(b->why, "nan"); p; p = strstr(p + 3, "nan"))
      if ((p == b->why || !isalpha((unsigned char)p[-1])) && !isalpha((unsigned char)p[3]))
        p[0] = 'N', p[2] = 'N';
  }
  b->bad = 1;
}

/* A value as a message shows it: a NaN without its sign, which means nothing ("-nan" reads as
   a different damage). */
static double shown(double v) {
  return isnan(v) ? fabs(v) : v;
}

void bad_unless_finite(rbuf *b, const double *v, int n, const char *who, const char *field) {
  for (int k = 0; k < n; k++) {
    if (isfinite(v[k])) continue;
    if (n == 3)
      bad_value(b, "%s %s is not finite (%g, %g, %g)", who, field, shown(v[0]), shown(v[1]),
                shown(v[2]));
    else if (n == 1)
      bad_value(b, "%s %s is %g (a finite number)", who, field, shown(v[0]));
    else
      bad_value(b, "%s %s is not finite (its value %d is %g)", who, field, k + 1, shown(v[k]));
    return;
  }
}

/* A value that must be finite and > 0 (a radius, a mass), or finite and >= 0 (a sum of
   stiffnesses). */
static void bad_unless_positive(rbuf *b, double v, const char *who, const char *field) {
  BAD_VALUE(b, !(isfinite(v) && v > 0), "%s %s is %g (a finite number > 0)", who, field, shown(v));
}

static void bad_unless_nonneg(rbuf *b, double v, const char *who, const char *field) {
  BAD_VALUE(b, !(isfinite(v) && v >= 0), "%s %s is %g (a finite number >= 0)", who, field,
            shown(v));
}

/* A direction the engine keeps normalised (a wall's normal, a contact's): finite, of length 1
   within the rounding of many steps of turning. */
static void bad_unless_unit(rbuf *b, const double v[3], const char *who, const char *field) {
  bad_unless_finite(b, v, 3, who, field);
  double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  BAD_VALUE(b, !(fabs(len - 1) <= 1e-6), "%s %s (%g, %g, %g) has length %g (a unit vector)", who,
            field, v[0], v[1], v[2], len);
}

static cairn_status read_layout(rbuf *b, cairn_world *w, model_map *mm, cairn_diag *d) {
  char name[CAIRN_MAX_NAME], source[256], row[CAIRN_MAX_NAME];
  get_str(b, name, sizeof name);
  mm->version = (int)get_u32(b);
  get_str(b, source, sizeof source);
  mm->model = registry_find(w->reg, name);
  if (!b->bad)
    CAIRN_CHECK(mm->model >= 0, d, CAIRN_ENOTFOUND,
                "the saved model uses contact model '%s' (from %s), which is not loaded; load it "
                "with model.load or --plugin before model.restore",
                name, source);
  const model_entry *e = b->bad ? NULL : &w->reg->e[mm->model];
  uint32_t np = get_u32(b);
  if (np > 64) b->bad = 1;
  mm->n_props = np <= 64 ? (int)np : 0;
  mm->prop_slots = 0;
  for (int i = 0; i < mm->n_props && !b->bad; i++) {
    get_str(b, row, sizeof row);
    uint32_t slots = get_u32(b);
    if (slots > 3) b->bad = 1; /* none (an alias), a number, or a vector */
    mm->prop_n[i] = (int)(slots <= 3 ? slots : 0);
    mm->prop_slots += mm->prop_n[i];
    int j = model_prop_index(e, row);
    mm->prop_to[i] = j >= 0 && e->m->props[j].access != CAIRN_ALIAS &&
                             cairn_prop_slots(e->m->props[j].type) == mm->prop_n[i]
                         ? j
                         : -1;
  }
  uint32_t ns = get_u32(b);
  if (ns > 64) b->bad = 1;
  mm->n_state = ns <= 64 ? (int)ns : 0;
  mm->state_slots = 0;
  for (int i = 0; i < mm->n_state && !b->bad; i++) {
    get_str(b, row, sizeof row);
    uint32_t slots = get_u32(b);
    /* a contact-plane vector keeps 4, an array one per item */
    if (slots > CAIRN_STATE_ARRAY_MAX) b->bad = 1;
    mm->state_n[i] = (int)(slots <= CAIRN_STATE_ARRAY_MAX ? slots : 0);
    mm->state_slots += mm->state_n[i];
    int j = model_state_index(e, row);
    /* a contact-plane field of format 1 and 2 has 3 slots, converted by read_state */
    int now = j >= 0 ? cairn_state_slots(&e->m->state[j]) : 0;
    mm->state_to[i] =
        j >= 0 && (now == mm->state_n[i] || (b->version < 3 && now == 4 && mm->state_n[i] == 3))
            ? j
            : -1;
  }
  return CAIRN_OK;
}

/* Read a saved property block into the current model's block (by name; unknown rows dropped,
   new rows keep their defaults). */
static void read_props(rbuf *b, const model_entry *e, const model_map *mm, double *props) {
  model_props_default(e, props);
  for (int i = 0; i < mm->n_props; i++) {
    double v[3] = {0, 0, 0};
    get_f64s(b, v, (size_t)mm->prop_n[i]);
    if (mm->prop_to[i] < 0) continue;
    /* a value no script could have set (out of range, NaN) is damage, which the models need
       not survive */
    const cairn_prop_desc *p = &e->m->props[mm->prop_to[i]];
    BAD_VALUE(b, !model_prop_valid(p, v), "its %s model's property %s is %g, out of its range",
              e->m->name, p->name, shown(v[0]));
    memcpy(props + e->prop_off[mm->prop_to[i]], v, (size_t)mm->prop_n[i] * sizeof(double));
  }
}

/* Read a saved state block by name. 'frame' is the contact's saved (n, s, t) frame in files of
   format 1 and 2, whose contact-plane fields are (normal, s, t): they become the normal component
   and the global in-plane vector s S + t T. */
static void read_state(rbuf *b, const model_entry *e, const model_map *mm, const double *frame,
                       double *state) {
  memset(state, 0, (size_t)e->n_state_slots * sizeof(double));
  for (int i = 0; i < mm->n_state; i++) {
    double v[CAIRN_STATE_ARRAY_MAX];
    memset(v, 0, (size_t)mm->state_n[i] * sizeof *v);
    get_f64s(b, v, (size_t)mm->state_n[i]);
    int to = mm->state_to[i];
    if (to < 0) continue;
    cairn_prop_type t = e->m->state[to].type; /* a whole number the model may cast to int */
    for (int k = 0; k < (t == CAIRN_PROP_VEC ? 1 : mm->state_n[i]); k++)
      if ((t == CAIRN_PROP_INT || t == CAIRN_PROP_BOOL) &&
          !(v[k] == floor(v[k]) && fabs(v[k]) < 2147483647.0)) {
        bad_value(b, "its %s model's state %s is %g (a whole number)", e->m->name,
                  e->m->state[to].name, v[k]);
        break;
      }
    char who[80];
    snprintf(who, sizeof who, "its %s model's state", e->m->name);
    bad_unless_finite(b, v, mm->state_n[i], who, e->m->state[to].name);
    double *dst = state + e->state_off[to];
    if (frame && mm->state_n[i] == 3 && cairn_state_slots(&e->m->state[to]) == 4) {
      dst[0] = v[0];
      for (int k = 0; k < 3; k++) dst[1 + k] = v[1] * frame[3 + k] + v[2] * frame[6 + k];
    } else {
      memcpy(dst, v, (size_t)mm->state_n[i] * sizeof(double));
    }
  }
  model_call_upgrade_state(e, mm->version, state);
}

/* An assignment as saved into 'ce': its model, proximity, set mask and properties (into
   'props', which ce->props then points at). */
static void get_entry(rbuf *b, const cairn_world *w, const model_map *maps, uint32_t n_maps,
                      cmat_entry *ce, double *props) {
  uint32_t mi = get_u32(b);
  ce->proximity = get_f64(b);
  ce->setmask = get_u64(b);
  ce->props = props;
  ce->pblk = IDMAP_NONE;
  if (b->bad || mi >= n_maps) {
    b->bad = 1;
    return;
  }
  ce->model = maps[mi].model;
  read_props(b, &w->reg->e[maps[mi].model], &maps[mi], props);
}

/* ---- WRLD: time, timestep, domain ---- */

/* The clock's values in the ranges model.gravity and model.timestep allow. */
static void check_clock(rbuf *b, const world_clock *c, uint32_t mode) {
  bad_unless_finite(b, c->gravity, 3, "its", "gravity");
  BAD_VALUE(b, mode != TS_AUTO && mode != TS_FIXED,
            "its timestep mode is %u (0 automatic or 1 fixed)", mode);
  if (mode == TS_FIXED)
    bad_unless_positive(b, c->dt, "its", "fixed timestep");
  else
    bad_unless_nonneg(b, c->dt, "its", "timestep");
  BAD_VALUE(b, !(c->dt_safety > 0 && c->dt_safety <= 1), "its timestep safety is %g (in (0, 1])",
            shown(c->dt_safety));
  bad_unless_nonneg(b, c->time, "its", "time");
}

static void get_clock(rbuf *b, cairn_world *w) {
  world_clock c;
  get_f64s(b, c.gravity, 3);
  uint32_t mode = get_u32(b);
  c.ts_mode = (ts_mode)mode;
  c.dt = get_f64(b), c.dt_safety = get_f64(b), c.time = get_f64(b);
  c.step = get_u64(b);
  check_clock(b, &c, mode);
  if (!b->bad) world_restore_clock(w, &c);
}

/* The domain as model.domain allows it: bounds below each other on the model's axes (open ends
   are infinite), a known condition. */
static void get_domain(rbuf *b, cairn_world *w) {
  double lo[3], hi[3];
  uint32_t on = get_u32(b);
  get_f64s(b, lo, 3), get_f64s(b, hi, 3);
  uint32_t cond = get_u32(b);
  uint64_t n_destroyed = get_u64(b);
  BAD_VALUE(b, on > 1, "its domain switch is %u (0 off or 1 on)", on);
  for (int k = 0; k < w->dim && on; k++)
    BAD_VALUE(b, !(lo[k] < hi[k]), "its domain's %c range is [%g, %g] (min below max)", "xyz"[k],
              shown(lo[k]), shown(hi[k]));
  BAD_VALUE(b, cond > DOMAIN_DESTROY, "its domain condition is %u (0 stop or 1 destroy)", cond);
  if (!b->bad) world_restore_domain(w, (int)on, lo, hi, (domain_cond)cond, n_destroyed);
}

/* The automatic timestep's steps per impact, its stiffest contact, the last step's dt. */
static void get_impact(rbuf *b, cairn_world *w) {
  double dt_impact = get_f64(b), kn_m_max = get_f64(b), dt_taken = get_f64(b);
  BAD_VALUE(b, !(dt_impact >= 0 && dt_impact <= 1e6), "its steps per impact are %g (in [0, 1e6])",
            shown(dt_impact));
  bad_unless_nonneg(b, kn_m_max, "its", "stiffest contact's kn/m");
  bad_unless_nonneg(b, dt_taken, "its", "last step's timestep");
  if (!b->bad) world_restore_impact(w, dt_impact, kn_m_max, dt_taken);
}

cairn_status read_world_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d) {
  (void)x, (void)d;
  BAD_IF(get_u32(b) != (uint32_t)w->dim); /* (save.c made the world of this dimension) */
  get_clock(b, w);
  get_impact(b, w);
  get_domain(b, w);
  return CAIRN_OK;
}

/* ---- ENRG: the energy books ---- */

/* The books as saved into t (the sums that formats 1 to 7 keep later, applied and removed,
   are left as they are). */
static void get_energy_books(rbuf *b, energy_track *t) {
  uint32_t flags = get_u32(b);
  t->on = (int)(flags & 1), t->started = (int)(flags >> 1 & 1);
  t->torque_last = (int)(flags >> 2 & 1); /* (0 in files before it was kept) */
  t->gravity = get_f64(b), t->walls = get_f64(b), t->damping = get_f64(b);
  get_f64s(b, t->retired, CAIRN_ENERGY_N), t->start = get_f64(b);
  double sums[] = {t->gravity, t->walls, t->damping, t->start};
  bad_unless_finite(b, sums, 4, "its", "energy sums (gravity, walls, damping, start)");
  bad_unless_finite(b, t->retired, CAIRN_ENERGY_N, "its", "retired contacts' energy");
}

cairn_status read_energy_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d) {
  (void)x, (void)d;
  energy_track t = *w->energy;
  get_energy_books(b, &t);
  t.applied = get_f64(b), t.removed = get_f64(b);
  bad_unless_finite(b, &t.applied, 1, "its", "work of the applied loads");
  bad_unless_finite(b, &t.removed, 1, "its", "energy of deleted balls");
  BAD_IF(0);
  energy_restore(w, &t);
  return CAIRN_OK;
}

/* ---- GRUP, MODL, CMAT ---- */

cairn_status read_groups_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d) {
  (void)x, (void)d;
  char names[sizeof w->groups / sizeof *w->groups][CAIRN_MAX_NAME];
  uint32_t ng = get_u32(b);
  BAD_IF(ng < 1 || ng > sizeof names / sizeof *names);
  for (uint32_t g = 1; g < ng; g++) get_str(b, names[g], CAIRN_MAX_NAME);
  world_restore_groups(w, ng, &names[0][0]);
  return CAIRN_OK;
}

cairn_status read_models_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d) {
  uint32_t nm = get_u32(b);
  BAD_IF(nm > SAVE_MAX_MODELS);
  for (uint32_t i = 0; i < nm; i++) {
    CAIRN_TRY(read_layout(b, w, &x->maps[i], d));
    BAD_IF(0);
  }
  x->n_maps = nm;
  return CAIRN_OK;
}

static cairn_status read_rule(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d) {
  cmat_rule ru;
  double props[256];
  memset(&ru, 0, sizeof ru);
  ru.kind = (int)get_u32(b) - 1;
  ru.g1 = get_u16(b), ru.g2 = get_u16(b);
  BAD_IF(ru.kind < -1 || ru.kind > 1 || ru.g1 >= w->n_groups || ru.g2 >= w->n_groups);
  get_entry(b, w, x->maps, x->n_maps, &ru.e, props);
  BAD_IF(0);
  return cmat_restore_rule(w, &ru, d);
}

cairn_status read_cmat_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d) {
  for (int k = 0; k < 2; k++) {
    cmat_entry ce;
    double props[256];
    get_entry(b, w, x->maps, x->n_maps, &ce, props);
    BAD_IF(0);
    CAIRN_TRY(cmat_restore_default(w, k, &ce, d));
  }
  uint32_t nr = get_u32(b);
  BAD_IF(nr > 100000);
  for (uint32_t r = 0; r < nr; r++) {
    CAIRN_TRY(read_rule(b, w, x, d));
    BAD_IF(0);
  }
  return CAIRN_OK;
}

/* ---- BALL ---- */

/* Ball i's values as ball.create and the ball setters allow them. */
static void check_ball(rbuf *b, const cairn_world *w, size_t i) {
  const ball_store *bs = &w->balls;
  char who[48];
  snprintf(who, sizeof who, "ball %lld's", (long long)bs->id[i]);
  bad_unless_finite(b, bs->pos[i], 3, who, "position");
  bad_unless_finite(b, bs->vel[i], 3, who, "velocity");
  bad_unless_finite(b, bs->spin[i], 3, who, "spin");
  bad_unless_finite(b, bs->force[i], 3, who, "force");
  bad_unless_finite(b, bs->moment[i], 3, who, "moment");
  bad_unless_finite(b, bs->disp[i], 3, who, "displacement");
  bad_unless_positive(b, bs->rad[i], who, "radius");
  bad_unless_positive(b, bs->density[i], who, "density");
  bad_unless_positive(b, bs->mass[i], who, "mass");
  bad_unless_positive(b, bs->inertia[i], who, "moment of inertia");
  BAD_VALUE(b, !(bs->damp[i] >= 0 && bs->damp[i] < 1), "%s local damping is %g (in [0, 1))", who,
            shown(bs->damp[i]));
  bad_unless_nonneg(b, bs->k_tran[i], who, "translational stiffness");
  bad_unless_nonneg(b, bs->k_rot[i], who, "rotational stiffness");
  BAD_VALUE(b, bs->fix[i] & ~(FIX_VEL | FIX_SPIN | FIX_CLUMP), "%s fixity is 0x%x (bits of 0x%x)",
            who, bs->fix[i], FIX_VEL | FIX_SPIN | FIX_CLUMP);
  BAD_VALUE(b, (bs->fix[i] & FIX_CLUMP) && (bs->fix[i] & ~FIX_CLUMP),
            "%s fixity is 0x%x, but a pebble is fixed through its clump", who, bs->fix[i]);
  BAD_VALUE(b, bs->group[i] >= w->n_groups, "%s group is %u (the file names %zu groups)", who,
            bs->group[i], (size_t)w->n_groups);
}

/* Balls: created one by one (that sizes every array and fills the id map), then every attribute
   overwritten with its saved bits; after the balls already there (a rank's part: PRTS). */
static cairn_status read_balls(rbuf *b, cairn_world *w, cairn_diag *d) {
  uint64_t n = get_count(b, 8 + 6 * 24 + 7 * 8 + 1 + 2); /* bytes per ball */
  BAD_IF(0);
  size_t at = b->pos, first = w->balls.n;
  int has_domain = w->has_domain; /* positions are checked by the run, not here */
  world_restore_domain(w, 0, w->dom_min, w->dom_max, w->dom_cond, w->n_destroyed);
  for (uint64_t i = 0; i < n; i++) {
    ball_spec sp;
    memset(&sp, 0, sizeof sp);
    int64_t id;
    memcpy(&sp.id, b->p + at + 8 * i, 8);
    sp.rad = sp.density = 1;
    BAD_IF(sp.id < 1 || sp.id > CAIRN_ID_MAX);
    BAD_VALUE(b, idmap_get(&w->balls.map, (uint64_t)sp.id) != IDMAP_NONE,
              "ball %lld is there twice", (long long)sp.id);
    BAD_IF(0);
    CAIRN_TRY(ball_create(w, &sp, &id, d));
  }
  world_restore_domain(w, has_domain, w->dom_min, w->dom_max, w->dom_cond, w->n_destroyed);
  if (n) { /* (no arrays yet without balls): the saved columns, read in place */
    void *col[BALL_SAVED_COLUMNS];
    size_t size[BALL_SAVED_COLUMNS];
    ball_columns(&w->balls, col, size);
    for (int k = 0; k < BALL_SAVED_COLUMNS; k++)
      get(b, (char *)col[k] + first * size[k], n * size[k]);
  }
  BAD_IF(0);
  for (uint64_t i = first; i < first + n && !b->bad; i++) check_ball(b, w, (size_t)i);
  BAD_IF(0);
  return CAIRN_OK;
}

cairn_status read_balls_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d) {
  (void)x;
  CAIRN_TRY(read_balls(b, w, d));
  world_restore_next_ids(w, get_i64(b), w->next_wall_id);
  return CAIRN_OK;
}

/* ---- WALL ---- */

/* A wall's shape and motion as wall.create and the wall setters allow them: finite, and the
   normal that a plane, a polygon and a cylinder's axis keep of unit length. */
static void check_wall_shape(rbuf *b, const wall *wl) {
  char who[48], node[32];
  snprintf(who, sizeof who, "wall %lld's", (long long)wl->id);
  for (int i = 0; i < wl->n_nodes; i++) {
    snprintf(node, sizeof node, "node %d", i + 1);
    bad_unless_finite(b, wl->nodes[i], 3, who, node);
  }
  bad_unless_finite(b, wl->point, 3, who, "point");
  if (wl->kind == WALL_SEGMENT || wl->kind == WALL_MESH)
    bad_unless_finite(b, wl->normal, 3, who, "normal");
  else
    bad_unless_unit(b, wl->normal, who, wl->kind == WALL_CYLINDER ? "axis" : "normal");
  bad_unless_finite(b, wl->vel, 3, who, "velocity");
  bad_unless_finite(b, wl->disp, 3, who, "displacement");
  bad_unless_finite(b, wl->force, 3, who, "force");
  bad_unless_finite(b, wl->last_dx, 3, who, "last step's displacement");
}

static void get_wall_shape(rbuf *b, wall *wl) {
  wl->id = get_i64(b);
  wl->kind = (wall_kind)get_u32(b);
  wl->n_nodes = (int)get_u32(b);
  if (wl->n_nodes < 0 || wl->n_nodes > WALL_MAX_NODES || wl->kind > WALL_MESH) b->bad = 1;
  if (wl->kind == WALL_MESH && (b->version < SAVE_SECTIONS || wl->n_nodes)) b->bad = 1;
  if (wl->kind == WALL_CYLINDER && b->version < 5) b->bad = 1;
  if (b->bad) return;
  get_f64s(b, &wl->nodes[0][0], 3 * (size_t)wl->n_nodes);
  get_f64s(b, wl->point, 3), get_f64s(b, wl->normal, 3), get_f64s(b, wl->vel, 3);
  get_f64s(b, wl->disp, 3), get_f64s(b, wl->force, 3);
  if (b->version >= 2) get_f64s(b, wl->last_dx, 3);
  wl->group = get_u16(b);
  check_wall_shape(b, wl);
}

static void get_wall_turning(rbuf *b, wall *wl) {
  get_f64s(b, wl->spin, 3), get_f64s(b, wl->centre, 3), get_f64s(b, wl->last_dtheta, 3);
  get_f64s(b, wl->torque, 3), wl->rot_disp = get_f64(b);
  char who[48];
  snprintf(who, sizeof who, "wall %lld's", (long long)wl->id);
  bad_unless_finite(b, wl->spin, 3, who, "spin");
  bad_unless_finite(b, wl->centre, 3, who, "centre");
  bad_unless_finite(b, wl->last_dtheta, 3, who, "last step's turn");
  bad_unless_finite(b, wl->torque, 3, who, "torque");
  bad_unless_nonneg(b, wl->rot_disp, who, "displacement by turning");
  BAD_VALUE(b, wl->kind == WALL_PLANE && (wl->spin[0] || wl->spin[1] || wl->spin[2]),
            "%s spin is (%g, %g, %g) but a plane does not turn", who, wl->spin[0], wl->spin[1],
            wl->spin[2]);
}

/* A servo's values as wall.servo allows them. */
static void check_servo(rbuf *b, const wall_servo *sv, const char *who) {
  bad_unless_finite(b, sv->t, sv->n_points, who, "servo's times");
  bad_unless_finite(b, sv->target, sv->n_points, who, "servo's targets");
  bad_unless_finite(b, sv->axis, 3, who, "servo's axis");
  bad_unless_finite(b, &sv->area, 1, who, "servo's area");
  bad_unless_positive(b, sv->vmax, who, "servo's most speed");
  BAD_VALUE(b, !(sv->alpha > 0 && sv->alpha <= 1), "%s servo's alpha is %g (in (0, 1])", who,
            shown(sv->alpha));
  bad_unless_finite(b, &sv->err_start, 1, who, "servo's first error");
  bad_unless_finite(b, &sv->measured, 1, who, "servo's measured value");
}

/* A wall's translation since creation, its radius (a cylinder), and its servo. */
static void get_wall_servo(rbuf *b, wall *wl) {
  wall_servo *sv = &wl->servo;
  char who[48];
  snprintf(who, sizeof who, "wall %lld's", (long long)wl->id);
  get_f64s(b, wl->moved, 3);
  wl->radius = get_f64(b), wl->radial_vel = get_f64(b);
  wl->last_dr = get_f64(b);
  bad_unless_finite(b, wl->moved, 3, who, "translation");
  if (wl->kind == WALL_CYLINDER) bad_unless_positive(b, wl->radius, who, "radius");
  bad_unless_finite(b, &wl->radius, 1, who, "radius");
  bad_unless_finite(b, &wl->radial_vel, 1, who, "radial velocity");
  bad_unless_finite(b, &wl->last_dr, 1, who, "last step's radius change");
  memset(sv, 0, sizeof *sv);
  sv->mode = get_u8(b);
  BAD_VALUE(b, sv->mode > SERVO_FORCE, "%s servo mode is %u (0 off, 1 stress or 2 force)", who,
            sv->mode);
  if (b->bad || sv->mode == SERVO_OFF) return;
  sv->warned = get_u8(b), sv->reached = get_u8(b), sv->held = get_u32(b);
  uint32_t npts = get_u32(b);
  if (npts < 1 || npts > SERVO_MAX_POINTS) b->bad = 1;
  if (b->bad) return;
  sv->n_points = (int)npts;
  get_f64s(b, sv->t, sv->n_points), get_f64s(b, sv->target, sv->n_points);
  get_f64s(b, sv->axis, 3), sv->area = get_f64(b);
  sv->width[0] = get_i64(b), sv->width[1] = get_i64(b);
  sv->depth[0] = get_i64(b), sv->depth[1] = get_i64(b);
  sv->vmax = get_f64(b), sv->alpha = get_f64(b), sv->saturated = get_u64(b);
  sv->err_start = get_f64(b);
  sv->measured = get_f64(b);
  check_servo(b, sv, who);
}

/* Append a wall read whole to the store (walls keep their saved slots and ids). */
static cairn_status push_wall(rbuf *b, cairn_world *w, const wall *wl, cairn_diag *d) {
  BAD_IF(wl->group >= w->n_groups || wl->id < 1 || wl->id > CAIRN_ID_MAX);
  BAD_IF(idmap_get(&w->walls.map, (uint64_t)wl->id) != IDMAP_NONE);
  return wall_append(w, wl, d);
}

/* Formats 1 to 7 kept a wall's shape here, its turning and servo after the loads. */
static cairn_status read_wall_shapes(rbuf *b, cairn_world *w, cairn_diag *d) {
  uint32_t nw = get_u32(b);
  BAD_IF(nw > 1000000);
  for (uint32_t i = 0; i < nw; i++) {
    wall wl;
    memset(&wl, 0, sizeof wl);
    get_wall_shape(b, &wl);
    BAD_IF(0);
    CAIRN_TRY(push_wall(b, w, &wl, d));
    BAD_IF(0);
  }
  return CAIRN_OK;
}

cairn_status read_walls_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d) {
  (void)x;
  uint32_t nw = get_u32(b);
  BAD_IF(nw > 1000000);
  for (uint32_t i = 0; i < nw; i++) {
    wall wl;
    memset(&wl, 0, sizeof wl);
    get_wall_shape(b, &wl);
    get_wall_turning(b, &wl);
    get_wall_servo(b, &wl);
    BAD_IF(0);
    CAIRN_TRY(push_wall(b, w, &wl, d));
    BAD_IF(0);
  }
  world_restore_next_ids(w, w->next_ball_id, get_i64(b));
  return CAIRN_OK;
}

/* ---- CONT ---- */

/* A contact's geometry and forces of formats 1 and 2: the (n, s, t) frame, gap, contact point,
   force and moment in the frame, three unused stiffness slots. The frame is kept in 'frame' for
   the contact-plane state. */
static void get_contact_in_frame(rbuf *b, contact_geometry *g, double *frame) {
  double nst[3], unused[3];
  get_f64s(b, frame, 9), g->gap = get_f64(b), get_f64s(b, unused, 3);
  v3_copy(frame, g->normal);
  get_f64s(b, nst, 3);
  for (int k = 0; k < 3; k++)
    g->force[k] = nst[0] * frame[k] + nst[1] * frame[3 + k] + nst[2] * frame[6 + k];
  get_f64s(b, nst, 3);
  for (int k = 0; k < 3; k++)
    g->moment[k] = nst[0] * frame[k] + nst[1] * frame[3 + k] + nst[2] * frame[6 + k];
  get_f64s(b, unused, 3);
}

/* A contact's geometry as the detection leaves it: a unit normal, finite gap, forces and
   proximity. */
static void check_contact(rbuf *b, const cairn_world *w, int kind, uint32_t a, uint32_t bb,
                          const contact_geometry *g) {
  char who[80];
  int64_t ida = kind == CAIRN_KIND_BALL_BALL ? w->balls.id[a] : w->walls.w[a].id;
  snprintf(who, sizeof who, "contact (%s %lld, ball %lld)'s",
           kind == CAIRN_KIND_BALL_BALL ? "ball" : "wall", (long long)ida,
           (long long)w->balls.id[bb]);
  bad_unless_unit(b, g->normal, who, "normal");
  bad_unless_finite(b, &g->gap, 1, who, "gap");
  bad_unless_finite(b, g->force, 3, who, "force");
  bad_unless_finite(b, g->moment, 3, who, "moment");
  bad_unless_nonneg(b, g->prox, who, "proximity");
}

/* Whether a pair's or contact's kind byte (kind | sub << 2, sub: which of a ball's contacts with
   a mesh wall) and sides make sense. */
static int kind_bad(const cairn_world *w, int kind, int sub, uint32_t a, uint32_t bb) {
  if (kind > 1 || bb >= w->balls.n || a >= (kind == CAIRN_KIND_BALL_BALL ? w->balls.n : w->walls.n))
    return 1;
  return sub &&
         (sub >= MESH_CONTACTS || kind != CAIRN_KIND_BALL_WALL || w->walls.w[a].kind != WALL_MESH);
}

/* A contact after its kind and sides (slots): its model, geometry, flags, properties, state. */
static cairn_status read_contact_rest(rbuf *b, cairn_world *w, restore_ctx *x, int kind, int sub,
                                      uint32_t a, uint32_t bb, cairn_diag *d) {
  uint32_t mi = get_u32(b);
  BAD_IF(mi >= x->n_maps || kind_bad(w, kind, sub, a, bb));
  uint32_t ci;
  CAIRN_TRY(contact_create_sub(w, kind, a, bb, sub, &ci, d));
  CAIRN_TRY(contact_set_model(w, ci, x->maps[mi].model, d));
  const model_entry *e = &w->reg->e[x->maps[mi].model];
  contact_geometry g;
  double frame[9], *fr = NULL;
  if (b->version < 3) {
    get_contact_in_frame(b, &g, frame);
    fr = frame;
  } else {
    get_f64s(b, g.normal, 3), g.gap = get_f64(b);
    get_f64s(b, g.force, 3), get_f64s(b, g.moment, 3);
  }
  g.prox = get_f64(b);
  g.active = get_u8(b), g.first = get_u8(b), g.deletable = get_u8(b);
  g.unchecked = get_u8(b);
  check_contact(b, w, kind, a, bb, &g);
  BAD_IF(0);
  contact_restore_geometry(w, ci, &g);
  uint64_t mask = get_u64(b);
  /* the state on the stack unless it is long (array rows: up to REGISTRY_STATE_MAX slots) */
  double props[256], local[256];
  double *state = local;
  if (e->n_state_slots > 256) {
    state = mem_realloc(NULL, 0, (size_t)e->n_state_slots * sizeof *state, "restore:state");
    if (!state) return diag_set(d, CAIRN_ENOMEM, "out of memory restoring a contact's state");
  }
  read_props(b, e, &x->maps[mi], props);
  read_state(b, e, &x->maps[mi], fr, state);
  if (!b->bad) contact_restore_state(w, ci, state);
  if (state != local) mem_free(state, (size_t)e->n_state_slots * sizeof *state);
  BAD_IF(0);
  return contact_restore_props(w, ci, props, mask, d);
}

static cairn_status read_contact(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d) {
  int kb = get_u8(b), kind = kb & 3, sub = kb >> 2;
  uint32_t a = get_u32(b), bb = get_u32(b);
  return read_contact_rest(b, w, x, kind, sub, a, bb, d);
}

cairn_status read_contacts_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d) {
  /* bytes per contact, at least */
  uint64_t nc = get_count(b, 13 + (b->version < 3 ? 23 : 11) * 8 + 4 + 8);
  BAD_IF(0);
  for (uint64_t c = 0; c < nc; c++) {
    CAIRN_TRY(read_contact(b, w, x, d));
    BAD_IF(0);
  }
  return CAIRN_OK;
}

/* ---- PAIR, HIST, CALL ---- */

/* The pair list's columns, read into one scratch block: kinds, sides a and b, contacts. */
static cairn_status read_pair_columns(rbuf *b, cairn_world *w, uint64_t np, double skin,
                                      uint32_t dirty, uint64_t rebuilds, cairn_diag *d) {
  size_t nc = w->contacts->n;
  unsigned char *blk = mem_realloc(NULL, 0, 14 * np, "restore:pairs");
  if (!blk) return diag_set(d, CAIRN_ENOMEM, "out of memory restoring the pair list");
  uint32_t *a = (uint32_t *)blk, *bb = a + np, *contact = bb + np;
  uint8_t *kind = (uint8_t *)(contact + np), *sub = kind + np;
  get(b, kind, np), get(b, a, 4 * np), get(b, bb, 4 * np), get(b, contact, 4 * np);
  for (uint64_t q = 0; q < np && !b->bad; q++) {
    sub[q] = kind[q] >> 2, kind[q] &= 3;
    if (kind_bad(w, kind[q], sub[q], a[q], bb[q])) b->bad = 1;
    if (contact[q] != IDMAP_NONE && contact[q] >= nc) b->bad = 1;
  }
  cairn_status s =
      b->bad ? CAIRN_OK
             : pairs_restore(w, np, kind, sub, a, bb, contact, skin, (int)dirty, rebuilds, d);
  mem_free(blk, 14 * np);
  return s;
}

cairn_status read_pairs_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d) {
  (void)x;
  uint64_t np = get_count(b, 13);
  double skin = get_f64(b);
  uint32_t dirty = get_u32(b);
  uint64_t rebuilds = get_u64(b);
  BAD_IF(0);
  if (!np) return pairs_restore(w, 0, NULL, NULL, NULL, NULL, NULL, skin, (int)dirty, rebuilds, d);
  return read_pair_columns(b, w, np, skin, dirty, rebuilds, d);
}

/* The histories' columns, each read into 'v' (rows values) and handed over. */
static cairn_status read_hist_columns(rbuf *b, cairn_world *w, uint32_t nh, uint64_t rows,
                                      double *v, cairn_diag *d) {
  char name[CAIRN_MAX_NAME];
  for (uint32_t i = 0; i < nh; i++) {
    get_str(b, name, sizeof name);
    BAD_IF(!name[0]);
    get_f64s(b, v, rows);
    BAD_IF(0);
    CAIRN_TRY(history_restore_column(w, name, v, d));
  }
  return CAIRN_OK;
}

cairn_status read_hist_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d) {
  (void)x;
  uint32_t nh = get_u32(b);
  uint64_t interval = get_u64(b);
  uint64_t rows = get_count(b, 16);
  BAD_IF(nh > 100000);
  double *col = NULL; /* the step and time columns, then each history's */
  if (rows) {
    col = mem_realloc(NULL, 0, 2 * rows * sizeof(double), "restore:history");
    if (!col) return diag_set(d, CAIRN_ENOMEM, "out of memory restoring the histories");
  }
  double *time = rows ? col + rows : NULL; /* (no arithmetic on a NULL 'col' without rows) */
  get_f64s(b, col, rows), get_f64s(b, time, rows);
  for (uint64_t r = 0; r < rows && !b->bad; r++) {
    char who[48];
    snprintf(who, sizeof who, "its history row %llu's", (unsigned long long)r + 1);
    bad_unless_nonneg(b, col[r], who, "step");
    bad_unless_finite(b, &time[r], 1, who, "time");
  }
  cairn_status s = b->bad ? CAIRN_OK : history_restore_rows(w, interval, rows, col, time, d);
  if (s == CAIRN_OK && !b->bad) s = read_hist_columns(b, w, nh, rows, col, d);
  mem_free(col, 2 * rows * sizeof(double));
  return s;
}

cairn_status read_hist_units_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d) {
  (void)x, (void)d;
  history_set *hs = w->hist;
  uint32_t n = get_u32(b);
  BAD_VALUE(b, n != hs->n, "it gives units for %u histories and holds %zu", n, hs->n);
  BAD_IF(0);
  for (uint32_t i = 0; i < n; i++) {
    char unit[HISTORY_MAX_UNIT];
    get_str(b, unit, sizeof unit);
    BAD_IF(0);
    const char *bad = unit[0] ? history_unit_problem(unit) : NULL;
    BAD_VALUE(b, bad, "history '%s' has a unit that %s", hs->h[i].name, bad);
    BAD_IF(0);
    snprintf(hs->h[i].unit, sizeof hs->h[i].unit, "%s", unit);
  }
  return CAIRN_OK;
}

cairn_status read_calls_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d) {
  (void)w, (void)d;
  uint32_t ncb = get_u32(b);
  BAD_IF(ncb > 64);
  x->info->n_callbacks = (int)ncb;
  for (uint32_t i = 0; i < ncb; i++)
    get_str(b, x->info->callbacks[i], sizeof x->info->callbacks[i]);
  return CAIRN_OK;
}

/* ---- LOAD, CRAK, CELL ---- */

cairn_status read_loads_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d) {
  (void)x;
  uint64_t nl = get_count(b, 8 + 6 * 8);
  BAD_IF(0);
  for (uint64_t i = 0; i < nl; i++) {
    int64_t id = get_i64(b);
    double f[3], m[3];
    get_f64s(b, f, 3), get_f64s(b, m, 3);
    BAD_IF(idmap_get(&w->balls.map, (uint64_t)id) == IDMAP_NONE);
    char who[64];
    snprintf(who, sizeof who, "ball %lld's applied", (long long)id);
    bad_unless_finite(b, f, 3, who, "force");
    bad_unless_finite(b, m, 3, who, "moment");
    BAD_IF(0);
    CAIRN_TRY(loads_set(w, id, 0, f, d));
    CAIRN_TRY(loads_set(w, id, 1, m, d));
  }
  return CAIRN_OK;
}

static cairn_status read_crack(rbuf *b, cairn_world *w, cairn_diag *d) {
  crack k;
  memset(&k, 0, sizeof k);
  k.step = get_u64(b), k.time = get_f64(b);
  get_f64s(b, k.pos, 3);
  k.id1 = get_i64(b), k.id2 = get_i64(b), k.kind = get_u8(b), k.tension = get_u8(b);
  bad_unless_finite(b, &k.time, 1, "a crack's", "time");
  bad_unless_finite(b, k.pos, 3, "a crack's", "position");
  BAD_IF(0);
  return cracks_append(w, &k, d);
}

cairn_status read_cracks_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d) {
  (void)x;
  uint64_t ncr = get_count(b, 8 + 8 + 24 + 16 + 2);
  BAD_IF(0);
  for (uint64_t i = 0; i < ncr; i++) {
    CAIRN_TRY(read_crack(b, w, d));
    BAD_IF(0);
  }
  return CAIRN_OK;
}

/* The cell as cell.create, cell.rate and cell.servo leave it: finite, of positive volume. */
static void check_cell(rbuf *b, const periodic_cell *pc) {
  bad_unless_finite(b, pc->centre, 3, "its cell's", "centre");
  bad_unless_finite(b, &pc->H[0][0], 9, "its cell's", "edges (H)");
  bad_unless_finite(b, &pc->F[0][0], 9, "its cell's", "deformation (F)");
  bad_unless_finite(b, &pc->H_rebuild[0][0], 9, "its cell's", "edges at the last rebuild");
  bad_unless_finite(b, &pc->L[0][0], 9, "its cell's", "velocity gradient (L)");
  bad_unless_finite(b, pc->target, 3, "its cell's", "target stresses");
  bad_unless_finite(b, pc->rate_max, 3, "its cell's", "most strain rates");
  double vol = periodic_volume(pc, 3);
  BAD_VALUE(b, !(vol > 0), "its cell's volume is %g (det H > 0)", shown(vol));
  BAD_VALUE(b, !(pc->alpha > 0 && pc->alpha <= 1), "its cell's servo alpha is %g (in (0, 1])",
            shown(pc->alpha));
}

cairn_status read_cell_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d) {
  (void)x, (void)d;
  periodic_cell pc;
  memset(&pc, 0, sizeof pc);
  uint8_t on = get_u8(b);
  BAD_IF(on > 1);
  if (!on) {
    periodic_restore(w, &pc); /* (none) */
    return CAIRN_OK;
  }
  for (int j = 0; j < 3; j++) pc.periodic[j] = get_u8(b), pc.servo[j] = get_u8(b);
  get_f64s(b, pc.centre, 3);
  get_f64s(b, &pc.H[0][0], 9), get_f64s(b, &pc.F[0][0], 9);
  get_f64s(b, &pc.H_rebuild[0][0], 9), get_f64s(b, &pc.L[0][0], 9);
  get_f64s(b, pc.target, 3), get_f64s(b, pc.rate_max, 3), pc.alpha = get_f64(b);
  BAD_IF(0);
  check_cell(b, &pc);
  BAD_IF(0);
  for (int j = 0; j < 3; j++) BAD_IF(pc.periodic[j] > 1 || pc.servo[j] > 1);
  pc.on = 1;
  periodic_restore(w, &pc);
  return CAIRN_OK;
}

/* ---- formats 1 to 7: one payload, the stores in a fixed order ---- */

/* A reader's step: stop at an error or at damage. */
#define READ(call)                                                                                 \
  do {                                                                                             \
    CAIRN_TRY(call);                                                                               \
    if (b->bad) return CAIRN_OK;                                                                   \
  } while (0)

/* What formats 4 to 7 added after the callbacks: applied loads, walls' turning, deleted balls'
   energy and walls' servos (5), cracks, the cell (6), the steps per impact (7). */
static cairn_status read_tail_old(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d) {
  energy_track t = *w->energy;
  t.applied = get_f64(b);
  energy_restore(w, &t);
  READ(read_loads_sec(b, w, x, d));
  for (size_t i = 0; i < w->walls.n; i++) {
    wall wl = w->walls.w[i];
    get_wall_turning(b, &wl);
    BAD_IF(0);
    wall_restore(w, (uint32_t)i, &wl);
  }
  if (b->version >= 5) {
    t = *w->energy;
    t.removed = get_f64(b);
    energy_restore(w, &t);
    for (size_t i = 0; i < w->walls.n; i++) {
      wall wl = w->walls.w[i];
      get_wall_servo(b, &wl);
      BAD_IF(0);
      wall_restore(w, (uint32_t)i, &wl);
    }
  }
  READ(read_cracks_sec(b, w, x, d));
  if (b->version >= 6) READ(read_cell_sec(b, w, x, d));
  if (b->version >= 7) get_impact(b, w);
  return CAIRN_OK;
}

cairn_status read_payload_old(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d) {
  get_clock(b, w);
  if (b->version < 7) /* saved before the steps-per-impact bound: none; the last step's dt was
                          then the timestep */
    world_restore_impact(w, 0, w->kn_m_max, w->step ? w->dt : 0);
  get_domain(b, w);
  if (b->version >= 2) {
    energy_track t = *w->energy;
    get_energy_books(b, &t);
    energy_restore(w, &t);
  }
  x->next_ball = get_i64(b), x->next_wall = get_i64(b);
  READ(read_groups_sec(b, w, x, d));
  READ(read_models_sec(b, w, x, d));
  READ(read_cmat_sec(b, w, x, d));
  READ(read_balls(b, w, d));
  world_restore_next_ids(w, x->next_ball, x->next_wall);
  READ(read_wall_shapes(b, w, d));
  READ(read_contacts_sec(b, w, x, d));
  READ(read_pairs_sec(b, w, x, d));
  READ(read_hist_sec(b, w, x, d));
  READ(read_calls_sec(b, w, x, d));
  if (b->version >= 4) READ(read_tail_old(b, w, x, d));
  BAD_IF(b->pos != b->n);
  return CAIRN_OK;
}

/* ---- CLMP ---- */

static void get_template(rbuf *b, clump_template *t, int dim) {
  get_str(b, t->name, sizeof t->name);
  t->n = (int)get_u32(b);
  if (t->n < 1 || t->n > CLUMP_MAX_PEBBLES || (uint64_t)t->n * 32 > b->n - b->pos) {
    b->bad = 1;
    return;
  }
  t->peb = mem_realloc(NULL, 0, (size_t)t->n * sizeof *t->peb, "restore:template");
  if (!t->peb) {
    b->bad = 1; /* (the caller tells memory from damage by t->peb) */
    return;
  }
  get_f64s(b, &t->peb[0][0], 4 * (size_t)t->n);
  t->volume = get_f64(b), get_f64s(b, t->centre, 3), get_f64s(b, t->inertia, 3);
  get_f64s(b, &t->axes[0][0], 9), get_f64s(b, t->q_axes, 4);
  t->vol_err = get_f64(b), t->centre_err = get_f64(b), t->inertia_err = get_f64(b);
  t->given = get_u8(b);
  if (b->bad) return;
  char who[96];
  snprintf(who, sizeof who, "clump template '%s''s", t->name);
  for (int k = 0; k < t->n; k++) {
    bad_unless_finite(b, t->peb[k], 3, who, "pebble");
    bad_unless_positive(b, t->peb[k][3], who, "pebble radius");
    BAD_VALUE(b, dim == 2 && t->peb[k][2] != 0, "%s pebble %d has z = %g in 2D", who, k + 1,
              shown(t->peb[k][2]));
  }
  bad_unless_positive(b, t->volume, who, "volume");
  bad_unless_finite(b, t->centre, 3, who, "centroid");
  for (int k = dim == 2 ? 2 : 0; k < 3; k++) bad_unless_positive(b, t->inertia[k], who, "inertia");
  bad_unless_finite(b, &t->axes[0][0], 3, who, "axes");
  bad_unless_finite(b, &t->axes[1][0], 3, who, "axes");
  bad_unless_finite(b, &t->axes[2][0], 3, who, "axes");
  double qn = sqrt(t->q_axes[0] * t->q_axes[0] + t->q_axes[1] * t->q_axes[1] +
                   t->q_axes[2] * t->q_axes[2] + t->q_axes[3] * t->q_axes[3]);
  BAD_VALUE(b, !(fabs(qn - 1) < 1e-9), "%s principal frame is not a rotation", who);
  BAD_VALUE(b, t->given > 1, "%s 'given' flag is %d", who, t->given);
}

/* A clump's values as clump.create and the clump setters allow them. */
static void check_clump_row(rbuf *b, const cairn_world *w, const clump_row *r) {
  char who[48];
  snprintf(who, sizeof who, "clump %lld's", (long long)r->id);
  BAD_VALUE(b, r->id < 1 || r->id > CAIRN_ID_MAX, "a clump's id is %lld (from 1 to %ld)",
            (long long)r->id, CAIRN_ID_MAX);
  BAD_VALUE(b, r->tmpl >= w->clumps.n_tmpl, "%s template is %u (the file has %zu)", who, r->tmpl,
            w->clumps.n_tmpl);
  if (b->bad) return;
  BAD_VALUE(b, idmap_get(&w->clumps.map, (uint64_t)r->id) != IDMAP_NONE,
            "clump %lld is there twice", (long long)r->id);
  BAD_VALUE(b, r->count != (uint32_t)w->clumps.tmpl_v[r->tmpl].n,
            "%s %u pebbles are not its template's %d", who, r->count, w->clumps.tmpl_v[r->tmpl].n);
  bad_unless_finite(b, r->pos, 3, who, "position");
  bad_unless_finite(b, r->vel, 3, who, "velocity");
  bad_unless_finite(b, r->spin, 3, who, "spin");
  bad_unless_finite(b, r->amom, 3, who, "angular momentum");
  bad_unless_finite(b, r->force, 3, who, "force");
  bad_unless_finite(b, r->moment, 3, who, "moment");
  double qn = sqrt(r->q[0] * r->q[0] + r->q[1] * r->q[1] + r->q[2] * r->q[2] + r->q[3] * r->q[3]);
  BAD_VALUE(b, !(fabs(qn - 1) < 1e-9), "%s orientation is not a unit quaternion", who);
  bad_unless_positive(b, r->density, who, "density");
  bad_unless_positive(b, r->mass, who, "mass");
  bad_unless_positive(b, r->scale, who, "scale");
  for (int k = w->dim == 2 ? 2 : 0; k < 3; k++)
    bad_unless_positive(b, r->inertia[k], who, "inertia");
  BAD_VALUE(b, !(r->damp >= 0 && r->damp < 1), "%s local damping is %g (in [0, 1))", who,
            shown(r->damp));
  BAD_VALUE(b, r->fix & ~(FIX_VEL | FIX_SPIN), "%s fixity is 0x%x", who, r->fix);
  BAD_VALUE(b, r->group >= w->n_groups, "%s group is %u (the file names %zu groups)", who, r->group,
            (size_t)w->n_groups);
}

cairn_status read_clumps_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d) {
  (void)x;
  uint64_t nt = get_count(b, 4 + 4 + 32 + 8 * 26 + 1);
  BAD_IF(0);
  for (uint64_t k = 0; k < nt; k++) {
    clump_template t;
    memset(&t, 0, sizeof t);
    get_template(b, &t, w->dim);
    if (b->bad && !t.peb && t.n >= 1 && t.n <= CLUMP_MAX_PEBBLES && !b->why[0] &&
        (uint64_t)t.n * 32 <= b->n - b->pos)
      return diag_set(d, CAIRN_ENOMEM, "out of memory restoring a clump template");
    if (b->bad) {
      mem_free(t.peb, 0);
      return CAIRN_OK;
    }
    cairn_status s = clump_template_restore(w, &t, d); /* (takes t.peb) */
    if (s) {
      mem_free(t.peb, 0);
      return s;
    }
  }
  uint64_t nc = get_count(b, 8 + 4 + 8 * 31 + 1 + 2 + 4);
  BAD_IF(0);
  for (uint64_t c = 0; c < nc; c++) {
    clump_row r;
    memset(&r, 0, sizeof r);
    r.id = get_i64(b);
    r.tmpl = get_u32(b);
    get_f64s(b, r.pos, 3), get_f64s(b, r.vel, 3), get_f64s(b, r.spin, 3);
    get_f64s(b, r.amom, 3), get_f64s(b, r.q, 4);
    r.density = get_f64(b), r.mass = get_f64(b), r.damp = get_f64(b);
    r.scale = get_f64(b);
    get_f64s(b, r.inertia, 3), get_f64s(b, r.force, 3), get_f64s(b, r.moment, 3);
    r.fix = get_u8(b), r.group = get_u16(b);
    r.count = get_u32(b);
    BAD_IF(0);
    check_clump_row(b, w, &r);
    BAD_IF((uint64_t)r.count * 32 > b->n - b->pos);
    size_t first = w->clumps.n_peb;
    CAIRN_TRY(clump_restore(w, &r, d));
    for (uint32_t p = 0; p < r.count; p++) {
      int64_t id = get_i64(b);
      double off[3];
      get_f64s(b, off, 3);
      BAD_IF(0);
      bad_unless_finite(b, off, 3, "a pebble's", "offset");
      BAD_VALUE(b, idmap_get(&w->balls.map, (uint64_t)id) == IDMAP_NONE,
                "clump %lld's pebble %lld is not among the balls", (long long)r.id, (long long)id);
      BAD_IF(0);
      clump_restore_pebble(w, first + p, id, off);
    }
  }
  int64_t next = get_i64(b);
  BAD_IF(next < 0 || next > CAIRN_ID_MAX + 1L);
  w->clumps.next_id = next;
  return CAIRN_OK;
}

cairn_status clumps_whole(cairn_world *w, char *why, size_t n, cairn_diag *d) {
  const ball_store *bs = &w->balls;
  size_t marked = 0;
  for (size_t i = 0; i < bs->n; i++) marked += (bs->fix[i] & FIX_CLUMP) != 0;
  if (marked != w->clumps.n_peb) {
    snprintf(why, n, "%zu balls are marked as pebbles but its clumps have %zu", marked,
             w->clumps.n_peb);
    return CAIRN_OK;
  }
  if (!w->clumps.n) return CAIRN_OK;
  w->clumps.slots_ok = 0;
  CAIRN_TRY(clump_slots(w, d));
  const clump_store *cs = &w->clumps;
  for (size_t p = 0; p < cs->n_peb; p++) {
    uint32_t s = cs->peb_slot[p];
    if (!(bs->fix[s] & FIX_CLUMP) || cs->body_of[s] != cs->peb_clump[p]) {
      snprintf(why, n, "ball %lld is a pebble of clump %lld but not marked so, or of two clumps",
               (long long)bs->id[s], (long long)cs->id[cs->peb_clump[p]]);
      return CAIRN_OK;
    }
  }
  return CAIRN_OK;
}

/* ---- XTRA ---- */

cairn_status read_extras_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d) {
  (void)x;
  uint64_t n = get_count(b, 8 + 8 * BALL_EXTRAS);
  BAD_IF(0);
  for (uint64_t r = 0; r < n; r++) {
    int64_t id = get_i64(b);
    double v[BALL_EXTRAS];
    get_f64s(b, v, BALL_EXTRAS);
    BAD_IF(0);
    BAD_VALUE(b, idmap_get(&w->balls.map, (uint64_t)id) == IDMAP_NONE,
              "extra variables name ball %lld, which is not among the balls", (long long)id);
    BAD_VALUE(b, idmap_get(&w->balls.extras.map, (uint64_t)id) != IDMAP_NONE,
              "ball %lld's extra variables are there twice", (long long)id);
    BAD_IF(0);
    for (int k = 0; k < BALL_EXTRAS; k++) CAIRN_TRY(ball_extra_set(&w->balls, id, k, v[k], d));
  }
  return CAIRN_OK;
}

/* ---- CDSP ---- */

cairn_status read_cumdisp_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d) {
  (void)x;
  uint64_t n = get_count(b, 8 + 24);
  BAD_IF(0);
  CAIRN_TRY(ball_cumdisp_track(&w->balls, 1, d));
  ball_cumdisp *c = &w->balls.cum;
  for (size_t r = 0; r < c->n; r++) v3_zero(c->d[r]); /* (the saved rows say what they hold) */
  for (uint64_t r = 0; r < n; r++) {
    int64_t id = get_i64(b);
    double v[3];
    get_f64s(b, v, 3);
    BAD_IF(0);
    bad_unless_finite(b, v, 3, "a ball's", "tracked displacement");
    uint32_t s = idmap_get(&w->balls.map, (uint64_t)id);
    BAD_VALUE(b, s == IDMAP_NONE,
              "a tracked displacement names ball %lld, which is not among "
              "the balls",
              (long long)id);
    BAD_IF(0);
    uint32_t row = idmap_get(&c->map, (uint64_t)id);
    v3_copy(v, c->d[row]);
  }
  return CAIRN_OK;
}

/* ---- SKEY ---- */

cairn_status read_skeys_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d) {
  (void)x, (void)d;
  ball_store *bs = &w->balls;
  uint64_t n = get_count(b, 8);
  BAD_IF(0);
  BAD_VALUE(b, n != bs->n, "it holds neighbour keys for %llu balls, not for its %zu balls",
            (unsigned long long)n, bs->n);
  BAD_IF(0);
  for (size_t i = 0; i < n; i++) {
    uint64_t key;
    memcpy(&key, b->p + b->pos + 8 * i, 8);
    /* a rebuild's key: a Morton code of 30 bits, then the ball's id; or none yet */
    int ok = key == UINT64_MAX || ((key & CAIRN_ID_MAX) == (uint64_t)bs->id[i] && key >> 61 == 0);
    BAD_VALUE(b, !ok, "ball %lld's neighbour key %llu does not belong to it", (long long)bs->id[i],
              (unsigned long long)key);
    BAD_IF(0);
  }
  get(b, bs->skey, n * sizeof *bs->skey);
  BAD_IF(0);
  return CAIRN_OK;
}

/* ---- JNTS ---- */

cairn_status read_joints_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d) {
  uint64_t n = get_count(b, 7 * 8 + 4 + 8 + 8);
  BAD_IF(0);
  for (uint64_t i = 0; i < n; i++) {
    double point[3], normal[3], radius, props[256];
    get_f64s(b, point, 3), get_f64s(b, normal, 3), radius = get_f64(b);
    cmat_entry ce;
    get_entry(b, w, x->maps, x->n_maps, &ce, props);
    BAD_IF(0);
    char who[48];
    snprintf(who, sizeof who, "joint %llu's", (unsigned long long)i + 1);
    bad_unless_finite(b, point, 3, who, "point");
    double l = sqrt(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]);
    BAD_VALUE(b, !(fabs(l - 1) < 1e-9), "%s normal (%g, %g, %g) has length %g (a unit vector)", who,
              normal[0], normal[1], normal[2], l);
    BAD_VALUE(b, !(radius == -1 || (radius > 0 && isfinite(radius))),
              "%s radius is %g (-1, the whole plane, or a finite number > 0)", who, radius);
    BAD_IF(0);
    CAIRN_TRY(cmat_add_joint(w, point, normal, radius, ce.model, props, ce.setmask, d));
  }
  return CAIRN_OK;
}

/* ---- MESH ---- */

cairn_status read_meshes_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d) {
  (void)x;
  uint64_t n = get_count(b, 8 + 40 + 16);
  BAD_IF(0);
  for (uint64_t k = 0; k < n; k++) {
    int64_t id = get_i64(b);
    double q[4], reach;
    get_f64s(b, q, 4), reach = get_f64(b);
    uint64_t nv = get_count(b, 24);
    BAD_IF(0);
    size_t at_v = b->pos;
    b->pos += 24 * nv; /* (read in place below) */
    BAD_IF(b->pos > b->n);
    uint64_t nt = get_count(b, 12);
    BAD_IF(0);
    size_t at_t = b->pos;
    b->pos += 12 * nt;
    BAD_IF(b->pos > b->n || nv < 3 || nt < 1 || nt >= (1u << 30) || nv > 3 * nt);
    uint32_t slot = idmap_get(&w->walls.map, (uint64_t)id);
    BAD_VALUE(b, slot == IDMAP_NONE, "a mesh names wall %lld, which is not among the walls",
              (long long)id);
    BAD_IF(0);
    wall *wl = &w->walls.w[slot];
    BAD_VALUE(b, wl->kind != WALL_MESH || wl->mesh,
              "wall %lld has a mesh but is not a mesh wall, or has two", (long long)id);
    double qn = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    BAD_VALUE(b, !(fabs(qn - 1) < 1e-9), "wall %lld's orientation is not a unit quaternion",
              (long long)id);
    BAD_VALUE(b, !(reach >= 0) || !isfinite(reach), "wall %lld's mesh reach is %g", (long long)id,
              reach);
    BAD_IF(0);
    double(*v)[3] = mem_realloc(NULL, 0, (size_t)nv * sizeof *v, "restore:mesh");
    uint32_t(*t)[3] = mem_realloc(NULL, 0, (size_t)nt * sizeof *t, "restore:mesh");
    if (!v || !t) {
      mem_free(v, 0), mem_free(t, 0);
      return diag_set(d, CAIRN_ENOMEM, "out of memory restoring a mesh of %llu triangles",
                      (unsigned long long)nt);
    }
    memcpy(v, b->p + at_v, (size_t)nv * sizeof *v);
    memcpy(t, b->p + at_t, (size_t)nt * sizeof *t);
    int ok = 1;
    for (uint64_t i = 0; i < nv && ok; i++) ok = isfinite(v[i][0] + v[i][1] + v[i][2]);
    for (uint64_t i = 0; i < nt && ok; i++) ok = t[i][0] < nv && t[i][1] < nv && t[i][2] < nv;
    char what[64];
    snprintf(what, sizeof what, "wall %lld's mesh", (long long)id);
    cairn_status s = CAIRN_OK;
    if (ok)
      s = mesh_from_arrays((const double(*)[3])v, (size_t)nv, (const uint32_t(*)[3])t, (size_t)nt,
                           w->dim == 2, what, &wl->mesh, d);
    mem_free(v, 0), mem_free(t, 0);
    BAD_VALUE(b, !ok, "%s has a vertex that is not finite or a triangle naming no vertex", what);
    BAD_IF(0);
    if (s == CAIRN_EINVAL) { /* a mesh the checks refuse: the file is damaged */
      bad_value(b, "%s", d->msg);
      return CAIRN_OK;
    }
    CAIRN_TRY(s);
    memcpy(wl->orient, q, sizeof q);
    wall_note_orient(wl);
    wl->mesh_reach = reach;
  }
  return CAIRN_OK;
}

cairn_status meshes_whole(const cairn_world *w, char *why, size_t n) {
  for (size_t i = 0; i < w->walls.n; i++)
    if (w->walls.w[i].kind == WALL_MESH && !w->walls.w[i].mesh) {
      snprintf(why, n, "mesh wall %lld has no mesh", (long long)w->walls.w[i].id);
      break;
    }
  return CAIRN_OK;
}

/* ---- WMOT ---- */

cairn_status read_motions_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d) {
  (void)x;
  uint64_t n = get_count(b, 8 + 12 + 7 * 8);
  BAD_IF(0);
  for (uint64_t k = 0; k < n; k++) {
    int64_t id = get_i64(b);
    wall_motion m;
    memset(&m, 0, sizeof m);
    uint32_t np = get_u32(b), hv = get_u32(b), hs = get_u32(b);
    BAD_IF(np < 1 || np > WALL_MOTION_MAX_POINTS || hv > 1 || hs > 1);
    m.n_points = (int)np, m.has_vel = (uint8_t)hv, m.has_spin = (uint8_t)hs;
    get_f64s(b, m.t, np);
    for (uint32_t i = 0; i < np; i++) get_f64s(b, m.vel[i], 3);
    for (uint32_t i = 0; i < np; i++) get_f64s(b, m.spin[i], 3);
    BAD_IF(0);
    uint32_t slot = idmap_get(&w->walls.map, (uint64_t)id);
    BAD_VALUE(b, slot == IDMAP_NONE, "a motion table names wall %lld, which is not among the walls",
              (long long)id);
    BAD_IF(0);
    wall *wl = &w->walls.w[slot];
    BAD_VALUE(b, wl->motion.n_points, "wall %lld has two motion tables", (long long)id);
    BAD_IF(0);
    /* checked as wall.motion checks it, on a copy: the restored velocity and spin stay those
       saved (the next step takes the table's) */
    wall scratch = *wl;
    cairn_diag why;
    if (wall_set_motion(w, &scratch, &m, w->time, &why) != CAIRN_OK) {
      bad_value(b, "%s", why.msg);
      return CAIRN_OK;
    }
    wl->motion = m;
  }
  return CAIRN_OK;
}

/* ---- PRTS ---- */

typedef struct keyed_ball {
  uint64_t key;
  int64_t id;
  uint32_t slot;
} keyed_ball;
static int keyed_ball_cmp(const void *x, const void *y) {
  const keyed_ball *a = x, *b = y;
  return ball_order_cmp(a->key, a->id, b->key, b->id);
}

static int u64_cmp(const void *x, const void *y) {
  uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
  return (a > b) - (a < b);
}

/* A part's balls (after the balls of the parts before it) with their neighbour keys. */
static cairn_status read_part_balls(rbuf *b, cairn_world *w, cairn_diag *d) {
  size_t first = w->balls.n;
  CAIRN_TRY(read_balls(b, w, d));
  BAD_IF(0);
  if (w->balls.n > first) /* (no arrays yet without balls) */
    get(b, w->balls.skey + first, (w->balls.n - first) * sizeof *w->balls.skey);
  return CAIRN_OK;
}

/* The balls in the order one process keeps them: by neighbour key, then id. */
static cairn_status order_balls(cairn_world *w, cairn_diag *d) {
  size_t n = w->balls.n;
  if (n == 0) return CAIRN_OK;
  keyed_ball *k = mem_realloc(NULL, 0, (n + 1) * sizeof *k, "restore:parts");
  uint32_t *order = mem_realloc(NULL, 0, (n + 1) * sizeof *order, "restore:parts");
  cairn_status s =
      k && order ? CAIRN_OK : diag_set(d, CAIRN_ENOMEM, "out of memory ordering %zu balls", n);
  for (size_t i = 0; i < n && s == CAIRN_OK; i++)
    k[i] = (keyed_ball){w->balls.skey[i], w->balls.id[i], (uint32_t)i};
  if (s == CAIRN_OK) qsort(k, n, sizeof *k, keyed_ball_cmp);
  for (size_t i = 0; i < n && s == CAIRN_OK; i++) order[i] = k[i].slot;
  if (s == CAIRN_OK) s = balls_keep(w, order, n, d);
  mem_free(k, 0), mem_free(order, 0);
  return s;
}

/* A part's contacts (sides by id), then its pairs' keys (added to *keys) and its cracks. */
static cairn_status read_part_rest(rbuf *b, cairn_world *w, restore_ctx *x, uint64_t **keys,
                                   size_t *nk, size_t *cap, cairn_diag *d) {
  uint64_t nc = get_count(b, 1 + 8 + 8 + 4 + 11 * 8 + 4 + 8);
  BAD_IF(0);
  for (uint64_t c = 0; c < nc; c++) {
    int kb = get_u8(b), kind = kb & 3, sub = kb >> 2;
    int64_t id1 = get_i64(b), id2 = get_i64(b);
    BAD_IF(kind > CAIRN_KIND_BALL_WALL);
    uint32_t a =
        idmap_get(kind == CAIRN_KIND_BALL_BALL ? &w->balls.map : &w->walls.map, (uint64_t)id1);
    uint32_t bb = idmap_get(&w->balls.map, (uint64_t)id2);
    BAD_VALUE(b, a == IDMAP_NONE || bb == IDMAP_NONE,
              "a contact names %s %lld and ball %lld, which are not both there",
              kind == CAIRN_KIND_BALL_BALL ? "ball" : "wall", (long long)id1, (long long)id2);
    BAD_IF(0);
    BAD_VALUE(b, idmap_get(&w->contacts->map, contact_key(kind + sub, id1, id2)) != IDMAP_NONE,
              "the contact of %s %lld and ball %lld is there twice",
              kind == CAIRN_KIND_BALL_BALL ? "ball" : "wall", (long long)id1, (long long)id2);
    BAD_IF(0);
    CAIRN_TRY(read_contact_rest(b, w, x, kind, sub, a, bb, d));
    BAD_IF(0);
  }
  uint64_t np = get_count(b, 8);
  BAD_IF(0);
  CAIRN_TRY(mem_grow((void **)keys, cap, *nk + np + 1, sizeof **keys, "restore:pairs", d));
  get(b, *keys + *nk, np * sizeof **keys);
  *nk += np;
  return read_cracks_sec(b, w, x, d); /* (a count, then the cracks: as CRAK holds them) */
}

/* The pair list from the parts' keys, once each (a pair that joined two ranks came from both),
   in the order of the keys, with their contacts; a contact without a pair gets its own, as a
   rebuild gives it. Keys that name balls not there are dropped (the list is a cache). */
static cairn_status join_pairs(cairn_world *w, uint64_t *keys, size_t nk, cairn_diag *d) {
  contact_store *cs = w->contacts;
  qsort(keys, nk, sizeof *keys, u64_cmp);
  size_t cap = nk + cs->n + 1;
  unsigned char *blk = mem_realloc(NULL, 0, 14 * cap + cs->n + 1, "restore:pairs");
  CAIRN_CHECK(blk, d, CAIRN_ENOMEM, "out of memory restoring the pair list");
  uint32_t *a = (uint32_t *)blk, *bb = a + cap, *contact = bb + cap;
  uint8_t *kind = (uint8_t *)(contact + cap), *sub = kind + cap, *paired = sub + cap;
  memset(paired, 0, cs->n + 1);
  size_t np = 0;
  for (size_t i = 0; i < nk; i++) {
    if (i && keys[i] == keys[i - 1]) continue;
    int k, sb;
    int64_t i1, i2;
    contact_key_split(keys[i], &k, &sb, &i1, &i2);
    uint32_t s1 =
        idmap_get(k == CAIRN_KIND_BALL_BALL ? &w->balls.map : &w->walls.map, (uint64_t)i1);
    uint32_t s2 = idmap_get(&w->balls.map, (uint64_t)i2);
    if (s1 == IDMAP_NONE || s2 == IDMAP_NONE || kind_bad(w, k, sb, s1, s2)) continue;
    uint32_t c = idmap_get(&cs->map, keys[i]);
    kind[np] = (uint8_t)k, sub[np] = (uint8_t)sb, a[np] = s1, bb[np] = s2, contact[np] = c;
    if (c != IDMAP_NONE) paired[c] = 1;
    np++;
  }
  for (size_t c = 0; c < cs->n; c++)
    if (!paired[c]) {
      kind[np] = cs->kind[c], sub[np] = cs->sub[c], a[np] = cs->a[c], bb[np] = cs->b[c];
      contact[np++] = (uint32_t)c;
    }
  const pair_list *p = w->pairs; /* (its skin, staleness and rebuilds: section PAIR) */
  cairn_status s =
      pairs_restore(w, np, kind, sub, a, bb, contact, p->skin, p->dirty, p->rebuilds, d);
  mem_free(blk, 0);
  return s;
}

/* read_parts_sec with the parts' bounds: part r lies in [start[r], start[r + 1]), its contacts
   from mid[r] on. */
static cairn_status read_parts(rbuf *b, cairn_world *w, restore_ctx *x, uint32_t P, size_t *start,
                               size_t *mid, uint64_t **keys, size_t *cap, cairn_diag *d) {
  size_t at = b->pos + 16 * (size_t)P;
  for (uint32_t r = 0; r < P; r++) {
    uint64_t len = get_u64(b);
    get_u64(b); /* (its checksum: checked with the file's) */
    BAD_IF(at > b->n || len > b->n - at);
    start[r] = at, at += (size_t)len;
  }
  start[P] = at;
  BAD_IF(at != b->n);
  for (uint32_t r = 0; r < P; r++) { /* the balls of every part, then in their order */
    b->pos = start[r];
    CAIRN_TRY(read_part_balls(b, w, d));
    BAD_IF(b->pos > start[r + 1]);
    mid[r] = b->pos;
  }
  CAIRN_TRY(order_balls(w, d));
  size_t nk = 0;
  for (uint32_t r = 0; r < P; r++) {
    b->pos = mid[r];
    CAIRN_TRY(read_part_rest(b, w, x, keys, &nk, cap, d));
    BAD_IF(b->pos != start[r + 1]);
  }
  CAIRN_TRY(contact_sort_by_key(w, d));
  CAIRN_TRY(join_pairs(w, *keys, nk, d));
  crack_set *k = w->cracks;
  if (k->n) qsort(k->c, k->n, sizeof *k->c, crack_order);
  return CAIRN_OK;
}

cairn_status read_parts_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d) {
  uint32_t P = get_u32(b);
  BAD_IF(P == 0 || (b->n - b->pos) / 16 < P || w->balls.n || w->contacts->n);
  size_t *start = mem_realloc(NULL, 0, 2 * ((size_t)P + 1) * sizeof *start, "restore:parts");
  CAIRN_CHECK(start, d, CAIRN_ENOMEM, "out of memory reading the ranks' parts");
  uint64_t *keys = NULL;
  size_t cap = 0;
  cairn_status s = read_parts(b, w, x, P, start, start + P + 1, &keys, &cap, d);
  mem_free(start, 0), mem_free(keys, 0);
  return s;
}
