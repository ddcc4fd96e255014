/* The force pass (forces.c): contact geometry, the models' laws and the sums on balls and walls,
   then the step's contact events and the deletion of contacts that parted. */
#ifndef CAIRN_FORCES_H
#define CAIRN_FORCES_H

#include "world/world.h"

/* Starting threads costs a few microseconds per loop: below this many balls a loop over them
   (motion, the balls' sums) runs on one thread. The results are the same either way (each ball
   is independent, and sums each of its contacts in a fixed order). */
#define PARALLEL_WORTH(n) ((n) >= 2048)

/* Delete the contacts whose gap (at the current positions) exceeds their proximity and whose
   model allowed it at its last update; while energy is tracked each gets a last call of its
   model first (model.clean: the force pass does the same for the contacts it meets). */
cairn_status forces_part(cairn_world *w, double dt);

/* One force pass with timestep dt: every ball's force, moment and stiffness sums, every wall's
   force, every contact's geometry, force and status; events queued. A contact whose gap now
   exceeds its proximity and whose model allowed deletion at its last update gets no force: its
   model sees it once more (for its energy books) and it is deleted after the pass. Fails only on a
   contact refused by its model's validation hook, or out of memory growing scratch (only when
   contacts grew). */
cairn_status forces_compute(cairn_world *w, double dt, cairn_diag *d);

/* The look-ahead's probe of pair q (w->pairs.ahead: about to touch, or touching since this
   step's detection): the stiffness its assigned model reports for it as a fresh contact at first
   touch (or at its present overlap), from its present approach. The model runs on a scratch
   state and its force is dropped: nothing in the world changes. Writes the translational
   estimate kt (normal plus shear), the rotational one for side 1 and side 2 (kr[0], kr[1]) and
   the normal estimate over the effective mass (kn_m); zeros when no model is assigned or its
   estimate is not a finite number >= 0. */
/* After forces_compute (and, under MPI, once every rank's pass has succeeded): the walls' forces
   and stiffness sums, and the stiffest contact for its mass, over every rank. */
void forces_totals(cairn_world *w);
cairn_status forces_probe(cairn_world *w, uint32_t q, double *kt, double kr[2], double *kn_m,
                          cairn_diag *d);

#endif
