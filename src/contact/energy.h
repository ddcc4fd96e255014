/* Energy tracking: the kinetic energy of the balls, the work done on them by gravity and by the
   walls, the energy stored in the contacts and what dashpots, frictional slip and local damping
   dissipated. While tracking is on, the cycle adds each step's work and losses (cycle.c) and the
   contact models add their own losses to their state (the ABI's 'energy' flag and hook). */
#ifndef CAIRN_ENERGY_H
#define CAIRN_ENERGY_H

#include "core/comm.h"
#include "core/xsum.h"
#include "world/world.h"

/* Energy tracking (energy.track): work done on the balls and energy dissipated, summed over the
   steps taken while 'on'. Sums are formed in ball and contact order, so they do not depend on
   the thread count. */
typedef struct energy_track {
  int on, started;
  int torque_last; /* the walls' torques were formed at the last step, with tracking on (cycle.c:
                      the turning walls' work is booked from them) */
  double gravity;  /* work of gravity on the balls */
  double applied;  /* work of the forces and moments scripts apply to balls */
  double walls;    /* work of the walls' contact forces on the balls (moving walls) */
  double damping;  /* lost to local damping */
  double removed;  /* kinetic energy of balls deleted (by the domain or a script), with the
                      strain energy of their contacts */
  /* dashpot and slip losses of contacts since deleted or given another model */
  double retired[CAIRN_ENERGY_N];
  double start; /* kinetic + strain energy when tracking began */
  /* Losses booked since the last fold into retired[] and removed (energy_fold, at each step's
     start and end): summed exactly, so that contacts and balls deleted in one step in any order
     (on any number of ranks) give the same totals. */
  xsum pending[3]; /* dashpot, slip, removed */
  int n_pending;
  comm_window win_pending; /* under MPI: the digits the pending sums last crossed the ranks in */
} energy_track;

typedef struct energy_report {
  double kinetic_trans, kinetic_rot; /* now, from the velocities at the last half step */
  double kinetic;                    /* their sum */
  double strain;                     /* stored in the contacts now */
  double dashpot, slip;              /* dissipated by the contacts while tracking */
  double damping;                    /* dissipated by local damping while tracking */
  double gravity, walls;             /* work done on the balls while tracking */
  double applied;                    /* work of the applied loads while tracking */
  double removed;                    /* energy of balls deleted while tracking */
  double start;                      /* kinetic + strain when tracking began */
  /* work in - (change of kinetic + strain) - losses: zero for an exact balance */
  double balance;
  size_t n_unknown; /* contacts whose model has no energy hook (left out of the sums) */
} energy_report;

/* Start (on = 1) or stop tracking. The first start resets the sums; starting again after a
   stop keeps them. */
void energy_set_tracking(cairn_world *w, int on);
/* Zero every sum and take the current kinetic + strain energy as the start. */
void energy_reset(cairn_world *w);
void energy_report_get(const cairn_world *w, energy_report *r);
/* Book what a deleted ball takes away (while tracking), in two parts: the kinetic energy of ball
   slot s, and the strain energy of one of its contacts, before that contact is deleted. */
void energy_remove_ball(cairn_world *w, uint32_t s);
/* The kinetic energy of clump slot c, about to be deleted, booked as removed (its pebbles book
   none of their own). */
void energy_remove_clump(cairn_world *w, uint32_t c);
void energy_remove_contact(cairn_world *w, uint32_t c);
/* Keep the losses of contact c before it is deleted or given another model. */
void energy_retire(cairn_world *w, uint32_t c);
/* Add the losses booked since the last fold to the totals (at each step's start and end). */
void energy_fold(cairn_world *w);
/* Under MPI, the fold of a step's end inside the step's one reduction (cycle.c): the count and
   sums of the losses pending here go into f (zero sums if none; 'local' keeps this rank's own,
   should the fold have to wait for more), and after the reduction energy_fold_reduced folds
   every rank's, as energy_fold would. Returns the count's index in f's sums. */
struct comm_fused;
int energy_pending_push(cairn_world *w, struct comm_fused *f, xsum local[3], int *n_local);
void energy_fold_reduced(cairn_world *w, int64_t any);
/* ... or, when the fold must wait (balls deleted after the reduction), this rank's own back. */
void energy_pending_restore(cairn_world *w, const xsum local[3], int n_local);
/* Under MPI, in the middle of a step whose model is being gathered whole: every rank's pending
   losses on every rank, not folded (the step's end folds them, as one process does);
   collective. energy_pending_drop forgets them on every rank but one, when the model is divided
   again, so that the step's end sums them once. */
void energy_pending_share(cairn_world *w);
void energy_pending_drop(cairn_world *w);
/* The totals as energy_fold would leave them: retired (CAIRN_ENERGY_N) and removed. */
void energy_totals(const cairn_world *w, double *retired, double *removed);

/* Restoring a saved model (src/io/): the books as 'saved' holds them (on, started, the work and
   loss sums, retired, start); the losses pending a fold are the world's own and kept. */
void energy_restore(cairn_world *w, const energy_track *saved);

#endif
