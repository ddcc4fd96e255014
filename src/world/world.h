/* The world: balls, walls, contacts, the model registry and assignment table, time.
   Balls and contacts are structures of arrays indexed by a dense slot; user ids map to slots. */
#ifndef CAIRN_WORLD_H
#define CAIRN_WORLD_H

#include "core/core.h"
#include "core/idmap.h"
#include "core/xsum.h"

/* Fixity bits of a ball. */
#define FIX_VX 1u
#define FIX_VY 2u
#define FIX_VZ 4u
#define FIX_VEL (FIX_VX | FIX_VY | FIX_VZ)
#define FIX_SPIN 8u

#define CAIRN_ID_MAX 2147483647L /* ids are 1 .. 2^31-1 */
#define CAIRN_MAX_NAME 64

typedef struct ball_store {
  size_t n, cap;
  int64_t *id;
  double (*pos)[3], (*vel)[3], (*spin)[3];
  double (*force)[3], (*moment)[3]; /* resultants of the last force computation */
  double (*disp)[3];                /* displacement since the last neighbour rebuild */
  double *rad, *density, *mass, *inertia, *damp;
  double *k_tran, *k_rot; /* summed stiffness estimates, for the automatic timestep */
  uint8_t *fix;
  uint16_t *group; /* index into world.groups; 0 = no group */
  size_t n_owned;  /* under MPI domain decomposition (world.par): balls [0, n_owned) are this
                      rank's, the rest copies of its neighbours' (ghosts); else unused */
  uint64_t *skey;  /* the key of the ball's place at the last neighbour rebuild (the Morton code
                      of its cell, then its id; UINT64_MAX for a ball made since): the balls lie
                      in this order, whatever order they came in (pairs.c, sort_balls) */
  idmap map;       /* id -> slot */
} ball_store;

typedef enum wall_kind {
  WALL_SEGMENT = 0,
  WALL_PLANE = 1,
  WALL_POLYGON = 2,
  WALL_CYLINDER = 3
} wall_kind;
#define WALL_MAX_NODES 16

/* A servo on a wall (servo.c): the wall moves along 'axis' to hold a normal stress, or force,
   on it, with the gain from its contacts' stiffness, as PFC's servo does. */
#define SERVO_MAX_POINTS 32
typedef struct wall_servo {
  uint8_t mode;    /* SERVO_OFF, SERVO_STRESS, SERVO_FORCE */
  uint8_t warned;  /* the saturation warning was given */
  uint8_t reached; /* the wall has held its target within 10 % for 100 steps running */
  uint32_t held;   /* steps running it has held it so (until reached) */
  int n_points;    /* the target against time: piecewise linear, held beyond its ends */
  double t[SERVO_MAX_POINTS], target[SERVO_MAX_POINTS];
  double axis[3];             /* unit, from the wall towards the balls */
  double area;                /* the area the stress acts on; 0: from the walls below */
  int64_t width[2], depth[2]; /* ids of walls whose distance gives the area (0: none) */
  double vmax, alpha;         /* the most speed; the share of the error closed a step */
  uint64_t saturated;         /* steps at vmax in the current window */
  double err_start;           /* the error when the window began */
  double measured;            /* the stress (or force) of the last step */
} wall_servo;
enum { SERVO_OFF = 0, SERVO_STRESS = 1, SERVO_FORCE = 2 };

typedef struct wall {
  int64_t id;
  wall_kind kind;
  int n_nodes; /* segment: 2; polygon: 3..WALL_MAX_NODES; plane: 0 */
  double nodes[WALL_MAX_NODES][3];
  double point[3], normal[3]; /* plane: a point and the unit normal into the domain;
                                 polygon: its plane (normal from the node order);
                                 cylinder: a point of its axis and the axis (unit) */
  double radius;              /* cylinder: its radius (the balls are inside) */
  double radial_vel;          /* cylinder: the rate its radius grows */
  double last_dr;             /* cylinder: its radius change of the last step (work) */
  double fn_sum;              /* this step's summed normal forces of its contacts on the balls */
  double vel[3];
  double disp[3];    /* displacement since the last neighbour rebuild */
  double force[3];   /* resultant of contact forces on the wall */
  double last_dx[3]; /* displacement of the last step (for the work of its force) */
  /* Turning (segments and polygons): angular velocity about 'centre', which moves with 'vel';
     2D: about z only. */
  double spin[3], centre[3];
  double last_dtheta[3]; /* rotation of the last step (for the work of its torque) */
  double torque[3];      /* this step's moment of the contact forces about 'centre' (kept
                            only while energy is tracked and the wall turns) */
  double rot_disp;       /* most any of its points moved by turning since the last rebuild */
  double k_normal;       /* this step's summed normal stiffness estimates of its contacts */
  double moved[3];       /* its translation since it was created (motion and wall.move) */
  wall_servo servo;
  uint16_t group;
} wall;

typedef struct wall_store {
  size_t n, cap;
  wall *w;
  idmap map;
} wall_store;

/* Per-model pool of blocks of doubles, reused through a free list. A model has two: one of state
   blocks (a block per contact) and one of property blocks ([props | derived], shared by every
   contact that got it from the same assignment, with a reference count; copied on write). */
typedef struct model_pool {
  size_t stride, n_blocks, cap;
  double *data;
  uint64_t *setmask; /* property pool: which properties were set explicitly (for default_from) */
  uint32_t *refs;    /* property pool: references (contacts and assignment entries) */
  uint32_t *free_list;
  size_t n_free, cap_free;
} model_pool;

typedef struct model_entry {
  const cairn_contact_model *m;
  int n_prop_slots, n_state_slots;
  int *prop_off, *state_off; /* slot offset of each row */
  char source[256];          /* "built-in" or the library path */
  int plugin;                /* loaded from a library (its calls are marked for crash reports) */
  model_pool pool;           /* state blocks */
  model_pool ppool;          /* property blocks */
} model_entry;

typedef struct registry {
  size_t n, cap;
  model_entry *e;
} registry;

/* A contact model assignment: model, property values, proximity. */
typedef struct cmat_entry {
  int model;     /* registry index, -1 = none set */
  double *props; /* n_prop_slots doubles */
  uint64_t setmask;
  double proximity;
  uint32_t pblk; /* the property block the contacts made from this entry share since its last
                    change (it holds a reference), or IDMAP_NONE before the next contact */
} cmat_entry;

/* A rule: applies to contacts of a kind (-1: any) whose sides are in the named groups. */
typedef struct cmat_rule {
  int kind;
  uint16_t g1, g2; /* g2 == 0: either side in g1; else one side in g1 and the other in g2 */
  cmat_entry e;
} cmat_rule;

typedef struct cmat {
  cmat_entry def[2]; /* per contact kind */
  size_t n_rules, cap_rules;
  cmat_rule *rules; /* first match wins, in the order added */
} cmat;

/* Each ball's contacts in the order of its partners' ids (links.c): the force pass sums a ball's
   contacts in this order, so that the sum does not depend on where the contacts and balls lie in
   their arrays (design.md, Scale). Built whole at each neighbour rebuild (and after a script
   changes the balls); between rebuilds a contact made goes to 'extra' and one deleted leaves a
   tombstone, so that most steps pay nothing for the lists. */
typedef struct contact_extra {
  uint32_t ball, entry;
  uint64_t key; /* links_key of the entry */
} contact_extra;
typedef struct contact_links {
  int ok;               /* the lists match the contacts and balls */
  size_t nb;            /* the balls they were built for */
  uint32_t *start;      /* ball i's entries: entry[start[i] .. start[i + 1]) */
  uint32_t *entry;      /* (contact << 1 | 1 if the ball is side 1), or LINK_TOMB */
  uint32_t (*pos)[2];   /* per contact: where its entries are (side 2, side 1); LINK_EXTRA marks
                           an index into 'extra' */
  contact_extra *extra; /* contacts made since the build, by ball and key up to n_sorted */
  contact_extra *merge; /* scratch of links_sort_extras */
  size_t n_extra, n_sorted, n_tombs, cap_start, cap_entry, cap_pos, cap_extra, cap_merge;
} contact_links;
#define LINK_TOMB UINT32_MAX
#define LINK_EXTRA 0x80000000u

/* Contacts, in the order of their pairs after each rebuild (new ones appended, deleted ones
   replaced by the last). Geometry and force are those of the last force pass, in global
   coordinates; the (n, s, t) frame scripts see is formed from the normal (contact_frame). */
typedef struct contact_store {
  size_t n, cap;
  uint8_t *kind;
  uint32_t *a, *b;     /* side 1 and side 2: ball slots (ball-ball), wall slot and ball slot */
  int32_t *model;      /* registry index */
  uint32_t *blk;       /* state block in the model's pool */
  uint32_t *pblk;      /* property block in the model's property pool (shared) */
  double (*normal)[3]; /* unit normal, side 1 to side 2 */
  double *gap;         /* (the contact point is not stored: contact_point() forms it) */
  double (*force)[3];  /* force on side 2, global */
  double (*moment)[3]; /* extra moment on side 2, global */
  double *prox;
  uint8_t *active, *first, *deletable;
  uint8_t *unchecked; /* the model's validation hook has not run yet (it runs on first touch) */
  uint32_t *pair;     /* index of its entry in the pair list */
  idmap map;          /* contact key -> index */
  size_t n_unchecked; /* contacts with 'unchecked' set */
  /* the force pass's slices: starts of runs of contacts with the same model, property block and
     kind (n_slices + 1 entries), valid while 'slices_ok' */
  uint32_t *slice;
  size_t n_slices, cap_slice;
  int slices_ok;
  int key_sorted; /* the contacts lie in the order of their keys (contact_sort_by_key) */
  contact_links links;
  /* scratch of contact_sort */
  uint32_t *perm;
  uint8_t *seen;
  size_t cap_perm, cap_seen;
} contact_store;

/* Candidate pairs within the neighbour skin, rebuilt when something moved more than half of it. */
typedef struct pair_list {
  size_t n, cap;
  uint8_t *kind;
  uint32_t *a, *b;
  uint32_t *contact; /* index into contacts, or IDMAP_NONE */
  /* this step's gap of each pair (filled in parallel, used in pair order) */
  double *sgap;
  uint8_t *sok;
  /* cell grid scratch */
  size_t cap_cells, cap_order;
  uint32_t *cell_start, *order;
  size_t cap_cellof;
  uint32_t *cell_of;
  size_t cap_key;
  uint64_t *sort_key; /* scratch of the ball sort */
  /* the automatic timestep's look-ahead: pairs without a contact that close within the coming
     step, and contacts made this step (their stiffness is not yet in the balls' sums) */
  uint32_t *ahead;
  size_t n_ahead, cap_ahead;
  double skin;
  int dirty; /* rebuild before the next use */
  uint64_t rebuilds;
} pair_list;

/* A periodic cell (periodic.c): the parallelepiped from 'origin' spanned by the columns of H
   (edge j is H[.][j]; at creation the box's sides along x, y, z). Along its periodic edges the
   balls are kept inside, and two balls interact through the nearest image of the second, the
   first's separation shifted by H k (k whole). The cell deforms with the velocity gradient L,
   dH/dt = L H about its fixed centre (L[0][1] > 0: simple shear, x moving with y); an edge under
   stress control has its rate L[j][j] set each step from the stress the contacts carry. When
   shear tilts an edge more than half another's length along it, the edge is moved back by that
   whole edge (a flip, as LAMMPS does): the same images, so the nearest one stays the one found
   by rounding the fractional separation. */
typedef struct periodic_cell {
  int on;
  uint8_t periodic[3];
  double origin[3], centre[3];
  double H[3][3], Hinv[3][3];
  double F[3][3];         /* the deformation since creation, dF/dt = L F (a flip of the cell's
                             edges, which keeps its images, does not change it) */
  double H_rebuild[3][3]; /* H at the last neighbour rebuild */
  double L[3][3];         /* velocity gradient, L[i][j] = dv_i / dx_j */
  uint8_t servo[3];       /* edge j's normal stress is held at target[j] */
  double target[3], rate_max[3], alpha;
  int ortho; /* H is diagonal (no shear): images by axis, no matrix products */
  int flow;  /* L is not zero: images move relative to the balls */
} periodic_cell;

typedef enum domain_cond { DOMAIN_STOP = 0, DOMAIN_DESTROY = 1 } domain_cond;

typedef enum ts_mode { TS_AUTO = 0, TS_FIXED = 1 } ts_mode;

/* A function sampled into a history; implemented by the script layer. Returns CAIRN_OK or a
   failure with d filled. */
typedef cairn_status (*history_sampler)(void *ud, double *value, cairn_diag *d);

typedef struct history {
  char name[CAIRN_MAX_NAME];
  history_sampler fn;
  void *ud;
  double *v; /* one value per row; NaN for rows sampled before the history was added */
} history;

typedef struct history_set {
  size_t n, cap;
  history *h;
  size_t n_rows, cap_rows;
  double *step, *time; /* per row */
  uint64_t interval;
} history_set;

/* Event hook: the script layer receives engine and model events. */
typedef enum world_event {
  EV_CONTACT_CREATED = 0,
  EV_CONTACT_DELETED,
  EV_CONTACT_ACTIVATED,
  EV_SLIP_CHANGE,
  EV_BOND_BREAK,
  EV_COUNT
} world_event_type;

typedef struct event_rec {
  uint8_t type; /* world_event */
  uint8_t kind; /* contact kind */
  int mode;
  int64_t id1, id2; /* ball-ball: lower, higher id; ball-wall: ball id, wall id */
} event_rec;

/* Points of the cycle at which the script layer is called back. */
typedef enum hook_point { HOOK_EVENTS = 0, HOOK_BEFORE_FORCE, HOOK_AFTER_FORCE } hook_point;
typedef cairn_status (*world_hook_fn)(void *ud, cairn_world *w, hook_point p, cairn_diag *d);

/* Scratch of the force pass. The contacts are computed (in parallel on several threads) into
   'ctb'; then each ball sums its contacts' records in the order of its partners' ids (walls
   first, by wall id, then balls, by ball id) through the per-ball lists 'link', and each wall
   sums its contacts exactly (core/xsum.h). A ball's force is so the same sum in the same order
   whatever the order of the balls and contacts in their arrays: on any thread count, after any
   sort, and on any number of MPI ranks (design.md, Scale). */
typedef struct force_scratch {
  size_t cap_c, cap_b;
  struct contact_contrib {
    double f[3];         /* global force on side 2 */
    double m1[3], m2[3]; /* total moment on side 1 and on side 2 */
    double kt, kr1, kr2; /* stiffness estimates for each side */
    double kn;           /* ball-wall: the normal stiffness estimate (for a servo) */
    double fn;     /* ball-wall: the force on the ball along the normal (a cylinder's servo) */
  } * ctb;         /* per contact */
  uint8_t *status; /* per contact: this step's CAIRN_CM_ST_* bits */
  uint8_t *busy;   /* per slice: some contact has an event or may part */
  size_t cap_busy;
  double (*ework)[2]; /* per ball, while energy is tracked: gravity work, damping loss */
  double *probe;      /* a fresh contact's state, for the look-ahead's probe of a model */
  size_t cap_probe;
  xsum *wsum; /* per wall: force x, y, z, normal stiffness, normal force */
  size_t cap_wsum;
} force_scratch;

/* Energy tracking (energy.track): work done on the balls and energy dissipated, summed over the
   steps taken while 'on'. Sums are formed in ball and contact order, so they do not depend on
   the thread count. */
typedef struct energy_track {
  int on, started;
  double gravity; /* work of gravity on the balls */
  double applied; /* work of the forces and moments scripts apply to balls */
  double walls;   /* work of the walls' contact forces on the balls (moving walls) */
  double damping; /* lost to local damping */
  double removed; /* kinetic energy of balls deleted (by the domain or a script), with the
                     strain energy of their contacts */
  /* dashpot and slip losses of contacts since deleted or given another model */
  double retired[CAIRN_ENERGY_N];
  double start; /* kinetic + strain energy when tracking began */
  /* Losses booked since the last fold into retired[] and removed (energy_fold, at each step's
     start and end): summed exactly, so that contacts and balls deleted in one step in any order
     (on any number of ranks) give the same totals. */
  xsum pending[3]; /* dashpot, slip, removed */
  int n_pending;
} energy_track;

/* Forces and moments that scripts apply to balls (ball.force_app, ball.moment_app), by ball id,
   global: few balls carry one, so they live apart from the ball arrays. */
typedef struct load_set {
  size_t n, cap;
  int64_t *id;
  double (*f)[3], (*m)[3];
} load_set;

/* Broken bonds, in the order they broke (a bond_break event with mode 0). */
typedef struct crack {
  uint64_t step;
  double time, pos[3]; /* the contact point */
  int64_t id1, id2;    /* as in an event: ball-ball lower, higher id; ball-wall ball id, wall id */
  uint8_t kind;        /* contact kind */
  uint8_t tension;     /* 1: the contact carried no compression after breaking (it broke open or
                          in tension), 0: it broke in shear */
} crack;

typedef struct crack_set {
  size_t n, cap;
  crack *c;
} crack_set;
/* The order of the crack list (qsort's comparison): by step, then kind, then ids (world.c). */
int crack_order(const void *x, const void *y);

typedef struct par_domain par_domain; /* MPI domain decomposition (src/par/par.h) */

struct cairn_world {
  int dim;
  struct par_domain *par; /* non-NULL while the world is decomposed over MPI ranks */
  /* what the last cycle or solve call did under MPI (the same on every rank): whether it was
     decomposed, on which grid, how many balls moved between ranks and how many rebuild
     exchanges and gatherings it took */
  struct {
    int decomposed, grid[3];
    int64_t moved, exchanges, gathers;
    int64_t ghosts; /* ghosts held at the end of the call, summed over the ranks */
  } par_last;
  double gravity[3];
  ball_store balls;
  load_set loads;
  crack_set cracks;
  wall_store walls;
  force_scratch fs;
  contact_store contacts;
  pair_list pairs;
  registry reg;
  cmat cmat;
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
  history_set hist;
  energy_track energy;
  int64_t next_ball_id, next_wall_id;
  /* events and callbacks */
  unsigned event_mask; /* bit per world_event that someone listens to */
  size_t n_events, cap_events;
  event_rec *events;
  world_hook_fn hook; /* NULL: no callbacks */
  void *hook_ud; /* progress of a long run: fraction done (0..1), steps taken in this call, 1 at the
                    end */
  void (*progress)(void *ud, double fraction, uint64_t steps, int done);
  void *progress_ud;
  /* called at the end of every step (periodic output of the script layer); NULL: none */
  cairn_status (*after_step)(void *ud, cairn_world *w, cairn_diag *d);
  void *after_step_ud;
};

/* Queue an event about contact c if someone listens to it (world.c). Never fails: an event that
   cannot be queued for lack of memory is dropped and counted. */
void world_event(cairn_world *w, world_event_type ev, uint32_t c, int mode);
/* Call the hook, if any, for point p. */
cairn_status world_call_hook(cairn_world *w, hook_point p, cairn_diag *d);

/* world.c */
cairn_status world_group_index(cairn_world *w, const char *name, uint16_t *out, cairn_diag *d);
const char *world_group_name(const cairn_world *w, uint16_t g);
void world_mark_dirty(cairn_world *w);

/* Applied loads (loads.c). Set ball id's applied force (which = 0) or moment (which = 1) to v;
   a load of zero force and moment is dropped. */
cairn_status loads_set(cairn_world *w, int64_t id, int which, const double v[3], cairn_diag *d);
/* The applied force (which = 0) or moment (1) of ball id (zero without one). */
void loads_get(const cairn_world *w, int64_t id, int which, double v[3]);
/* Forget ball id's load (the ball is deleted). */
void loads_remove(cairn_world *w, int64_t id);
/* Add every load to its ball's force and moment (after the contact forces of a step). */
void loads_apply(cairn_world *w);
/* The loads' work over a step of length dt whose motion is done (energy tracking). */
double loads_work(const cairn_world *w, double dt);
void loads_free(load_set *l);

/* ball.c */
typedef struct ball_spec {
  int64_t id; /* 0: next free id */
  double rad, density;
  double pos[3], vel[3], spin[3];
  double damp;
  const char *group;
} ball_spec;
cairn_status ball_create(cairn_world *w, const ball_spec *s, int64_t *id_out, cairn_diag *d);
cairn_status ball_delete(cairn_world *w, int64_t id, cairn_diag *d);
/* Delete every ball whose slot is marked in w->del_mark (grown to the ball count by
   balls_mark_reserve), with their contacts, in time linear in the balls and contacts; the
   others keep their order. Clears the marks. */
cairn_status balls_mark_reserve(cairn_world *w, cairn_diag *d);
cairn_status balls_delete_marked(cairn_world *w, cairn_diag *d);
cairn_status ball_slot(const cairn_world *w, int64_t id, uint32_t *slot, cairn_diag *d);
void ball_update_mass(cairn_world *w, uint32_t s);
cairn_status ball_set_radius(cairn_world *w, uint32_t s, double r, cairn_diag *d);
cairn_status ball_set_density(cairn_world *w, uint32_t s, double rho, cairn_diag *d);
cairn_status ball_set_damp(cairn_world *w, uint32_t s, double a, cairn_diag *d);
/* The balls this rank integrates: all of them, or under MPI decomposition its own (the ghosts
   after them are copies). */
static inline size_t balls_owned(const cairn_world *w) {
  return w->par ? w->balls.n_owned : w->balls.n;
}
/* Whether this rank books contact c's events, cracks and energy: always, or under MPI
   decomposition if it owns side 1 (the lower-id ball) of a ball-ball contact, or the ball of a
   ball-wall one (a contact across ranks is computed on both, alike, and booked once). */
static inline int contact_booked_here(const cairn_world *w, int kind, uint32_t a, uint32_t b) {
  if (!w->par) return 1;
  return (kind == 0 ? a : b) < w->balls.n_owned;
}
/* Rows of balls as bytes, for MPI (ball.c): the size of one, packing slot s into out, and
   appending one as a new slot (its id must be new here). */
size_t ball_row_size(void);
void ball_row_pack(const ball_store *b, uint32_t s, uint8_t *out);
cairn_status ball_row_append(cairn_world *w, const uint8_t *row, cairn_diag *d);
/* Keep only the balls order[0 .. n) (old slots, in their new order) and drop the rest, without
   touching contacts, loads or energy (the caller renames the contacts' sides). */
cairn_status balls_keep(cairn_world *w, const uint32_t *order, size_t n, cairn_diag *d);
/* Whether ball s's translation is fixed in every component of the model's dimension. Inline:
   the force pass asks it for both sides of every contact. */
static inline int ball_translation_fixed(const cairn_world *w, uint32_t s) {
  unsigned need = w->dim == 2 ? (FIX_VX | FIX_VY) : FIX_VEL;
  return (w->balls.fix[s] & need) == need;
}
void ball_store_free(ball_store *b);
/* Put the balls in the order 'order' (ball i takes the old ball order[i]), renumbering the
   contacts' sides; 'inv' (n) and 'seen' (n) are scratch. Ball ids do not change. */
void ball_sort(cairn_world *w, const uint32_t *order, uint32_t *inv, uint8_t *seen);

/* wall.c */
typedef struct wall_spec {
  int64_t id;
  wall_kind kind;
  int n_nodes;
  double nodes[WALL_MAX_NODES][3];
  double point[3], normal[3];
  double vel[3];
  double spin[3]; /* angular velocity (zero: none) */
  double radius;  /* cylinder */
  double centre[3];
  int has_centre; /* else: a segment's midpoint, a polygon's centroid */
  const char *group;
} wall_spec;
cairn_status wall_create(cairn_world *w, const wall_spec *s, int64_t *id_out, cairn_diag *d);
cairn_status wall_delete(cairn_world *w, int64_t id, cairn_diag *d);
cairn_status wall_slot(const cairn_world *w, int64_t id, uint32_t *slot, cairn_diag *d);
void wall_store_free(wall_store *ws);
const char *wall_kind_name(wall_kind k);
/* Set wall wl's angular velocity (refused for planes; 2D: about z only). */
cairn_status wall_set_spin(cairn_world *w, wall *wl, const double spin[3], cairn_diag *d);
/* The moment about the wall's centre of the forces the balls' contacts put on it (last force
   pass; under MPI decomposition a collective over every rank's contacts). */
void wall_torque(const cairn_world *w, uint32_t slot, double t[3]);
/* A wall's plane: a point of it and its unit normal (a segment's: across it, in the xy plane;
   a cylinder's: a point of its axis and the axis). */
void wall_plane(const wall *wl, double p[3], double n[3]);
/* Turn the wall by the rotation vector th (angle |th| about th / |th|) about its centre. */
void wall_turn(wall *wl, const double th[3]);

/* The ids that name contact c, as its events and handles give them: ball-ball, the lower and
   the higher ball id (sides 1 and 2); ball-wall, the ball id, then the wall id. */
static inline void contact_ids(const cairn_world *w, uint32_t c, int64_t *id1, int64_t *id2) {
  const contact_store *cs = &w->contacts;
  if (cs->kind[c] == CAIRN_KIND_BALL_BALL) {
    *id1 = w->balls.id[cs->a[c]];
    *id2 = w->balls.id[cs->b[c]];
  } else {
    *id1 = w->balls.id[cs->b[c]];
    *id2 = w->walls.w[cs->a[c]].id;
  }
}

/* The length of contact c's branch vector, from its own normal and gap (those of the force
   pass its force belongs to): ball-ball, centre to centre, r1 + r2 + gap; ball-wall, the
   contact point (the middle of the overlap) to the centre, r + gap / 2. The branch is this
   length along the normal; in a periodic cell it reaches side 2 from side 1's nearest image. */
static inline double contact_branch_length(const cairn_world *w, uint32_t c) {
  const contact_store *cs = &w->contacts;
  double rb = w->balls.rad[cs->b[c]];
  return cs->kind[c] == CAIRN_KIND_BALL_BALL ? w->balls.rad[cs->a[c]] + rb + cs->gap[c]
                                             : rb + 0.5 * cs->gap[c];
}

/* periodic.c */
/* Make the box lo..hi a periodic cell along the axes flagged in 'axes' (dim entries). Refused
   with walls across a periodic axis or balls too large for the cell; balls outside are moved in
   (by whole cell lengths). */
cairn_status periodic_create(cairn_world *w, const double lo[3], const double hi[3],
                             const int axes[3], cairn_diag *d);
/* The derived parts of a cell read back from a save (its inverse and origin). */
void periodic_restore(periodic_cell *pc);
/* Refuse a wall that a periodic axis crosses (its surface not parallel to that axis). */
cairn_status periodic_check_wall(const cairn_world *w, const wall *wl, cairn_diag *d);
/* x rounded to the nearest whole number (ties to even), for |x| < 2^51: without a call to libm
   (floor and nearbyint are calls on baseline x86-64), and the same on every machine. */
static inline double periodic_round(double x) {
  const double big = 6755399441055744.0; /* 1.5 * 2^52 */
  return (x + big) - big;
}
/* The shift that takes separation e (of two balls) to its nearest periodic image e + shift. */
/* The cell's flow at x (relative to a point it leaves in place): L x. An image offset by x moves
   at this velocity relative to its ball, and a ball at x from the centre flows at it. */
static inline void periodic_flow(const periodic_cell *pc, const double x[3], double v[3]) {
  for (int q = 0; q < 3; q++) v[q] = pc->L[q][0] * x[0] + pc->L[q][1] * x[1] + pc->L[q][2] * x[2];
}

static inline void periodic_shift(const periodic_cell *pc, const double e[3], double shift[3]) {
  if (pc->ortho) {
    for (int i = 0; i < 3; i++)
      shift[i] = pc->periodic[i] ? -periodic_round(e[i] * pc->Hinv[i][i]) * pc->H[i][i] : 0.0;
    return;
  }
  double k[3];
  for (int i = 0; i < 3; i++) {
    double s = pc->Hinv[i][0] * e[0] + pc->Hinv[i][1] * e[1] + pc->Hinv[i][2] * e[2];
    k[i] = pc->periodic[i] ? -periodic_round(s) : 0.0;
  }
  for (int i = 0; i < 3; i++)
    shift[i] = pc->H[i][0] * k[0] + pc->H[i][1] * k[1] + pc->H[i][2] * k[2];
}
/* The distance between edge j's two faces (the cell's height across them). */
double periodic_height(const periodic_cell *pc, int j);
/* The cell's volume (2D: area, unit thickness). */
double periodic_volume(const periodic_cell *pc, int dim);
/* Set the velocity gradient (rows of 3); with 'remap', every ball's velocity gains the change of
   the affine field, (L_new - L_old)(x - centre), so that the balls follow the cell at once. */
void periodic_set_rate(cairn_world *w, const double L[3][3], int remap);
/* Put every ball inside the cell along its periodic edges. */
void periodic_wrap(cairn_world *w);
/* Bring point x into the cell along its periodic edges (by whole edges); returns whether it
   moved. */
int periodic_wrap_point(const periodic_cell *pc, double x[3]);
/* After the force pass: on stress-controlled edges, the rates from the cell's stress. */
cairn_status periodic_control(cairn_world *w, double dt, cairn_diag *d);
/* After motion: the cell deforms over dt, and the balls are put back inside. */
void periodic_deform(cairn_world *w, double dt);
/* The stress over the cell from the contacts' forces and branch vectors (compression > 0), and
   each edge's stiffness d sigma_jj / d eps_jj estimated from the contacts (may be NULL). */
void periodic_stress(const cairn_world *w, double s[9], double stiff[3]);
/* How far the cell's edges moved since the last neighbour rebuild (a bound for any image). */
double periodic_moved(const periodic_cell *pc);
/* Check, at a rebuild, that the cell is more than twice the contact range across every periodic
   edge, and return the most skin the images allow ('range': 2 r_max + proximity). */
cairn_status periodic_check_size(const cairn_world *w, double range, double *skin_max,
                                 cairn_diag *d);

/* servo.c */
/* Check a servo's settings for wall wl and install them (mode SERVO_OFF removes it). */
cairn_status servo_set(cairn_world *w, wall *wl, const wall_servo *sv, cairn_diag *d);
/* The servo's target at time t. */
double servo_target(const wall_servo *sv, double t);
/* The area wl's servo divides its force by, now. */
cairn_status servo_area(const cairn_world *w, const wall *wl, double *area, cairn_diag *d);
/* The normal force of the balls on wl along its servo axis (> 0 pressing), and the stress over
   the servo's area. */
double servo_normal_force(const wall *wl);
/* Set the velocity of every servo-controlled wall for this step (after the force pass). */
cairn_status servo_step(cairn_world *w, double dt, cairn_diag *d);

#endif
