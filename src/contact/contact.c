/* The contact store: creation with the assignment table's model, deletion, lookup by the ids of
   the two sides, and generic access to each contact's properties and state by name. */
#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"
#include "contact/energy.h"
#include "contact/events.h"
#include "contact/model_call.h"

const char *contact_kind_name(int kind) {
  return kind == CAIRN_KIND_BALL_BALL ? "ball-ball" : "ball-wall";
}

int contact_kind_parse(const char *s) {
  if (strcmp(s, "ball-ball") == 0) return CAIRN_KIND_BALL_BALL;
  if (strcmp(s, "ball-wall") == 0) return CAIRN_KIND_BALL_WALL;
  return -1;
}

static int64_t side_id(const cairn_world *w, int kind, int side, uint32_t slot) {
  if (kind == CAIRN_KIND_BALL_WALL && side == 1) return w->walls.w[slot].id;
  return w->balls.id[slot];
}

uint64_t contact_key_of(const cairn_world *w, uint32_t c) {
  const contact_store *cs = w->contacts;
  int k = cs->kind[c];
  return contact_key(k + cs->sub[c], side_id(w, k, 1, cs->a[c]), side_id(w, k, 2, cs->b[c]));
}

void contact_describe(const cairn_world *w, uint32_t c, char *buf, size_t n) {
  const contact_store *cs = w->contacts;
  int k = cs->kind[c];
  if (k == CAIRN_KIND_BALL_BALL)
    snprintf(buf, n, "ball-ball contact %lld-%lld", (long long)w->balls.id[cs->a[c]],
             (long long)w->balls.id[cs->b[c]]);
  else if (!cs->sub[c])
    snprintf(buf, n, "ball-wall contact ball %lld - wall %lld", (long long)w->balls.id[cs->b[c]],
             (long long)w->walls.w[cs->a[c]].id);
  else
    snprintf(buf, n, "ball-wall contact ball %lld - wall %lld (its contact %d with the mesh)",
             (long long)w->balls.id[cs->b[c]], (long long)w->walls.w[cs->a[c]].id, cs->sub[c] + 1);
}

/* Every per-contact array of the store, for growing, moving, reordering and freeing them
   together (a field added to contact_store goes here once). */
// clang-format off
#define CONTACT_FIELDS(X) \
  X(kind) X(sub) X(a) X(b) X(model) X(blk) X(pblk) X(normal) X(gap) X(force) X(moment) X(prox) \
  X(active) X(first) X(deletable) X(unchecked) X(pair)
// clang-format on

static cairn_status grow(cairn_world *w, size_t need, cairn_diag *d) {
  contact_store *cs = w->contacts;
  if (need <= cs->cap) return CAIRN_OK;
  size_t old = cs->cap, cap = mem_next_cap(old, need);
#define G(f) CAIRN_TRY(mem_resize_raw((void **)&cs->f, old, cap, sizeof *cs->f, "contact:" #f, d));
  CONTACT_FIELDS(G)
#undef G
  cs->cap = cap;
  return CAIRN_OK;
}

/* Whether contacts c and k may share a slice of the force pass: the same kind, model and
   property block (forces.c, make_slices). */
static inline int same_class(const contact_store *cs, size_t c, size_t k) {
  return cs->model[c] == cs->model[k] && cs->pblk[c] == cs->pblk[k] && cs->kind[c] == cs->kind[k];
}

/* The slices kept up to date as contact c (the last) is made, as make_slices would cut them: it
   joins the last slice if that has its class and room, else it starts one. */
static void slices_append(contact_store *cs, size_t c) {
  if (!cs->slices_ok || cs->slices_redo != SIZE_MAX) return; /* (c is among those cut again) */
  size_t k = cs->n_slices;
  if (cs->cap_slice < k + 2) { /* (no room: make_slices grows the array) */
    cs->slices_ok = 0;
    return;
  }
  if (k > 0 && c - cs->slice[k - 1] < CAIRN_CM_SLICE_MAX && same_class(cs, c, cs->slice[k - 1])) {
    cs->slice[k] = (uint32_t)c + 1;
    return;
  }
  cs->slice[k] = (uint32_t)c;
  cs->slice[k + 1] = (uint32_t)c + 1;
  cs->n_slices = k + 1;
}

/* The slice holding contact c: the last whose start is <= c. */
static size_t slice_of(const contact_store *cs, size_t c) {
  size_t lo = 0, hi = cs->n_slices;
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (cs->slice[mid] <= c)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

/* The slices from slice sl on to be cut again (at the next make_slices). */
static void slices_redo_from(contact_store *cs, size_t sl) {
  if (cs->slices_ok && (cs->slices_redo == SIZE_MAX || sl < cs->slices_redo)) cs->slices_redo = sl;
}

/* The last slice without the store's last contact, 'last' (gone from there). */
static void slices_lose_last(contact_store *cs, size_t last) {
  size_t k = cs->n_slices;
  if (cs->slice[k - 1] == last)
    cs->n_slices = k - 1; /* (slice[k - 1] is then its end) */
  else
    cs->slice[k] = (uint32_t)last;
}

/* ... and as contact c is deleted, the last contact moving into its place: the last slice loses
   its last contact; the slices stay as make_slices would cut them if the contact moved into c
   has the class of c's slice. Else they are cut again from the slice before c's (which the
   moved contact might extend) on. */
static void slices_forget(contact_store *cs, size_t c, size_t last) {
  if (!cs->slices_ok) return;
  size_t sc = c != last ? slice_of(cs, c) : 0;
  int moved_other = c != last && !same_class(cs, last, cs->slice[sc]);
  if (cs->slices_redo != SIZE_MAX) { /* cut again from slices_redo on: c's and last's with them */
    size_t redo = moved_other ? (sc > 0 ? sc - 1 : 0) : cs->slices_redo;
    if (last < cs->slice[cs->slices_redo]) { /* (the contacts left end before slices_redo) */
      size_t sl = slice_of(cs, last);
      if (sl < redo) redo = sl;
    }
    if (redo < cs->slices_redo) cs->slices_redo = redo;
    return;
  }
  if (moved_other) {
    cs->slices_redo = sc > 0 ? sc - 1 : 0;
    return;
  }
  slices_lose_last(cs, last);
}

/* The (n, s, t) frame of a normal (contact.h, contact_frame). */
static void frame_from_normal(int dim, const double n[3], double f[9]) {
  f[0] = n[0], f[1] = n[1], f[2] = n[2];
  if (dim == 2) {
    f[3] = 0, f[4] = 0, f[5] = 1;
    f[6] = -n[1], f[7] = n[0], f[8] = 0;
    return;
  }
  /* s: any unit vector perpendicular to n, from the axis least aligned with n. */
  double ax[3] = {0, 0, 0};
  int k = fabs(n[0]) <= fabs(n[1]) ? (fabs(n[0]) <= fabs(n[2]) ? 0 : 2)
                                   : (fabs(n[1]) <= fabs(n[2]) ? 1 : 2);
  ax[k] = 1;
  double s[3], t[3];
  v3_cross(n, ax, s);
  double len = v3_norm(s);
  if (!(len > 0)) { /* no normal yet (a zero vector): any orthonormal frame */
    f[0] = 1, f[1] = 0, f[2] = 0;
    f[3] = 0, f[4] = 1, f[5] = 0;
    f[6] = 0, f[7] = 0, f[8] = 1;
    return;
  }
  v3_scale(s, 1.0 / len, s);
  v3_cross(n, s, t);
  f[3] = s[0], f[4] = s[1], f[5] = s[2];
  f[6] = t[0], f[7] = t[1], f[8] = t[2];
}

void contact_frame(const cairn_world *w, uint32_t c, double f[9]) {
  frame_from_normal(w->dim, w->contacts->normal[c], f);
}

void contact_to_frame(const cairn_world *w, uint32_t c, const double v[3], double out[3]) {
  double f[9];
  contact_frame(w, c, f);
  for (int k = 0; k < 3; k++) out[k] = f[3 * k] * v[0] + f[3 * k + 1] * v[1] + f[3 * k + 2] * v[2];
}

/* Give contact c its property block pblk (taking over the reference) and release the old. */
static void take_props(cairn_world *w, uint32_t c, uint32_t pblk) {
  contact_store *cs = w->contacts;
  if (cs->model[c] >= 0) props_block_release(&w->reg->e[cs->model[c]], cs->pblk[c]);
  cs->pblk[c] = pblk;
}

/* Make contact c's state block and flags those of a fresh contact of 'model'; its property
   block is set by the caller. */
static cairn_status fresh_state(cairn_world *w, uint32_t c, int model, cairn_diag *d) {
  contact_store *cs = w->contacts;
  model_entry *e = &w->reg->e[model];
  uint32_t blk;
  CAIRN_TRY(pool_alloc(&e->pool, &blk, d));
  if (cs->model[c] >= 0) {
    energy_retire(w, c);
    pool_release(&w->reg->e[cs->model[c]].pool, cs->blk[c]);
  }
  cs->blk[c] = blk;
  cs->first[c] = 1;
  cs->active[c] = 0;
  cs->deletable[c] = 1;
  /* only a model with a validation hook has one to run: the force pass looks for unchecked
     contacts only while there are some */
  uint8_t unchecked = e->m->validate != NULL;
  if (unchecked != cs->unchecked[c]) unchecked ? cs->n_unchecked++ : cs->n_unchecked--;
  cs->unchecked[c] = unchecked;
  v3_zero(cs->force[c]);
  v3_zero(cs->moment[c]);
  return CAIRN_OK;
}

cairn_status contact_set_model(cairn_world *w, uint32_t c, int model, cairn_diag *d) {
  contact_store *cs = w->contacts;
  model_entry *e = &w->reg->e[model];
  uint32_t pblk;
  double def[256];
  model_props_default(e, def);
  CAIRN_TRY(props_block_new(e, def, 0, &pblk, d));
  cairn_status s = fresh_state(w, c, model, d);
  if (s != CAIRN_OK) {
    props_block_release(e, pblk);
    return s;
  }
  take_props(w, c, pblk);
  cs->model[c] = model;
  cs->slices_ok = 0;
  return CAIRN_OK;
}

cairn_status contact_create_sub(cairn_world *w, int kind, uint32_t a, uint32_t b, int sub,
                                uint32_t *out, cairn_diag *d) {
  contact_store *cs = w->contacts;
  cmat_entry *ce = cmat_lookup(w, kind, a, b);
  CAIRN_TRY(grow(w, cs->n + 1, d));
  uint32_t c = (uint32_t)cs->n, pblk;
  model_entry *e = &w->reg->e[ce->model];
  CAIRN_TRY(cmat_entry_block(w, ce, &pblk, d));
  cs->kind[c] = (uint8_t)kind;
  cs->sub[c] = (uint8_t)sub;
  cs->a[c] = a, cs->b[c] = b;
  cs->model[c] = -1;
  cs->pair[c] = IDMAP_NONE;
  cs->unchecked[c] = 0;
  cairn_status s = fresh_state(w, c, ce->model, d);
  if (s != CAIRN_OK) {
    props_block_release(e, pblk);
    return s;
  }
  cs->model[c] = ce->model;
  cs->pblk[c] = pblk;
  cs->prox[c] = ce->proximity;
  cs->gap[c] = 0;
  cs->normal[c][0] = 1, cs->normal[c][1] = 0, cs->normal[c][2] = 0;
  cs->n++;
  s = idmap_put(&cs->map, contact_key_of(w, c), c, d);
  if (s != CAIRN_OK) {
    cs->n--;
    if (cs->unchecked[c]) cs->n_unchecked--;
    pool_release(&e->pool, cs->blk[c]);
    props_block_release(e, pblk);
    return s;
  }
  links_created(w, c);
  slices_append(cs, c);
  if (c > 0 && cs->key_sorted && contact_key_of(w, c) < contact_key_of(w, c - 1))
    cs->key_sorted = 0;
  world_event(w, EV_CONTACT_CREATED, c, 0);
  *out = c;
  return CAIRN_OK;
}

void contact_delete(cairn_world *w, uint32_t c) {
  world_event(w, EV_CONTACT_DELETED, c, 0);
  energy_retire(w, c);
  contact_forget(w, c);
}

cairn_status contact_find(const cairn_world *w, int kind, int64_t id1, int64_t id2, uint32_t *c,
                          cairn_diag *d) {
  int64_t k1 = id1, k2 = id2;
  if (kind == CAIRN_KIND_BALL_BALL && k1 > k2) k1 = id2, k2 = id1;
  /* ball-wall contacts are found by (ball id, wall id); stored as (wall, ball). (A mesh's
     further contacts with one ball: kind + sub, as in their key.) */
  if (kind >= CAIRN_KIND_BALL_WALL) k1 = id2, k2 = id1;
  uint32_t i = idmap_get(&w->contacts->map, contact_key(kind, k1, k2));
  if (i == IDMAP_NONE)
    return diag_set(d, CAIRN_ENOTFOUND,
                    "no %s contact between %s %lld and %s %lld; contacts exist only while the "
                    "gap is below the proximity (run model.clean() or cycle first)",
                    contact_kind_name(kind), "ball", (long long)id1,
                    kind == CAIRN_KIND_BALL_BALL ? "ball" : "wall", (long long)id2);
  *c = i;
  return CAIRN_OK;
}

cairn_status contact_prop_get(const cairn_world *w, uint32_t c, const char *name, double v[3],
                              int *n, cairn_diag *d) {
  const contact_store *cs = w->contacts;
  const model_entry *e = &w->reg->e[cs->model[c]];
  int i = model_prop_index(e, name);
  if (i >= 0) {
    int k = cairn_prop_slots(e->m->props[i].type);
    memcpy(v, pool_props(e, cs->pblk[c]) + e->prop_off[i], (size_t)k * sizeof(double));
    *n = k;
    return CAIRN_OK;
  }
  i = model_state_index(e, name);
  if (i >= 0 && cairn_state_items(&e->m->state[i]) > 1) {
    char who[128];
    contact_describe(w, c, who, sizeof who);
    return diag_set(d, CAIRN_EINVAL,
                    "%s: state field '%s' of model '%s' holds %d values (one per item); read it "
                    "with contact.prop(cp, '%s'), which gives them as a list",
                    who, name, e->m->name, cairn_state_items(&e->m->state[i]), name);
  }
  if (i >= 0) {
    const double *st = pool_state(e, cs->blk[c]) + e->state_off[i];
    if (cairn_state_slots(&e->m->state[i]) == 4) { /* (normal, in-plane global) -> (n, s, t) */
      double f[9];
      contact_frame(w, c, f);
      v[0] = st[0];
      v[1] = f[3] * st[1] + f[4] * st[2] + f[5] * st[3];
      v[2] = f[6] * st[1] + f[7] * st[2] + f[8] * st[3];
      *n = 3;
      return CAIRN_OK;
    }
    int k = cairn_prop_slots(e->m->state[i].type);
    memcpy(v, st, (size_t)k * sizeof(double));
    *n = k;
    return CAIRN_OK;
  }
  char who[128];
  contact_describe(w, c, who, sizeof who);
  return diag_set(d, CAIRN_ENOTFOUND,
                  "%s: contact model '%s' has no property '%s'; run `cairn models %s` to list "
                  "its properties",
                  who, e->m->name, name, e->m->name);
}

cairn_status contact_check_props(const cairn_world *w, uint32_t c, const double *props,
                                 cairn_diag *d) {
  const model_entry *e = &w->reg->e[w->contacts->model[c]];
  char msg[512] = "", who[128];
  const char *bad = model_call_validate(e, props, w->dim, msg, sizeof msg);
  if (!bad) return CAIRN_OK;
  contact_describe(w, c, who, sizeof who);
  return diag_set(d, CAIRN_EINVAL, "%s: contact model '%s': %s", who, e->m->name, bad);
}

int contact_state_array(const cairn_world *w, uint32_t c, const char *name, const double **v) {
  const model_entry *e = &w->reg->e[w->contacts->model[c]];
  int i = model_state_index(e, name);
  if (i < 0 || cairn_state_items(&e->m->state[i]) < 2) return 0;
  *v = pool_state(e, w->contacts->blk[c]) + e->state_off[i];
  return cairn_state_items(&e->m->state[i]);
}

cairn_status contact_prop_set(cairn_world *w, uint32_t c, const char *name, const double *v, int n,
                              cairn_diag *d) {
  contact_store *cs = w->contacts;
  model_entry *e = &w->reg->e[cs->model[c]];
  char who[128];
  contact_describe(w, c, who, sizeof who);
  uint32_t pblk = cs->pblk[c];
  /* Copy on write: the block is shared with other contacts (or the assignment table). The
     write goes to a copy, which becomes this contact's own block if the write is accepted. */
  double tmp[256];
  uint64_t mask = e->ppool.setmask[pblk];
  memcpy(tmp, pool_props(e, pblk), (size_t)e->n_prop_slots * sizeof(double));
  cairn_status s = model_prop_write(e, tmp, &mask, name, v, n, who, d);
  if (s == CAIRN_ENOTFOUND) registry_name_owners(w->reg, name, d);
  CAIRN_TRY(s);
  /* A contact whose properties the model's check accepted at its first touch is checked again
     before a script's write lands: the write is refused if it makes them unusable (one not yet
     touching is checked when it first touches, as before). */
  if (!cs->unchecked[c]) CAIRN_TRY(contact_check_props(w, c, tmp, d));
  if (e->ppool.refs[pblk] > 1) {
    uint32_t own;
    CAIRN_TRY(props_block_new(e, tmp, mask, &own, d));
    props_block_release(e, pblk);
    cs->pblk[c] = own;
    cs->slices_ok = 0;
    return CAIRN_OK;
  }
  memcpy(pool_props(e, pblk), tmp, (size_t)e->n_prop_slots * sizeof(double));
  e->ppool.setmask[pblk] = mask;
  model_call_prepare(e, pblk);
  return CAIRN_OK;
}

void contact_force_global(const cairn_world *w, uint32_t c, double f[3]) {
  v3_copy(w->contacts->force[c], f);
}

void contact_store_free(cairn_world *w) {
  contact_store *cs = w->contacts;
#define F(f) mem_free(cs->f, 0);
  CONTACT_FIELDS(F)
#undef F
  mem_free(cs->perm, 0);
  mem_free(cs->seen, 0);
  mem_free(cs->slice, 0);
  links_free(&cs->links);
  idmap_free(&cs->map);
  memset(cs, 0, sizeof *cs);
}

/* Scratch for contact_sort: an order and a mark per element, for n elements. */
static cairn_status sort_scratch(contact_store *cs, size_t n, cairn_diag *d) {
  CAIRN_TRY(mem_grow((void **)&cs->perm, &cs->cap_perm, n, sizeof *cs->perm, "contact:perm", d));
  return mem_grow((void **)&cs->seen, &cs->cap_seen, n, sizeof *cs->seen, "contact:seen", d);
}

/* Renumber one model's pool so its blocks follow the order of the contacts that use them; the
   free blocks go last. */
static cairn_status sort_pool(cairn_world *w, int model, cairn_diag *d) {
  contact_store *cs = w->contacts;
  model_entry *e = &w->reg->e[model];
  model_pool *p = &e->pool;
  if (p->n_blocks == 0) return CAIRN_OK;
  CAIRN_TRY(sort_scratch(cs, p->n_blocks, d));
  uint32_t *order = cs->perm, live = 0;
  uint8_t *used = cs->seen;
  memset(used, 0, p->n_blocks);
  for (size_t c = 0; c < cs->n; c++)
    if (cs->model[c] == model) used[cs->blk[c]] = 1, order[live++] = cs->blk[c];
  uint32_t k = live;
  for (uint32_t blk = 0; blk < p->n_blocks; blk++)
    if (!used[blk]) order[k++] = blk;
  mem_permute(p->data, p->stride * sizeof *p->data, p->n_blocks, order, cs->seen);
  for (size_t c = 0, next = 0; c < cs->n; c++)
    if (cs->model[c] == model) cs->blk[c] = (uint32_t)next++;
  p->n_free = 0; /* (a block the free list had no room for stays unused, as before) */
  for (uint32_t blk = live; blk < p->n_blocks && p->n_free < p->cap_free; blk++)
    p->free_list[p->n_free++] = blk;
  return CAIRN_OK;
}

/* Put the contacts in the order cs->perm (contact i takes the old contact perm[i]). */
static cairn_status apply_perm(cairn_world *w, cairn_diag *d) {
  contact_store *cs = w->contacts;
  size_t n = cs->n;
#define P(f) mem_permute(cs->f, sizeof *cs->f, n, cs->perm, cs->seen);
  CONTACT_FIELDS(P)
#undef P
  for (size_t c = 0; c < n; c++) {
    idmap_put(&cs->map, contact_key_of(w, (uint32_t)c), (uint32_t)c, NULL); /* replaces */
    if (cs->pair[c] != IDMAP_NONE) (*cs->pair_contact)[cs->pair[c]] = (uint32_t)c;
  }
  for (size_t m = 0; m < w->reg->n; m++) CAIRN_TRY(sort_pool(w, (int)m, d));
  cs->slices_ok = 0;
  cs->links.ok = 0;
  cs->key_sorted = 0;
  return CAIRN_OK;
}

cairn_status contact_sort_by_pair(cairn_world *w, const uint32_t *by_pair, size_t np,
                                  cairn_diag *d) {
  contact_store *cs = w->contacts;
  size_t n = cs->n;
  if (n == 0) return CAIRN_OK;
  CAIRN_TRY(sort_scratch(cs, n, d));
  size_t k = 0;
  for (size_t q = 0; q < np; q++)
    if (by_pair[q] != IDMAP_NONE) cs->perm[k++] = by_pair[q];
  if (k != n) return CAIRN_OK; /* a contact without a pair: leave the order as it is */
  return apply_perm(w, d);
}

cairn_status contact_permute(cairn_world *w, const uint32_t *order, cairn_diag *d) {
  contact_store *cs = w->contacts;
  if (cs->n == 0) return CAIRN_OK;
  CAIRN_TRY(sort_scratch(cs, cs->n, d));
  memcpy(cs->perm, order, cs->n * sizeof *order);
  return apply_perm(w, d);
}

/* (qsort's comparison of (key, index) pairs) */
typedef struct keyed {
  uint64_t key;
  uint32_t c;
} keyed;
static int keyed_cmp(const void *x, const void *y) {
  uint64_t a = ((const keyed *)x)->key, b = ((const keyed *)y)->key;
  return (a > b) - (a < b);
}

cairn_status contact_sort_by_key(cairn_world *w, cairn_diag *d) {
  contact_store *cs = w->contacts;
  size_t n = cs->n;
  if (cs->key_sorted || n < 2) {
    cs->key_sorted = 1;
    return CAIRN_OK;
  }
  keyed *k = mem_realloc(NULL, 0, n * sizeof *k, "contact:sort");
  CAIRN_CHECK(k, d, CAIRN_ENOMEM, "out of memory putting %zu contacts in order", n);
  for (size_t c = 0; c < n; c++) k[c] = (keyed){contact_key_of(w, (uint32_t)c), (uint32_t)c};
  qsort(k, n, sizeof *k, keyed_cmp);
  cairn_status s = sort_scratch(cs, n, d);
  if (s == CAIRN_OK) {
    for (size_t c = 0; c < n; c++) cs->perm[c] = k[c].c;
    s = apply_perm(w, d);
  }
  mem_free(k, n * sizeof *k);
  if (s == CAIRN_OK) cs->key_sorted = 1;
  return s;
}

/* A contact as bytes (for MPI): this head, then its property values and its state. */
typedef struct row_head {
  uint32_t size;
  uint8_t kind, sub, active, first, deletable, unchecked, pad[2];
  int32_t model;
  int64_t id1, id2; /* ball-ball: side 1's and side 2's ball ids; ball-wall: wall slot, ball id */
  uint64_t setmask;
  double gap, prox, normal[3], force[3], moment[3];
} row_head;

size_t contact_row_size(const cairn_world *w, uint32_t c) {
  const model_entry *e = &w->reg->e[w->contacts->model[c]];
  return sizeof(row_head) + (size_t)(e->n_prop_slots + e->n_state_slots) * sizeof(double);
}

void contact_row_pack(const cairn_world *w, uint32_t c, uint8_t *out) {
  const contact_store *cs = w->contacts;
  const model_entry *e = &w->reg->e[cs->model[c]];
  row_head h;
  memset(&h, 0, sizeof h);
  h.size = (uint32_t)contact_row_size(w, c);
  h.kind = cs->kind[c], h.sub = cs->sub[c], h.active = cs->active[c], h.first = cs->first[c];
  h.deletable = cs->deletable[c], h.unchecked = cs->unchecked[c];
  h.model = cs->model[c];
  h.id1 = cs->kind[c] == CAIRN_KIND_BALL_BALL ? w->balls.id[cs->a[c]] : (int64_t)cs->a[c];
  h.id2 = w->balls.id[cs->b[c]];
  h.setmask = e->ppool.setmask[cs->pblk[c]];
  h.gap = cs->gap[c], h.prox = cs->prox[c];
  memcpy(h.normal, cs->normal[c], sizeof h.normal);
  memcpy(h.force, cs->force[c], sizeof h.force);
  memcpy(h.moment, cs->moment[c], sizeof h.moment);
  memcpy(out, &h, sizeof h);
  out += sizeof h;
  memcpy(out, pool_props(e, cs->pblk[c]), (size_t)e->n_prop_slots * sizeof(double));
  out += (size_t)e->n_prop_slots * sizeof(double);
  memcpy(out, pool_state(e, cs->blk[c]), (size_t)e->n_state_slots * sizeof(double));
}

void contact_row_read(const uint8_t *row, contact_row_info *info) {
  row_head h;
  memcpy(&h, row, sizeof h);
  info->size = h.size, info->kind = h.kind, info->sub = h.sub, info->model = h.model;
  info->id1 = h.id1, info->id2 = h.id2;
}

void contact_row_cache_free(cairn_world *w, contact_row_cache *rc) {
  for (int i = 0; i < rc->n; i++) props_block_release(&w->reg->e[rc->model[i]], rc->pblk[i]);
  rc->n = 0;
}

/* A property block holding these values for model m: one the cache holds, else a new one. */
static cairn_status cached_block(cairn_world *w, contact_row_cache *rc, int m, const double *props,
                                 uint64_t setmask, uint32_t *pblk, cairn_diag *d) {
  model_entry *e = &w->reg->e[m];
  size_t bytes = (size_t)e->n_prop_slots * sizeof(double);
  for (int i = 0; i < rc->n; i++)
    if (rc->model[i] == m && e->ppool.setmask[rc->pblk[i]] == setmask &&
        memcmp(pool_props(e, rc->pblk[i]), props, bytes) == 0) {
      *pblk = rc->pblk[i];
      e->ppool.refs[*pblk]++;
      return CAIRN_OK;
    }
  CAIRN_TRY(props_block_new(e, props, setmask, pblk, d));
  if (rc->n == CONTACT_ROW_CACHE) { /* the oldest goes */
    props_block_release(&w->reg->e[rc->model[0]], rc->pblk[0]);
    memmove(rc->model, rc->model + 1, (CONTACT_ROW_CACHE - 1) * sizeof *rc->model);
    memmove(rc->pblk, rc->pblk + 1, (CONTACT_ROW_CACHE - 1) * sizeof *rc->pblk);
    rc->n--;
  }
  rc->model[rc->n] = m, rc->pblk[rc->n] = *pblk;
  e->ppool.refs[*pblk]++; /* the cache's own reference */
  rc->n++;
  return CAIRN_OK;
}

cairn_status contact_row_insert(cairn_world *w, const uint8_t *row, uint32_t a, uint32_t b,
                                contact_row_cache *rc, cairn_diag *d) {
  contact_store *cs = w->contacts;
  row_head h;
  memcpy(&h, row, sizeof h);
  CAIRN_CHECK(h.model >= 0 && (size_t)h.model < w->reg->n, d, CAIRN_ESTATE,
              "a contact from another rank names model %d, which this rank does not have",
              (int)h.model);
  model_entry *e = &w->reg->e[h.model];
  const double *props = (const double *)(row + sizeof h);
  const double *state = props + e->n_prop_slots;
  CAIRN_TRY(grow(w, cs->n + 1, d));
  uint32_t c = (uint32_t)cs->n, pblk, blk;
  CAIRN_TRY(cached_block(w, rc, h.model, props, h.setmask, &pblk, d));
  cairn_status s = pool_alloc(&e->pool, &blk, d);
  if (s != CAIRN_OK) {
    props_block_release(e, pblk);
    return s;
  }
  memcpy(pool_state(e, blk), state, (size_t)e->n_state_slots * sizeof(double));
  cs->kind[c] = h.kind, cs->sub[c] = h.sub, cs->a[c] = a, cs->b[c] = b;
  cs->model[c] = h.model, cs->blk[c] = blk, cs->pblk[c] = pblk;
  cs->gap[c] = h.gap, cs->prox[c] = h.prox;
  memcpy(cs->normal[c], h.normal, sizeof h.normal);
  memcpy(cs->force[c], h.force, sizeof h.force);
  memcpy(cs->moment[c], h.moment, sizeof h.moment);
  /* (flags as 0 or 1: the force pass's bit arithmetic counts on it) */
  cs->active[c] = h.active != 0, cs->first[c] = h.first != 0, cs->deletable[c] = h.deletable != 0;
  cs->unchecked[c] = h.unchecked;
  cs->pair[c] = IDMAP_NONE;
  cs->n++;
  s = idmap_put(&cs->map, contact_key_of(w, c), c, d);
  if (s != CAIRN_OK) {
    cs->n--;
    pool_release(&e->pool, blk);
    props_block_release(e, pblk);
    return s;
  }
  if (h.unchecked) cs->n_unchecked++;
  links_created(w, c);
  if (c > 0 && cs->key_sorted && contact_key_of(w, c) < contact_key_of(w, c - 1))
    cs->key_sorted = 0;
  cs->slices_ok = 0;
  return CAIRN_OK;
}

/* Contact 'from' moved into slot 'to' (a deleted contact's): its fields, key and pair follow. */
static void move_contact(cairn_world *w, uint32_t from, uint32_t to) {
  contact_store *cs = w->contacts;
#define MV(f) memcpy(&cs->f[to], &cs->f[from], sizeof cs->f[to]);
  CONTACT_FIELDS(MV)
#undef MV
  idmap_put(&cs->map, contact_key_of(w, to), to, NULL); /* replaces: never allocates */
  if (cs->pair[to] != IDMAP_NONE) (*cs->pair_contact)[cs->pair[to]] = to;
  links_moved(w, from, to);
}

/* Where the last contact of contact c's class lies (at c or after it): the end of the last slice
   of that class while the slices are current, else among the last SAME_CLASS_REACH contacts; c
   if there is none. */
#define SAME_CLASS_REACH 256
static uint32_t last_of_class(const contact_store *cs, uint32_t c, uint32_t last) {
  if (cs->slices_ok && cs->slices_redo == SIZE_MAX) {
    for (size_t k = cs->n_slices; k-- > 0 && cs->slice[k + 1] > c;)
      if (same_class(cs, cs->slice[k], c)) return cs->slice[k + 1] - 1;
    return c;
  }
  uint32_t p = last, stop = last - c > SAME_CLASS_REACH ? last - SAME_CLASS_REACH : c;
  while (p > stop && !same_class(cs, p, c)) p--;
  return same_class(cs, p, c) ? p : c;
}

/* The slices kept as contact p, the last of its class and so the last of its slice, gives its
   place to the last contact (of another class): p becomes a slice of its own, or joins the next
   slice if that has the last contact's class and room; then the last slice loses its last. */
static void slices_take_last(contact_store *cs, uint32_t p, uint32_t last) {
  if (!cs->slices_ok) return;
  size_t k = slice_of(cs, p);
  if (cs->slices_redo != SIZE_MAX || cs->cap_slice < cs->n_slices + 3) {
    slices_redo_from(cs, k > 0 ? k - 1 : 0);
    return;
  }
  size_t ns = cs->n_slices;
  if (k + 1 < ns && same_class(cs, last, cs->slice[k + 1]) &&
      cs->slice[k + 2] - p <= CAIRN_CM_SLICE_MAX) {
    cs->slice[k + 1] = p;    /* (the next slice starts one earlier) */
    if (cs->slice[k] == p) { /* (p's slice is empty now) */
      memmove(&cs->slice[k], &cs->slice[k + 1], (ns - k) * sizeof *cs->slice);
      cs->n_slices = --ns;
    }
  } else if (cs->slice[k] < p) { /* (a slice of its own, after p's slice) */
    memmove(&cs->slice[k + 2], &cs->slice[k + 1], (ns - k) * sizeof *cs->slice);
    cs->slice[k + 1] = p;
    cs->n_slices = ++ns;
  } /* (else p's slice is p alone, and takes the last contact's class) */
  slices_lose_last(cs, last);
}

void contact_forget(cairn_world *w, uint32_t c) {
  contact_store *cs = w->contacts;
  /* its pair has no contact now (else the pair would name whichever contact takes its place) */
  if (cs->pair[c] != IDMAP_NONE && cs->pair_contact) (*cs->pair_contact)[cs->pair[c]] = IDMAP_NONE;
  idmap_del(&cs->map, contact_key_of(w, c));
  model_entry *e = &w->reg->e[cs->model[c]];
  pool_release(&e->pool, cs->blk[c]);
  props_block_release(e, cs->pblk[c]);
  if (cs->unchecked[c]) cs->n_unchecked--;
  uint32_t last = (uint32_t)cs->n - 1;
  /* The last contact of c's class takes its place, and the last contact the place that one left:
     the force pass's slices stay long runs of one class (a contact of another class moved into
     the middle of a run would cut it in three), and only the store's end, where contacts are
     made, mixes the classes. */
  uint32_t p = last_of_class(cs, c, last);
  links_deleted(w, c);
  if (p == c || p == last || same_class(cs, p, last))
    slices_forget(cs, p, last); /* (c's slice keeps its class: as if p were deleted) */
  else
    slices_take_last(cs, p, last);
  if (c != last) cs->key_sorted = 0;
  if (p != c) move_contact(w, p, c);
  if (last != p) move_contact(w, last, p);
  cs->n--;
}

void contact_restore_geometry(cairn_world *w, uint32_t c, const contact_geometry *g) {
  contact_store *cs = w->contacts;
  v3_copy(g->normal, cs->normal[c]);
  cs->gap[c] = g->gap;
  v3_copy(g->force, cs->force[c]);
  v3_copy(g->moment, cs->moment[c]);
  cs->prox[c] = g->prox;
  /* (flags as 0 or 1: the force pass's bit arithmetic counts on it) */
  cs->active[c] = g->active != 0, cs->first[c] = g->first != 0,
  cs->deletable[c] = g->deletable != 0;
  if (!g->unchecked && cs->unchecked[c]) cs->unchecked[c] = 0, cs->n_unchecked--;
}

void contact_restore_state(cairn_world *w, uint32_t c, const double *state) {
  const contact_store *cs = w->contacts;
  const model_entry *e = &w->reg->e[cs->model[c]];
  memcpy(pool_state(e, cs->blk[c]), state, (size_t)e->n_state_slots * sizeof(double));
}

cairn_status contact_restore_props(cairn_world *w, uint32_t c, const double *props, uint64_t mask,
                                   cairn_diag *d) {
  contact_store *cs = w->contacts;
  int model = cs->model[c];
  model_entry *e = &w->reg->e[model];
  uint32_t pblk;
  size_t bytes = (size_t)e->n_prop_slots * sizeof(double);
  if (c > 0 && cs->model[c - 1] == model && e->ppool.setmask[cs->pblk[c - 1]] == mask &&
      memcmp(pool_props(e, cs->pblk[c - 1]), props, bytes) == 0) {
    pblk = cs->pblk[c - 1];
    e->ppool.refs[pblk]++;
  } else {
    CAIRN_TRY(props_block_new(e, props, mask, &pblk, d));
  }
  props_block_release(e, cs->pblk[c]);
  cs->pblk[c] = pblk;
  cs->slices_ok = 0;
  return CAIRN_OK;
}

void contact_restore_pairs(cairn_world *w, const uint32_t *by_pair, size_t np) {
  contact_store *cs = w->contacts;
  for (size_t c = 0; c < cs->n; c++) cs->pair[c] = IDMAP_NONE;
  for (size_t q = 0; q < np; q++)
    if (by_pair[q] != IDMAP_NONE) cs->pair[by_pair[q]] = (uint32_t)q;
}
