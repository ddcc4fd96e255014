/* Save and restore: everything needed to continue a run bit for bit (balls, walls, contacts with
   their models' properties and state matched by name, the pair list, time, the assignment table,
   recorded histories). The file is versioned and checksummed, written atomically, and read into
   a new world that replaces the current one only when the whole file was good.

   Layout: "CAIRNSAV", u32 format version, u32 byte-order mark, u64 payload size, the payload,
   u64 FNV-1a checksum of the payload. Numbers are stored in the machine's byte order (the mark
   refuses a file from a machine of the other order). */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "contact/contact.h"
#include "contact/model_call.h"
#include "cycle/cycle.h"
#include "detect/detect.h"
#include "io/io.h"
#include "contact/energy.h"
#include "contact/cracks.h"

#define SAVE_MAGIC "CAIRNSAV"
/* 2: the energy sums after the domain; 3: contacts in global coordinates (normal, force, moment,
   contact-plane state as a normal component and a global in-plane vector), no stored frame */
#define SAVE_VERSION 7u
#define SAVE_VERSION_OLDEST 1u
#define SAVE_BOM 0x01020304u

static long fail_after_bytes = -1; /* test hook: fail a save after this many bytes */

void cairn_io_fail_after(long bytes) {
  fail_after_bytes = bytes;
}

/* ---- writing ---------------------------------------------------------------------------- */

typedef struct wbuf {
  unsigned char *p;
  size_t n, cap;
  int oom;
} wbuf;

static void put(wbuf *b, const void *src, size_t n) {
  if (b->oom || n == 0) return;
  if (b->n + n > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->n + n) cap *= 2;
    unsigned char *q = mem_realloc(b->p, b->cap, cap, "save:buffer");
    if (!q) {
      b->oom = 1;
      return;
    }
    b->p = q, b->cap = cap;
  }
  memcpy(b->p + b->n, src, n);
  b->n += n;
}
static void put_u8(wbuf *b, uint8_t v) {
  put(b, &v, 1);
}
static void put_u16(wbuf *b, uint16_t v) {
  put(b, &v, 2);
}
static void put_u32(wbuf *b, uint32_t v) {
  put(b, &v, 4);
}
static void put_u64(wbuf *b, uint64_t v) {
  put(b, &v, 8);
}
static void put_i64(wbuf *b, int64_t v) {
  put(b, &v, 8);
}
static void put_f64(wbuf *b, double v) {
  put(b, &v, 8);
}
static void put_f64s(wbuf *b, const double *v, size_t n) {
  put(b, v, n * sizeof *v);
}
static void put_str(wbuf *b, const char *s) {
  uint32_t n = (uint32_t)strlen(s);
  put_u32(b, n);
  put(b, s, n);
}

static uint64_t fnv1a(const unsigned char *p, size_t n) {
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ULL;
  return h;
}

/* A property block of model e: its row names and slot counts, then the values in table order. */
static void put_layout(wbuf *b, const model_entry *e) {
  const cairn_contact_model *m = e->m;
  put_str(b, m->name);
  put_u32(b, (uint32_t)m->version);
  put_str(b, e->source);
  put_u32(b, (uint32_t)m->n_props);
  for (int i = 0; i < m->n_props; i++) {
    put_str(b, m->props[i].name);
    put_u32(b,
            m->props[i].access == CAIRN_ALIAS ? 0u : (uint32_t)cairn_prop_slots(m->props[i].type));
  }
  put_u32(b, (uint32_t)m->n_state);
  for (int i = 0; i < m->n_state; i++) {
    put_str(b, m->state[i].name);
    put_u32(b, (uint32_t)cairn_state_slots(&m->state[i]));
  }
}

static void put_entry(wbuf *b, const cairn_world *w, const cmat_entry *ce) {
  put_u32(b, (uint32_t)ce->model);
  put_f64(b, ce->proximity);
  put_u64(b, ce->setmask);
  put_f64s(b, ce->props, (size_t)w->reg->e[ce->model].n_prop_slots);
}

static void put_world(wbuf *b, const cairn_world *w, const char *const *cb, int n_cb) {
  put_u32(b, (uint32_t)w->dim);
  put_f64s(b, w->gravity, 3);
  put_u32(b, (uint32_t)w->ts_mode);
  put_f64(b, w->dt), put_f64(b, w->dt_safety), put_f64(b, w->time);
  put_u64(b, w->step);
  put_u32(b, (uint32_t)w->has_domain);
  put_f64s(b, w->dom_min, 3), put_f64s(b, w->dom_max, 3);
  put_u32(b, (uint32_t)w->dom_cond);
  put_u64(b, w->n_destroyed);
  put_u32(b, (uint32_t)(w->energy->on | w->energy->started << 1));
  put_f64(b, w->energy->gravity), put_f64(b, w->energy->walls), put_f64(b, w->energy->damping);
  double retired[CAIRN_ENERGY_N], removed; /* (with the losses not yet folded in) */
  energy_totals(w, retired, &removed);
  put_f64s(b, retired, CAIRN_ENERGY_N), put_f64(b, w->energy->start);
  put_i64(b, w->next_ball_id), put_i64(b, w->next_wall_id);
  put_u32(b, (uint32_t)w->n_groups);
  for (size_t g = 1; g < w->n_groups; g++) put_str(b, w->groups[g]);
  put_u32(b, (uint32_t)w->reg->n);
  for (size_t i = 0; i < w->reg->n; i++) put_layout(b, &w->reg->e[i]);
  for (int k = 0; k < 2; k++) put_entry(b, w, &w->cmat->def[k]);
  put_u32(b, (uint32_t)w->cmat->n_rules);
  for (size_t r = 0; r < w->cmat->n_rules; r++) {
    const cmat_rule *ru = &w->cmat->rules[r];
    put_u32(b, (uint32_t)(ru->kind + 1));
    put_u16(b, ru->g1), put_u16(b, ru->g2);
    put_entry(b, w, &ru->e);
  }
  const ball_store *bs = &w->balls;
  size_t n = bs->n;
  put_u64(b, n);
  if (n) { /* (no arrays yet without balls) */
    put(b, bs->id, n * sizeof *bs->id);
    put_f64s(b, &bs->pos[0][0], 3 * n), put_f64s(b, &bs->vel[0][0], 3 * n);
    put_f64s(b, &bs->spin[0][0], 3 * n), put_f64s(b, &bs->force[0][0], 3 * n);
    put_f64s(b, &bs->moment[0][0], 3 * n), put_f64s(b, &bs->disp[0][0], 3 * n);
    put_f64s(b, bs->rad, n), put_f64s(b, bs->density, n), put_f64s(b, bs->mass, n);
    put_f64s(b, bs->inertia, n), put_f64s(b, bs->damp, n), put_f64s(b, bs->k_tran, n);
    put_f64s(b, bs->k_rot, n);
    put(b, bs->fix, n), put(b, bs->group, n * sizeof *bs->group);
  }
  put_u32(b, (uint32_t)w->walls.n);
  for (size_t i = 0; i < w->walls.n; i++) {
    const wall *wl = &w->walls.w[i];
    put_i64(b, wl->id);
    put_u32(b, (uint32_t)wl->kind), put_u32(b, (uint32_t)wl->n_nodes);
    put_f64s(b, &wl->nodes[0][0], 3 * (size_t)wl->n_nodes);
    put_f64s(b, wl->point, 3), put_f64s(b, wl->normal, 3), put_f64s(b, wl->vel, 3);
    put_f64s(b, wl->disp, 3), put_f64s(b, wl->force, 3), put_f64s(b, wl->last_dx, 3);
    put_u16(b, wl->group);
  }
  const contact_store *cs = w->contacts;
  put_u64(b, cs->n);
  for (size_t c = 0; c < cs->n; c++) {
    const model_entry *e = &w->reg->e[cs->model[c]];
    put_u8(b, cs->kind[c]);
    put_u32(b, cs->a[c]), put_u32(b, cs->b[c]), put_u32(b, (uint32_t)cs->model[c]);
    put_f64s(b, cs->normal[c], 3), put_f64(b, cs->gap[c]);
    put_f64s(b, cs->force[c], 3), put_f64s(b, cs->moment[c], 3);
    put_f64(b, cs->prox[c]);
    put_u8(b, cs->active[c]), put_u8(b, cs->first[c]), put_u8(b, cs->deletable[c]);
    put_u8(b, cs->unchecked[c]);
    put_u64(b, e->ppool.setmask[cs->pblk[c]]);
    put_f64s(b, pool_props(e, cs->pblk[c]), (size_t)e->n_prop_slots);
    put_f64s(b, pool_state(e, cs->blk[c]), (size_t)e->n_state_slots);
  }
  const pair_list *p = w->pairs;
  put_u64(b, p->n), put_f64(b, p->skin), put_u32(b, (uint32_t)pairs_stale(w)),
      put_u64(b, p->rebuilds);
  put(b, p->kind, p->n), put(b, p->a, 4 * p->n), put(b, p->b, 4 * p->n);
  put(b, p->contact, 4 * p->n);
  const history_set *hs = w->hist;
  put_u32(b, (uint32_t)hs->n), put_u64(b, hs->interval), put_u64(b, hs->n_rows);
  put_f64s(b, hs->step, hs->n_rows), put_f64s(b, hs->time, hs->n_rows);
  for (size_t i = 0; i < hs->n; i++) {
    put_str(b, hs->h[i].name);
    put_f64s(b, hs->h[i].v, hs->n_rows);
  }
  put_u32(b, (uint32_t)n_cb);
  for (int i = 0; i < n_cb; i++) put_str(b, cb[i]);
  /* format 4: the work of applied loads, and the loads */
  put_f64(b, w->energy->applied);
  const load_set *l = &w->loads;
  put_u64(b, l->n);
  for (size_t i = 0; i < l->n; i++) {
    put_i64(b, l->id[i]);
    put_f64s(b, l->f[i], 3), put_f64s(b, l->m[i], 3);
  }
  /* format 4: walls' turning */
  for (size_t i = 0; i < w->walls.n; i++) {
    const wall *wl = &w->walls.w[i];
    put_f64s(b, wl->spin, 3), put_f64s(b, wl->centre, 3), put_f64s(b, wl->last_dtheta, 3);
    put_f64s(b, wl->torque, 3), put_f64(b, wl->rot_disp);
  }
  /* format 5: the energy of deleted balls; walls' translation since creation, and servos */
  put_f64(b, removed);
  for (size_t i = 0; i < w->walls.n; i++) {
    const wall_servo *sv = &w->walls.w[i].servo;
    put_f64s(b, w->walls.w[i].moved, 3);
    put_f64(b, w->walls.w[i].radius), put_f64(b, w->walls.w[i].radial_vel);
    put_f64(b, w->walls.w[i].last_dr);
    put_u8(b, sv->mode);
    if (sv->mode == SERVO_OFF) continue;
    put_u8(b, sv->warned), put_u8(b, sv->reached), put_u32(b, sv->held);
    put_u32(b, (uint32_t)sv->n_points);
    put_f64s(b, sv->t, sv->n_points), put_f64s(b, sv->target, sv->n_points);
    put_f64s(b, sv->axis, 3), put_f64(b, sv->area);
    put_i64(b, sv->width[0]), put_i64(b, sv->width[1]);
    put_i64(b, sv->depth[0]), put_i64(b, sv->depth[1]);
    put_f64(b, sv->vmax), put_f64(b, sv->alpha), put_u64(b, sv->saturated);
    put_f64(b, sv->err_start);
    put_f64(b, sv->measured);
  }
  /* format 4: the cracks */
  put_u64(b, w->cracks->n);
  for (size_t i = 0; i < w->cracks->n; i++) {
    const crack *k = &w->cracks->c[i];
    put_u64(b, k->step), put_f64(b, k->time), put_f64s(b, k->pos, 3);
    put_i64(b, k->id1), put_i64(b, k->id2), put_u8(b, k->kind), put_u8(b, k->tension);
  }
  /* format 6: the periodic cell */
  const periodic_cell *pc = &w->cell;
  put_u8(b, (uint8_t)pc->on);
  if (pc->on) {
    for (int j = 0; j < 3; j++) put_u8(b, pc->periodic[j]), put_u8(b, pc->servo[j]);
    put_f64s(b, pc->centre, 3);
    put_f64s(b, &pc->H[0][0], 9), put_f64s(b, &pc->F[0][0], 9);
    put_f64s(b, &pc->H_rebuild[0][0], 9), put_f64s(b, &pc->L[0][0], 9);
    put_f64s(b, pc->target, 3), put_f64s(b, pc->rate_max, 3), put_f64(b, pc->alpha);
  }
  /* format 7: the automatic timestep's steps per impact, the stiffest contact for its mass at
     the last force pass (the next step's bound, as the balls' stiffness sums are), and the
     timestep of the last step taken */
  put_f64(b, w->dt_impact), put_f64(b, w->kn_m_max), put_f64(b, w->dt_taken);
}

cairn_status io_save(const cairn_world *w, const char *path, const char *const *cb, int n_cb,
                     cairn_diag *d) {
  wbuf pay = {0};
  put_world(&pay, w, cb, n_cb);
  if (pay.oom) {
    mem_free(pay.p, pay.cap);
    return diag_set(d, CAIRN_ENOMEM, "out of memory saving to '%s'", path);
  }
  uint32_t version = SAVE_VERSION, bom = SAVE_BOM;
  uint64_t size = pay.n, sum = fnv1a(pay.p, pay.n);
  atomic_file af;
  cairn_status s = io_atomic_open(&af, path, d);
  if (s != CAIRN_OK) {
    mem_free(pay.p, pay.cap);
    return s;
  }
  const struct {
    const void *p;
    size_t n;
  } parts[] = {{SAVE_MAGIC, 8}, {&version, 4}, {&bom, 4}, {&size, 8}, {pay.p, pay.n}, {&sum, 8}};
  size_t written = 0;
  int failed = 0;
  for (size_t i = 0; i < sizeof parts / sizeof *parts && !failed; i++) {
    size_t n = parts[i].n;
    if (fail_after_bytes >= 0 && written + n > (size_t)fail_after_bytes) { /* simulated failure */
      fwrite(parts[i].p, 1, (size_t)fail_after_bytes - written, af.f);
      failed = 1;
      errno = ENOSPC;
      break;
    }
    if (fwrite(parts[i].p, 1, n, af.f) != n) failed = 1;
    written += n;
  }
  mem_free(pay.p, pay.cap);
  if (failed) {
    int err = errno;
    io_atomic_abort(&af);
    return diag_set(d, CAIRN_EIO,
                    "cannot save to '%s': %s; an earlier file of that name is "
                    "unchanged",
                    path, strerror(err));
  }
  return io_atomic_commit(&af, d);
}

/* ---- reading ---------------------------------------------------------------------------- */

typedef struct rbuf {
  const unsigned char *p;
  size_t n, pos;
  int bad;
  uint32_t version; /* of the file's format */
} rbuf;

static void get(rbuf *b, void *dst, size_t n) {
  if (n == 0) return;
  if (b->bad || n > b->n - b->pos) {
    b->bad = 1;
    memset(dst, 0, n);
    return;
  }
  memcpy(dst, b->p + b->pos, n);
  b->pos += n;
}
static uint8_t get_u8(rbuf *b) {
  uint8_t v;
  get(b, &v, 1);
  return v;
}
static uint16_t get_u16(rbuf *b) {
  uint16_t v;
  get(b, &v, 2);
  return v;
}
static uint32_t get_u32(rbuf *b) {
  uint32_t v;
  get(b, &v, 4);
  return v;
}
static uint64_t get_u64(rbuf *b) {
  uint64_t v;
  get(b, &v, 8);
  return v;
}
static int64_t get_i64(rbuf *b) {
  int64_t v;
  get(b, &v, 8);
  return v;
}
static double get_f64(rbuf *b) {
  double v;
  get(b, &v, 8);
  return v;
}
static void get_f64s(rbuf *b, double *v, size_t n) {
  get(b, v, n * sizeof *v);
}
static void get_str(rbuf *b, char *out, size_t cap) {
  uint32_t n = get_u32(b);
  if (n >= cap) {
    b->bad = 1;
    out[0] = 0;
    return;
  }
  get(b, out, n);
  out[n] = 0;
}
/* A count that must fit in what is left of the file at 'elem' bytes each. */
static uint64_t get_count(rbuf *b, size_t elem) {
  uint64_t n = get_u64(b);
  if (elem && n > (b->n - b->pos) / elem) b->bad = 1;
  return b->bad ? 0 : n;
}

/* How a saved model maps onto a model of this run. */
typedef struct model_map {
  int model;                     /* registry index in the new world */
  int n_props, n_state;          /* saved rows */
  int prop_slots, state_slots;   /* saved slot totals */
  int prop_to[64], state_to[64]; /* saved row -> current row, or -1 */
  int prop_n[64], state_n[64];   /* saved slots of each row */
  int version;
} model_map;

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
    if (slots > 4) b->bad = 1; /* a contact-plane vector keeps 4 */
    mm->state_n[i] = (int)(slots <= 4 ? slots : 0);
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
    if (!model_prop_valid(&e->m->props[mm->prop_to[i]], v)) b->bad = 1;
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
    double v[4] = {0, 0, 0, 0};
    get_f64s(b, v, (size_t)mm->state_n[i]);
    int to = mm->state_to[i];
    if (to < 0) continue;
    cairn_prop_type t = e->m->state[to].type; /* a whole number the model may cast to int */
    if ((t == CAIRN_PROP_INT || t == CAIRN_PROP_BOOL) &&
        !(v[0] == floor(v[0]) && fabs(v[0]) < 2147483647.0))
      b->bad = 1;
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

static cairn_status read_entry(rbuf *b, cairn_world *w, const model_map *maps, uint32_t n_maps,
                               cmat_entry *ce, cairn_diag *d) {
  uint32_t mi = get_u32(b);
  double prox = get_f64(b);
  uint64_t mask = get_u64(b);
  if (b->bad || mi >= n_maps) {
    b->bad = 1;
    return CAIRN_OK;
  }
  const model_entry *e = &w->reg->e[maps[mi].model];
  double *props = mem_realloc(NULL, 0, (size_t)(e->n_prop_slots + 1) * sizeof(double), "cmat");
  if (!props) return diag_set(d, CAIRN_ENOMEM, "out of memory restoring the assignment table");
  read_props(b, e, &maps[mi], props);
  cmat_entry_unshare(w, ce);
  mem_free(ce->props, 0);
  ce->props = props;
  ce->model = maps[mi].model;
  ce->proximity = prox;
  ce->setmask = mask;
  return CAIRN_OK;
}

#define BAD_IF(cond)                                                                               \
  do {                                                                                             \
    if (cond) b->bad = 1;                                                                          \
    if (b->bad) goto truncated;                                                                    \
  } while (0)

static cairn_status read_world(rbuf *b, cairn_world *w, model_map *maps, restore_info *info,
                               cairn_diag *d) {
  cairn_status s = CAIRN_OK;
  get_f64s(b, w->gravity, 3);
  w->ts_mode = (ts_mode)get_u32(b);
  w->dt = get_f64(b), w->dt_safety = get_f64(b), w->time = get_f64(b);
  w->step = get_u64(b);
  if (b->version < 7) { /* saved before the steps-per-impact bound: none; the last step's dt
                            was then the timestep */
    w->dt_impact = 0;
    w->dt_taken = w->step ? w->dt : 0;
  }
  w->has_domain = (int)get_u32(b);
  get_f64s(b, w->dom_min, 3), get_f64s(b, w->dom_max, 3);
  w->dom_cond = (domain_cond)get_u32(b);
  w->n_destroyed = get_u64(b);
  if (b->version >= 2) {
    uint32_t flags = get_u32(b);
    w->energy->on = (int)(flags & 1), w->energy->started = (int)(flags >> 1 & 1);
    w->energy->gravity = get_f64(b), w->energy->walls = get_f64(b), w->energy->damping = get_f64(b);
    get_f64s(b, w->energy->retired, CAIRN_ENERGY_N), w->energy->start = get_f64(b);
  }
  int64_t next_ball = get_i64(b), next_wall = get_i64(b);
  uint32_t ng = get_u32(b);
  BAD_IF(ng < 1 || ng > sizeof w->groups / sizeof *w->groups);
  for (uint32_t g = 1; g < ng; g++) get_str(b, w->groups[g], CAIRN_MAX_NAME);
  w->n_groups = ng;
  uint32_t nm = get_u32(b);
  BAD_IF(nm > 4096);
  for (uint32_t i = 0; i < nm; i++) {
    CAIRN_TRY(read_layout(b, w, &maps[i], d));
    BAD_IF(0);
  }
  for (int k = 0; k < 2; k++) CAIRN_TRY(read_entry(b, w, maps, nm, &w->cmat->def[k], d));
  uint32_t nr = get_u32(b);
  BAD_IF(nr > 100000);
  for (uint32_t r = 0; r < nr; r++) {
    cmat_rule ru;
    memset(&ru, 0, sizeof ru);
    ru.kind = (int)get_u32(b) - 1;
    ru.g1 = get_u16(b), ru.g2 = get_u16(b);
    BAD_IF(ru.kind < -1 || ru.kind > 1 || ru.g1 >= ng || ru.g2 >= ng);
    CAIRN_TRY(read_entry(b, w, maps, nm, &ru.e, d));
    cairn_status grown = b->bad ? CAIRN_OK
                                : mem_grow((void **)&w->cmat->rules, &w->cmat->cap_rules,
                                           w->cmat->n_rules + 1, sizeof ru, "cmat:rules", d);
    if (b->bad || grown != CAIRN_OK) { /* the rule's properties are not the world's yet */
      cmat_entry_unshare(w, &ru.e);
      mem_free(ru.e.props, 0);
      CAIRN_TRY(grown);
    }
    BAD_IF(0);
    w->cmat->rules[w->cmat->n_rules++] = ru;
  }

  /* Balls: created one by one (that sizes every array and fills the id map), then every
     attribute overwritten with its saved bits. */
  uint64_t n = get_count(b, 8 + 6 * 24 + 7 * 8 + 1 + 2); /* bytes per ball */
  BAD_IF(0);
  size_t at = b->pos;
  int has_domain = w->has_domain;
  w->has_domain = 0; /* positions are checked by the run, not here */
  for (uint64_t i = 0; i < n; i++) {
    ball_spec sp;
    memset(&sp, 0, sizeof sp);
    int64_t id;
    memcpy(&sp.id, b->p + at + 8 * i, 8);
    sp.rad = sp.density = 1;
    if (sp.id < 1 || sp.id > CAIRN_ID_MAX) goto truncated;
    CAIRN_TRY(ball_create(w, &sp, &id, d));
  }
  w->has_domain = has_domain;
  w->next_ball_id = next_ball, w->next_wall_id = next_wall;
  ball_store *bs = &w->balls;
  if (n) { /* (no arrays yet without balls) */
    get(b, bs->id, n * sizeof *bs->id);
    get_f64s(b, &bs->pos[0][0], 3 * n), get_f64s(b, &bs->vel[0][0], 3 * n);
    get_f64s(b, &bs->spin[0][0], 3 * n), get_f64s(b, &bs->force[0][0], 3 * n);
    get_f64s(b, &bs->moment[0][0], 3 * n), get_f64s(b, &bs->disp[0][0], 3 * n);
    get_f64s(b, bs->rad, n), get_f64s(b, bs->density, n), get_f64s(b, bs->mass, n);
    get_f64s(b, bs->inertia, n), get_f64s(b, bs->damp, n), get_f64s(b, bs->k_tran, n);
    get_f64s(b, bs->k_rot, n);
    get(b, bs->fix, n), get(b, bs->group, n * sizeof *bs->group);
  }
  BAD_IF(0);
  for (uint64_t i = 0; i < n; i++) BAD_IF(bs->group[i] >= ng || !(bs->rad[i] > 0));

  uint32_t nw = get_u32(b);
  BAD_IF(nw > 1000000);
  for (uint32_t i = 0; i < nw; i++) {
    wall wl;
    memset(&wl, 0, sizeof wl);
    wl.id = get_i64(b);
    wl.kind = (wall_kind)get_u32(b);
    wl.n_nodes = (int)get_u32(b);
    BAD_IF(wl.n_nodes < 0 || wl.n_nodes > WALL_MAX_NODES || wl.kind > WALL_CYLINDER);
    BAD_IF(wl.kind == WALL_CYLINDER && b->version < 5);
    get_f64s(b, &wl.nodes[0][0], 3 * (size_t)wl.n_nodes);
    get_f64s(b, wl.point, 3), get_f64s(b, wl.normal, 3), get_f64s(b, wl.vel, 3);
    get_f64s(b, wl.disp, 3), get_f64s(b, wl.force, 3);
    if (b->version >= 2) get_f64s(b, wl.last_dx, 3);
    wl.group = get_u16(b);
    BAD_IF(wl.group >= ng || wl.id < 1 || wl.id > CAIRN_ID_MAX);
    BAD_IF(idmap_get(&w->walls.map, (uint64_t)wl.id) != IDMAP_NONE);
    CAIRN_TRY(mem_grow((void **)&w->walls.w, &w->walls.cap, w->walls.n + 1, sizeof wl, "walls", d));
    CAIRN_TRY(idmap_put(&w->walls.map, (uint64_t)wl.id, (uint32_t)w->walls.n, d));
    w->walls.w[w->walls.n++] = wl;
  }

  /* bytes per contact, at least */
  uint64_t nc = get_count(b, 13 + (b->version < 3 ? 23 : 11) * 8 + 4 + 8);
  BAD_IF(0);
  contact_store *cs = w->contacts;
  for (uint64_t c = 0; c < nc; c++) {
    int kind = get_u8(b);
    uint32_t a = get_u32(b), bb = get_u32(b), mi = get_u32(b);
    BAD_IF(kind > 1 || mi >= nm || bb >= bs->n ||
           (kind == CAIRN_KIND_BALL_BALL ? a >= bs->n : a >= w->walls.n));
    uint32_t ci;
    CAIRN_TRY(contact_create(w, kind, a, bb, &ci, d));
    CAIRN_TRY(contact_set_model(w, ci, maps[mi].model, d));
    model_entry *e = &w->reg->e[maps[mi].model];
    double frame[9], *fr = NULL;
    if (b->version < 3) { /* the (n, s, t) frame, gap, contact point, force and moment in the
                             frame, three unused stiffness slots */
      double nst[3], unused[3];
      get_f64s(b, frame, 9), cs->gap[ci] = get_f64(b), get_f64s(b, unused, 3);
      fr = frame;
      v3_copy(frame, cs->normal[ci]);
      get_f64s(b, nst, 3);
      for (int k = 0; k < 3; k++)
        cs->force[ci][k] = nst[0] * frame[k] + nst[1] * frame[3 + k] + nst[2] * frame[6 + k];
      get_f64s(b, nst, 3);
      for (int k = 0; k < 3; k++)
        cs->moment[ci][k] = nst[0] * frame[k] + nst[1] * frame[3 + k] + nst[2] * frame[6 + k];
      get_f64s(b, unused, 3);
    } else {
      get_f64s(b, cs->normal[ci], 3), cs->gap[ci] = get_f64(b);
      get_f64s(b, cs->force[ci], 3), get_f64s(b, cs->moment[ci], 3);
    }
    cs->prox[ci] = get_f64(b);
    cs->active[ci] = get_u8(b), cs->first[ci] = get_u8(b), cs->deletable[ci] = get_u8(b);
    uint8_t unchecked = get_u8(b);
    if (!unchecked && cs->unchecked[ci]) cs->unchecked[ci] = 0, cs->n_unchecked--;
    uint64_t mask = get_u64(b);
    double props[256];
    read_props(b, e, &maps[mi], props);
    read_state(b, e, &maps[mi], fr, pool_state(e, cs->blk[ci]));
    BAD_IF(0);
    /* Contacts that got their properties from the same assignment share one block again: the
       file keeps each contact's values, and runs of equal ones are merged. */
    uint32_t pblk;
    if (ci > 0 && cs->model[ci - 1] == maps[mi].model &&
        e->ppool.setmask[cs->pblk[ci - 1]] == mask &&
        memcmp(pool_props(e, cs->pblk[ci - 1]), props, (size_t)e->n_prop_slots * 8) == 0) {
      pblk = cs->pblk[ci - 1];
      e->ppool.refs[pblk]++;
    } else {
      CAIRN_TRY(props_block_new(e, props, mask, &pblk, d));
    }
    props_block_release(e, cs->pblk[ci]);
    cs->pblk[ci] = pblk;
  }

  pair_list *p = w->pairs;
  uint64_t np = get_count(b, 13);
  p->skin = get_f64(b);
  uint32_t dirty = get_u32(b);
  p->rebuilds = get_u64(b);
  BAD_IF(0);
  p->n = 0;
  for (uint64_t q = 0; q < np; q++) CAIRN_TRY(pairs_push(p, 0, 0, 0, d));
  get(b, p->kind, np), get(b, p->a, 4 * np), get(b, p->b, 4 * np), get(b, p->contact, 4 * np);
  BAD_IF(0);
  for (size_t c = 0; c < cs->n; c++) cs->pair[c] = IDMAP_NONE;
  for (uint64_t q = 0; q < np; q++) {
    BAD_IF(p->kind[q] > 1 || p->b[q] >= bs->n ||
           p->a[q] >= (p->kind[q] == CAIRN_KIND_BALL_BALL ? bs->n : w->walls.n));
    BAD_IF(p->contact[q] != IDMAP_NONE && p->contact[q] >= cs->n);
    if (p->contact[q] != IDMAP_NONE) cs->pair[p->contact[q]] = (uint32_t)q;
  }
  p->dirty = (int)dirty;
  p->layout = w->layout; /* (the balls just restored made it move on) */

  history_set *hs = w->hist;
  uint32_t nh = get_u32(b);
  hs->interval = get_u64(b);
  uint64_t rows = get_count(b, 16);
  BAD_IF(nh > 100000);
  char name[CAIRN_MAX_NAME];
  if (rows) {
    CAIRN_TRY(mem_resize((void **)&hs->step, 0, rows, sizeof(double), "history:step", d));
    CAIRN_TRY(mem_resize((void **)&hs->time, 0, rows, sizeof(double), "history:time", d));
    hs->cap_rows = rows;
  }
  get_f64s(b, hs->step, rows), get_f64s(b, hs->time, rows);
  hs->n_rows = rows;
  for (uint32_t i = 0; i < nh; i++) {
    get_str(b, name, sizeof name);
    BAD_IF(!name[0]);
    CAIRN_TRY(history_add(w, name, NULL, NULL, d));
    get_f64s(b, hs->h[hs->n - 1].v, rows);
    BAD_IF(0);
  }
  uint32_t ncb = get_u32(b);
  BAD_IF(ncb > 64);
  info->n_callbacks = (int)ncb;
  for (uint32_t i = 0; i < ncb; i++) get_str(b, info->callbacks[i], sizeof info->callbacks[i]);
  if (b->version >= 4) { /* applied loads */
    w->energy->applied = get_f64(b);
    uint64_t nl = get_count(b, 8 + 6 * 8);
    BAD_IF(0);
    for (uint64_t i = 0; i < nl; i++) {
      int64_t id = get_i64(b);
      double f[3], m[3];
      get_f64s(b, f, 3), get_f64s(b, m, 3);
      BAD_IF(idmap_get(&w->balls.map, (uint64_t)id) == IDMAP_NONE);
      for (int k = 0; k < 3; k++) BAD_IF(!isfinite(f[k]) || !isfinite(m[k]));
      CAIRN_TRY(loads_set(w, id, 0, f, d));
      CAIRN_TRY(loads_set(w, id, 1, m, d));
    }
    for (size_t i = 0; i < w->walls.n; i++) {
      wall *wl = &w->walls.w[i];
      get_f64s(b, wl->spin, 3), get_f64s(b, wl->centre, 3), get_f64s(b, wl->last_dtheta, 3);
      get_f64s(b, wl->torque, 3), wl->rot_disp = get_f64(b);
      BAD_IF(0);
      BAD_IF(wl->kind == WALL_PLANE && (wl->spin[0] || wl->spin[1] || wl->spin[2]));
    }
    if (b->version >= 5) w->energy->removed = get_f64(b);
    if (b->version >= 5) /* servo walls */
      for (size_t i = 0; i < w->walls.n; i++) {
        wall_servo *sv = &w->walls.w[i].servo;
        get_f64s(b, w->walls.w[i].moved, 3);
        w->walls.w[i].radius = get_f64(b), w->walls.w[i].radial_vel = get_f64(b);
        w->walls.w[i].last_dr = get_f64(b);
        BAD_IF(w->walls.w[i].kind == WALL_CYLINDER && !(w->walls.w[i].radius > 0));
        memset(sv, 0, sizeof *sv);
        sv->mode = get_u8(b);
        BAD_IF(sv->mode > SERVO_FORCE);
        if (sv->mode == SERVO_OFF) continue;
        sv->warned = get_u8(b), sv->reached = get_u8(b), sv->held = get_u32(b);
        uint32_t npts = get_u32(b);
        BAD_IF(npts < 1 || npts > SERVO_MAX_POINTS);
        sv->n_points = (int)npts;
        get_f64s(b, sv->t, sv->n_points), get_f64s(b, sv->target, sv->n_points);
        get_f64s(b, sv->axis, 3), sv->area = get_f64(b);
        sv->width[0] = get_i64(b), sv->width[1] = get_i64(b);
        sv->depth[0] = get_i64(b), sv->depth[1] = get_i64(b);
        sv->vmax = get_f64(b), sv->alpha = get_f64(b), sv->saturated = get_u64(b);
        sv->err_start = get_f64(b);
        sv->measured = get_f64(b);
        BAD_IF(0);
        BAD_IF(!(sv->vmax > 0 && sv->alpha > 0 && sv->alpha <= 1 && isfinite(sv->area)));
      }
    uint64_t ncr = get_count(b, 8 + 8 + 24 + 16 + 2);
    BAD_IF(0);
    if (ncr) {
      CAIRN_TRY(mem_grow((void **)&w->cracks->c, &w->cracks->cap, ncr, sizeof *w->cracks->c,
                         "cracks", d));
      for (uint64_t i = 0; i < ncr; i++) {
        crack *k = &w->cracks->c[i];
        k->step = get_u64(b), k->time = get_f64(b);
        get_f64s(b, k->pos, 3);
        k->id1 = get_i64(b), k->id2 = get_i64(b), k->kind = get_u8(b), k->tension = get_u8(b);
      }
      w->cracks->n = ncr;
      BAD_IF(0);
    }
    if (b->version >= 6) { /* the periodic cell */
      periodic_cell *pc = &w->cell;
      memset(pc, 0, sizeof *pc);
      uint8_t on = get_u8(b);
      BAD_IF(on > 1);
      if (on) {
        for (int j = 0; j < 3; j++) pc->periodic[j] = get_u8(b), pc->servo[j] = get_u8(b);
        get_f64s(b, pc->centre, 3);
        get_f64s(b, &pc->H[0][0], 9), get_f64s(b, &pc->F[0][0], 9);
        get_f64s(b, &pc->H_rebuild[0][0], 9), get_f64s(b, &pc->L[0][0], 9);
        get_f64s(b, pc->target, 3), get_f64s(b, pc->rate_max, 3), pc->alpha = get_f64(b);
        BAD_IF(0);
        BAD_IF(!(periodic_volume(pc, 3) > 0) || !(pc->alpha > 0 && pc->alpha <= 1));
        for (int j = 0; j < 3; j++) BAD_IF(pc->periodic[j] > 1 || pc->servo[j] > 1);
        pc->on = 1;
        periodic_restore(pc);
      }
    }
    if (b->version >= 7) { /* the automatic timestep's steps per impact */
      w->dt_impact = get_f64(b), w->kn_m_max = get_f64(b), w->dt_taken = get_f64(b);
      BAD_IF(!(w->dt_taken >= 0 && isfinite(w->dt_taken)));
      BAD_IF(!(w->dt_impact >= 0 && w->dt_impact <= 1e6));
      BAD_IF(!(w->kn_m_max >= 0 && isfinite(w->kn_m_max)));
    }
  }
  BAD_IF(b->pos != b->n);
  return s;
truncated:
  return diag_set(d, CAIRN_EINVAL,
                  "the save file is damaged (its contents do not hold "
                  "together); restore an earlier save");
}

cairn_status io_restore(const char *path, int want_dim, world_maker mk, void *ud, cairn_world **out,
                        restore_info *info, cairn_diag *d) {
  *out = NULL;
  memset(info, 0, sizeof *info);
  struct stat st;
  CAIRN_CHECK(!(stat(path, &st) == 0 && S_ISDIR(st.st_mode)), d, CAIRN_EINVAL,
              "'%s' is a folder, not a save file; give the path of a file written by model.save",
              path);
  FILE *f = fopen(path, "rb");
  CAIRN_CHECK(f, d, CAIRN_EIO, "cannot read '%s': %s; check the path", path, strerror(errno));
  unsigned char head[24];
  size_t got = fread(head, 1, sizeof head, f);
  if (got < 8 || memcmp(head, SAVE_MAGIC, 8) != 0) {
    fclose(f);
    return diag_set(d, CAIRN_EINVAL,
                    "'%s' is not a cairn save file; give a file written by "
                    "model.save",
                    path);
  }
  uint32_t version, bom;
  uint64_t size;
  memcpy(&version, head + 8, 4), memcpy(&bom, head + 12, 4), memcpy(&size, head + 16, 8);
  if (got < sizeof head) {
    fclose(f);
    return diag_set(d, CAIRN_EINVAL, "'%s' is truncated; restore an earlier save", path);
  }
  if (bom != SAVE_BOM) {
    fclose(f);
    return diag_set(d, CAIRN_EINVAL,
                    "'%s' was written on a machine of another byte order; "
                    "restore it on such a machine",
                    path);
  }
  if (version < SAVE_VERSION_OLDEST || version > SAVE_VERSION) {
    fclose(f);
    return diag_set(d, CAIRN_EINVAL,
                    "'%s' has save format version %u, this cairn reads versions "
                    "%u to %u; use the cairn that wrote it",
                    path, version, SAVE_VERSION_OLDEST, SAVE_VERSION);
  }
  /* The declared size against the file's own, before anything is allocated for it: a damaged
     count must not ask for gigabytes. */
  long file_len = -1;
  if (fseek(f, 0, SEEK_END) == 0) file_len = ftell(f);
  if (file_len < 0 || fseek(f, (long)sizeof head, SEEK_SET) != 0) {
    fclose(f);
    return diag_set(d, CAIRN_EIO, "'%s' cannot be read (seek failed); check the file", path);
  }
  uint64_t have = (uint64_t)file_len - sizeof head;
  if (size > have || have - size < 8) {
    fclose(f);
    return diag_set(d, CAIRN_EINVAL,
                    "'%s' is truncated (%ld bytes, its header declares %llu); restore an earlier "
                    "save",
                    path, file_len, (unsigned long long)(size + 8 + sizeof head));
  }
  if (size >= ((uint64_t)1 << 40)) {
    fclose(f);
    return diag_set(d, CAIRN_EINVAL,
                    "'%s' is damaged (it declares %llu bytes); restore an "
                    "earlier save",
                    path, (unsigned long long)size);
  }
  unsigned char *pay = mem_realloc(NULL, 0, size + 8, "restore");
  if (!pay) { /* the file holds that much: the memory is what is missing */
    fclose(f);
    return diag_set(d, CAIRN_ENOMEM,
                    "out of memory reading '%s' (%llu bytes); free some memory and restore it "
                    "again",
                    path, (unsigned long long)size);
  }
  got = fread(pay, 1, size + 8, f);
  int extra = fgetc(f) != EOF;
  fclose(f);
  uint64_t sum;
  if (got != size + 8) {
    mem_free(pay, 0);
    return diag_set(d, CAIRN_EINVAL,
                    "'%s' is truncated (%zu of %llu bytes); restore an earlier "
                    "save",
                    path, got + sizeof head, (unsigned long long)(size + 8 + sizeof head));
  }
  memcpy(&sum, pay + size, 8);
  if (extra || sum != fnv1a(pay, size)) {
    mem_free(pay, 0);
    return diag_set(d, CAIRN_EINVAL,
                    "'%s' is corrupted (its checksum does not match); restore "
                    "an earlier save",
                    path);
  }
  rbuf b = {pay, size, 0, 0, version};
  int dim = (int)get_u32(&b);
  if (dim != 2 && dim != 3) {
    mem_free(pay, 0);
    return diag_set(d, CAIRN_EINVAL, "'%s' is damaged (dimension %d); restore an earlier save",
                    path, dim);
  }
  if (want_dim && dim != want_dim) {
    mem_free(pay, 0);
    return diag_set(d, CAIRN_EINVAL,
                    "'%s' holds a %dD model but this model is %dD; call "
                    "model.new{dim = %d} (or restore before model.new)",
                    path, dim, want_dim, dim);
  }
  cairn_world *w = NULL;
  cairn_status s = mk(ud, dim, &w, d);
  model_map *maps =
      s == CAIRN_OK ? mem_realloc(NULL, 0, 4096 * sizeof *maps, "restore:maps") : NULL;
  if (s == CAIRN_OK && !maps) s = diag_set(d, CAIRN_ENOMEM, "out of memory restoring '%s'", path);
  if (s == CAIRN_OK) s = read_world(&b, w, maps, info, d);
  mem_free(maps, 0);
  mem_free(pay, 0);
  if (s != CAIRN_OK) {
    cairn_world_destroy(&w);
    return s;
  }
  *out = w;
  return CAIRN_OK;
}
