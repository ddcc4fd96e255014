/* The ball store (ball.c): balls as structures of arrays indexed by a dense slot, with their
   user ids mapped to slots. The world's own rules only: a ball's contacts are the contact
   layer's, so deleting a ball with its contacts is done from there (contact/cascade.c). */
#ifndef CAIRN_BALL_H
#define CAIRN_BALL_H

#include "core/core.h"
#include "core/idmap.h"

#define CAIRN_ID_MAX 2147483647L /* ids are 1 .. 2^31-1 */

/* Fixity bits of a ball. */
#define FIX_VX 1u
#define FIX_VY 2u
#define FIX_VZ 4u
#define FIX_VEL (FIX_VX | FIX_VY | FIX_VZ)
#define FIX_SPIN 8u

/* Extra per-ball variables (ball.extra): BALL_EXTRAS numbers a ball may carry for a script,
   kept by ball id (so the order of the balls does not matter), 0 until set, saved with the
   model, dropped when the ball is deleted. Only balls given one have a row. */
#define BALL_EXTRAS 16
typedef struct ball_extras {
  size_t n, cap;
  int64_t *id;              /* per row: the ball */
  double (*v)[BALL_EXTRAS]; /* per row: its values */
  idmap map;                /* ball id -> row */
} ball_extras;

/* Each ball's cumulative displacement (ball.displacement), while tracked: the sum of the
   displacements since the last neighbour rebuild (ball_store.disp), folded into a row per ball at
   each rebuild before 'disp' is cleared. Motion is all it counts (a script's move of a ball is
   not a displacement), so a periodic cell's wrapping does not disturb it. Kept by ball id, only
   while tracked: no cost otherwise. */
typedef struct ball_cumdisp {
  int on;
  size_t n, cap;
  int64_t *id;
  double (*d)[3]; /* the displacement up to the last fold */
  idmap map;      /* ball id -> row */
} ball_cumdisp;

typedef struct ball_store {
  size_t n, cap;
  int64_t *id;
  double (*pos)[3], (*vel)[3], (*spin)[3];
  double (*force)[3], (*moment)[3]; /* resultants of the last force computation */
  double (*disp)[3];                /* displacement since the last neighbour rebuild */
  double *rad, *density, *mass, *inertia, *damp;
  double *k_tran, *k_rot; /* summed stiffness estimates, for the automatic timestep */
  uint8_t *fix;
  uint16_t *group; /* index into world.groups; 0 = no group */
  size_t n_owned;  /* under MPI domain decomposition (world.par): balls [0, n_owned) are this
                      rank's, the rest copies of its neighbours' (ghosts); else unused */
  uint64_t *skey;  /* the key of the ball's place at the last neighbour rebuild (the Morton code
                      of its cell, then its id; UINT64_MAX for a ball made since): the balls lie
                      in this order, whatever order they came in (pairs.c, sort_balls) */
  idmap map;       /* id -> slot */
  ball_extras extras;
  ball_cumdisp cum;
} ball_store;

typedef struct ball_spec {
  int64_t id; /* 0: next free id */
  double rad, density;
  double pos[3], vel[3], spin[3];
  double damp;
  const char *group;
} ball_spec;
cairn_status ball_create(cairn_world *w, const ball_spec *s, int64_t *id_out, cairn_diag *d);
/* Remove ball slot s (and its applied load): the last ball moves into slot s. Whatever refers to
   balls by slot (contacts) is the caller's to rename (contact_delete_ball does both). */
void ball_remove(cairn_world *w, uint32_t s);
/* Grow the deletion marks (w->del_mark) to the ball count, cleared. */
cairn_status balls_mark_reserve(cairn_world *w, cairn_diag *d);
/* Remove every ball whose slot is marked in w->del_mark (and their loads), in time linear in the
   balls; the others keep their order. to[s] gets slot s's new slot (UINT32_MAX: removed), in
   w->del_remap. Clears the marks. The caller renames the contacts' sides. */
cairn_status balls_remove_marked(cairn_world *w, cairn_diag *d);
cairn_status ball_slot(const cairn_world *w, int64_t id, uint32_t *slot, cairn_diag *d);
void ball_update_mass(cairn_world *w, uint32_t s);
cairn_status ball_set_radius(cairn_world *w, uint32_t s, double r, cairn_diag *d);
cairn_status ball_set_density(cairn_world *w, uint32_t s, double rho, cairn_diag *d);
cairn_status ball_set_damp(cairn_world *w, uint32_t s, double a, cairn_diag *d);
/* Whether ball s may take the radius, density and damping given (has_* set), checked as their
   setters will (together: the mass of the new radius with the new density), without changing
   it: a call that changes many balls checks them all first. */
cairn_status ball_check_attributes(const cairn_world *w, uint32_t s, int has_rad, double rad,
                                   int has_density, double density, int has_damp, double damp,
                                   cairn_diag *d);
/* Fix (or free) the velocity components and spin flagged in bits (FIX_*) of ball s. */
void ball_fix(cairn_world *w, uint32_t s, unsigned bits);
void ball_free(cairn_world *w, uint32_t s, unsigned bits);
/* Ball s's group (an index from world_group_index), velocity and spin (finite, checked by the
   caller). */
void ball_set_group(cairn_world *w, uint32_t s, uint16_t group);
void ball_set_velocity(cairn_world *w, uint32_t s, const double v[3]);
void ball_set_spin(cairn_world *w, uint32_t s, const double spin[3]);
/* Rows of balls as bytes, for MPI (ball.c): the size of one, packing slot s into out, and
   appending one as a new slot (its id must be new here). */
size_t ball_row_size(void);
void ball_row_pack(const ball_store *b, uint32_t s, uint8_t *out);
cairn_status ball_row_append(cairn_world *w, const uint8_t *row, cairn_diag *d);
/* The order one process keeps balls in: by the key of their place at the last neighbour rebuild
   (skey), then by id. MPI's gatherings, saves in the ranks' parts and ball.list bring the ranks'
   balls into it. */
static inline int ball_order_cmp(uint64_t key_a, int64_t id_a, uint64_t key_b, int64_t id_b) {
  if (key_a != key_b) return (key_a > key_b) - (key_a < key_b);
  return (id_a > id_b) - (id_a < id_b);
}
/* Keep only the balls order[0 .. n) (old slots, in their new order) and drop the rest, without
   touching contacts, loads or energy (the caller renames the contacts' sides). */
cairn_status balls_keep(cairn_world *w, const uint32_t *order, size_t n, cairn_diag *d);
/* Shrink the store's capacity to its balls (and an eighth more), after balls_keep dropped most
   of them (an MPI division): a column the allocator cannot move stays as it is. */
void balls_fit(ball_store *b);
void ball_store_free(ball_store *b);
/* Extra variable k (0 .. BALL_EXTRAS - 1) of ball id: its value, 0 if never set. */
double ball_extra_get(const ball_store *b, int64_t id, int k);
/* Set it (the ball exists: the caller checked). */
cairn_status ball_extra_set(ball_store *b, int64_t id, int k, double v, cairn_diag *d);
/* Forget ball id's extra variables and displacement row (it is being deleted). */
void ball_extra_drop(ball_store *b, int64_t id);
/* Start (on: every ball's displacement counts from now) or stop tracking displacements. */
cairn_status ball_cumdisp_track(ball_store *b, int on, cairn_diag *d);
/* Fold each ball's 'disp' into its row (before a rebuild clears 'disp'); nothing when off. */
cairn_status balls_fold_disp(ball_store *b, size_t n, cairn_diag *d);
/* Ball slot s's displacement since tracking began (or since it was made, if later). */
void ball_cumdisp_get(const ball_store *b, uint32_t s, double out[3]);
/* The columns a save file holds, in its order (id, pos, vel, spin, force, moment, disp, rad,
   density, mass, inertia, damp, k_tran, k_rot, fix, group): each column's address in col and
   its bytes per ball in size, so that a save writes them and a restore reads them in place (after
   ball_create has made the balls with their ids). The key of the last rebuild is not among them:
   the next rebuild forms it. */
#define BALL_SAVED_COLUMNS 16
void ball_columns(ball_store *b, void *col[BALL_SAVED_COLUMNS], size_t size[BALL_SAVED_COLUMNS]);
/* Put the balls in the order 'order' (ball i takes the old ball order[i]) and write the inverse
   into 'inv' (n); 'seen' (n) is scratch. Ball ids do not change; the caller renames the
   contacts' sides (contact_renumber_balls). */
void ball_sort(cairn_world *w, const uint32_t *order, uint32_t *inv, uint8_t *seen);

#endif
