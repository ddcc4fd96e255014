/* The motion of four balls at a time with AVX2 (motion_avx2.c), for cycle.c's motion pass. */
#ifndef CAIRN_CYCLE_MOTION_AVX2_H
#define CAIRN_CYCLE_MOTION_AVX2_H

#include "world/ball.h"

/* Balls i0 .. i0 + 3, each free (no fixity), undamped, in 3D, without energy tracking or a
   deforming periodic cell: velocity and spin from force and moment, then position and
   displacement, with the same operations in the same order as cycle.c's advance_ball, so the
   same bits. Where the build has no AVX2 kernels, never called (motion_avx2_built is 0). */
void motion4_avx2(ball_store *b, size_t i0, const double g[3], double dt, double dtk);
extern const int motion_avx2_built;

#endif
