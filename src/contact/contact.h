/* The contact store (contact.c) and its per-ball lists (links.c): every contact's sides, model,
   state block, geometry and force, and generic property/state access driven by the models'
   tables. The registry (registry.h) and the assignment table (cmat.h) are its neighbours. */
#ifndef CAIRN_CONTACT_H
#define CAIRN_CONTACT_H

#include "contact/cmat.h"
#include "contact/registry.h"
#include "world/world.h"

/* Each ball's contacts in the order of its partners' keys (links.c): the force pass sums a ball's
   contacts in this order, so that the sum does not depend on where the contacts and balls lie in
   their arrays (design.md, Scale). Built whole at each neighbour rebuild (and after a script
   changes the balls); between rebuilds a contact made goes to 'extra' and one deleted leaves a
   tombstone, so that most steps pay nothing for the lists; a rebuild that gives the balls new
   keys (sort_balls) drops them. */
typedef struct contact_extra {
  uint32_t ball, entry;
  uint64_t key; /* links_key of the entry */
} contact_extra;
typedef struct contact_links {
  int ok;               /* the lists match the contacts and balls (with 'layout') */
  uint64_t layout;      /* the world's layout they were built for (links_current) */
  size_t nb;            /* the balls they were built for */
  uint32_t *start;      /* ball i's entries: entry[start[i] .. start[i + 1]) */
  uint32_t *entry;      /* (contact << 1 | 1 if the ball is side 1), or LINK_TOMB */
  uint32_t (*pos)[2];   /* per contact: where its entries are (side 2, side 1); LINK_EXTRA marks
                           an index into 'extra' */
  contact_extra *extra; /* contacts made since the build, by ball and key up to n_sorted */
  contact_extra *merge; /* scratch of links_sort_extras */
  size_t n_extra, n_sorted, n_tombs, cap_start, cap_entry, cap_pos, cap_extra, cap_merge;
} contact_links;
#define LINK_TOMB UINT32_MAX
#define LINK_EXTRA 0x80000000u

/* Contacts, in the order of their pairs after each rebuild (new ones appended, deleted ones
   replaced by the last). Geometry and force are those of the last force pass, in global
   coordinates; the (n, s, t) frame scripts see is formed from the normal (contact_frame). */
typedef struct contact_store {
  size_t n, cap;
  uint8_t *kind;
  uint8_t *sub;        /* which of a ball's contacts with a mesh wall (detect/mesh_picks.c); 0 */
  uint32_t *a, *b;     /* side 1 and side 2: ball slots (ball-ball), wall slot and ball slot */
  int32_t *model;      /* registry index */
  uint32_t *blk;       /* state block in the model's pool */
  uint32_t *pblk;      /* property block in the model's property pool (shared) */
  double (*normal)[3]; /* unit normal, side 1 to side 2 */
  double *gap;         /* (the contact point is not stored: contact_point() forms it) */
  double (*force)[3];  /* force on side 2, global */
  double (*moment)[3]; /* extra moment on side 2, global */
  double *prox;
  uint8_t *active, *first, *deletable;
  uint8_t *unchecked; /* the model's validation hook has not run yet (it runs on first touch) */
  uint32_t *pair;     /* index of its entry in the pair list */
  uint32_t **pair_contact; /* the pair list's column of contacts (detect/detect.h), which names
                              contacts by index: kept pointing at each contact as it moves.
                              Set by the assembler, so that this floor needs no pair list. */
  idmap map;               /* contact key -> index */
  size_t n_unchecked;      /* contacts with 'unchecked' set */
  /* the force pass's slices: starts of runs of contacts with the same model, property block and
     kind (n_slices + 1 entries), valid while 'slices_ok' */
  uint32_t *slice;
  size_t n_slices, cap_slice;
  int slices_ok;
  size_t slices_redo; /* while slices_ok: slices from this one on are cut again (SIZE_MAX: none) */
  int key_sorted;     /* the contacts lie in the order of their keys (contact_sort_by_key) */
  contact_links links;
  /* scratch of contact_sort */
  uint32_t *perm;
  uint8_t *seen;
  size_t cap_perm, cap_seen;
} contact_store;

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
  int kind, sub, model;
  int64_t id1, id2;
} contact_row_info;
size_t contact_row_size(const cairn_world *w, uint32_t c);
void contact_row_pack(const cairn_world *w, uint32_t c, uint8_t *out);
void contact_row_read(const uint8_t *row, contact_row_info *info);
/* Insert a row as a new contact between slots a and b (no event: it exists elsewhere). */
cairn_status contact_row_insert(cairn_world *w, const uint8_t *row, uint32_t a, uint32_t b,
                                contact_row_cache *rc, cairn_diag *d);
void contact_row_cache_free(cairn_world *w, contact_row_cache *rc);
/* Remove contact c without an event or energy books (it lives on, on another rank); its pair's
   entry in the pair list, if it has one, names no contact after. */
void contact_forget(cairn_world *w, uint32_t c);

/* links.c: each ball's contacts in its partners' order (contact_links, world.h). */
/* Whether the lists match the contacts and balls (built, and the balls unchanged since). */
static inline int links_current(const cairn_world *w, const contact_links *l) {
  return l->ok && l->layout == w->layout;
}
/* Build the lists whole. */
cairn_status links_build(cairn_world *w, cairn_diag *d);
/* Keep them up to date as contact c is made or deleted, or contact 'from' moves into slot 'to'
   (a deleted contact's, with the fields already moved; contact_create and contact_delete call
   these). */
void links_created(cairn_world *w, uint32_t c);
void links_deleted(cairn_world *w, uint32_t c);
void links_moved(cairn_world *w, uint32_t from, uint32_t to);
/* The order of entry e among its ball's others: walls first by wall id, then balls by ball id. */
uint64_t links_key(const cairn_world *w, uint32_t e);
/* Drop the tombstones among the extras and sort them by ball, then key. */
cairn_status links_sort_extras(cairn_world *w, cairn_diag *d);
void links_free(contact_links *l);

/* contact.c */
/* A contact's key: its kind (a mesh wall's further contacts with one ball count on from
   CAIRN_KIND_BALL_WALL: kind + sub, so two bits hold them), then its sides' ids. */
static inline uint64_t contact_key(int kind, int64_t id1, int64_t id2) {
  return ((uint64_t)kind << 62) | ((uint64_t)id1 << 31) | (uint64_t)id2;
}
/* What a key holds: the kind (a mesh's further contacts: CAIRN_KIND_BALL_WALL, with sub), the
   sides' ids (ball-wall: the wall's, then the ball's). */
static inline void contact_key_split(uint64_t key, int *kind, int *sub, int64_t *id1,
                                     int64_t *id2) {
  int k = (int)(key >> 62);
  *sub = k > CAIRN_KIND_BALL_WALL ? k - CAIRN_KIND_BALL_WALL : 0;
  *kind = k - *sub;
  *id1 = (int64_t)(key >> 31 & 0x7fffffff), *id2 = (int64_t)(key & 0x7fffffff);
}
uint64_t contact_key_of(const cairn_world *w, uint32_t c);
/* Create a contact between side slots a and b with the CMAT's assignment; returns its index.
   'sub': which of the ball's contacts with a mesh wall (contact_create: 0). */
cairn_status contact_create_sub(cairn_world *w, int kind, uint32_t a, uint32_t b, int sub,
                                uint32_t *out, cairn_diag *d);
static inline cairn_status contact_create(cairn_world *w, int kind, uint32_t a, uint32_t b,
                                          uint32_t *out, cairn_diag *d) {
  return contact_create_sub(w, kind, a, b, 0, out, d);
}
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
/* ... in the order in which they appear in 'by_pair' (np entries, each a contact or IDMAP_NONE:
   the pair list's column of contacts), if every contact does; else as they are. */
cairn_status contact_sort_by_pair(cairn_world *w, const uint32_t *by_pair, size_t np,
                                  cairn_diag *d);
/* Put the contacts in the order of their keys: ball-ball contacts by lower, then higher ball
   id, then ball-wall contacts by wall id, then ball id. Scripts and outputs see them in this
   order, which depends on nothing but the ids (design.md, Scale). Cheap when they are so
   already. */
cairn_status contact_sort_by_key(cairn_world *w, cairn_diag *d);
/* Delete contact c: the last contact of its class (model, property block and kind) among the
   last few takes its place, and the last contact that one's (contact_forget); both come from
   later places. Its own pair's entry names no contact after; the caller fixes a moved contact's
   pair entry if it cannot rely on cs->pair (this function does it for a moved contact that has
   a pair). */
void contact_delete(cairn_world *w, uint32_t c);
/* Give contact c a new model (state zeroed, properties from defaults). */
cairn_status contact_set_model(cairn_world *w, uint32_t c, int model, cairn_diag *d);
/* The contact of kind 'kind' between ids id1 and id2 (ball-ball: either order; ball-wall: ball,
   then wall); a mesh wall's further contacts with one ball by kind CAIRN_KIND_BALL_WALL + sub. */
cairn_status contact_find(const cairn_world *w, int kind, int64_t id1, int64_t id2, uint32_t *c,
                          cairn_diag *d);
/* Describe contact c for messages: "ball-ball contact 1-2". */
void contact_describe(const cairn_world *w, uint32_t c, char *buf, size_t n);
/* Read a property or state field of contact c by name into v (up to 3 values); *n gets 1 or 3.
   A contact-plane state field is given as (normal, s, t) in the contact's frame. */
cairn_status contact_prop_get(const cairn_world *w, uint32_t c, const char *name, double v[3],
                              int *n, cairn_diag *d);
/* The model's own check (its validation hook) of properties 'props' for contact c: one sentence
   naming the contact and what is wrong, or CAIRN_OK (a model without a hook accepts all). Run
   at a contact's first touch (cycle/forces.c) and on a script's write to a contact past it. */
cairn_status contact_check_props(const cairn_world *w, uint32_t c, const double *props,
                                 cairn_diag *d);
/* An array state field of contact c (CAIRN_STATE_ARRAY): its number of items, with *v pointing
   at them; 0 if 'name' is no such field (contact_prop_get refuses it). */
int contact_state_array(const cairn_world *w, uint32_t c, const char *name, const double **v);
cairn_status contact_prop_set(cairn_world *w, uint32_t c, const char *name, const double *v, int n,
                              cairn_diag *d);
/* Restoring a saved model (src/io/, which read and checked the values; contact c was just made
   with contact_create and given its model with contact_set_model). */
/* A contact's geometry, force and flags as a save file keeps them. */
typedef struct contact_geometry {
  double normal[3], gap, force[3], moment[3], prox;
  uint8_t active, first, deletable;
  uint8_t unchecked; /* 0: the model's validation hook ran (1 leaves the contact as it is) */
} contact_geometry;
void contact_restore_geometry(cairn_world *w, uint32_t c, const contact_geometry *g);
/* Contact c's state: n_state_slots values of its model, copied into its state block. */
void contact_restore_state(cairn_world *w, uint32_t c, const double *state);
/* Contact c's property values (n_prop_slots of its model, copied) and set mask: it shares the
   block of contact c - 1 when that has the same model, mask and values (contacts that got their
   properties from one assignment share one block again), else it gets a new block. */
cairn_status contact_restore_props(cairn_world *w, uint32_t c, const double *props, uint64_t mask,
                                   cairn_diag *d);
/* Each contact's entry in the pair list: the one whose column of contacts 'by_pair' (np
   entries, each a contact or IDMAP_NONE) names it, else IDMAP_NONE. */
void contact_restore_pairs(cairn_world *w, const uint32_t *by_pair, size_t np);
/* cascade.c: balls and walls deleted with their contacts (the world removes them; this floor
   deletes and renames their contacts). */
/* Delete ball id, its contacts (their energy booked while tracking) and its load. */
cairn_status contact_delete_ball(cairn_world *w, int64_t id, cairn_diag *d);
/* Delete every ball marked in w->del_mark (balls_mark_reserve) with its contacts, in time linear
   in the balls and contacts; the others keep their order. Clears the marks. */
cairn_status contact_delete_marked_balls(cairn_world *w, cairn_diag *d);
/* Delete wall id and its contacts. */
cairn_status contact_delete_wall(cairn_world *w, int64_t id, cairn_diag *d);
/* After the balls were reordered (ball_sort), rename the contacts' sides: slot s is now to[s]. */
void contact_renumber_balls(cairn_world *w, const uint32_t *to);

/* Contact point of contact c: the middle of the overlap along the normal, from side 2's centre
   (ball-ball: the same point as from side 1's, r1 + gap / 2 along n from it). */
static inline void contact_point(const cairn_world *w, uint32_t c, double pt[3]) {
  const contact_store *cs = w->contacts;
  uint32_t b = cs->b[c];
  double a = w->balls.rad[b] + 0.5 * cs->gap[c];
  for (int k = 0; k < 3; k++) pt[k] = w->balls.pos[b][k] - a * cs->normal[c][k];
}
/* Force of contact c in global coordinates (on side 2): a copy of what it stores. */
void contact_force_global(const cairn_world *w, uint32_t c, double f[3]);
void contact_store_free(cairn_world *w);
const char *contact_kind_name(int kind);
int contact_kind_parse(const char *s); /* -1 if unknown */

/* The ids that name contact c, as its events and handles give them: ball-ball, the lower and
   the higher ball id (sides 1 and 2); ball-wall, the ball id, then the wall id. */
static inline void contact_ids(const cairn_world *w, uint32_t c, int64_t *id1, int64_t *id2) {
  const contact_store *cs = w->contacts;
  if (cs->kind[c] == CAIRN_KIND_BALL_BALL) {
    *id1 = w->balls.id[cs->a[c]];
    *id2 = w->balls.id[cs->b[c]];
  } else {
    *id1 = w->balls.id[cs->b[c]];
    *id2 = w->walls.w[cs->a[c]].id;
  }
}

/* The length of contact c's branch vector, from its own normal and gap (those of the force
   pass its force belongs to): ball-ball, centre to centre, r1 + r2 + gap; ball-wall, the
   contact point (the middle of the overlap) to the centre, r + gap / 2. The branch is this
   length along the normal; in a periodic cell it reaches side 2 from side 1's nearest image. */
static inline double contact_branch_length(const cairn_world *w, uint32_t c) {
  const contact_store *cs = w->contacts;
  double rb = w->balls.rad[cs->b[c]];
  return cs->kind[c] == CAIRN_KIND_BALL_BALL ? w->balls.rad[cs->a[c]] + rb + cs->gap[c]
                                             : rb + 0.5 * cs->gap[c];
}

#endif
