/* Clumps (clump.c) and their mass properties (clump_mass.c): rigid bodies made of pebbles, balls
   held fixed in the body's frame, which may overlap (docs/clumps.md).

   A pebble is an ordinary ball of the ball store: its contacts, forces, outputs and contact
   models are a ball's. It is marked FIX_CLUMP; the ball motion leaves it alone and the clump's
   motion (cycle/rigid.c) sums the forces and moments of its pebbles onto the body, moves the body
   and puts each pebble where the body holds it, with the body's velocity at its centre and the
   body's spin. Pebbles of one clump never touch (detection skips the pair). A pebble's mass and
   moment of inertia in the ball store are its clump's mass and least principal moment, so that
   a contact's effective mass is the body's (design.md, reduced mass). */
#ifndef CAIRN_CLUMP_H
#define CAIRN_CLUMP_H

#include "core/core.h"
#include "core/idmap.h"

/* A ball moved by its clump (a bit of ball_store.fix beside FIX_VEL and FIX_SPIN). */
#define FIX_CLUMP 16u

/* The most pebbles a template may have. */
#define CLUMP_MAX_PEBBLES 100000

/* A shape: pebbles in the template's own coordinates and the mass properties of their union
   per unit density (3D: volume, first and second moments; 2D: the area of the disks' union,
   unit thickness). The body frame of a clump made from it is the principal frame: origin at the
   centroid, axes the principal axes. */
typedef struct clump_template {
  char name[64];
  int n;              /* pebbles */
  double (*peb)[4];   /* x, y, z, radius (template coordinates) */
  double volume;      /* of the union (2D: its area) */
  double centre[3];   /* its centroid */
  double inertia[3];  /* principal moments per unit density (2D: [2] about z, [0], [1] 0) */
  double axes[3][3];  /* rows: the principal axes in template coordinates (right-handed) */
  double q_axes[4];   /* quaternion (w, x, y, z) turning the principal frame into the template's */
  double vol_err;     /* estimated error of 'volume' (0: exact or given; clump_mass_properties) */
  double centre_err;  /* ... of each coordinate of 'centre' */
  double inertia_err; /* ... of each moment, per unit density */
  int given;          /* the mass properties were given by the user */
} clump_template;

typedef struct clump_store {
  size_t n, cap;
  int64_t *id;
  uint32_t *tmpl;    /* template index */
  double (*pos)[3];  /* centre of mass */
  double (*vel)[3];  /* at the half step, as a ball's */
  double (*spin)[3]; /* angular velocity, global (2D: [2]), at the half step */
  double (*amom)[3]; /* angular momentum about the centre of mass, global (3D), half step */
  double (*q)[4];    /* orientation: turns the body (principal) frame into the global one */
  double *density, *mass, *damp;
  double *scale; /* of its template: lengths times scale (mass scale^3, 2D ^2; inertia ^5, ^4) */
  double (*inertia)[3];             /* principal moments (body frame) */
  double (*force)[3], (*moment)[3]; /* resultants on the body at the last step (about the
                                       centre of mass; gravity not included) */
  uint8_t *fix;                     /* FIX_VX .. FIX_SPIN, as a ball's */
  uint16_t *group;
  uint32_t *first, *count; /* its pebbles: peb_*[first .. first + count) */
  size_t n_peb, cap_peb;
  int64_t *peb_id;      /* the pebble's ball id */
  double (*peb_off)[3]; /* its centre in the body frame */
  uint32_t *peb_clump;  /* its clump's slot */
  /* The pebbles' ball slots and each ball slot's clump, for the world's layout 'slots_layout'
     (clump_slots makes them current). */
  uint32_t *peb_slot;
  uint32_t *body_of; /* per ball slot: its clump's slot, or UINT32_MAX */
  size_t cap_body_of;
  uint64_t slots_layout;
  int slots_ok;
  double (*ework)[2]; /* scratch of the cycle (cycle/rigid.c): each clump's energy terms */
  size_t cap_ework;
  idmap map; /* clump id -> slot */
  int64_t next_id;
  clump_template *tmpl_v;
  size_t n_tmpl, cap_tmpl;
} clump_store;

/* The mass properties of the union of n pebbles (x, y, z, r) in dimension dim, per unit density,
   into t (its volume, centre, inertia, axes, q_axes and error bounds; t->peb and t->n are not
   touched): exact chords of the union along one axis, integrated over shifted grids of cells of
   'rel' times the pebbles' extent, with an error estimate from the shifts' spread. */
cairn_status clump_mass_properties(int dim, const double (*peb)[4], int n, double rel,
                                   clump_template *t, cairn_diag *d);
/* The principal moments and axes of a symmetric 3x3 tensor (Jacobi rotations): moments
   ascending, axes as rows, right-handed. */
void clump_principal(const double tensor[3][3], double mom[3], double axes[3][3]);

/* clump_fill.c: templates from a closed triangle surface (n triangles, outward or inward
   oriented). The mass properties of the solid it bounds, exact for the polyhedron, per unit
   density, into t (errors 0). */
void clump_surface_properties(const double (*tri)[3][3], size_t n, clump_template *t);
typedef struct clump_fill_opts {
  int max_pebbles;   /* at most this many pebbles */
  double min_radius; /* none smaller */
  double resolution; /* voxel size as a share of the surface's extent */
  double overlap;    /* in [0, 1): how far a pebble's centre may lie inside another (share of
                        that one's radius) */
} clump_fill_opts;
typedef struct clump_fill_report {
  double surface_max, surface_mean; /* distance of the surface from the pebbles' surface, over
                                       its vertices and triangle centres: most and mean */
  double voxel;                     /* the voxel size used */
} clump_fill_report;
/* Pebbles filling the solid (clump_fill.c, the distance-transform method): *peb gets np rows
   (x, y, z, r), the caller's to free (mem_free). */
cairn_status clump_fill(const double (*tri)[3][3], size_t n, const clump_fill_opts *o,
                        double (**peb)[4], int *np, clump_fill_report *rep, cairn_diag *d);

/* Quaternions (w, x, y, z). */
void quat_rotate(const double q[4], const double v[3], double out[3]);
void quat_mul(const double a[4], const double b[4], double out[4]);
/* The rotation by the angle |th| about th / |th| as a quaternion. */
void quat_from_rotvec(const double th[3], double q[4]);
/* The quaternion of a rotation matrix m (v' = m v: its columns are the turned axes). */
void quat_from_matrix(const double m[3][3], double q[4]);
void quat_normalise(double q[4]);
/* The rotation matrix of a unit quaternion (v' = m v). */
void quat_matrix(const double q[4], double m[3][3]);

/* clump.c: the store. */
struct cairn_world;
/* Add a template of n pebbles (x, y, z, r; 2D: z = 0); its mass properties computed to the
   relative resolution 'rel' (clump_mass_properties), or taken from 'given' (its volume, centre,
   inertia and axes, per unit density) if not NULL. Its index goes to *index. */
cairn_status clump_template_add(struct cairn_world *w, const char *name, const double (*peb)[4],
                                int n, double rel, const clump_template *given, uint32_t *index,
                                cairn_diag *d);
typedef struct clump_spec {
  int64_t id; /* 0: the next free id */
  uint32_t tmpl;
  double pos[3];    /* where the template's centroid goes */
  double orient[4]; /* turns the template's coordinates into the global frame (unit quaternion;
                       2D: about z only) */
  double vel[3], spin[3];
  double density, damp;
  double scale; /* the template's lengths times this (0: 1) */
  const char *group;
} clump_spec;
/* Make a clump and its pebbles (new balls, ids from the ball store's next free id). */
cairn_status clump_create(struct cairn_world *w, const clump_spec *s, int64_t *id_out,
                          cairn_diag *d);
cairn_status clump_slot(const struct cairn_world *w, int64_t id, uint32_t *slot, cairn_diag *d);
/* Bring peb_slot and body_of up to date with the world's layout. */
cairn_status clump_slots(struct cairn_world *w, cairn_diag *d);
/* Put clump c's pebbles where the body holds them, with its velocity at their centres and its
   spin; each pebble's displacement since the last rebuild grows by how far it moved. (Needs
   current slots.) */
void clump_place(struct cairn_world *w, uint32_t c);
/* Remove clump slot c's record, the last moving into its place; its pebbles (still balls) lose
   their FIX_CLUMP mark. The caller deletes the pebbles with their contacts. */
void clump_remove(struct cairn_world *w, uint32_t c);
/* Set a clump's velocity or spin (2D: about z), and its pebbles' with it. */
void clump_set_velocity(struct cairn_world *w, uint32_t c, const double v[3]);
void clump_set_spin(struct cairn_world *w, uint32_t c, const double s[3]);
/* Give clump c a new scale (> 0): its pebbles' radii and arms, mass (scale^3, 2D ^2) and moments
   (^5, ^4) follow; its velocity and spin are kept (a radius expansion grows the grains in place).
   Checked first: nothing changes on a refusal. (Needs current slots.) */
cairn_status clump_set_scale(struct cairn_world *w, uint32_t c, double scale, cairn_diag *d);
/* The angular momentum about its centre of mass of clump c spinning at om (global): R I R^T om. */
void clump_amom_of_spin(const clump_store *cs, uint32_t c, const double om[3], double l[3]);
/* The quaternion of principal axes given as rows (the frame they make, turned from the
   template's). */
void clump_axes_quat(const double axes[3][3], double q[4]);
/* The orientation of clump c as the turn from its template's coordinates to the global frame. */
void clump_orientation(const struct cairn_world *w, uint32_t c, double q[4]);
void clump_store_free(clump_store *cs);

/* Restoring a saved model (src/io/, which checked the values). A template appended whole: the
   store takes t->peb. */
cairn_status clump_template_restore(struct cairn_world *w, const clump_template *t, cairn_diag *d);
/* A clump's state as a save file keeps it. */
typedef struct clump_row {
  int64_t id;
  uint32_t tmpl, count;
  double pos[3], vel[3], spin[3], amom[3], q[4];
  double density, mass, damp, scale, inertia[3], force[3], moment[3];
  uint8_t fix;
  uint16_t group;
} clump_row;
/* Append clump r (its pebbles' rows reserved, filled by clump_restore_pebble: pebble p of the
   store, ball id 'id', body-frame offset 'off'). */
cairn_status clump_restore(struct cairn_world *w, const clump_row *r, cairn_diag *d);
void clump_restore_pebble(struct cairn_world *w, size_t p, int64_t id, const double off[3]);

#endif
