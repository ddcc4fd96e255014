/* Measurement regions (PFC's measurement circles and spheres, and boxes): porosity from exact
   ball-region intersections, coordination number, average stress from the contact forces and
   strain rate from the balls' velocities.

   Sign convention: stress and strain rate are both positive in compression (as the contact
   normal force is, design.md): sigma_ij = (1/V) sum_c f_i l_j with f the force on side 2 and l
   the branch vector from side 1 to side 2, and the strain rate is minus the symmetric part of
   the fitted velocity gradient. */
#ifndef CAIRN_MEASURE_H
#define CAIRN_MEASURE_H

#include "core/xsum.h"
#include "world/world.h"

/* contact_sums.c */
/* The stress over the periodic cell from the contacts' forces and branch vectors (compression
   > 0), and each edge's stiffness d sigma_jj / d eps_jj estimated from the contacts (may be
   NULL); under MPI decomposition a collective over every rank's contacts. */
void periodic_stress(const cairn_world *w, double s[9], double stiff[3]);
/* The same in two parts, for the cell's stress control (cell_control, and under MPI
   forces_totals, which sums over the ranks in a reduction of its own): this rank's exact sums
   (the contacts it books, its own balls), then the stress and stiffnesses from every rank's.
   With 'control', only what the control reads: the normal stress and stiffness of its axes (the
   stress's other components are left 0). */
#define PERIODIC_SUMS 13
void periodic_stress_sums(const cairn_world *w, int control, xsum acc[PERIODIC_SUMS],
                          int64_t *n_contacts);
void periodic_stress_value(const cairn_world *w, xsum acc[PERIODIC_SUMS], int64_t n_contacts,
                           double s[9], double stiff[3]);
/* The moment about the wall's centre of the forces the balls' contacts put on it (last force
   pass; under MPI decomposition a collective over every rank's contacts). */
void wall_torque(const cairn_world *w, uint32_t slot, double t[3]);
/* The force of the balls on each triangle of mesh wall 'slot' (global frame, nt rows into f,
   zeroed first): each contact's force goes to the triangle holding its point (the mesh's
   nearest to the contact point), summed exactly. Under MPI every rank calls it at once. */
cairn_status mesh_triangle_forces(const cairn_world *w, uint32_t slot, double (*f)[3],
                                  cairn_diag *d);

typedef enum meas_shape { MEAS_CIRCLE = 0, MEAS_SPHERE, MEAS_BOX } meas_shape;

typedef struct meas_region {
  meas_shape shape; /* circle: 2D; sphere: 3D; box: either */
  int dim;
  double centre[3], radius; /* circle, sphere */
  double lo[3], hi[3];      /* box */
} meas_region;

/* ---- exact geometry (lengths in any unit; areas and volumes in its square and cube) ---- */
/* Area of the intersection of two disks of radii R and r whose centres are dist apart. */
double meas_circle_disk_area(double R, double r, double dist);
/* Volume of the intersection of two spheres of radii R and r whose centres are dist apart. */
double meas_sphere_sphere_volume(double R, double r, double dist);
/* Area of the disk (centre c, radius r) inside the rectangle lo..hi (x, y). Exact. */
double meas_rect_disk_area(const double lo[2], const double hi[2], const double c[2], double r);
/* Volume of the sphere (centre c, radius r) inside the box lo..hi. Integrates the exact slice
   area (meas_rect_disk_area) over x on pieces cut where the slice formula changes, with a
   smoothing substitution and 24-point Gauss-Legendre per piece: error below 1e-14 of r^3. */
double meas_box_sphere_volume(const double lo[3], const double hi[3], const double c[3], double r);

/* Check a region (positive radius, lo < hi, shape matching dim); message names 'who'. */
cairn_status meas_region_check(const meas_region *r, const char *who, cairn_diag *d);
/* Area (2D, unit thickness) or volume of the region. */
double meas_volume(const meas_region *r);
/* Is the point inside (boundary included)? */
int meas_contains(const meas_region *r, const double p[3]);
/* Part of ball (centre c, radius rad) inside the region: exact area (2D) or volume (3D). */
double meas_ball_overlap(const meas_region *r, const double c[3], double rad);

/* The measurements below take exact sums, and under MPI decomposition sum every rank's part
   (collective: every rank calls them alike). */
/* Porosity: 1 - (solid inside) / (region volume), over every ball. */
double meas_porosity(const cairn_world *w, const meas_region *r);
/* The balls whose centre is inside. */
size_t meas_count(const cairn_world *w, const meas_region *r);
/* Mean number of contacts per ball whose centre is inside (ball-ball and ball-wall; only active
   ones unless 'all'). *n_balls gets the number of such balls; 0 balls gives 0. */
double meas_coordination(const cairn_world *w, const meas_region *r, int all, size_t *n_balls);
/* Average stress over the contacts whose contact point is inside (see the sign convention
   above); s is 3x3, row-major; zero rows and columns beyond dim. *n_contacts may be NULL. */
void meas_stress(const cairn_world *w, const meas_region *r, double s[9], size_t *n_contacts);
/* Strain rate (compression positive) from the least-squares fit v = v0 + L (x - x0) over the
   balls whose centre is inside. CAIRN_EINVAL when they do not span the region's dimension. */
cairn_status meas_strain_rate(const cairn_world *w, const meas_region *r, double e[9],
                              cairn_diag *d);

#endif
