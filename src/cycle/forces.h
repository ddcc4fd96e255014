/* The force pass (forces.c): contact geometry, the models' laws and the sums on balls and walls,
   then the step's contact events and the deletion of contacts that parted. */
#ifndef CAIRN_FORCES_H
#define CAIRN_FORCES_H

#include "world/world.h"

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

#endif
