/* The motion of clumps (rigid.c): the rigid-body step after the balls' own motion, the clumps'
   share of the automatic timestep and their kinetic energy. */
#ifndef CAIRN_RIGID_H
#define CAIRN_RIGID_H

#include "world/world.h"

/* Move every clump over one step (dt the drift, dtk the kick, as the balls'), its pebbles with
   it; the largest squared pebble speed raises *v2max (if not NULL). Refuses, naming the clump,
   a step that moved it further than its smallest pebble's radius under contact (the ball's
   test). */
cairn_status rigid_step(cairn_world *w, double dt, double dtk, double *v2max, cairn_diag *d);
/* Lower *dt to the least critical timestep of the clumps: sqrt(M / sum k) in translation and
   sqrt(I_least / sum (k_rot + k r^2)) in rotation, the pebbles' stiffness estimates acting at
   their arms r from the centre of mass. */
void rigid_timestep(const cairn_world *w, double *dt);
/* The clumps' kinetic energy, translation and rotation (at the half-step velocities). */
double rigid_kinetic(const cairn_world *w);

#endif
