/* Tests of src/detect/geometry.c: ball-ball and ball-wall gaps, normals (from side 1 to side 2,
   from the wall to the ball) and contact points (the middle of the overlap) for 2D segments, 3D
   planes, triangles and squares in every region, and contact-plane vectors turned with the
   normal. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "detect/detect.h"

/* Geometry here is a few arithmetic operations on numbers of order 1: results agree with the
   closed forms to a few ulp. 1e-14 leaves a factor ~20 of margin over that. */
#define TOL 1e-14

/* |a - b| <= tol, both printed on failure (cmocka 1.1.5 has no assert for doubles). */
#define assert_near(a, b, tol)                                                                     \
  do {                                                                                             \
    double a_ = (a), b_ = (b), t_ = (tol);                                                         \
    if (!(fabs(a_ - b_) <= t_)) fail_msg("%s = %.17g, expected %.17g within %g", #a, a_, b_, t_);  \
  } while (0)
#define assert_vec_near(v, x, y, z, tol)                                                           \
  do {                                                                                             \
    assert_near((v)[0], (x), (tol));                                                               \
    assert_near((v)[1], (y), (tol));                                                               \
    assert_near((v)[2], (z), (tol));                                                               \
  } while (0)

static cairn_world *new_world(int dim) {
  cairn_world *w = NULL;
  cairn_world_opts o = {.dim = dim};
  cairn_diag d = {{0}};
  assert_int_equal(cairn_world_create(&o, &w, &d), CAIRN_OK);
  return w;
}

static const wall *make_wall(cairn_world *w, const wall_spec *s) {
  cairn_diag d = {{0}};
  int64_t id;
  assert_int_equal(wall_create(w, s, &id, &d), CAIRN_OK);
  uint32_t slot;
  assert_int_equal(wall_slot(w, id, &slot, &d), CAIRN_OK);
  return &w->walls.w[slot];
}

/* ---- ball-ball ---- */

static void test_geometry_ball_ball_gap_normal_and_midpoint(void **state) {
  (void)state;
  double c1[3] = {1, 2, 3}, c2[3] = {1 + 0.6, 2 + 0.8, 3}; /* distance 1 */
  double gap, n[3], pt[3];
  assert_int_equal(geom_ball_ball(c1, 0.7, c2, 0.5, &gap, n, pt), 1);
  assert_near(gap, 1.0 - 1.2, TOL);
  assert_vec_near(n, 0.6, 0.8, 0, TOL); /* from side 1 to side 2 */
  /* Overlap spans from c2 - r2 n (0.5 from c1) to c1 + r1 n (0.7 from c1): middle at 0.6. */
  assert_vec_near(pt, 1 + 0.6 * 0.6, 2 + 0.6 * 0.8, 3, TOL);

  /* Swapping the sides flips the normal and keeps the point. */
  double gap2, n2[3], pt2[3];
  assert_int_equal(geom_ball_ball(c2, 0.5, c1, 0.7, &gap2, n2, pt2), 1);
  assert_near(gap2, gap, TOL);
  assert_vec_near(n2, -0.6, -0.8, 0, TOL);
  assert_vec_near(pt2, pt[0], pt[1], pt[2], TOL);
}

static void test_geometry_ball_ball_separated_gives_positive_gap(void **state) {
  (void)state;
  double c1[3] = {0, 0, 0}, c2[3] = {0, 0, -3};
  double gap, n[3], pt[3];
  assert_int_equal(geom_ball_ball(c1, 1.0, c2, 0.5, &gap, n, pt), 1);
  assert_near(gap, 1.5, TOL);
  assert_vec_near(n, 0, 0, -1, TOL);
  /* The point is still the middle of the gap: 1 + 0.75 from c1. */
  assert_vec_near(pt, 0, 0, -1.75, TOL);
}

static void test_geometry_ball_ball_coincident_centres_have_no_normal(void **state) {
  (void)state;
  double c[3] = {0.5, 0.5, 0.5};
  double gap = 42, n[3] = {9, 9, 9}, pt[3];
  assert_int_equal(geom_ball_ball(c, 1.0, c, 1.0, &gap, n, pt), 0);
}

/* ---- 2D segment ---- */

static void test_geometry_segment_interior_both_sides(void **state) {
  (void)state;
  cairn_world *w = new_world(2);
  wall_spec s = {.kind = WALL_SEGMENT, .n_nodes = 2, .nodes = {{0, 0, 0}, {2, 0, 0}}};
  const wall *wl = make_wall(w, &s);
  double gap, n[3], pt[3];
  double above[3] = {1.2, 0.5, 0}, below[3] = {0.7, -0.5, 0};
  assert_int_equal(geom_ball_wall(wl, 0, 0, above, 0.6, &gap, n, pt), 1);
  assert_near(gap, -0.1, TOL);
  assert_vec_near(n, 0, 1, 0, TOL);
  /* Overlap from y = -0.1 (ball surface) to y = 0 (segment): middle y = -0.05. */
  assert_vec_near(pt, 1.2, -0.05, 0, TOL);
  assert_int_equal(geom_ball_wall(wl, 0, 0, below, 0.6, &gap, n, pt), 1);
  assert_near(gap, -0.1, TOL);
  assert_vec_near(n, 0, -1, 0, TOL);
  assert_vec_near(pt, 0.7, 0.05, 0, TOL);
  cairn_world_destroy(&w);
}

static void test_geometry_segment_beyond_end_points_touches_the_end_point(void **state) {
  (void)state;
  cairn_world *w = new_world(2);
  /* An oblique segment from (1, 1) to (3, 2). */
  wall_spec s = {.kind = WALL_SEGMENT, .n_nodes = 2, .nodes = {{1, 1, 0}, {3, 2, 0}}};
  const wall *wl = make_wall(w, &s);
  double gap, n[3], pt[3];
  /* Beyond node 1, on either side of the segment's line: normal from (1, 1) to the centre. */
  double c1[3] = {1 - 0.3, 1 + 0.4, 0}, c2[3] = {1 - 0.4, 1 - 0.3, 0};
  assert_int_equal(geom_ball_wall(wl, 0, 0, c1, 0.6, &gap, n, pt), 1);
  assert_near(gap, 0.5 - 0.6, TOL);
  assert_vec_near(n, -0.6, 0.8, 0, TOL);
  assert_vec_near(pt, 1 + 0.05 * 0.6, 1 - 0.05 * 0.8, 0, TOL); /* end point + gap/2 n */
  assert_int_equal(geom_ball_wall(wl, 0, 0, c2, 0.6, &gap, n, pt), 1);
  assert_vec_near(n, -0.8, -0.6, 0, TOL);
  /* Beyond node 2. */
  double c3[3] = {3 + 0.8, 2 - 0.6, 0}, c4[3] = {3 + 0.6, 2 + 0.8, 0};
  assert_int_equal(geom_ball_wall(wl, 0, 0, c3, 0.4, &gap, n, pt), 1);
  assert_near(gap, 1.0 - 0.4, TOL);
  assert_vec_near(n, 0.8, -0.6, 0, TOL);
  assert_vec_near(pt, 3 + 0.3 * 0.8, 2 - 0.3 * 0.6, 0, TOL);
  assert_int_equal(geom_ball_wall(wl, 0, 0, c4, 0.4, &gap, n, pt), 1);
  assert_vec_near(n, 0.6, 0.8, 0, TOL);
  /* Just inside node 2's end, the contact is with the interior: normal perpendicular. */
  double e[3] = {2, 1, 0}, perp[3] = {-1 / sqrt(5), 2 / sqrt(5), 0};
  double c5[3] = {3 - 0.01 * e[0] + 0.3 * perp[0], 2 - 0.01 * e[1] + 0.3 * perp[1], 0};
  assert_int_equal(geom_ball_wall(wl, 0, 0, c5, 0.4, &gap, n, pt), 1);
  assert_vec_near(n, perp[0], perp[1], 0, TOL);
  assert_near(gap, 0.3 - 0.4, TOL);
  cairn_world_destroy(&w);
}

static void test_geometry_segment_centre_on_segment_has_no_normal(void **state) {
  (void)state;
  cairn_world *w = new_world(2);
  wall_spec s = {.kind = WALL_SEGMENT, .n_nodes = 2, .nodes = {{0, 0, 0}, {2, 0, 0}}};
  const wall *wl = make_wall(w, &s);
  double gap, n[3], pt[3], c[3] = {0.5, 0, 0};
  assert_int_equal(geom_ball_wall(wl, 0, 0, c, 0.6, &gap, n, pt), 0);
  cairn_world_destroy(&w);
}

/* ---- 3D plane ---- */

static void test_geometry_plane_is_one_sided(void **state) {
  (void)state;
  cairn_world *w = new_world(3);
  /* Through (0, 0, 1) with normal (0, 3, 4) / 5, given unnormalised. */
  wall_spec s = {.kind = WALL_PLANE, .point = {0, 0, 1}, .normal = {0, 3, 4}};
  const wall *wl = make_wall(w, &s);
  double gap, n[3], pt[3];
  /* In front, at height h = 0.5 above the plane, radius 0.6. */
  double c[3] = {7, 0.5 * 0.6, 1 + 0.5 * 0.8};
  assert_int_equal(geom_ball_wall(wl, 0, 0, c, 0.6, &gap, n, pt), 1);
  assert_near(gap, -0.1, TOL);
  assert_vec_near(n, 0, 0.6, 0.8, TOL);
  /* Overlap from h = -0.1 to h = 0: middle at h = -0.05. */
  assert_vec_near(pt, 7, -0.05 * 0.6, 1 - 0.05 * 0.8, TOL);
  /* Behind, 3 below the plane: still the plane normal, gap very negative (no flip). */
  double b[3] = {-2, -3 * 0.6, 1 - 3 * 0.8};
  assert_int_equal(geom_ball_wall(wl, 0, 0, b, 0.6, &gap, n, pt), 1);
  assert_near(gap, -3.6, TOL);
  assert_vec_near(n, 0, 0.6, 0.8, TOL);
  /* Centre exactly on the plane: normal still defined. */
  double on[3] = {1, 0, 1};
  assert_int_equal(geom_ball_wall(wl, 0, 0, on, 0.6, &gap, n, pt), 1);
  assert_near(gap, -0.6, TOL);
  assert_vec_near(n, 0, 0.6, 0.8, TOL);
  cairn_world_destroy(&w);
}

/* ---- 3D polygons ---- */

static void test_geometry_triangle_face_edge_and_corner_regions(void **state) {
  (void)state;
  cairn_world *w = new_world(3);
  /* Counter-clockwise seen from +z: the normal is +z. */
  wall_spec s = {.kind = WALL_POLYGON, .n_nodes = 3, .nodes = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}};
  const wall *wl = make_wall(w, &s);
  double gap, n[3], pt[3];

  /* Face, both sides. */
  double f1[3] = {0.25, 0.25, 0.5}, f2[3] = {0.25, 0.25, -0.5};
  assert_int_equal(geom_ball_wall(wl, 0, 0, f1, 0.6, &gap, n, pt), 1);
  assert_near(gap, -0.1, TOL);
  assert_vec_near(n, 0, 0, 1, TOL);
  assert_vec_near(pt, 0.25, 0.25, -0.05, TOL);
  assert_int_equal(geom_ball_wall(wl, 0, 0, f2, 0.6, &gap, n, pt), 1);
  assert_near(gap, -0.1, TOL);
  assert_vec_near(n, 0, 0, -1, TOL);
  assert_vec_near(pt, 0.25, 0.25, 0.05, TOL);

  /* Edge y = 0, above and below the plane: closest point (0.5, 0, 0). */
  double e1[3] = {0.5, -0.3, 0.4}, e2[3] = {0.5, -0.3, -0.4};
  assert_int_equal(geom_ball_wall(wl, 0, 0, e1, 0.6, &gap, n, pt), 1);
  assert_near(gap, 0.5 - 0.6, TOL);
  assert_vec_near(n, 0, -0.6, 0.8, TOL);
  assert_vec_near(pt, 0.5, 0.05 * 0.6, -0.05 * 0.8, TOL); /* edge point + gap/2 n */
  assert_int_equal(geom_ball_wall(wl, 0, 0, e2, 0.6, &gap, n, pt), 1);
  assert_vec_near(n, 0, -0.6, -0.8, TOL);

  /* Hypotenuse, in the plane: closest point (0.5, 0.5, 0). */
  double h[3] = {0.8, 0.8, 0};
  assert_int_equal(geom_ball_wall(wl, 0, 0, h, 0.5, &gap, n, pt), 1);
  assert_near(gap, 0.3 * sqrt(2.0) - 0.5, TOL);
  assert_vec_near(n, 1 / sqrt(2.0), 1 / sqrt(2.0), 0, TOL);

  /* Corner (1, 0, 0), both sides: beyond both of its edges. */
  double k1[3] = {1.3, -0.4, 0.5}, k2[3] = {1.3, -0.4, -0.5};
  double len = sqrt(0.5);
  assert_int_equal(geom_ball_wall(wl, 0, 0, k1, 0.2, &gap, n, pt), 1);
  assert_near(gap, len - 0.2, TOL);
  assert_vec_near(n, 0.3 / len, -0.4 / len, 0.5 / len, TOL);
  double a = 0.5 * (len - 0.2); /* the point lies gap/2 from the corner along n */
  assert_vec_near(pt, 1 + a * 0.3 / len, -a * 0.4 / len, a * 0.5 / len, TOL);
  assert_int_equal(geom_ball_wall(wl, 0, 0, k2, 0.2, &gap, n, pt), 1);
  assert_vec_near(n, 0.3 / len, -0.4 / len, -0.5 / len, TOL);

  /* Corner (0, 0, 0), in the plane. */
  double k3[3] = {-0.3, -0.4, 0};
  assert_int_equal(geom_ball_wall(wl, 0, 0, k3, 0.6, &gap, n, pt), 1);
  assert_near(gap, -0.1, TOL);
  assert_vec_near(n, -0.6, -0.8, 0, TOL);

  /* Centre on the face: no normal. */
  double on[3] = {0.2, 0.2, 0};
  assert_int_equal(geom_ball_wall(wl, 0, 0, on, 0.6, &gap, n, pt), 0);
  cairn_world_destroy(&w);
}

static void test_geometry_square_face_edge_and_corner_regions(void **state) {
  (void)state;
  cairn_world *w = new_world(3);
  /* A unit square in the plane x = 2, nodes ordered so that its normal is -x. */
  wall_spec s = {
      .kind = WALL_POLYGON, .n_nodes = 4, .nodes = {{2, 0, 0}, {2, 0, 1}, {2, 1, 1}, {2, 1, 0}}};
  const wall *wl = make_wall(w, &s);
  assert_vec_near(wl->normal, -1, 0, 0, TOL);
  double gap, n[3], pt[3];

  /* Face, both sides. */
  double f1[3] = {1.6, 0.3, 0.7}, f2[3] = {2.4, 0.3, 0.7};
  assert_int_equal(geom_ball_wall(wl, 0, 0, f1, 0.5, &gap, n, pt), 1);
  assert_near(gap, -0.1, TOL);
  assert_vec_near(n, -1, 0, 0, TOL);
  assert_vec_near(pt, 2.05, 0.3, 0.7, TOL);
  assert_int_equal(geom_ball_wall(wl, 0, 0, f2, 0.5, &gap, n, pt), 1);
  assert_near(gap, -0.1, TOL);
  assert_vec_near(n, 1, 0, 0, TOL);
  assert_vec_near(pt, 1.95, 0.3, 0.7, TOL);

  /* Edge z = 1, both sides: closest point (2, 0.5, 1). */
  double e1[3] = {2 - 0.6, 0.5, 1.8}, e2[3] = {2 + 0.6, 0.5, 1.8};
  assert_int_equal(geom_ball_wall(wl, 0, 0, e1, 1.2, &gap, n, pt), 1);
  assert_near(gap, 1.0 - 1.2, TOL);
  assert_vec_near(n, -0.6, 0, 0.8, TOL);
  assert_vec_near(pt, 2 + 0.1 * 0.6, 0.5, 1 - 0.1 * 0.8, TOL);
  assert_int_equal(geom_ball_wall(wl, 0, 0, e2, 1.2, &gap, n, pt), 1);
  assert_vec_near(n, 0.6, 0, 0.8, TOL);

  /* Edge y = 0 in the plane of the square. */
  double e3[3] = {2, -0.25, 0.5};
  assert_int_equal(geom_ball_wall(wl, 0, 0, e3, 0.5, &gap, n, pt), 1);
  assert_near(gap, -0.25, TOL);
  assert_vec_near(n, 0, -1, 0, TOL);

  /* Corner (2, 1, 1), both sides. */
  double k1[3] = {2 - 0.5, 1 + 0.5, 1 + 0.5}, k2[3] = {2 + 0.5, 1 + 0.5, 1 + 0.5};
  double r3 = 1 / sqrt(3.0);
  assert_int_equal(geom_ball_wall(wl, 0, 0, k1, 1.0, &gap, n, pt), 1);
  assert_near(gap, 0.5 * sqrt(3.0) - 1.0, TOL);
  assert_vec_near(n, -r3, r3, r3, TOL);
  assert_int_equal(geom_ball_wall(wl, 0, 0, k2, 1.0, &gap, n, pt), 1);
  assert_vec_near(n, r3, r3, r3, TOL);
  /* Corner (2, 0, 0), in front. */
  double k3[3] = {1.0, -1.0, -1.0};
  assert_int_equal(geom_ball_wall(wl, 0, 0, k3, 1.0, &gap, n, pt), 1);
  assert_vec_near(n, -r3, -r3, -r3, TOL);
  assert_near(gap, sqrt(3.0) - 1.0, TOL);
  cairn_world_destroy(&w);
}

/* ---- random numbers ---- */

static uint64_t next_rand(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static double uniform(uint64_t *x) {
  return (double)(next_rand(x) >> 11) * 0x1.0p-53 * 2 - 1;
}

/* ---- contact-plane vectors turned with the normal (contact_model.h, cairn_cm_turn) ---- */

/* A shear vector carried through many small random turns of the normal keeps its length (to
   round-off: each turn rescales to the length it had) and stays in the current plane. */
static void test_geometry_turn_keeps_length_and_plane_in_3d(void **state) {
  (void)state;
  uint64_t seed = 7;
  double n[3] = {0, 0, 1}, v[3] = {3, -4, 0};
  for (int i = 0; i < 1000; i++) {
    double m[3] = {n[0] + 0.02 * uniform(&seed), n[1] + 0.02 * uniform(&seed),
                   n[2] + 0.02 * uniform(&seed)};
    v3_scale(m, 1.0 / v3_norm(m), n);
    cairn_cm_turn(v, n);
    /* 1e-12: a few ulp of the length 5 per turn would be 1e-13 after 1000 turns at worst */
    assert_near(v3_norm(v), 5.0, 1e-12);
    assert_near(v3_dot(v, n), 0.0, 1e-12);
  }
}

/* In 2D the plane is a line: turning with the normal is the exact rotation, so the component
   along t = (-n_y, n_x) is kept. */
static void test_geometry_turn_in_2d_keeps_the_t_component(void **state) {
  (void)state;
  double a0 = 0.3, n[3] = {cos(a0), sin(a0), 0}, v[3] = {-2 * n[1], 2 * n[0], 0};
  for (int i = 1; i <= 100; i++) {
    double a = a0 + 0.01 * i;
    n[0] = cos(a), n[1] = sin(a);
    cairn_cm_turn(v, n);
    assert_near(-v[0] * n[1] + v[1] * n[0], 2.0, 1e-13);
    assert_true(v[2] == 0.0);
  }
}

/* A vector already in the plane is left exactly as it is, and a zero vector stays zero. */
static void test_geometry_turn_leaves_in_plane_and_zero_vectors_alone(void **state) {
  (void)state;
  double n[3] = {1, 0, 0}, v[3] = {0, 0.25, -1.5}, z[3] = {0, 0, 0};
  cairn_cm_turn(v, n);
  assert_vec_near(v, 0, 0.25, -1.5, 0.0);
  cairn_cm_turn(z, n);
  assert_vec_near(z, 0, 0, 0, 0.0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_geometry_ball_ball_gap_normal_and_midpoint),
      cmocka_unit_test(test_geometry_ball_ball_separated_gives_positive_gap),
      cmocka_unit_test(test_geometry_ball_ball_coincident_centres_have_no_normal),
      cmocka_unit_test(test_geometry_segment_interior_both_sides),
      cmocka_unit_test(test_geometry_segment_beyond_end_points_touches_the_end_point),
      cmocka_unit_test(test_geometry_segment_centre_on_segment_has_no_normal),
      cmocka_unit_test(test_geometry_plane_is_one_sided),
      cmocka_unit_test(test_geometry_triangle_face_edge_and_corner_regions),
      cmocka_unit_test(test_geometry_square_face_edge_and_corner_regions),
      cmocka_unit_test(test_geometry_turn_keeps_length_and_plane_in_3d),
      cmocka_unit_test(test_geometry_turn_in_2d_keeps_the_t_component),
      cmocka_unit_test(test_geometry_turn_leaves_in_plane_and_zero_vectors_alone),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
