/* Contact detection: ball-ball and ball-wall geometry, the cell-grid broad phase and the
   neighbour (pair) list, and the per-step update that creates, updates and deletes contacts. */
#ifndef CAIRN_DETECT_H
#define CAIRN_DETECT_H

#include "world/world.h"

/* Geometry of a ball (centre c, radius r) against another ball or a wall. Writes the surface gap
   (negative when overlapping), the unit normal from side 1 to side 2 (from the wall to the ball)
   and the contact point (the middle of the overlap). Returns 0 if no normal is defined (two
   coincident centres, or a ball centre exactly on a segment or polygon). */
int geom_ball_ball(const double c1[3], double r1, const double c2[3], double r2, double *gap,
                   double n[3], double pt[3]);
int geom_ball_wall(const wall *wl, const double c[3], double r, double *gap, double n[3],
                   double pt[3]);

/* Bring contacts up to date with the current positions: rebuild the pair list when something
   moved more than half the skin (or the world changed), create contacts whose gap fell below
   their proximity, update gap, frame and point of the others, and delete those whose gap
   exceeds proximity and whose model allows it. */
cairn_status detect_update(cairn_world *w, cairn_diag *d);

/* Append a candidate pair (used by rebuilds and by restoring a saved model). */
cairn_status pairs_push(pair_list *p, int kind, uint32_t a, uint32_t b, cairn_diag *d);

/* Rotate a contact frame (n, s, t) so that n becomes new_n, by the smallest rotation. */
void frame_rotate(int dim, double f[9], const double new_n[3]);

#endif
