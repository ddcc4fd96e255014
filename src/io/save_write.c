/* The save file's writers: one per store, each writing its section's bytes (save_format.h).
   Numbers are written in the machine's byte order; a store's fields keep the order they had in
   format 7, so a section reads as that format's part of the payload did. */
#include <stdlib.h>

#include "contact/cracks.h"
#include "contact/energy.h"
#include "contact/model_call.h"
#include "cycle/cycle.h"
#include "detect/detect.h"
#include "io/save_format.h"
#include "par/par.h"

void put(wbuf *b, const void *src, size_t n) {
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

/* WRLD: the dimension first (read before the world is made), time, timestep, domain. */
void put_world_sec(wbuf *b, const cairn_world *w, const save_ctx *x) {
  put_u32(b, (uint32_t)w->dim);
  put_f64s(b, w->gravity, 3);
  put_u32(b, (uint32_t)w->ts_mode);
  put_f64(b, w->dt), put_f64(b, w->dt_safety), put_f64(b, w->time);
  put_u64(b, w->step);
  /* the automatic timestep's steps per impact, the stiffest contact for its mass at the last
     force pass (the next step's bound, as the balls' stiffness sums are), the last step's dt */
  put_f64(b, w->dt_impact), put_f64(b, w->kn_m_max), put_f64(b, w->dt_taken);
  put_u32(b, (uint32_t)w->has_domain);
  put_f64s(b, w->dom_min, 3), put_f64s(b, w->dom_max, 3);
  put_u32(b, (uint32_t)w->dom_cond);
  put_u64(b, x->parts ? x->destroyed : w->n_destroyed);
}

/* ENRG: the energy books, with the losses not yet folded in. */
void put_energy_sec(wbuf *b, const cairn_world *w, const save_ctx *x) {
  (void)x;
  put_u32(b, (uint32_t)(w->energy->on | w->energy->started << 1 | w->energy->torque_last << 2));
  put_f64(b, w->energy->gravity), put_f64(b, w->energy->walls), put_f64(b, w->energy->damping);
  double retired[CAIRN_ENERGY_N], removed;
  energy_totals(w, retired, &removed);
  put_f64s(b, retired, CAIRN_ENERGY_N), put_f64(b, w->energy->start);
  put_f64(b, w->energy->applied), put_f64(b, removed);
}

/* GRUP: the group names (group 0 has none). */
void put_groups_sec(wbuf *b, const cairn_world *w, const save_ctx *x) {
  (void)x;
  put_u32(b, (uint32_t)w->n_groups);
  for (size_t g = 1; g < w->n_groups; g++) put_str(b, w->groups[g]);
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

/* MODL: each registered model's tables, by which the readers match fields by name. */
void put_models_sec(wbuf *b, const cairn_world *w, const save_ctx *x) {
  (void)x;
  put_u32(b, (uint32_t)w->reg->n);
  for (size_t i = 0; i < w->reg->n; i++) put_layout(b, &w->reg->e[i]);
}

static void put_entry(wbuf *b, const cairn_world *w, const cmat_entry *ce) {
  put_u32(b, (uint32_t)ce->model);
  put_f64(b, ce->proximity);
  put_u64(b, ce->setmask);
  put_f64s(b, ce->props, (size_t)w->reg->e[ce->model].n_prop_slots);
}

/* CMAT: the two defaults and the rules. */
void put_cmat_sec(wbuf *b, const cairn_world *w, const save_ctx *x) {
  (void)x;
  for (int k = 0; k < 2; k++) put_entry(b, w, &w->cmat->def[k]);
  put_u32(b, (uint32_t)w->cmat->n_rules);
  for (size_t r = 0; r < w->cmat->n_rules; r++) {
    const cmat_rule *ru = &w->cmat->rules[r];
    put_u32(b, (uint32_t)(ru->kind + 1));
    put_u16(b, ru->g1), put_u16(b, ru->g2);
    put_entry(b, w, &ru->e);
  }
}

/* BALL: every attribute as a column, then the next free id. */
void put_balls_sec(wbuf *b, const cairn_world *w, const save_ctx *x) {
  size_t n = x->parts ? 0 : w->balls.n; /* (in parts: PRTS) */
  put_u64(b, n);
  if (n) { /* (no arrays yet without balls) */
    void *col[BALL_SAVED_COLUMNS];
    size_t size[BALL_SAVED_COLUMNS];
    ball_columns((ball_store *)&w->balls, col, size); /* (only read here) */
    for (int k = 0; k < BALL_SAVED_COLUMNS; k++) put(b, col[k], n * size[k]);
  }
  put_i64(b, w->next_ball_id);
}

static void put_wall_shape(wbuf *b, const wall *wl) {
  put_i64(b, wl->id);
  put_u32(b, (uint32_t)wl->kind), put_u32(b, (uint32_t)wl->n_nodes);
  put_f64s(b, &wl->nodes[0][0], 3 * (size_t)wl->n_nodes);
  put_f64s(b, wl->point, 3), put_f64s(b, wl->normal, 3), put_f64s(b, wl->vel, 3);
  put_f64s(b, wl->disp, 3), put_f64s(b, wl->force, 3), put_f64s(b, wl->last_dx, 3);
  put_u16(b, wl->group);
}

static void put_wall_turning(wbuf *b, const wall *wl) {
  put_f64s(b, wl->spin, 3), put_f64s(b, wl->centre, 3), put_f64s(b, wl->last_dtheta, 3);
  put_f64s(b, wl->torque, 3), put_f64(b, wl->rot_disp);
}

/* A wall's translation since creation, its radius (a cylinder), and its servo. */
static void put_wall_servo(wbuf *b, const wall *wl) {
  const wall_servo *sv = &wl->servo;
  put_f64s(b, wl->moved, 3);
  put_f64(b, wl->radius), put_f64(b, wl->radial_vel);
  put_f64(b, wl->last_dr);
  put_u8(b, sv->mode);
  if (sv->mode == SERVO_OFF) return;
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

/* WALL: each wall whole (shape, turning, servo), then the next free id. */
void put_walls_sec(wbuf *b, const cairn_world *w, const save_ctx *x) {
  (void)x;
  walls_settle(w);
  put_u32(b, (uint32_t)w->walls.n);
  for (size_t i = 0; i < w->walls.n; i++) {
    put_wall_shape(b, &w->walls.w[i]);
    put_wall_turning(b, &w->walls.w[i]);
    put_wall_servo(b, &w->walls.w[i]);
  }
  put_i64(b, w->next_wall_id);
}

/* A contact: its kind, sides, model, geometry, flags, properties and state. Its sides are slots
   of the BALL section and the walls (by_id 0: CONT), or a ball's and a wall's ids (1: a part). */
static void put_contact(wbuf *b, const cairn_world *w, uint32_t c, int by_id) {
  const contact_store *cs = w->contacts;
  const model_entry *e = &w->reg->e[cs->model[c]];
  put_u8(b, (uint8_t)(cs->kind[c] | cs->sub[c] << 2)); /* (a mesh's further contacts: sub) */
  if (by_id) {
    int bb = cs->kind[c] == CAIRN_KIND_BALL_BALL;
    put_i64(b, bb ? w->balls.id[cs->a[c]] : w->walls.w[cs->a[c]].id);
    put_i64(b, w->balls.id[cs->b[c]]);
  } else
    put_u32(b, cs->a[c]), put_u32(b, cs->b[c]);
  put_u32(b, (uint32_t)cs->model[c]);
  put_f64s(b, cs->normal[c], 3), put_f64(b, cs->gap[c]);
  put_f64s(b, cs->force[c], 3), put_f64s(b, cs->moment[c], 3);
  put_f64(b, cs->prox[c]);
  put_u8(b, cs->active[c]), put_u8(b, cs->first[c]), put_u8(b, cs->deletable[c]);
  put_u8(b, cs->unchecked[c]);
  put_u64(b, e->ppool.setmask[cs->pblk[c]]);
  put_f64s(b, pool_props(e, cs->pblk[c]), (size_t)e->n_prop_slots);
  put_f64s(b, pool_state(e, cs->blk[c]), (size_t)e->n_state_slots);
}

/* CONT: each contact with its model's properties and state. */
void put_contacts_sec(wbuf *b, const cairn_world *w, const save_ctx *x) {
  size_t n = x->parts ? 0 : w->contacts->n; /* (in parts: PRTS) */
  put_u64(b, n);
  for (size_t c = 0; c < n; c++) put_contact(b, w, (uint32_t)c, 0);
}

/* A pair's place in the file: its key (contact_key of its kind and sides' ids; a wall by its
   id), which names it alike whatever the order the broad phase or an MPI gathering left the
   list in. */
typedef struct pair_ref {
  uint64_t key;
  uint32_t q;
} pair_ref;
static int pair_ref_cmp(const void *x, const void *y) {
  const pair_ref *a = x, *b = y;
  return (a->key > b->key) - (a->key < b->key);
}

/* PAIR: the pair list as columns, in the order of the pairs' keys. A serial run holds its pairs
   in the order its cells were scanned, an MPI run in the order of their keys after gathering
   (par.c, gather_pairs); both write this order, so their files are the same bytes
   (docs/parallel.md). The sides are slots and the contacts indices: balls and contacts are
   already in their canonical orders here (Morton cells then ids; ids). */
void put_pairs_sec(wbuf *b, const cairn_world *w, const save_ctx *x) {
  const pair_list *p = w->pairs;
  put_u64(b, x->parts ? 0 : p->n), put_f64(b, p->skin); /* (in parts: the pairs' keys in PRTS) */
  put_u32(b, x->parts ? x->stale : (uint32_t)pairs_stale(w));
  put_u64(b, p->rebuilds);
  if (b->oom || p->n == 0 || x->parts) return;
  pair_ref *r = mem_realloc(NULL, 0, p->n * sizeof *r, "save:pairs");
  if (!r) {
    b->oom = 1;
    return;
  }
  for (size_t q = 0; q < p->n; q++) r[q] = (pair_ref){pair_key(w, (uint32_t)q), (uint32_t)q};
  qsort(r, p->n, sizeof *r, pair_ref_cmp);
  for (size_t i = 0; i < p->n; i++) put_u8(b, (uint8_t)(p->kind[r[i].q] | p->sub[r[i].q] << 2));
  for (size_t i = 0; i < p->n; i++) put_u32(b, p->a[r[i].q]);
  for (size_t i = 0; i < p->n; i++) put_u32(b, p->b[r[i].q]);
  for (size_t i = 0; i < p->n; i++) put_u32(b, p->contact[r[i].q]);
  mem_free(r, p->n * sizeof *r);
}

/* HIST: the recorded samples of every history (their functions cannot be saved). */
void put_hist_sec(wbuf *b, const cairn_world *w, const save_ctx *x) {
  (void)x;
  const history_set *hs = w->hist;
  put_u32(b, (uint32_t)hs->n), put_u64(b, hs->interval), put_u64(b, hs->n_rows);
  put_f64s(b, hs->step, hs->n_rows), put_f64s(b, hs->time, hs->n_rows);
  for (size_t i = 0; i < hs->n; i++) {
    put_str(b, hs->h[i].name);
    put_f64s(b, hs->h[i].v, hs->n_rows);
  }
}

/* HUNT (only when a history has a unit): each history's unit, "" for none, in HIST's order. */
void put_hist_units_sec(wbuf *b, const cairn_world *w, const save_ctx *x) {
  (void)x;
  const history_set *hs = w->hist;
  put_u32(b, (uint32_t)hs->n);
  for (size_t i = 0; i < hs->n; i++) put_str(b, hs->h[i].unit);
}

/* CALL: the names of the events that had script callbacks, for the note after a restore. */
void put_calls_sec(wbuf *b, const cairn_world *w, const save_ctx *x) {
  (void)w;
  put_u32(b, (uint32_t)x->n_cb);
  for (int i = 0; i < x->n_cb; i++) put_str(b, x->cb[i]);
}

/* LOAD: the applied forces and moments, in the order of their balls' ids (the same whatever
   order they were set in, and whatever rank held them: in parts, every rank's, x->loads). */
void put_loads_sec(wbuf *b, const cairn_world *w, const save_ctx *x) {
  uint8_t *mine = NULL;
  const uint8_t *rows = x->loads;
  size_t n = x->n_loads;
  cairn_diag d;
  if (!x->parts) {
    if (loads_rows_sorted(w, &mine, &n, &d) != CAIRN_OK) {
      b->oom = 1;
      return;
    }
    rows = mine;
  }
  put_u64(b, n);
  for (size_t i = 0; i < n; i++) {
    int64_t id;
    double f[3], m[3];
    loads_row_read(rows + i * LOAD_ROW, &id, f, m);
    put_i64(b, id);
    put_f64s(b, f, 3), put_f64s(b, m, 3);
  }
  mem_free(mine, 0);
}

/* CRAK: the broken bonds. */
static void put_crack(wbuf *b, const crack *k) {
  put_u64(b, k->step), put_f64(b, k->time), put_f64s(b, k->pos, 3);
  put_i64(b, k->id1), put_i64(b, k->id2), put_u8(b, k->kind), put_u8(b, k->tension);
}

void put_cracks_sec(wbuf *b, const cairn_world *w, const save_ctx *x) {
  size_t n = x->parts ? 0 : w->cracks->n; /* (in parts: PRTS) */
  put_u64(b, n);
  for (size_t i = 0; i < n; i++) put_crack(b, &w->cracks->c[i]);
}

/* CELL: the periodic cell, or a 0 without one. */
void put_cell_sec(wbuf *b, const cairn_world *w, const save_ctx *x) {
  (void)x;
  const periodic_cell *pc = &w->cell;
  put_u8(b, (uint8_t)pc->on);
  if (!pc->on) return;
  for (int j = 0; j < 3; j++) put_u8(b, pc->periodic[j]), put_u8(b, pc->servo[j]);
  put_f64s(b, pc->centre, 3);
  put_f64s(b, &pc->H[0][0], 9), put_f64s(b, &pc->F[0][0], 9);
  put_f64s(b, &pc->H_rebuild[0][0], 9), put_f64s(b, &pc->L[0][0], 9);
  put_f64s(b, pc->target, 3), put_f64s(b, pc->rate_max, 3), put_f64(b, pc->alpha);
}

/* CLMP (only with clumps): the templates (pebbles and mass properties), then every clump's body
   state and pebbles (ball ids and body-frame offsets), then the next free clump id. */
void put_clumps_sec(wbuf *b, const cairn_world *w, const save_ctx *x) {
  (void)x;
  const clump_store *cs = &w->clumps;
  put_u64(b, cs->n_tmpl);
  for (size_t k = 0; k < cs->n_tmpl; k++) {
    const clump_template *t = &cs->tmpl_v[k];
    put_str(b, t->name);
    put_u32(b, (uint32_t)t->n);
    put_f64s(b, &t->peb[0][0], 4 * (size_t)t->n);
    put_f64(b, t->volume), put_f64s(b, t->centre, 3), put_f64s(b, t->inertia, 3);
    put_f64s(b, &t->axes[0][0], 9), put_f64s(b, t->q_axes, 4);
    put_f64(b, t->vol_err), put_f64(b, t->centre_err), put_f64(b, t->inertia_err);
    put_u8(b, (uint8_t)t->given);
  }
  put_u64(b, cs->n);
  for (size_t c = 0; c < cs->n; c++) {
    put_i64(b, cs->id[c]);
    put_u32(b, cs->tmpl[c]);
    put_f64s(b, cs->pos[c], 3), put_f64s(b, cs->vel[c], 3), put_f64s(b, cs->spin[c], 3);
    put_f64s(b, cs->amom[c], 3), put_f64s(b, cs->q[c], 4);
    put_f64(b, cs->density[c]), put_f64(b, cs->mass[c]), put_f64(b, cs->damp[c]);
    put_f64(b, cs->scale[c]);
    put_f64s(b, cs->inertia[c], 3), put_f64s(b, cs->force[c], 3), put_f64s(b, cs->moment[c], 3);
    put_u8(b, cs->fix[c]), put_u16(b, cs->group[c]);
    put_u32(b, cs->count[c]);
    for (uint32_t p = cs->first[c]; p < cs->first[c] + cs->count[c]; p++) {
      put_i64(b, cs->peb_id[p]);
      put_f64s(b, cs->peb_off[p], 3);
    }
  }
  put_i64(b, cs->next_id);
}

/* XTRA (only when some ball has extra variables): the rows, each a ball id and its values. */
void put_extras_sec(wbuf *b, const cairn_world *w, const save_ctx *x) {
  (void)x;
  const ball_extras *e = &w->balls.extras;
  put_u64(b, e->n);
  for (size_t r = 0; r < e->n; r++) {
    put_i64(b, e->id[r]);
    put_f64s(b, e->v[r], BALL_EXTRAS);
  }
}

/* CDSP (only while displacements are tracked): each ball's row, its id and its displacement up
   to the last neighbour rebuild (the balls' own 'disp' holds the rest). */
void put_cumdisp_sec(wbuf *b, const cairn_world *w, const save_ctx *x) {
  (void)x;
  const ball_cumdisp *c = &w->balls.cum;
  put_u64(b, c->n);
  for (size_t r = 0; r < c->n; r++) {
    put_i64(b, c->id[r]);
    put_f64s(b, c->d[r], 3);
  }
}

/* SKEY (only once a rebuild has keyed balls): each ball's key of the last neighbour rebuild, in
   the order of the BALL section, so that a restored run sums each ball's contacts in the order
   the uninterrupted run does until its next rebuild. */
void put_skeys_sec(wbuf *b, const cairn_world *w, const save_ctx *x) {
  (void)x;
  put_u64(b, w->balls.n);
  put(b, w->balls.skey, w->balls.n * sizeof *w->balls.skey);
}

/* JNTS (only with joints that last, contact.joint): each joint's point, normal and radius, and
   the assignment later contacts across it get. */
void put_joints_sec(wbuf *b, const cairn_world *w, const save_ctx *x) {
  (void)x;
  const cmat *t = w->cmat;
  put_u64(b, t->n_joints);
  for (size_t i = 0; i < t->n_joints; i++) {
    const cmat_joint *j = &t->joints[i];
    put_f64s(b, j->point, 3), put_f64s(b, j->normal, 3), put_f64(b, j->radius);
    put_entry(b, w, &j->e);
  }
}

/* MESH (only with mesh walls): each mesh wall's id, orientation and reach, then its vertices (in
   the mesh's frame) and triangles. */
void put_meshes_sec(wbuf *b, const cairn_world *w, const save_ctx *x) {
  (void)x;
  uint64_t n = 0;
  for (size_t i = 0; i < w->walls.n; i++) n += w->walls.w[i].mesh != NULL;
  put_u64(b, n);
  for (size_t i = 0; i < w->walls.n; i++) {
    const wall *wl = &w->walls.w[i];
    if (!wl->mesh) continue;
    put_i64(b, wl->id);
    put_f64s(b, wl->orient, 4), put_f64(b, wl->mesh_reach);
    put_u64(b, wl->mesh->nv);
    put(b, wl->mesh->v, wl->mesh->nv * sizeof *wl->mesh->v);
    put_u64(b, wl->mesh->nt);
    put(b, wl->mesh->t, wl->mesh->nt * sizeof *wl->mesh->t);
  }
}

/* WMOT (only with walls moved by tables): each such wall's id and its table of velocities and
   spins against time. */
void put_motions_sec(wbuf *b, const cairn_world *w, const save_ctx *x) {
  (void)x;
  uint64_t n = 0;
  for (size_t i = 0; i < w->walls.n; i++) n += w->walls.w[i].motion.n_points > 0;
  put_u64(b, n);
  for (size_t i = 0; i < w->walls.n; i++) {
    const wall_motion *m = &w->walls.w[i].motion;
    if (!m->n_points) continue;
    put_i64(b, w->walls.w[i].id);
    put_u32(b, (uint32_t)m->n_points), put_u32(b, m->has_vel), put_u32(b, m->has_spin);
    put_f64s(b, m->t, (size_t)m->n_points);
    for (int k = 0; k < m->n_points; k++) put_f64s(b, m->vel[k], 3);
    for (int k = 0; k < m->n_points; k++) put_f64s(b, m->spin[k], 3);
  }
}

void put_part(wbuf *b, const cairn_world *w) {
  const ball_store *bs = &w->balls;
  const contact_store *cs = w->contacts;
  const pair_list *p = w->pairs;
  size_t n = balls_owned(w); /* (the owned balls are the first) */
  put_u64(b, n);
  if (n) {
    void *col[BALL_SAVED_COLUMNS];
    size_t size[BALL_SAVED_COLUMNS];
    ball_columns((ball_store *)bs, col, size); /* (only read here) */
    for (int k = 0; k < BALL_SAVED_COLUMNS; k++) put(b, col[k], n * size[k]);
    put(b, bs->skey, n * sizeof *bs->skey);
  }
  /* (each count is written before its rows and filled in after them) */
  size_t at = b->n;
  uint64_t nc = 0, np = 0;
  put_u64(b, 0);
  for (size_t c = 0; c < cs->n; c++)
    if (rank_books_contact(w, cs->kind[c], cs->a[c], cs->b[c]))
      put_contact(b, w, (uint32_t)c, 1), nc++;
  if (!b->oom) memcpy(b->p + at, &nc, sizeof nc);
  /* the pairs of its own balls (a pair that joins two ranks comes from both) */
  at = b->n;
  put_u64(b, 0);
  for (size_t q = 0; q < p->n; q++)
    if (pair_has_side_below(p, (uint32_t)q, n)) put_u64(b, pair_key(w, (uint32_t)q)), np++;
  if (!b->oom) memcpy(b->p + at, &np, sizeof np);
  size_t from = par_cracks_from(w);
  put_u64(b, w->cracks->n - from);
  for (size_t i = from; i < w->cracks->n; i++) put_crack(b, &w->cracks->c[i]);
}
