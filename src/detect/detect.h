/* Contact detection: ball-ball and ball-wall geometry, the cell-grid broad phase and the
   neighbour (pair) list, and the per-step update that creates, updates and deletes contacts. */
#ifndef CAIRN_DETECT_H
#define CAIRN_DETECT_H

#include "world/world.h"

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
int geom_ball_wall(const wall *wl, const double c[3], double r, double *gap, double n[3],
                   double pt[3]);

/* Bring contacts up to date with the current positions: rebuild the pair list when something
   moved more than half the skin (or the world changed), create contacts whose gap fell below
   their proximity, update gap, frame and point of the others, and delete those whose gap
   exceeds proximity and whose model allows it. */
cairn_status detect_update(cairn_world *w, cairn_diag *d);

/* Append a candidate pair (used by rebuilds and by restoring a saved model). */
cairn_status pairs_push(pair_list *p, int kind, uint32_t a, uint32_t b, cairn_diag *d);

/* Rotate a contact frame (n, s, t) so that n becomes m (a unit vector), by the smallest
   rotation. Inline: it runs for every contact every step. */
static inline void frame_rotate(int dim, double f[9], const double m[3]) {
  if (dim == 2) {
    f[0] = m[0], f[1] = m[1], f[2] = 0;
    f[3] = 0, f[4] = 0, f[5] = 1;
    f[6] = -m[1], f[7] = m[0], f[8] = 0;
    return;
  }
  const double *n = f;
  double k[3];
  v3_cross(n, m, k);
  double c = v3_dot(n, m);
  double s[3] = {f[3], f[4], f[5]};
  if (c > -0.999999) {
    /* Rodrigues with an unnormalised axis k = n x m (|k| = sin): v' = v c + k x v +
       k (k.v) / (1 + c). */
    double kx[3], ks = v3_dot(k, s) / (1 + c);
    v3_cross(k, s, kx);
    for (int i = 0; i < 3; i++) s[i] = s[i] * c + kx[i] + k[i] * ks;
  }
  /* Re-orthonormalise against the exact new normal to stop round-off from accumulating. The
     length is then 1 to round-off, so one Newton step for 1/sqrt(len2) restores it to O(eps^2)
     without a square root or a division. */
  double sn = v3_dot(s, m);
  for (int i = 0; i < 3; i++) s[i] -= sn * m[i];
  double len2 = v3_dot(s, s);
  if (fabs(len2 - 1.0) < 1e-8) { /* then the Newton step leaves |s| within 4e-17 of 1 */
    v3_scale(s, 0.5 * (3.0 - len2), s);
  } else {
    if (len2 < 1e-24) { /* the normal flipped: pick any perpendicular */
      double ax[3] = {fabs(m[0]) < 0.9 ? 1.0 : 0.0, fabs(m[0]) < 0.9 ? 0.0 : 1.0, 0};
      v3_cross(m, ax, s);
    }
    v3_scale(s, 1.0 / v3_norm(s), s);
  }
  double t[3];
  v3_cross(m, s, t);
  f[0] = m[0], f[1] = m[1], f[2] = m[2];
  f[3] = s[0], f[4] = s[1], f[5] = s[2];
  f[6] = t[0], f[7] = t[1], f[8] = t[2];
}

#endif
