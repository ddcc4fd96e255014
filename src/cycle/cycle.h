/* The cycle: detect contacts, compute contact forces through each contact's model, integrate
   motion with centred finite differences (PFC's scheme), advance time, sample histories. */
#ifndef CAIRN_CYCLE_H
#define CAIRN_CYCLE_H

#include "cycle/history.h"
#include "world/world.h"

/* Run n steps. Stops early with the failure of a history sampler or a domain violation. */
cairn_status cycle_run(cairn_world *w, uint64_t n, cairn_diag *d);
/* Run until model time reaches t_end (within round-off of a fixed timestep). */
cairn_status cycle_solve_time(cairn_world *w, double t_end, cairn_diag *d);
/* Prepare a cycle or solve call (its first step's checks, the smallest radius). */
void cycle_run_start(cairn_world *w);
/* The end of a cycle or solve call begun with cycle_run_start and par_begin: under MPI the whole
   model again on every rank. Returns s, or the gathering's failure. */
cairn_status cycle_run_end(cairn_world *w, cairn_status s, cairn_diag *d);
/* One step of the cycle. */
cairn_status cycle_run_one(cairn_world *w, cairn_diag *d);
/* Put the balls, the contacts and the neighbour pairs in a random order (from 'seed') between
   steps (shuffle.c). A run's results do not depend on that order; the tests check it this way. */
cairn_status cycle_shuffle(cairn_world *w, uint64_t seed, cairn_diag *d);

/* Solving to criteria (solve.c): any limit that is set (> 0, or a finite time) stops the run when
   it is met, the first one met ending it; at least one step is taken unless only a time already
   reached is given. */
typedef struct solve_limits {
  double time;       /* model time to reach; NAN: none */
  uint64_t steps;    /* steps to take; 0: none */
  double ratio_mean; /* mean unbalanced-force ratio to fall to; 0: none */
  double ratio_max;  /* maximum unbalanced-force ratio to fall to; 0: none */
  double calm;       /* kinetic energy to fall to; 0: none */
} solve_limits;
enum { SOLVE_TIME, SOLVE_STEPS, SOLVE_RATIO_MEAN, SOLVE_RATIO_MAX, SOLVE_CALM };
typedef struct solve_result {
  int reason;                   /* SOLVE_*: the criterion that stopped the run */
  uint64_t steps;               /* steps taken */
  double ratio_mean, ratio_max; /* at the end */
  double kinetic;               /* at the end */
} solve_result;
cairn_status cycle_solve(cairn_world *w, const solve_limits *lim, solve_result *r, cairn_diag *d);
/* Unbalanced-force ratios of the last force pass, over the balls free in some translation: the
   mean is the sum of their unbalanced forces (contacts, gravity; free components only) over the
   sum of the forces applied to them (each active contact's force once per free ball it acts on,
   and their weights); the maximum is the largest unbalanced force over the mean applied force.
   0 when nothing acts. */
void cycle_ratios(const cairn_world *w, double *mean, double *max);
/* Kinetic energy of the balls, translation and rotation (at the half-step velocities). */
double cycle_kinetic(const cairn_world *w);
/* Set every ball's velocity and spin to zero (PFC's calm). */
void cycle_calm(cairn_world *w);

/* Bring contacts up to date with the current positions without cycling (model.clean): create,
   update and delete contacts and dispatch their events. No force update runs, so no model state
   advances and contact forces keep their last values (zero for new contacts). */
cairn_status cycle_detect_only(cairn_world *w, cairn_diag *d);
/* The timestep the next step will use (fixed, or the automatic estimate). */
cairn_status cycle_timestep(cairn_world *w, double *dt, cairn_diag *d);

/* Threads used by the cycle's parallel loops (1 without OpenMP); n <= 0 leaves it unchanged. */
int cycle_threads(int n);

#endif
