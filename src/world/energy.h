/* Energy tracking: the kinetic energy of the balls, the work done on them by gravity and by the
   walls, the energy stored in the contacts and what dashpots, frictional slip and local damping
   dissipated. While tracking is on, the cycle adds each step's work and losses (cycle.c) and the
   contact models add their own losses to their state (the ABI's 'energy' flag and hook). */
#ifndef CAIRN_ENERGY_H
#define CAIRN_ENERGY_H

#include "world/world.h"

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
void energy_remove_contact(cairn_world *w, uint32_t c);
/* Keep the losses of contact c before it is deleted or given another model. */
void energy_retire(cairn_world *w, uint32_t c);
/* Add the losses booked since the last fold to the totals (at each step's start and end). */
void energy_fold(cairn_world *w);
/* The totals as energy_fold would leave them: retired (CAIRN_ENERGY_N) and removed. */
void energy_totals(const cairn_world *w, double *retired, double *removed);

#endif
