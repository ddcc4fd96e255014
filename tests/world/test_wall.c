/* Tests of src/world/wall.c: which wall kinds each dimension accepts, polygon validation
   (planar, convex, not degenerate) with its messages, the plane of a polygon and of a plane. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "contact/contact.h"
#include "world/world.h"

/* |a - b| <= tol, both printed on failure (cmocka 1.1.5 has no assert for doubles). */
#define assert_near(a, b, tol)                                                                     \
  do {                                                                                             \
    double a_ = (a), b_ = (b), t_ = (tol);                                                         \
    if (!(fabs(a_ - b_) <= t_)) fail_msg("%s = %.17g, expected %.17g within %g", #a, a_, b_, t_);  \
  } while (0)

/* Normalising a vector and averaging a few nodes of order 1: a few ulp. */
#define TOL 1e-15

static int setup3(void **state) {
  cairn_world_opts o = {.dim = 3};
  cairn_diag d = {{0}};
  cairn_world *w = NULL;
  if (cairn_world_create(&o, &w, &d) != CAIRN_OK) return -1;
  *state = w;
  return 0;
}

static int setup2(void **state) {
  cairn_world_opts o = {.dim = 2};
  cairn_diag d = {{0}};
  cairn_world *w = NULL;
  if (cairn_world_create(&o, &w, &d) != CAIRN_OK) return -1;
  *state = w;
  return 0;
}

static int teardown(void **state) {
  cairn_world *w = *state;
  cairn_world_destroy(&w);
  return 0;
}

static void assert_refused(cairn_world *w, const wall_spec *s, const char *text) {
  cairn_diag d = {{0}};
  int64_t id = -7;
  size_t n = w->walls.n;
  assert_int_equal(wall_create(w, s, &id, &d), CAIRN_EINVAL);
  if (!strstr(d.msg, text)) fail_msg("message '%s' lacks '%s'", d.msg, text);
  assert_int_equal(w->walls.n, n);
  assert_int_equal(id, -7);
}

static const wall *created(cairn_world *w, const wall_spec *s) {
  cairn_diag d = {{0}};
  int64_t id;
  assert_int_equal(wall_create(w, s, &id, &d), CAIRN_OK);
  uint32_t slot;
  assert_int_equal(wall_slot(w, id, &slot, &d), CAIRN_OK);
  return &w->walls.w[slot];
}

static void test_wall_segment_is_accepted_in_2d_only(void **state) {
  cairn_world *w = *state;
  wall_spec s = {.id = 1, .kind = WALL_SEGMENT, .n_nodes = 2, .nodes = {{0, 0, 0}, {1, 0, 0}}};
  if (w->dim == 3) {
    assert_refused(w, &s, "wall 1: line segments are 2D walls");
    return;
  }
  const wall *wl = created(w, &s);
  assert_int_equal(wl->kind, WALL_SEGMENT);
  assert_int_equal(wl->n_nodes, 2);
}

static void test_wall_segment_needs_two_distinct_nodes(void **state) {
  wall_spec s = {.id = 2, .kind = WALL_SEGMENT, .n_nodes = 3};
  assert_refused(*state, &s, "a segment takes exactly 2 nodes (got 3)");
  s.n_nodes = 2;
  s.nodes[0][0] = s.nodes[1][0] = 1.5;
  assert_refused(*state, &s, "segment has zero length");
}

static void test_wall_plane_and_polygon_are_refused_in_2d(void **state) {
  wall_spec p = {.id = 3, .kind = WALL_PLANE, .normal = {0, 1, 0}};
  assert_refused(*state, &p, "wall 3: planes are 3D walls");
  wall_spec q = {
      .id = 4, .kind = WALL_POLYGON, .n_nodes = 3, .nodes = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}};
  assert_refused(*state, &q, "wall 4: polygons are 3D walls");
}

static void test_wall_plane_normal_is_normalised(void **state) {
  wall_spec s = {.kind = WALL_PLANE, .point = {1, 2, 3}, .normal = {0, -3, 4}};
  const wall *wl = created(*state, &s);
  assert_near(wl->normal[0], 0.0, TOL);
  assert_near(wl->normal[1], -0.6, TOL);
  assert_near(wl->normal[2], 0.8, TOL);
  assert_true(wl->point[0] == 1 && wl->point[1] == 2 && wl->point[2] == 3); /* copied */
  assert_int_equal(wl->n_nodes, 0);
  /* A long one too. */
  wall_spec t = {.kind = WALL_PLANE, .normal = {0, 0, 250}};
  assert_near(created(*state, &t)->normal[2], 1.0, TOL);
}

static void test_wall_plane_rejects_a_zero_or_non_finite_normal(void **state) {
  wall_spec s = {.id = 5, .kind = WALL_PLANE};
  assert_refused(*state, &s, "wall 5: plane normal must be a non-zero vector");
  s.normal[1] = NAN;
  assert_refused(*state, &s, "plane normal must be a non-zero vector");
}

static void test_wall_polygon_normal_follows_the_node_order(void **state) {
  /* Counter-clockwise seen from +z. */
  wall_spec s = {
      .kind = WALL_POLYGON, .n_nodes = 4, .nodes = {{0, 0, 1}, {2, 0, 1}, {2, 2, 1}, {0, 2, 1}}};
  const wall *wl = created(*state, &s);
  assert_near(wl->normal[0], 0, TOL);
  assert_near(wl->normal[1], 0, TOL);
  assert_near(wl->normal[2], 1, TOL);
  assert_near(wl->point[0], 1, TOL); /* the centroid of the nodes */
  assert_near(wl->point[1], 1, TOL);
  assert_near(wl->point[2], 1, TOL);
  /* The same square in the opposite order faces -z. */
  wall_spec r = {
      .kind = WALL_POLYGON, .n_nodes = 4, .nodes = {{0, 0, 1}, {0, 2, 1}, {2, 2, 1}, {2, 0, 1}}};
  assert_near(created(*state, &r)->normal[2], -1, TOL);
  /* An oblique triangle: normal (1, 1, 1)/sqrt(3). */
  wall_spec t = {.kind = WALL_POLYGON, .n_nodes = 3, .nodes = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
  const wall *tw = created(*state, &t);
  for (int k = 0; k < 3; k++) assert_near(tw->normal[k], 1 / sqrt(3.0), TOL);
}

static void test_wall_polygon_rejects_non_planar_nodes(void **state) {
  wall_spec s = {.id = 6,
                 .kind = WALL_POLYGON,
                 .n_nodes = 4,
                 .nodes = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0.1}, {0, 1, 0}}};
  assert_refused(*state, &s, "wall 6: polygon is not planar");
}

static void test_wall_polygon_rejects_non_convex_nodes(void **state) {
  /* An arrowhead: node 3 is a reflex corner. */
  wall_spec s = {.id = 7,
                 .kind = WALL_POLYGON,
                 .n_nodes = 4,
                 .nodes = {{0, 0, 0}, {2, 1, 0}, {0, 2, 0}, {0.5, 1, 0}}};
  assert_refused(*state, &s, "wall 7: polygon is not convex");
  /* Nodes out of order around the edge (a bow tie) are not convex either. */
  wall_spec b = {.id = 8,
                 .kind = WALL_POLYGON,
                 .n_nodes = 4,
                 .nodes = {{0, 0, 0}, {1, 1, 0}, {1, 0, 0}, {0, 1, 0}}};
  cairn_diag d = {{0}};
  int64_t id;
  assert_int_equal(wall_create(*state, &b, &id, &d), CAIRN_EINVAL);
  assert_true(strstr(d.msg, "not convex") || strstr(d.msg, "has no area"));
}

static void test_wall_polygon_rejects_collinear_nodes(void **state) {
  /* All nodes on one line: no area. */
  wall_spec s = {
      .id = 9, .kind = WALL_POLYGON, .n_nodes = 3, .nodes = {{0, 0, 0}, {1, 1, 1}, {2, 2, 2}}};
  assert_refused(*state, &s, "wall 9: polygon has no area");
  /* A square with an extra node in the middle of an edge. */
  wall_spec e = {.id = 10,
                 .kind = WALL_POLYGON,
                 .n_nodes = 5,
                 .nodes = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {2, 2, 0}, {0, 2, 0}}};
  assert_refused(*state, &e, "repeated/collinear nodes (at node 2)");
  /* A repeated node. */
  wall_spec r = {.id = 11,
                 .kind = WALL_POLYGON,
                 .n_nodes = 4,
                 .nodes = {{0, 0, 0}, {1, 0, 0}, {1, 0, 0}, {0, 1, 0}}};
  assert_refused(*state, &r, "repeated/collinear nodes");
}

static void test_wall_polygon_node_count_is_checked(void **state) {
  wall_spec s = {.id = 12, .kind = WALL_POLYGON, .n_nodes = 2};
  assert_refused(*state, &s, "a polygon takes 3 to 16 nodes (got 2)");
  s.n_nodes = WALL_MAX_NODES + 1;
  assert_refused(*state, &s, "a polygon takes 3 to 16 nodes (got 17)");
}

static void test_wall_create_rejects_duplicate_id(void **state) {
  wall_spec s = {.id = 13, .kind = WALL_PLANE, .normal = {0, 0, 1}};
  created(*state, &s);
  assert_refused(*state, &s, "wall 13 already exists");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_wall_segment_is_accepted_in_2d_only, setup2, teardown),
      cmocka_unit_test_setup_teardown(test_wall_segment_is_accepted_in_2d_only, setup3, teardown),
      cmocka_unit_test_setup_teardown(test_wall_segment_needs_two_distinct_nodes, setup2, teardown),
      cmocka_unit_test_setup_teardown(test_wall_plane_and_polygon_are_refused_in_2d, setup2,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_wall_plane_normal_is_normalised, setup3, teardown),
      cmocka_unit_test_setup_teardown(test_wall_plane_rejects_a_zero_or_non_finite_normal, setup3,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_wall_polygon_normal_follows_the_node_order, setup3,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_wall_polygon_rejects_non_planar_nodes, setup3, teardown),
      cmocka_unit_test_setup_teardown(test_wall_polygon_rejects_non_convex_nodes, setup3, teardown),
      cmocka_unit_test_setup_teardown(test_wall_polygon_rejects_collinear_nodes, setup3, teardown),
      cmocka_unit_test_setup_teardown(test_wall_polygon_node_count_is_checked, setup3, teardown),
      cmocka_unit_test_setup_teardown(test_wall_create_rejects_duplicate_id, setup3, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
