/* The wall store (wall.c) and wall servos (servo.c): segments (2D), planes, convex polygons and
   cylinders (3D), which may translate and turn, and servos that move a wall to hold a stress. */
#ifndef CAIRN_WALL_H
#define CAIRN_WALL_H

#include "core/core.h"
#include "core/idmap.h"
#include "world/mesh.h"

typedef enum wall_kind {
  WALL_SEGMENT = 0,
  WALL_PLANE = 1,
  WALL_POLYGON = 2,
  WALL_CYLINDER = 3,
  WALL_MESH = 4
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

/* Where time t falls in a table of n increasing times (a servo's targets, a motion table):
   between times[*lo] and times[*lo + 1] (returns 1), where the value is v[*lo] + *s (v[*lo + 1]
   - v[*lo]); or before or after the table (returns 0), where it is v[*lo], the first or last. */
static inline int table_piece(const double *times, int n, double t, int *lo, double *s) {
  *lo = 0, *s = 0;
  if (n <= 1 || t <= times[0]) return 0;
  for (int i = 1; i < n; i++)
    if (t < times[i]) {
      *lo = i - 1, *s = (t - times[i - 1]) / (times[i] - times[i - 1]);
      return 1;
    }
  *lo = n - 1;
  return 0;
}

/* A wall's velocity and spin against time (wall.motion): piecewise linear between the model
   times t, held beyond its ends; each step takes the value at its middle, so that a wall's
   displacement over a segment is the integral of its velocity. */
#define WALL_MOTION_MAX_POINTS 32
typedef struct wall_motion {
  int n_points;     /* 0: none */
  uint8_t has_vel;  /* whether the table sets the velocity, */
  uint8_t has_spin; /* the spin, or both */
  double t[WALL_MOTION_MAX_POINTS];
  double vel[WALL_MOTION_MAX_POINTS][3], spin[WALL_MOTION_MAX_POINTS][3];
} wall_motion;
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
  wall_motion motion;
  uint16_t group;
  /* a mesh wall (WALL_MESH): its triangles, in their own frame, placed by 'orient' (a unit
     quaternion) about 'centre'; the wall store owns the mesh */
  wall_mesh *mesh;
  double orient[4];
  int turned;        /* orient is not the identity (wall_note_orient): a search that must turn
                        into the mesh's frame (most meshes never turn: they skip it) */
  double mesh_reach; /* how far beyond a ball's radius detection looks for its triangles */
} wall;

/* Whether the wall turned over the last step (its torque's work and a contact's view of its
   point's motion need the turn). */
static inline int wall_turned_last(const wall *wl) {
  const double *t = wl->last_dtheta;
  return t[0] != 0 || t[1] != 0 || t[2] != 0;
}

/* After the mesh wall's orientation changed: whether it is now turned at all. */
static inline void wall_note_orient(wall *wl) {
  const double *o = wl->orient;
  wl->turned = !(o[0] == 1 && o[1] == 0 && o[2] == 0 && o[3] == 0);
}

typedef struct wall_store {
  size_t n, cap;
  wall *w;
  idmap map;
  /* The walls' force, k_normal and fn_sum from the last force pass are summed from its contacts
     only when something reads them (cycle/forces.c): while 'pending', settle(w) forms them. A
     reader calls walls_settle (world.h) first. */
  int pending;
  void (*settle)(struct cairn_world *w);
} wall_store;

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
  wall_mesh *mesh; /* WALL_MESH: its vertices global now; the wall takes it over (also when
                      wall_create refuses it) */
} wall_spec;
cairn_status wall_create(cairn_world *w, const wall_spec *s, int64_t *id_out, cairn_diag *d);
/* Remove wall slot s: the last wall moves into slot s. Its contacts are the contact layer's
   (contact_delete_wall deletes them and renames the rest). */
void wall_remove(cairn_world *w, uint32_t s);
cairn_status wall_slot(const cairn_world *w, int64_t id, uint32_t *slot, cairn_diag *d);
/* Restoring a saved model (src/io/, which checked the wall: its id is new and in range, its
   group exists): append wall wl whole, as saved (the store keeps a copy; the layout is not
   bumped, walls keep their saved slots); and overwrite slot s with wl, the same wall read on
   (formats 1 to 7 keep a wall's turning and servo after its shape). */
cairn_status wall_append(cairn_world *w, const wall *wl, cairn_diag *d);
void wall_restore(cairn_world *w, uint32_t s, const wall *wl);
void wall_store_free(wall_store *ws);
const char *wall_kind_name(wall_kind k);
/* Set wall wl's angular velocity (refused for planes; 2D: about z only). */
cairn_status wall_set_spin(cairn_world *w, wall *wl, const double spin[3], cairn_diag *d);
/* The most size of a wall's coordinates, velocity, spin and radius: beyond it the square of a
   distance to a ball overflows (1e150 squared is 1e300, within a double's 1.8e308). */
#define WALL_RANGE 1e150
/* A wall's velocity (refused beyond WALL_RANGE in size), and the point it turns about. */
cairn_status wall_set_velocity(const cairn_world *w, wall *wl, const double v[3], cairn_diag *d);
void wall_set_centre(wall *wl, const double c[3]);
/* A cylinder's radius (> 0: the change counts towards the next neighbour rebuild) and the rate
   its radius grows. */
void wall_set_radius(wall *wl, double r);
cairn_status wall_set_radial_velocity(wall *wl, double v, cairn_diag *d);
/* A wall's plane: a point of it and its unit normal (a segment's: across it, in the xy plane;
   a cylinder's: a point of its axis and the axis). */
void wall_plane(const wall *wl, double p[3], double n[3]);
/* Before the step's motion over dt: refuse, naming the wall and its velocity, spin or radial
   velocity, a step that would move it out of WALL_RANGE, turn it by a non-finite angle, or take a
   cylinder's radius to <= 0 or beyond WALL_RANGE; it reads only. */
cairn_status wall_check_step(const cairn_world *w, const wall *wl, double dt, cairn_diag *d);
/* Turn the wall by the rotation vector th (angle |th| about th / |th|) about its centre. */
void wall_turn(wall *wl, const double th[3]);

/* wall_motion.c */
/* Check a motion table for wall wl (times finite and increasing; each velocity and spin one the
   wall may have, as wall.vel and wall.spin check them) and install it, setting the wall's
   velocity and spin to the table's at time t (n_points 0 removes it). */
cairn_status wall_set_motion(cairn_world *w, wall *wl, const wall_motion *m, double t,
                             cairn_diag *d);
/* Each wall with a motion table takes its velocity and spin at time t. */
void walls_follow_motion(cairn_world *w, double t);

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
