/* The contact-model registry (registry.c): every model the world knows, built in or from a
   plugin, with its tables checked, and each model's pools of state and property blocks. */
#ifndef CAIRN_REGISTRY_H
#define CAIRN_REGISTRY_H

/* The most doubles a model's state block may take (its rows' slots together; flatjoint: 332). */
#define REGISTRY_STATE_MAX 4096

#include "world/world.h"

/* Per-model pool of blocks of doubles, reused through a free list. A model has two: one of state
   blocks (a block per contact) and one of property blocks ([props | derived], shared by every
   contact that got it from the same assignment, with a reference count; copied on write). */
typedef struct model_pool {
  size_t stride, n_blocks, cap;
  double *data;
  uint64_t *setmask; /* property pool: which properties were set explicitly (for default_from) */
  uint32_t *refs;    /* property pool: references (contacts and assignment entries) */
  uint32_t *free_list;
  size_t n_free, cap_free;
} model_pool;

typedef struct model_entry {
  const cairn_contact_model *m;
  int n_prop_slots, n_state_slots;
  int *prop_off, *state_off; /* slot offset of each row */
  int broke_off[2];          /* slot of the count of pieces broken in the last call, in tension
                                and in shear (CAIRN_STATE_BROKE_*); -1 where none is flagged */
  char source[256];          /* "built-in" or the library path */
  int plugin;                /* loaded from a library (its calls are marked for crash reports) */
  model_pool pool;           /* state blocks */
  model_pool ppool;          /* property blocks */
} model_entry;

typedef struct registry {
  size_t n, cap;
  model_entry *e;
} registry;

/* Register a model (validating its tables). 'source' is "built-in" or a library path. */
cairn_status registry_add(registry *r, const cairn_contact_model *m, const char *source,
                          cairn_diag *d);
int registry_find(const registry *r, const char *name); /* -1 if absent */
/* registry_find that fails with one message (how to list and load models) when absent. */
cairn_status registry_require(const registry *r, const char *name, int *index, cairn_diag *d);
void registry_free(registry *r);
/* Drop the models registered after the first n (undo a partial plugin registration). */
void registry_truncate(registry *r, size_t n);

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
/* After model_prop_write refused an unknown property 'name': name in d's message the registered
   models that have it ("(models with it: rrlinear, hertz)"), so the message says where it is. */
void registry_name_owners(const registry *r, const char *name, cairn_diag *d);
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

#endif
