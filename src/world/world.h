/* The world: the ball and wall stores, groups, time, gravity, the domain and applied loads, and
   the aggregate that holds the stores of the floors above by pointer (docs/architecture.md).
   Code in src/world/ reads and changes only what this header and its own headers define. */
#ifndef CAIRN_WORLD_H
#define CAIRN_WORLD_H

#include "core/core.h"
#include "core/idmap.h"
#include "world/ball.h"
#include "world/clump.h"
#include "world/loads.h"
#include "world/periodic.h"
#include "world/wall.h"

#define CAIRN_MAX_NAME 64

typedef enum domain_cond { DOMAIN_STOP = 0, DOMAIN_DESTROY = 1 } domain_cond;

typedef enum ts_mode { TS_AUTO = 0, TS_FIXED = 1 } ts_mode;

/* Points of the cycle at which the script layer is called back. */
typedef enum hook_point { HOOK_EVENTS = 0, HOOK_BEFORE_FORCE, HOOK_AFTER_FORCE } hook_point;
typedef cairn_status (*world_hook_fn)(void *ud, cairn_world *w, hook_point p, cairn_diag *d);

typedef struct par_domain par_domain; /* MPI domain decomposition (src/par/par.h) */

struct cairn_world {
  int dim;
  struct par_domain *par; /* non-NULL while the world is decomposed over MPI ranks */
  /* the decomposition set aside while a history function or a callback inside a call has the
     whole model (par_whole); par_resume divides the model along it again */
  struct par_domain *par_parked;
  /* what the last cycle or solve call did under MPI (the same on every rank): whether it was
     decomposed, on which grid, how many balls moved between ranks and how many rebuild
     exchanges and gatherings it took */
  struct {
    int decomposed, grid[3];
    int resumed; /* the call went on from the division the last call left (none at its start) */
    int64_t moved, exchanges, gathers;
    int64_t ghosts; /* ghosts held at the end of the call, summed over the ranks */
    double balance; /* the most balls a rank owned at the end of the call, over the mean */
    int64_t recuts; /* rebuilds that moved the bricks' cuts to balance the ranks */
    int64_t spread; /* rebuilds whose exchange reached beyond the neighbouring bricks' ranks */
  } par_last;
  double gravity[3];
  ball_store balls;
  clump_store clumps; /* rigid bodies of pebbles (world/clump.h) */
  wall_store walls;
  load_set loads;
  /* Bumped whenever balls or walls come, go, change slot or size (world_mark_dirty): the
     neighbour list and the per-ball contact lists compare it with its value when they were
     built, so that the world need not know them. */
  uint64_t layout;
  /* The stores of the floors above, created and destroyed by the assembler (src/model/):
     the world holds them, its own code never reads them. */
  struct contact_store *contacts; /* contact/contact.h */
  struct registry *reg;           /* contact/registry.h */
  struct cmat *cmat;              /* contact/cmat.h */
  struct energy_track *energy;    /* contact/energy.h */
  struct event_queue *events;     /* contact/events.h */
  struct crack_set *cracks;       /* contact/cracks.h */
  struct pair_list *pairs;        /* detect/detect.h */
  struct force_scratch *fs;       /* cycle/forces.h */
  struct history_set *hist;       /* cycle/history.h */
  /* groups: index 0 is "" (none) */
  size_t n_groups;
  char groups[256][CAIRN_MAX_NAME];
  /* time */
  ts_mode ts_mode;
  double dt, dt_safety;
  double dt_taken;  /* the timestep of the last step taken (0 before the first) */
  double v2max;     /* automatic timestep: the largest squared ball speed after the last step (at
                       a cycle's start: of the velocities then), the look-ahead's reach */
  double dt_impact; /* automatic timestep: the least steps per impact (0: no such bound) */
  double kn_m_max; /* the largest kn / m_eff of a contact at the last force pass (with dt_impact) */
  int dt_strict;   /* a fixed timestep above the stable estimate is an error, not a warning */
  int dt_warned;   /* the warning about it was given (once per model.timestep{fix = ...}) */
  int run_first;   /* the next step is the first of a cycle or solve call */
  int simd_avx2;   /* this step's kernels use AVX2 (set by the cycle: cairn/simd.h) */
  double rad_floor; /* at most the smallest ball radius (set at each cycle or solve call, and
                       lowered when a ball is made or given a smaller radius) */
  /* one-sentence warnings of the engine (the script layer prints them); NULL: none */
  void (*warn)(void *ud, const char *msg);
  void *warn_ud;
  double time;
  uint64_t step;
  periodic_cell cell;
  /* domain */
  int has_domain;
  double dom_min[3], dom_max[3];
  domain_cond dom_cond;
  uint64_t n_destroyed;
  size_t n_leaving; /* under MPI decomposition: balls motion marked for "destroy" this step */
  /* scratch of balls_delete_marked: a mark per ball slot, and the slots' new places */
  uint8_t *del_mark;
  uint32_t *del_remap;
  size_t cap_del_mark, cap_del_remap;
  int64_t next_ball_id, next_wall_id;
  /* callbacks of the script layer at points of the cycle (contact/events.c calls it) */
  world_hook_fn hook; /* NULL: no callbacks */
  void *hook_ud; /* progress of a long run: fraction done (0..1), steps taken in this call, 1 at the
                    end */
  void (*progress)(void *ud, double fraction, uint64_t steps, int done);
  void *progress_ud;
  /* set by the progress reporter (the live view's stop): the cycling call ends after this step
     (cleared at the start of every call) */
  int stop_request;
  /* report progress after every step, not every 256th (the live view: its commands act at the
     next step) */
  int progress_each;
  /* called at the end of every step whose number is a multiple of after_step_every (periodic
     output of the script layer); NULL: none. The cycle asks before calling: under MPI a call
     gathers the whole model, which only the steps due should pay for. */
  cairn_status (*after_step)(void *ud, cairn_world *w, cairn_diag *d);
  void *after_step_ud;
  uint64_t after_step_every;
};

/* Fill a new world's own fields (dimension, default timestep settings, ids): the assembler
   (src/model/) creates the stores above it. */
void world_init(cairn_world *w, int dim);
/* Free the world's own stores (balls, walls, loads, scratch); not the world itself. */
void world_free_own(cairn_world *w);
cairn_status world_group_index(cairn_world *w, const char *name, uint16_t *out, cairn_diag *d);
const char *world_group_name(const cairn_world *w, uint16_t g);
/* Setters of the world's own settings, for the script layer (which checks the values first and
   words the messages). */
void world_set_gravity(cairn_world *w, const double g[3]);
void world_set_domain(cairn_world *w, const double lo[3], const double hi[3], domain_cond cond);
/* A fixed timestep dt (> 0), an error instead of a warning above the stable estimate if strict. */
void world_set_timestep_fixed(cairn_world *w, double dt, int strict);
/* The automatic timestep with a safety factor and the least steps per impact (0: none). */
void world_set_timestep_auto(cairn_world *w, double safety, double impact);
/* The callbacks of the layer above (NULL: none): one-sentence warnings, the progress of a long
   run, the end of every step, and the points of the cycle (contact/events.c calls it). */
void world_set_warn(cairn_world *w, void (*fn)(void *ud, const char *msg), void *ud);
void world_set_progress(cairn_world *w,
                        void (*fn)(void *ud, double fraction, uint64_t steps, int done), void *ud);
void world_set_after_step(cairn_world *w, uint64_t every,
                          cairn_status (*fn)(void *ud, cairn_world *w, cairn_diag *d), void *ud);
void world_set_hook(cairn_world *w, world_hook_fn fn, void *ud);
/* Balls or walls came, went, moved slot or changed size: a neighbour rebuild is due. */
void world_mark_dirty(cairn_world *w);

/* The clock and timestep settings as a save file keeps them (src/io/ reads them into a local
   value and hands it over whole). */
typedef struct world_clock {
  double gravity[3];
  ts_mode ts_mode;
  double dt, dt_safety, time;
  uint64_t step;
} world_clock;
/* Restoring a saved model (src/io/, which checked the values): the clock and timestep settings;
   the automatic timestep's steps per impact, its stiffest contact and the last step's dt; the
   domain as saved (on or off, its bounds and condition) with the count of balls it destroyed;
   the next ids given to balls and walls; and the groups (n of them with group 0, "": the name of
   group g at names + g * CAIRN_MAX_NAME, for g from 1). They set the fields as given, nothing
   else. */
void world_restore_clock(cairn_world *w, const world_clock *c);
void world_restore_impact(cairn_world *w, double dt_impact, double kn_m_max, double dt_taken);
void world_restore_domain(cairn_world *w, int on, const double lo[3], const double hi[3],
                          domain_cond cond, uint64_t n_destroyed);
void world_restore_next_ids(cairn_world *w, int64_t next_ball, int64_t next_wall);
void world_restore_groups(cairn_world *w, size_t n, const char *names);

/* The balls this rank integrates: all of them, or under MPI decomposition its own (the ghosts
   after them are copies). */
static inline size_t balls_owned(const cairn_world *w) {
  return w->par ? w->balls.n_owned : w->balls.n;
}
/* Whether this rank books a contact's events, cracks and energy (kind, sides a and b): always,
   or under MPI decomposition if it owns side 1 (the lower-id ball) of a ball-ball contact, or
   the ball of a ball-wall one (a contact across ranks is computed on both, alike, and booked
   once). */
static inline int rank_books_contact(const cairn_world *w, int kind, uint32_t a, uint32_t b) {
  if (!w->par) return 1;
  return (kind == 0 ? a : b) < w->balls.n_owned;
}
/* The walls' force, k_normal and fn_sum of the last force pass, formed if they are not yet
   (wall_store, 'pending'). A cache: the values are those the pass determined, so a reader with
   a const world may form them. */
static inline void walls_settle(const cairn_world *w) {
  if (w->walls.pending) w->walls.settle((cairn_world *)w);
}
/* Whether ball s's translation is fixed in every component of the model's dimension. Inline:
   the force pass asks it for both sides of every contact. */
static inline int ball_translation_fixed(const cairn_world *w, uint32_t s) {
  unsigned need = w->dim == 2 ? (FIX_VX | FIX_VY) : FIX_VEL;
  return (w->balls.fix[s] & need) == need;
}

#endif
