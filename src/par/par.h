/* MPI domain decomposition (design.md, Scale; docs/parallel.md). Between cycle calls every rank
   holds the whole model, alike, and runs the script alike. A cycle call cuts the box into one
   brick per rank: each rank keeps the balls whose centres lie in its brick (owned, slots
   [0, n_owned)) and copies of its neighbours' balls within reach of them (ghosts, after the
   owned ones), and the contacts of its owned balls. A contact between balls of two ranks is
   computed on both, from the same inputs, so both get the same bits; its events, cracks and
   energy are booked by the rank owning its lower-id ball. Ghosts are refreshed every step;
   balls move to the rank whose brick holds them at each neighbour rebuild, with their
   contacts. Every sum over balls or contacts is exact and each ball sums its contacts in its
   partners' order, so the run is the serial run, bit for bit, on any number of ranks. At the
   end of the call (and for a history sample or a periodic output on the way) the pieces are
   gathered back into the whole model on every rank. */
#ifndef CAIRN_PAR_H
#define CAIRN_PAR_H

#include "world/world.h"

/* At the start of a cycle or solve call, on every rank: decompose the world if there are
   several ranks and nothing the run does needs the whole model every step (else every rank runs
   the whole model, which gives the same bits). */
cairn_status par_begin(cairn_world *w, cairn_diag *d);
/* At its end (after a failure too, which every rank then shares): the whole model again. */
cairn_status par_finish(cairn_world *w, cairn_diag *d);
/* The whole model on every rank for a moment (a history sample, a periodic output), and back:
   par_gather detaches the decomposition (returned) and par_scatter puts it back. */
struct par_domain *par_gather(cairn_world *w, cairn_status *s, cairn_diag *d);
cairn_status par_scatter(cairn_world *w, struct par_domain *pd, cairn_diag *d);
/* Each step before detection: the rebuild decision (shared by all ranks), then either the
   exchange of a rebuild (balls to the rank of their brick, with their contacts; new ghosts) or
   the ghosts' new positions and velocities. */
cairn_status par_step_start(cairn_world *w, cairn_diag *d);
/* After motion: balls that left the domain (deleted by "destroy") go from every rank alike;
   total: every rank's count of them (summed by the caller). */
cairn_status par_after_motion(cairn_world *w, int64_t total, cairn_diag *d);
/* The next step's rebuild decision, agreed at this step's end (cycle.c's reduction): the next
   par_step_start takes it instead of agreeing again. */
void par_note_rebuild(cairn_world *w, int need);

/* The processor grid of a decomposed world (1, 1, 1 otherwise). */
void par_grid(const cairn_world *w, int grid[3]);

#endif
