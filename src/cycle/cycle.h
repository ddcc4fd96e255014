/* The cycle: detect contacts, compute contact forces through each contact's model, integrate
   motion with centred finite differences (PFC's scheme), advance time, sample histories. */
#ifndef CAIRN_CYCLE_H
#define CAIRN_CYCLE_H

#include "world/world.h"

/* Run n steps. Stops early with the failure of a history sampler or a domain violation. */
cairn_status cycle_run(cairn_world *w, uint64_t n, cairn_diag *d);
/* Run until model time reaches t_end (within round-off of a fixed timestep). */
cairn_status cycle_solve_time(cairn_world *w, double t_end, cairn_diag *d);
/* Bring contacts up to date with the current positions without cycling (model.clean): create,
   update and delete contacts and dispatch their events. No force update runs, so no model state
   advances and contact forces keep their last values (zero for new contacts). */
cairn_status cycle_detect_only(cairn_world *w, cairn_diag *d);
/* The timestep the next step will use (fixed, or the automatic estimate). */
cairn_status cycle_timestep(cairn_world *w, double *dt, cairn_diag *d);

/* Free the force pass's scratch arrays. */
void force_scratch_free(force_scratch *fs);
/* Threads used by the cycle's parallel loops (1 without OpenMP); n <= 0 leaves it unchanged. */
int cycle_threads(int n);

/* Histories (history.c). */
cairn_status history_add(cairn_world *w, const char *name, history_sampler fn, void *ud,
                         cairn_diag *d);
cairn_status history_sample(cairn_world *w, cairn_diag *d);
void history_clear(cairn_world *w);

#endif
