/* The periodic cell (periodic.c): its geometry, nearest images, deformation and stress control.
   What it needs from the contacts (its stress) is measured above it and passed in. */
#ifndef CAIRN_PERIODIC_H
#define CAIRN_PERIODIC_H

#include "core/core.h"

#include "world/wall.h"

/* A periodic cell (periodic.c): the parallelepiped from 'origin' spanned by the columns of H
   (edge j is H[.][j]; at creation the box's sides along x, y, z). Along its periodic edges the
   balls are kept inside, and two balls interact through the nearest image of the second, the
   first's separation shifted by H k (k whole). The cell deforms with the velocity gradient L,
   dH/dt = L H about its fixed centre (L[0][1] > 0: simple shear, x moving with y); an edge under
   stress control has its rate L[j][j] set each step from the stress the contacts carry. When
   shear tilts an edge more than half another's length along it, the edge is moved back by that
   whole edge (a flip, as LAMMPS does): the same images, so the nearest one stays the one found
   by rounding the fractional separation. */
typedef struct periodic_cell {
  int on;
  uint8_t periodic[3];
  double origin[3], centre[3];
  double H[3][3], Hinv[3][3];
  double F[3][3];         /* the deformation since creation, dF/dt = L F (a flip of the cell's
                             edges, which keeps its images, does not change it) */
  double H_rebuild[3][3]; /* H at the last neighbour rebuild */
  double L[3][3];         /* velocity gradient, L[i][j] = dv_i / dx_j */
  uint8_t servo[3];       /* edge j's normal stress is held at target[j] */
  double target[3], rate_max[3], alpha;
  int ortho; /* H is diagonal (no shear): images by axis, no matrix products */
  int flow;  /* L is not zero: images move relative to the balls */
} periodic_cell;

/* Make the box lo..hi a periodic cell along the axes flagged in 'axes' (dim entries). Refused
   with walls across a periodic axis or balls too large for the cell; balls outside are moved in
   (by whole cell lengths). */
cairn_status periodic_create(cairn_world *w, const double lo[3], const double hi[3],
                             const int axes[3], cairn_diag *d);
/* Restoring a saved model (src/io/, which checked the cell): the world's cell becomes a copy of
   'saved', and when it is on, its derived parts (inverse, origin, flow) are formed. */
void periodic_restore(cairn_world *w, const periodic_cell *saved);
/* Refuse a wall that a periodic axis crosses (its surface not parallel to that axis). */
cairn_status periodic_check_wall(const cairn_world *w, const wall *wl, cairn_diag *d);
/* x rounded to the nearest whole number (ties to even), for |x| < 2^51: without a call to libm
   (floor and nearbyint are calls on baseline x86-64), and the same on every machine. */
static inline double periodic_round(double x) {
  const double big = 6755399441055744.0; /* 1.5 * 2^52 */
  return (x + big) - big;
}
/* The shift that takes separation e (of two balls) to its nearest periodic image e + shift. */
/* The cell's flow at x (relative to a point it leaves in place): L x. An image offset by x moves
   at this velocity relative to its ball, and a ball at x from the centre flows at it. */
static inline void periodic_flow(const periodic_cell *pc, const double x[3], double v[3]) {
  for (int q = 0; q < 3; q++) v[q] = pc->L[q][0] * x[0] + pc->L[q][1] * x[1] + pc->L[q][2] * x[2];
}

static inline void periodic_shift(const periodic_cell *pc, const double e[3], double shift[3]) {
  if (pc->ortho) {
    for (int i = 0; i < 3; i++)
      shift[i] = pc->periodic[i] ? -periodic_round(e[i] * pc->Hinv[i][i]) * pc->H[i][i] : 0.0;
    return;
  }
  double k[3];
  for (int i = 0; i < 3; i++) {
    double s = pc->Hinv[i][0] * e[0] + pc->Hinv[i][1] * e[1] + pc->Hinv[i][2] * e[2];
    k[i] = pc->periodic[i] ? -periodic_round(s) : 0.0;
  }
  for (int i = 0; i < 3; i++)
    shift[i] = pc->H[i][0] * k[0] + pc->H[i][1] * k[1] + pc->H[i][2] * k[2];
}
/* The distance between edge j's two faces (the cell's height across them). */
double periodic_height(const periodic_cell *pc, int j);
/* The cell's volume (2D: area, unit thickness). */
double periodic_volume(const periodic_cell *pc, int dim);
/* Set the velocity gradient (rows of 3); with 'remap', every ball's velocity gains the change of
   the affine field, (L_new - L_old)(x - centre), so that the balls follow the cell at once. */
void periodic_set_rate(cairn_world *w, const double L[3][3], int remap);
/* Put every ball inside the cell along its periodic edges. */
void periodic_wrap(cairn_world *w);
/* Bring point x into the cell along its periodic edges (by whole edges); returns whether it
   moved. */
int periodic_wrap_point(const periodic_cell *pc, double x[3]);
/* Hold the normal stress of the edges flagged in 'axes' at 'target' (compression > 0), their
   strain rate within rate_max, closing the share alpha of the error a step; or (on = 0) release
   them. The script layer checks the values first. */
void periodic_set_control(periodic_cell *pc, const int axes[3], int on, double target,
                          double rate_max, double alpha);
/* Whether some edge is under stress control. */
static inline int periodic_controlled(const periodic_cell *pc) {
  return pc->servo[0] | pc->servo[1] | pc->servo[2];
}
/* After the force pass: on stress-controlled edges, the rates from the cell's stress 'stress'
   and edge stiffnesses 'stiff' (measure/contact_sums.c, periodic_stress, computes them). */
cairn_status periodic_control(cairn_world *w, double dt, const double stress[9],
                              const double stiff[3], cairn_diag *d);
/* Before the step's motion: refuse, naming the velocity gradient, a deformation over dt that
   would leave the cell's edges non-finite or turn it inside out (its volume <= 0); it reads
   only. */
cairn_status periodic_check_step(const cairn_world *w, double dt, cairn_diag *d);
/* After motion: the cell deforms over dt, and the balls are put back inside. */
void periodic_deform(cairn_world *w, double dt);
/* How far the cell's edges moved since the last neighbour rebuild (a bound for any image). */
double periodic_moved(const periodic_cell *pc);
/* Check, at a rebuild, that the cell is more than twice the contact range across every periodic
   edge, and return the most skin the images allow ('range': 2 r_max + proximity). */
cairn_status periodic_check_size(const cairn_world *w, double range, double *skin_max,
                                 cairn_diag *d);

#endif
