/* Contact detection: ball-ball and ball-wall geometry, the cell-grid broad phase and the
   neighbour (pair) list, and the per-step update that creates, updates and deletes contacts. */
#ifndef CAIRN_DETECT_H
#define CAIRN_DETECT_H

#include "world/world.h"

/* Candidate pairs within the neighbour skin, rebuilt when something moved more than half of it. */
typedef struct pair_list {
  size_t n, cap;
  uint8_t *kind;
  uint8_t *sub; /* which of a ball's contacts with a mesh wall (0 .. MESH_CONTACTS - 1); else 0 */
  uint32_t *a, *b;
  uint32_t *contact; /* index into contacts, or IDMAP_NONE */
  /* this step's gap of each pair (filled in parallel, used in pair order) */
  double *sgap;
  uint8_t *sok;
  /* per block of PAIR_BLOCK pairs: one of them is marked in 'sok' (the serial pass skips the
     others) */
  uint8_t *bmark;
  size_t cap_bmark;
  /* cell grid scratch */
  size_t cap_cells, cap_order;
  uint32_t *cell_start, *order;
  size_t cap_cellof;
  uint32_t *cell_of;
  size_t cap_key;
  uint64_t *sort_key; /* scratch of the ball sort */
  /* the automatic timestep's look-ahead: pairs without a contact that close within the coming
     step, and contacts made this step (their stiffness is not yet in the balls' sums) */
  uint32_t *ahead;
  size_t n_ahead, cap_ahead;
  double skin;
  int dirty;       /* rebuild before the next use (or when the world's layout moved on) */
  uint64_t layout; /* the world's layout at the last rebuild */
  uint64_t rebuilds;
  /* the pairs of mesh walls whose balls may touch them at several places (detect_mesh_picks),
     found again when the list changed (gen: counts rebuilds and restores) */
  uint32_t *mesh_q;
  size_t n_mesh_q, cap_mesh_q;
  uint64_t gen, mesh_q_gen;
} pair_list;

void pairs_free(pair_list *p);
/* Whether the pair list must be rebuilt before its next use: marked so, or balls or walls
   changed since it was built (world_mark_dirty). */
static inline int pairs_stale(const cairn_world *w) {
  return w->pairs->dirty || w->pairs->layout != w->layout;
}

/* Geometry of a ball (centre c, radius r) against another ball or a wall. Writes the surface gap
   (negative when overlapping), the unit normal from side 1 to side 2 (from the wall to the ball)
   and the contact point (the middle of the overlap). Returns 0 if no normal is defined (two
   coincident centres, or a ball centre exactly on a segment or polygon). */
static inline int geom_ball_ball(const double c1[3], double r1, const double c2[3], double r2,
                                 double *gap, double n[3], double pt[3]) {
  double e[3];
  v3_sub(c2, c1, e);
  double dist = v3_norm(e);
  if (!(dist > 0)) return 0;
  v3_scale(e, 1.0 / dist, n);
  *gap = dist - r1 - r2;
  double a = r1 + 0.5 * *gap;
  for (int k = 0; k < 3; k++) pt[k] = c1[k] + a * n[k];
  return 1;
}
/* At a neighbour rebuild, after mesh_lists_begin: list for the ball in slot 'ball' (centre c)
   the triangles of mesh wall wl within 'cut' of c, which its searches until the next rebuild
   look at alone while they can ('margin': how far the ball may move meanwhile). */
cairn_status geom_mesh_list(wall *wl, uint32_t ball, const double c[3], double cut, double margin,
                            cairn_diag *d);
/* c in the frame of mesh wall wl. */
void geom_mesh_centre(const wall *wl, const double c[3], double cl[3]);
/* The places where the ball in slot 'ball' (centre cl in the mesh's frame, radius r) touches mesh
   wall wl or comes within half the mesh's reach of it, given to its contacts (p->has, p->pick):
   a contact that had a normal (p->mem, global, where p->has_mem) takes the place whose normal
   is nearest its own, within the crease angle (the nearest pairs of normals first); one whose
   place is gone follows the triangle point whose normal is nearest its own (so that it parts);
   the other places, nearest first, go to the contacts that had none, in order (at most
   MESH_CONTACTS; a farther one is left out). Sets p->at; returns how many were given. */
int geom_mesh_pick(const wall *wl, uint32_t ball, const double cl[3], double r, mesh_pick *p);
/* A ball (slot 'ball', centre c, radius r) against a wall: gap, normal and contact point; 0 where
   none is defined (or no triangle of a mesh is within reach). 'sub': which of the ball's
   contacts with a mesh wall (0 for other walls; -1: a mesh's nearest point, whatever the
   contacts). The slot serves a mesh wall as a hint: the triangle it found for that ball last
   time is tried first. */
int geom_ball_wall(const wall *wl, uint32_t ball, int sub, const double c[3], double r,
                   double *restrict gap, double n[restrict 3], double pt[restrict 3]);
/* Each step before the pairs are looked at (and before contacts' geometry is refreshed): which
   place each ball that may touch a mesh at several touches each of its contacts follows, from
   the contacts' normals at the last pass (geom_mesh_pick, on one thread). */
cairn_status detect_mesh_picks(cairn_world *w, cairn_diag *d);

/* Ball b's centre as ball a sees it: itself, or in a periodic cell its nearest image (written
   to img). */
static inline const double *detect_image(const cairn_world *w, uint32_t a, uint32_t b,
                                         double img[3]) {
  const ball_store *bs = &w->balls;
  if (!w->cell.on) return bs->pos[b];
  double e[3], sh[3];
  v3_sub(bs->pos[b], bs->pos[a], e);
  periodic_shift(&w->cell, e, sh);
  v3_add(bs->pos[b], sh, img);
  return img;
}

/* This step's geometry of a pair or contact of kind k between sides a and b (its 'sub', of a
   mesh wall's): gap, normal and contact point; 0 where no normal is defined. */
static inline int detect_pair_geometry(const cairn_world *w, int k, uint32_t a, uint32_t b, int sub,
                                       double *gap, double n[3], double pt[3]) {
  const ball_store *bs = &w->balls;
  if (k != CAIRN_KIND_BALL_BALL)
    return geom_ball_wall(&w->walls.w[a], b, sub, bs->pos[b], bs->rad[b], gap, n, pt);
  double img[3];
  return geom_ball_ball(bs->pos[a], bs->rad[a], detect_image(w, a, b, img), bs->rad[b], gap, n, pt);
}

/* The velocity of side 2 relative to side 1 of a pair of kind k, centre against centre (for a
   wall, against the wall's translation); in a deforming periodic cell b's image moves with the
   cell's flow too. Enough to tell how fast a pair closes along its normal. */
static inline void detect_pair_velocity(const cairn_world *w, int k, uint32_t a, uint32_t b,
                                        double v[3]) {
  const ball_store *bs = &w->balls;
  if (k != CAIRN_KIND_BALL_BALL) {
    v3_sub(bs->vel[b], w->walls.w[a].vel, v);
    return;
  }
  v3_sub(bs->vel[b], bs->vel[a], v);
  if (w->cell.on && w->cell.flow) {
    double e[3], sh[3], flow[3];
    v3_sub(bs->pos[b], bs->pos[a], e);
    periodic_shift(&w->cell, e, sh);
    periodic_flow(&w->cell, sh, flow);
    v3_add(v, flow, v);
  }
}

/* Create the contacts that the current positions call for: rebuild the pair list when something
   moved more than half the skin (or the world changed), then give every pair whose gap fell
   below its assignment's proximity a contact (with its geometry). Existing contacts are updated
   and deleted by the force pass (src/cycle/forces.c), which forms their geometry anyway. */
cairn_status detect_update(cairn_world *w, cairn_diag *d);

/* Without a force pass (model.clean): the geometry of every contact at the current positions. */
void detect_refresh(cairn_world *w);

/* Append a candidate pair (used by rebuilds and by restoring a saved model), of a mesh wall's
   contact 'sub' (pairs_push: 0). */
cairn_status pairs_push_sub(pair_list *p, int kind, uint32_t a, uint32_t b, int sub, cairn_diag *d);
static inline cairn_status pairs_push(pair_list *p, int kind, uint32_t a, uint32_t b,
                                      cairn_diag *d) {
  return pairs_push_sub(p, kind, a, b, 0, d);
}
/* Pair q's key: the key its contact has, or would have (contact_key). */
uint64_t pair_key(const cairn_world *w, uint32_t q);
/* Whether pair q has a side among the first n balls (under MPI decomposition, with n the owned
   balls: whether it is one of this rank's own pairs). */
static inline int pair_has_side_below(const pair_list *p, uint32_t q, size_t n) {
  return p->b[q] < n || (p->kind[q] == CAIRN_KIND_BALL_BALL && p->a[q] < n);
}
/* Restoring a saved model (src/io/, which checked every pair's sides and contact): the list as
   saved, np pairs of kind, sides a and b and contact (or IDMAP_NONE) each (copied), its skin,
   whether it is marked for a rebuild and its count of rebuilds; it is taken as built for the
   world's current layout, and each contact learns its pair (contact_restore_pairs). */
cairn_status pairs_restore(cairn_world *w, size_t np, const uint8_t *kind, const uint8_t *sub,
                           const uint32_t *a, const uint32_t *b, const uint32_t *contact,
                           double skin, int dirty, uint64_t rebuilds, cairn_diag *d);
/* Whether something moved far enough since the last rebuild that the pair list must be built
   again (or it is marked dirty). */
int detect_needs_rebuild(const cairn_world *w);
/* Under MPI, at a rebuild's exchange (every rank at once, only owned balls here): the skin from
   every rank's balls, and the owned balls put in the order of the grid one rank would lay over
   the whole model (Morton cells, then ids), as the rebuild of a serial run does. */
cairn_status detect_sort_owned(cairn_world *w, cairn_diag *d);
/* How far from its own balls a rank needs copies of other ranks' balls: two of the largest
   radius, the skin and the largest proximity (every rank at once). */
double detect_ghost_reach(const cairn_world *w);

#endif
