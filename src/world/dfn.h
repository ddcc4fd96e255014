/* Discrete fracture networks: joints as disks (3D: centre, unit normal, radius; 2D: segments,
   centre, unit normal, half-length) with a set id, and the generator of Fisher-distributed sets
   (dfn.c). Their file format is io/dfn_file.c's, their VTK output io/vtk.c's; contact.joint
   installs the smooth-joint model where they part contacts. */
#ifndef CAIRN_DFN_H
#define CAIRN_DFN_H

#include "world/specimen.h"

typedef struct dfn_joint {
  double centre[3], normal[3], radius;
  int set;
} dfn_joint;

typedef struct dfn_net {
  dfn_joint *j;
  size_t n, cap;
} dfn_net;

cairn_status dfn_push(dfn_net *net, const dfn_joint *j, cairn_diag *d);
void dfn_free(dfn_net *net);

/* One Fisher set: 'count' joints, centres uniform in the box [lo, hi], poles (normals) drawn
   from a Fisher distribution of concentration kappa (>= 0; 0: uniform) about the pole of the
   plane of dip 'dip' (degrees from horizontal) and dip direction 'ddir' (degrees clockwise from
   +y, north, towards +x, east): n = (sin dip sin ddir, sin dip cos ddir, cos dip). In 2D the
   plane is a line at 'dip' degrees from +x, its pole (-sin dip, cos dip), and the angle about it
   follows the von Mises distribution of concentration kappa. Radii: uniform in [rmin, rmax], or
   with density proportional to r^-power there (power > 0, a power law); rmin = rmax for one
   size. */
typedef struct dfn_fisher_set {
  double dip, ddir, kappa;
  size_t count;
  double rmin, rmax, power; /* power 0: uniform */
  int set;
} dfn_fisher_set;

/* Check a set's values: one sentence naming the one out of range. */
cairn_status dfn_fisher_check(const dfn_fisher_set *s, int dim, cairn_diag *d);
/* Append the set's joints to net, drawing from g. */
cairn_status dfn_fisher(const dfn_fisher_set *s, int dim, const double lo[3], const double hi[3],
                        spec_rng *g, dfn_net *net, cairn_diag *d);
/* n made of unit length, unless it is so to rounding already (4 ulps), so that a network
   written and read back keeps its bits; returns 0 (n untouched) for a zero or non-finite n. */
int dfn_unit(double n[3]);
/* The unit pole of a plane of dip and dip direction (degrees); 2D: of a line at dip. */
void dfn_pole(int dim, double dip, double ddir, double n[3]);

#endif
