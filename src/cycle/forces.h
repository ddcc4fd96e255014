/* The force pass (forces.c): contact geometry, the models' laws and the sums on balls and walls,
   then the step's contact events and the deletion of contacts that parted. */
#ifndef CAIRN_FORCES_H
#define CAIRN_FORCES_H

#include "core/comm.h"
#include "core/xsum.h"
#include "world/world.h"

/* Scratch of the force pass. The contacts are computed (in parallel on several threads) into
   'ctb'; then each ball sums its contacts' records in the order of its partners' keys (walls
   first, by wall id, then balls, by their keys of the last neighbour rebuild; links.c) through the
   per-ball lists 'link', and each wall sums its contacts exactly (core/xsum.h). A ball's force is
   so the same sum in the same order whatever the order of the balls and contacts in their arrays:
   on any thread count, after any sort, and on any number of MPI ranks (design.md, Scale). */
typedef struct force_scratch {
  size_t cap_c, cap_b;
  /* per contact: what each side gets (side 2 the force f, side 1 -f: a subtraction is the
     addition of the negation, bit for bit), so that a ball adds either side's alike */
  struct contact_contrib {
    struct contact_share {
      double f[3], m[3]; /* force, and total moment about the ball's centre */
      double kt, kr;     /* translational and rotational stiffness estimates */
    } side2;
    union {
      struct contact_share side1; /* ball-ball */
      struct {                    /* ball-wall: the wall's (side 1 has no sums) */
        double f[3];              /* the force on the wall, -f */
        double kn;                /* the normal stiffness estimate (for a servo) */
        double fn;                /* the force on the ball along the normal (a cylinder's servo) */
        uint32_t slot;
      } wall;
    };
  } * ctb;
  /* (a share is eight doubles and a record two shares, side 2's first: the force pass finds a
     ball's share of contact c at share 2 c + side) */
  uint8_t *status; /* per contact: this step's CAIRN_CM_ST_* bits */
  /* per ball-wall contact of a turning wall, while energy is tracked: half the work of the
     contact's last force over the wall's last turn, with the lever arm as the contact sees the
     turn (from the wall's centre now) (forces.c, turning_work) */
  double *turn_work;
  xsum *tsum; /* per wall: the sum of its contacts' turn_work */
  size_t cap_tsum;
  uint8_t *busy; /* per slice: some contact has an event or may part */
  size_t cap_busy;
  double (*ework)[2]; /* per ball, while energy is tracked: gravity work, damping loss */
  double *probe;      /* a fresh contact's state, for the look-ahead's probe of a model */
  size_t cap_probe;
  xsum *wsum; /* per wall: force x, y, z, normal stiffness, normal force */
  size_t cap_wsum;
  /* under MPI, the digits the walls' sums and the motion's sums last crossed the ranks in
     (comm_window: a hint, the same on every rank) */
  comm_window win_walls, win_motion, win_cell;
  /* under MPI, a stress-controlled periodic cell's stress and edge stiffnesses from this step's
     contacts, summed over the ranks in the force pass's reduction (cell_ready: this step's) */
  double cell_stress[9], cell_stiff[3];
  int cell_ready;
  int no_fixed; /* this pass: no ball has a fixed velocity component (m_eff without tests) */
  /* the last pass's runs of ball-wall contacts and its number of walls, whose records the
     walls' sums are formed from when read (settle_walls; wall_store, 'pending') */
  uint32_t (*wruns)[2];
  size_t n_wruns, cap_wruns, nw_pass;
} force_scratch;

/* Starting threads costs a few microseconds per loop: below this many balls a loop over them
   (motion, the balls' sums) runs on one thread. The results are the same either way (each ball
   is independent, and sums each of its contacts in a fixed order). Such a loop is written twice,
   with and without its pragma, rather than with an 'if' clause: a parallel region whose 'if' is
   false still sets up a team and makes a futex call in libgomp (about 600 instructions and a
   system call), which was half the time of a step of a model of a few balls. */
#define PARALLEL_WORTH(n) ((n) >= 2048)

/* Free the force pass's scratch arrays. */
void force_scratch_free(force_scratch *fs);

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

/* The look-ahead's probe of pair q (w->pairs->ahead: about to touch, or touching since this
   step's detection): the stiffness its assigned model reports for it as a fresh contact at first
   touch (or at its present overlap), from its present approach. The model runs on a scratch
   state and its force is dropped: nothing in the world changes. Writes the translational
   estimate kt (normal plus shear), the rotational one for side 1 and side 2 (kr[0], kr[1]) and
   the normal estimate over the effective mass (kn_m); zeros when no model is assigned or its
   estimate is not a finite number >= 0. */
/* The first contact whose force or moment is not finite, as an error naming it, its model and
   the step (CAIRN_ESTATE); CAIRN_OK if there is none. The force pass does not look (a per-contact
   test every step): the motion does, when a ball's velocity or spin turns non-finite. */
cairn_status forces_nonfinite(cairn_world *w, cairn_diag *d);

/* After forces_compute, with its status s: the walls' forces and stiffness sums, and the
   stiffest contact for its mass, over every rank. Under MPI one reduction carries them and
   every rank's status (a rank whose pass failed takes part with nothing, and every rank returns
   the failure). On one process the walls' sums are only marked pending: formed when something
   reads them (walls_settle). */
cairn_status forces_totals(cairn_world *w, cairn_status s, cairn_diag *d);
cairn_status forces_probe(cairn_world *w, uint32_t q, double *kt, double kr[2], double *kn_m,
                          cairn_diag *d);

#endif
