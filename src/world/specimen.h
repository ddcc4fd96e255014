/* Specimens: a deterministic random-number generator, ball-size distributions, random sequential
   placement of non-overlapping balls in a box, disk/cylinder or sphere (largest first, over a
   cell grid, so the cost is linear in the number of balls), and regular lattices for tests. */
#ifndef CAIRN_SPECIMEN_H
#define CAIRN_SPECIMEN_H

#include "world/world.h"

/* xoshiro256** seeded through splitmix64 (Blackman & Vigna, 2018): the same seed gives the same
   sequence on every platform, which is what makes a script's specimen reproducible. */
typedef struct spec_rng {
  uint64_t s[4];
} spec_rng;
uint64_t spec_splitmix64(uint64_t *x); /* one step of splitmix64; advances *x */
void spec_rng_seed(spec_rng *r, uint64_t seed);
uint64_t spec_rng_next(spec_rng *r);
double spec_rng_uniform(spec_rng *r); /* in [0, 1), 53 random bits */

typedef enum spec_size_kind { SIZE_UNIFORM = 0, SIZE_NORMAL, SIZE_CURVE } spec_size_kind;

#define SPEC_CURVE_MAX 64

/* A size distribution. Radii for uniform and normal, diameters for the tabulated curve (sieve
   data are diameters). */
typedef struct spec_size {
  spec_size_kind kind;
  double rmin, rmax; /* uniform: the range of the radius; normal: truncation bounds (> 0) */
  double mean, std;  /* normal: of the radius, before truncation */
  int n_pts;         /* curve: 2 .. SPEC_CURVE_MAX points */
  double diam[SPEC_CURVE_MAX], frac[SPEC_CURVE_MAX]; /* increasing diameters; cumulative fraction
                                                       passing in [0, 1], from 0 up to 1 */
  int by_number; /* curve: 0 = fraction by mass (solid volume; area in 2D), 1 = by number */
} spec_size;

/* Check a distribution (ranges, monotone curve ending at 0 and 1); 'dim' picks the mass weight. */
cairn_status spec_size_check(const spec_size *z, cairn_diag *d);
/* Cumulative number fraction of radii <= r (what the drawn radii follow), for tests. */
double spec_size_cdf(const spec_size *z, int dim, double r);
/* Draw one radius. */
double spec_size_draw(const spec_size *z, int dim, spec_rng *g);

typedef enum spec_shape { SPEC_BOX = 0, SPEC_DISK, SPEC_CYLINDER, SPEC_SPHERE } spec_shape;

/* Where balls go. Box: lo..hi (2D: x, y). Disk (2D), sphere (3D): centre and radius. Cylinder
   (3D): axis along z through centre (the middle of the axis), radius and height. */
typedef struct spec_region {
  spec_shape shape;
  double lo[3], hi[3];
  double centre[3], radius, height;
} spec_region;

const char *spec_shape_name(spec_shape s);
/* Check the region for the dimension ('disk' is 2D, 'cylinder' and 'sphere' 3D). */
cairn_status spec_region_check(const spec_region *r, int dim, cairn_diag *d);
/* Area (2D, unit thickness) or volume (3D) of the region. */
double spec_region_volume(const spec_region *r, int dim);

typedef struct spec_gen {
  spec_region region;
  spec_size size;
  double porosity; /* target porosity of the region, in (0, 1); NaN: use count */
  size_t count;    /* target number of balls when porosity is NaN */
  uint64_t seed;
  int tries;        /* random positions tried per ball before giving up (>= 1) */
  size_t max_count; /* refuse targets needing more balls than this */
  double density, damp;
  const char *group; /* NULL: none */
  double inflate;    /* > 1: each ball is placed as if its radius were this times larger (room
                        for the clump that replaces it: its bounding sphere); 0 or 1: none */
} spec_gen;

typedef struct spec_result {
  size_t count;    /* balls created */
  double porosity; /* of the region, counting only the balls created */
  int64_t first_id, last_id;
} spec_result;

/* Generate a specimen: draw radii until the target count or solid volume is reached, sort them
   largest first, and place each at a uniformly random position inside the region where it
   overlaps neither the balls placed so far nor the balls already in the world. All or nothing:
   if a ball cannot be placed in 'tries' attempts, nothing is created and d says what was
   reached (count and porosity). CAIRN_EINVAL for bad input or an unreachable target. */
cairn_status specimen_generate(cairn_world *w, const spec_gen *g, spec_result *res, cairn_diag *d);

typedef enum spec_lattice_kind {
  LATTICE_SQUARE = 0, /* 2D */
  LATTICE_HEX,        /* 2D: rows offset by half a spacing */
  LATTICE_CUBIC,      /* 3D: simple cubic */
  LATTICE_FCC         /* 3D: face-centred cubic; n counts cubic cells of 4 balls */
} spec_lattice_kind;

typedef struct spec_lattice {
  spec_lattice_kind kind;
  double rad, spacing; /* spacing: distance between nearest centres (2 rad: touching) */
  double origin[3];    /* centre of the first ball */
  int n[3];            /* balls (square, hex, cubic) or cells (fcc) per direction */
  double density, damp;
  const char *group;
} spec_lattice;

/* Create a lattice of equal balls; all or nothing. */
cairn_status specimen_lattice(cairn_world *w, const spec_lattice *l, spec_result *res,
                              cairn_diag *d);

#endif
