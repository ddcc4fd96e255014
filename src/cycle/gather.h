/* A slice's gather (stage 1 of the force pass, forces.c): the slice's arrays, and the
   vectorised gather of ball-ball contacts (gather_avx2.c). */
#ifndef CAIRN_CYCLE_GATHER_H
#define CAIRN_CYCLE_GATHER_H

#include "world/world.h"

#define SLICE CAIRN_CM_SLICE_MAX

/* One slice's arrays (the model's inputs and outputs), on the stack of the thread running it. */
typedef struct slice_buf {
  double gap[SLICE], nx[SLICE], ny[SLICE], nz[SLICE], vx[SLICE], vy[SLICE], vz[SLICE];
  double wx[SLICE], wy[SLICE], wz[SLICE], m_eff[SLICE], r1[SLICE], r2[SLICE];
  double fx[SLICE], fy[SLICE], fz[SLICE], mx[SLICE], my[SLICE], mz[SLICE];
  double kn[SLICE], ks[SLICE], kr[SLICE];
  double arm1[SLICE], arm2[SLICE]; /* distance from each centre to the contact point */
  /* stage 3 of ball-ball contacts: the moments on side 1 and side 2, the stiffness estimates */
  double m1[3][SLICE], m2[3][SLICE], kt[SLICE], kr1[SLICE], kr2[SLICE];
  double pt[SLICE][3]; /* ball-wall: the contact point */
  double *state[SLICE];
  unsigned char first[SLICE], status[SLICE];
  unsigned char parting[SLICE]; /* gap beyond the proximity and deletable: goes after the pass */
} slice_buf;

/* The geometry and kinematics of ball-ball contacts c0 + k, k in [0, n), without a periodic cell
   and with no ball's velocity fixed, four at a time with AVX2: gap, normal, relative velocity at
   the contact point, relative spin, effective mass, radii and arms into s, with the same
   operations in the same order as forces.c's scalar gather (gather_bb), so the same bits. Stops
   before the first group of four that is not whole or has coincident centres (no normal: the
   scalar gather keeps the last geometry) and returns how many it did (a multiple of 4). Where the
   build has no AVX2 kernels it does none. */
size_t gather_bb_avx2(const ball_store *bs, const uint32_t *ca, const uint32_t *cb, size_t c0,
                      size_t n, slice_buf *s);

/* Stage 3 of ball-ball contacts 0 .. n - 1 of a slice in 3D, four at a time with AVX2 (after
   forces.c has zeroed a parted contact's force and stiffness): each contact's record (rec: 16
   doubles a contact, side 2's share then side 1's, forces.h) and force (cforce), from s's columns
   and the moments (ox, oy, oz), with the same operations in the same order as forces.c's scalar
   loop, so the same bits. Returns how many it did (a multiple of 4); where the build has no AVX2
   kernels, none. */
size_t shares_bb_avx2(double *rec, double (*cforce)[3], size_t n, const slice_buf *s,
                      const double *ox, const double *oy, const double *oz);

#endif
