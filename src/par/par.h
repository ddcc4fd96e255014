/* MPI domain decomposition (design.md, Scale; docs/parallel.md). Every rank runs the script
   alike. The first cycle call cuts the box into one brick per rank: each rank keeps the balls
   whose centres lie in its brick (owned, slots [0, n_owned)) and copies of its neighbours' balls
   within reach of them (ghosts, after the owned ones), and the contacts of its owned balls. A
   contact between balls of two ranks is computed on both, from the same inputs, so both get the
   same bits; its events, cracks and energy are booked by the rank owning its lower-id ball.
   Ghosts are refreshed every step; balls move to the rank whose brick holds them at each
   neighbour rebuild, with their contacts. Every sum over balls or contacts is exact and each ball
   sums its contacts in its partners' order, so the run is the serial run, bit for bit, on any
   number of ranks. The division outlasts the call: the next call goes on from it, and the model
   is gathered whole on every rank only when something needs it whole (par_whole: a script's
   query or change of balls or contacts, a file of the whole model, a sampler that reads balls). */
#ifndef CAIRN_PAR_H
#define CAIRN_PAR_H

#include "world/world.h"

/* At the start of a cycle or solve call, on every rank: go on from the last call's division, or
   divide the world if there are several ranks and nothing the run does needs the whole model
   every step (else every rank runs the whole model, which gives the same bits). */
cairn_status par_begin(cairn_world *w, cairn_diag *d);
/* At its end: the call's figures (model.ranks()), the division kept for the next call; after a
   failure (which every rank then shares), the whole model again. */
cairn_status par_end(cairn_world *w, cairn_status failed, cairn_diag *d);
/* The whole model on every rank, for a caller that needs it; collective. Between calls the
   division ends (the next call divides anew); inside a call (a history sampler, a callback) it
   is set aside, and par_resume divides the model along it again: at a step's end, or with
   'mid_step' in the middle of one (a callback's, before or after the force pass: the losses
   not yet folded and the look-ahead's pairs wait for the step's end as on one process). */
cairn_status par_whole(cairn_world *w, cairn_diag *d);
cairn_status par_resume(cairn_world *w, int mid_step, cairn_diag *d);
/* A world destroyed while divided: the division's memory, nothing gathered. */
void par_release(cairn_world *w);
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

/* The ghosts as their owners hold them now (positions, velocities, spins), for output written
   after a step's motion (a VTK frame of a divided model); collective, nothing without a
   division. */
void par_sync_ghosts(cairn_world *w);
/* Where this rank's own cracks start in the world's list: 0 on one process and on rank 0; on the
   other ranks after the cracks made before the division, which every rank holds and rank 0
   reports. */
size_t par_cracks_from(const cairn_world *w);

/* Whether this rank owns the point x (its brick holds it): where a ball made while the model is
   divided belongs. */
int par_owns_point(const cairn_world *w, const double x[3]);
/* The ball ball_create just made in the last slot, owned here, made one of this rank's own
   balls: moved to slot n_owned, before the ghosts, whose slots (and the contacts' and pairs'
   that name them) move up by one. The caller leaves the pairs stale, so that the next step's
   rebuild finds its neighbours and makes it a ghost where it is one. */
cairn_status par_adopt_last(cairn_world *w, cairn_diag *d);
/* A change made on some ranks alone (a ball made on its rank): the next step asks afresh whether
   to rebuild, on every rank (call it on every rank). */
void par_note_change(cairn_world *w);
/* The balls destroyed so far over every rank (each counts those it destroyed while divided);
   collective while divided. */
uint64_t par_destroyed(const cairn_world *w);

/* The processor grid of a decomposed world (1, 1, 1 otherwise). */
void par_grid(const cairn_world *w, int grid[3]);

#endif
