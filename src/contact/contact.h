/* Contacts: the model registry, per-model storage pools, the contact model assignment table
   (CMAT), the contact store, and generic property/state access driven by the models' tables. */
#ifndef CAIRN_CONTACT_H
#define CAIRN_CONTACT_H

#include "world/world.h"

/* Contacts as bytes, for MPI (contact.c): a row holds a contact's kind, its sides' ids
   (ball-ball: the two ball ids; ball-wall: the wall's slot, the ball id), its model and
   property values, its state and its geometry and flags. A row inserted gets a property block
   shared with the rows before it of the same values (the cache, released with
   contact_row_cache_free). */
#define CONTACT_ROW_CACHE 8
typedef struct contact_row_cache {
  int n;
  int model[CONTACT_ROW_CACHE];
  uint32_t pblk[CONTACT_ROW_CACHE];
} contact_row_cache;
typedef struct contact_row_info {
  uint32_t size;
  int kind, model;
  int64_t id1, id2;
} contact_row_info;
size_t contact_row_size(const cairn_world *w, uint32_t c);
void contact_row_pack(const cairn_world *w, uint32_t c, uint8_t *out);
void contact_row_read(const uint8_t *row, contact_row_info *info);
/* Insert a row as a new contact between slots a and b (no event: it exists elsewhere). */
cairn_status contact_row_insert(cairn_world *w, const uint8_t *row, uint32_t a, uint32_t b,
                                contact_row_cache *rc, cairn_diag *d);
void contact_row_cache_free(cairn_world *w, contact_row_cache *rc);
/* Remove contact c without an event or energy books (it lives on, on another rank). */
void contact_forget(cairn_world *w, uint32_t c);

/* links.c: each ball's contacts in its partners' order (contact_links, world.h). */
/* Build the lists whole. */
cairn_status links_build(cairn_world *w, cairn_diag *d);
/* Keep them up to date as contact c is made, or deleted with 'last' moving into its place
   (contact_create and contact_delete call these). */
void links_created(cairn_world *w, uint32_t c);
void links_deleted(cairn_world *w, uint32_t c, uint32_t last);
/* The order of entry e among its ball's others: walls first by wall id, then balls by ball id. */
uint64_t links_key(const cairn_world *w, uint32_t e);
/* Drop the tombstones among the extras and sort them by ball, then key. */
cairn_status links_sort_extras(cairn_world *w, cairn_diag *d);
void links_free(contact_links *l);

/* registry.c */
/* Register a model (validating its tables). 'source' is "built-in" or a library path. */
cairn_status registry_add(registry *r, const cairn_contact_model *m, const char *source,
                          cairn_diag *d);
int registry_find(const registry *r, const char *name); /* -1 if absent */
/* registry_find that fails with one message (how to list and load models) when absent. */
cairn_status registry_require(const registry *r, const char *name, int *index, cairn_diag *d);
void registry_free(registry *r);
/* Drop the models registered after the first n (undo a partial plugin registration). */
void registry_truncate(registry *r, size_t n);
/* Register every built-in model (src/models/builtin.c). */
cairn_status models_register_builtin(registry *r, cairn_diag *d);

/* Find a property (or, with 'state', a state field) row by name; -1 if absent. */
int model_prop_index(const model_entry *e, const char *name);
/* The row a property row stands for: itself, or an alias's target (-1 if missing). */
int model_prop_target(const cairn_contact_model *m, int i);
int model_state_index(const model_entry *e, const char *name);
/* Write one property value (n values: 1, or 3 for VEC) into a property block, checking type
   and range. 'who' names the target for messages ("contact ball-ball 1-2"). */
cairn_status model_prop_write(const model_entry *e, double *props, uint64_t *setmask,
                              const char *name, const double *v, int n, const char *who,
                              cairn_diag *d);
/* Whether v (1 value, or 3 for a VEC) is of p's type and in its range (what model_prop_write
   checks, without a message: for values read back from a file). */
int model_prop_valid(const cairn_prop_desc *p, const double *v);
/* The range of a property as text: "[0, +inf)". */
void range_text(const cairn_prop_desc *p, char *buf, size_t n);
/* Fill a property block with the table defaults. */
void model_props_default(const model_entry *e, double *props);

/* Pools: a zeroed block from p (of model e, for messages), and its return. */
cairn_status pool_alloc(model_pool *p, uint32_t *blk, cairn_diag *d);
void pool_release(model_pool *p, uint32_t blk);
/* A contact's state block, and a property block with its derived constants after it. */
static inline double *pool_state(const model_entry *e, uint32_t blk) {
  return e->pool.data + (size_t)blk * e->pool.stride;
}
static inline double *pool_props(const model_entry *e, uint32_t pblk) {
  return e->ppool.data + (size_t)pblk * e->ppool.stride;
}
static inline double *pool_derived(const model_entry *e, uint32_t pblk) {
  return pool_props(e, pblk) + e->n_prop_slots;
}
/* A new property block holding 'props' (n_prop_slots doubles) and 'setmask', prepared, with one
   reference. */
cairn_status props_block_new(model_entry *e, const double *props, uint64_t setmask, uint32_t *pblk,
                             cairn_diag *d);
/* Drop one reference to a property block (freed with the last). */
void props_block_release(model_entry *e, uint32_t pblk);

/* cmat.c */
/* Set the default assignment of one contact kind: model name and (name, values) properties. */
cairn_status cmat_set_default(cairn_world *w, int kind, const char *model, double proximity,
                              cairn_diag *d);
cairn_status cmat_set_prop(cairn_world *w, int kind, const char *name, const double *v, int n,
                           cairn_diag *d);
/* Add a rule (after the existing ones). kind -1 matches both kinds. g2 may be NULL. */
cairn_status cmat_add_rule(cairn_world *w, int kind, const char *g1, const char *g2,
                           const char *model, double proximity, cairn_diag *d);
/* Set a property of the last rule added. */
cairn_status cmat_rule_set_prop(cairn_world *w, const char *name, const double *v, int n,
                                cairn_diag *d);
void cmat_clear_rules(cairn_world *w);
/* The assignment for a new contact between sides a and b: first matching rule, else default. */
cmat_entry *cmat_lookup(cairn_world *w, int kind, uint32_t a, uint32_t b);
/* The property block a new contact gets from entry ce (shared, one more reference). */
cairn_status cmat_entry_block(cairn_world *w, cmat_entry *ce, uint32_t *pblk, cairn_diag *d);
/* Drop the entry's shared block (after a change: later contacts get a new one). */
void cmat_entry_unshare(cairn_world *w, cmat_entry *ce);
double cmat_max_proximity(const cairn_world *w);
void cmat_free(cairn_world *w);

/* contact.c */
static inline uint64_t contact_key(int kind, int64_t id1, int64_t id2) {
  return ((uint64_t)kind << 62) | ((uint64_t)id1 << 31) | (uint64_t)id2;
}
uint64_t contact_key_of(const cairn_world *w, uint32_t c);
/* Create a contact between side slots a and b with the CMAT's assignment; returns its index. */
cairn_status contact_create(cairn_world *w, int kind, uint32_t a, uint32_t b, uint32_t *out,
                            cairn_diag *d);
/* The (n, s, t) frame in which scripts read contact c's force, moment and contact-plane state:
   n its normal; in 2D s = z and t = (-n_y, n_x); in 3D s is n x e / |n x e| with e the axis least
   aligned with n, and t = n x s. */
void contact_frame(const cairn_world *w, uint32_t c, double f[9]);
/* A global vector v in contact c's (n, s, t) frame. */
void contact_to_frame(const cairn_world *w, uint32_t c, const double v[3], double out[3]);
/* Put the contacts in the order of their pairs, and each model's pool blocks in the order of
   its contacts, so that the passes over pairs and contacts walk memory forwards (called after
   the pair list is rebuilt, when every contact has its pair). */
/* Put the contacts in the order 'order' (contact i takes the old contact order[i]; a
   permutation of 0 .. n-1). */
cairn_status contact_permute(cairn_world *w, const uint32_t *order, cairn_diag *d);
cairn_status contact_sort_by_pair(cairn_world *w, cairn_diag *d);
/* Put the contacts in the order of their keys: ball-ball contacts by lower, then higher ball
   id, then ball-wall contacts by wall id, then ball id. Scripts and outputs see them in this
   order, which depends on nothing but the ids (design.md, Scale). Cheap when they are so
   already. */
cairn_status contact_sort_by_key(cairn_world *w, cairn_diag *d);
/* Delete contact c (swap with the last). The caller fixes the moved contact's pair entry if it
   cannot rely on cs->pair (this function does it when the moved contact has a pair). */
void contact_delete(cairn_world *w, uint32_t c);
/* Give contact c a new model (state zeroed, properties from defaults). */
cairn_status contact_set_model(cairn_world *w, uint32_t c, int model, cairn_diag *d);
cairn_status contact_find(const cairn_world *w, int kind, int64_t id1, int64_t id2, uint32_t *c,
                          cairn_diag *d);
/* Describe contact c for messages: "ball-ball contact 1-2". */
void contact_describe(const cairn_world *w, uint32_t c, char *buf, size_t n);
/* Read a property or state field of contact c by name into v (up to 3 values); *n gets 1 or 3.
   A contact-plane state field is given as (normal, s, t) in the contact's frame. */
cairn_status contact_prop_get(const cairn_world *w, uint32_t c, const char *name, double v[3],
                              int *n, cairn_diag *d);
cairn_status contact_prop_set(cairn_world *w, uint32_t c, const char *name, const double *v, int n,
                              cairn_diag *d);
/* Contact point of contact c: the middle of the overlap along the normal, from side 2's centre
   (ball-ball: the same point as from side 1's, r1 + gap / 2 along n from it). */
static inline void contact_point(const cairn_world *w, uint32_t c, double pt[3]) {
  const contact_store *cs = &w->contacts;
  uint32_t b = cs->b[c];
  double a = w->balls.rad[b] + 0.5 * cs->gap[c];
  for (int k = 0; k < 3; k++) pt[k] = w->balls.pos[b][k] - a * cs->normal[c][k];
}
/* Force of contact c in global coordinates (on side 2): a copy of what it stores. */
void contact_force_global(const cairn_world *w, uint32_t c, double f[3]);
void contact_store_free(cairn_world *w);
const char *contact_kind_name(int kind);
int contact_kind_parse(const char *s); /* -1 if unknown */

#endif
