/* Tests of src/world/ball.c: attribute validation with its messages, ids, mass and inertia of
   disks and spheres, and deletion of a ball together with its contacts. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "contact/contact.h"
#include "cycle/cycle.h"
#include "world/world.h"

/* |a - b| <= tol * |b|, both printed on failure (cmocka 1.1.5 has no assert for doubles). */
#define assert_rel_near(a, b, tol)                                                                 \
  do {                                                                                             \
    double a_ = (a), b_ = (b), t_ = (tol);                                                         \
    if (!(fabs(a_ - b_) <= t_ * fabs(b_)))                                                         \
      fail_msg("%s = %.17g, expected %.17g within %g relative", #a, a_, b_, t_);                   \
  } while (0)

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

static ball_spec good_ball(int64_t id) {
  ball_spec b = {.id = id, .rad = 0.5, .density = 2600.0};
  return b;
}

/* Expect ball_create to refuse b with EINVAL and a message containing 'text', creating nothing. */
static void assert_refused(cairn_world *w, const ball_spec *b, const char *text) {
  cairn_diag d = {{0}};
  int64_t id = -7;
  size_t n = w->balls.n;
  assert_int_equal(ball_create(w, b, &id, &d), CAIRN_EINVAL);
  if (!strstr(d.msg, text)) fail_msg("message '%s' lacks '%s'", d.msg, text);
  assert_int_equal(w->balls.n, n);
  assert_int_equal(id, -7); /* the output is untouched */
}

static void test_ball_create_rejects_zero_radius(void **state) {
  ball_spec b = good_ball(1);
  b.rad = 0.0;
  assert_refused(*state, &b, "radius must be > 0");
}

static void test_ball_create_rejects_negative_radius(void **state) {
  cairn_diag d = {{0}};
  int64_t id;
  ball_spec b = good_ball(3);
  b.rad = -0.05;
  assert_int_equal(ball_create(*state, &b, &id, &d), CAIRN_EINVAL);
  /* The message names the ball and the offending value. */
  assert_non_null(strstr(d.msg, "ball 3: radius must be > 0 (got -0.05)"));
}

static void test_ball_create_rejects_nan_and_infinite_radius(void **state) {
  ball_spec b = good_ball(1);
  b.rad = NAN;
  assert_refused(*state, &b, "radius must be > 0");
  b.rad = INFINITY;
  assert_refused(*state, &b, "radius must be > 0");
}

static void test_ball_create_rejects_non_positive_density(void **state) {
  ball_spec b = good_ball(1);
  b.density = 0.0;
  assert_refused(*state, &b, "density must be > 0");
  b.density = -1000.0;
  assert_refused(*state, &b, "density must be > 0");
  b.density = NAN;
  assert_refused(*state, &b, "density must be > 0");
}

static void test_ball_create_rejects_non_finite_position_and_bad_damping(void **state) {
  ball_spec b = good_ball(1);
  b.pos[1] = INFINITY;
  assert_refused(*state, &b, "position must be finite");
  b = good_ball(1);
  b.vel[2] = NAN;
  assert_refused(*state, &b, "velocity must be finite");
  b = good_ball(1);
  b.damp = 1.0;
  assert_refused(*state, &b, "local damping must be in [0, 1)");
}

static void test_ball_create_rejects_duplicate_id(void **state) {
  cairn_world *w = *state;
  cairn_diag d = {{0}};
  int64_t id;
  ball_spec b = good_ball(5);
  assert_int_equal(ball_create(w, &b, &id, &d), CAIRN_OK);
  assert_int_equal(id, 5);
  b.pos[0] = 10;
  assert_refused(w, &b, "ball 5 already exists");
  /* The first ball is untouched. */
  uint32_t s;
  assert_int_equal(ball_slot(w, 5, &s, &d), CAIRN_OK);
  assert_true(w->balls.pos[s][0] == 0.0);
}

static void test_ball_create_rejects_ids_out_of_range(void **state) {
  ball_spec b = good_ball(CAIRN_ID_MAX + 1);
  assert_refused(*state, &b, "ball id must be an integer from 1 to 2147483647");
  b.id = -1;
  assert_refused(*state, &b, "ball id must be an integer from 1 to 2147483647");
  /* The largest id is fine. */
  cairn_diag d = {{0}};
  int64_t id;
  b.id = CAIRN_ID_MAX;
  assert_int_equal(ball_create(*state, &b, &id, &d), CAIRN_OK);
  assert_int_equal(id, CAIRN_ID_MAX);
}

static void test_ball_create_with_id_zero_takes_the_next_free_id(void **state) {
  cairn_world *w = *state;
  cairn_diag d = {{0}};
  int64_t id;
  ball_spec b = good_ball(0);
  assert_int_equal(ball_create(w, &b, &id, &d), CAIRN_OK);
  assert_int_equal(id, 1);
  b.id = 7;
  assert_int_equal(ball_create(w, &b, &id, &d), CAIRN_OK);
  b.id = 0;
  assert_int_equal(ball_create(w, &b, &id, &d), CAIRN_OK);
  assert_int_equal(id, 8); /* above the largest id given so far */
  assert_int_equal(w->balls.n, 3);
}

static void test_ball_create_with_id_zero_after_the_largest_id_is_refused(void **state) {
  cairn_world *w = *state;
  cairn_diag d = {{0}};
  int64_t id;
  ball_spec b = good_ball(CAIRN_ID_MAX);
  assert_int_equal(ball_create(w, &b, &id, &d), CAIRN_OK);
  b.id = 0; /* the next id would be 2^31, which is not a valid id: the script gave none */
  assert_refused(w, &b, "the automatic ball ids are used up (the next would be 2147483648");
}

/* Mass and inertia against design.md's closed forms. The engine multiplies the same factors,
   perhaps in another order: each side rounds up to 6 times, so they could differ by ~1e-15 in the
   worst case, but roundings of both signs mostly cancel (observed: bitwise equal). 1e-15 relative
   still catches any wrong factor, which would be off by more than 1e-2. */
static void test_ball_mass_and_inertia_of_a_2d_disk(void **state) {
  cairn_world *w = *state;
  cairn_diag d = {{0}};
  int64_t id;
  ball_spec b = good_ball(1);
  b.rad = 0.05;
  b.density = 2600;
  b.pos[2] = 3.0; /* a disk lives in the plane: z is dropped */
  b.spin[0] = 1.0;
  assert_int_equal(ball_create(w, &b, &id, &d), CAIRN_OK);
  uint32_t s;
  assert_int_equal(ball_slot(w, id, &s, &d), CAIRN_OK);
  double m = 2600 * M_PI * 0.05 * 0.05;
  assert_rel_near(w->balls.mass[s], m, 1e-15);
  assert_rel_near(w->balls.inertia[s], 0.5 * m * 0.05 * 0.05, 1e-15);
  assert_true(w->balls.pos[s][2] == 0.0 && w->balls.spin[s][0] == 0.0);
  /* Changing the radius recomputes both. */
  assert_int_equal(ball_set_radius(w, s, 0.1, &d), CAIRN_OK);
  m = 2600 * M_PI * 0.1 * 0.1;
  assert_rel_near(w->balls.mass[s], m, 1e-15);
  assert_rel_near(w->balls.inertia[s], 0.5 * m * 0.1 * 0.1, 1e-15);
}

static void test_ball_mass_and_inertia_of_a_3d_sphere(void **state) {
  cairn_world *w = *state;
  cairn_diag d = {{0}};
  int64_t id;
  ball_spec b = good_ball(1);
  b.rad = 0.3;
  b.density = 7800;
  assert_int_equal(ball_create(w, &b, &id, &d), CAIRN_OK);
  uint32_t s;
  assert_int_equal(ball_slot(w, id, &s, &d), CAIRN_OK);
  double m = 4.0 / 3.0 * 7800 * M_PI * 0.3 * 0.3 * 0.3;
  assert_rel_near(w->balls.mass[s], m, 1e-15);
  assert_rel_near(w->balls.inertia[s], 2.0 / 5.0 * m * 0.3 * 0.3, 1e-15);
  assert_int_equal(ball_set_density(w, s, 1000, &d), CAIRN_OK);
  m = 4.0 / 3.0 * 1000 * M_PI * 0.3 * 0.3 * 0.3;
  assert_rel_near(w->balls.mass[s], m, 1e-15);
  assert_rel_near(w->balls.inertia[s], 2.0 / 5.0 * m * 0.3 * 0.3, 1e-15);
}

static void test_ball_setters_reject_bad_values_with_messages(void **state) {
  cairn_world *w = *state;
  cairn_diag d = {{0}};
  int64_t id;
  ball_spec b = good_ball(4);
  assert_int_equal(ball_create(w, &b, &id, &d), CAIRN_OK);
  uint32_t s;
  assert_int_equal(ball_slot(w, 4, &s, &d), CAIRN_OK);
  double m = w->balls.mass[s];
  assert_int_equal(ball_set_radius(w, s, -1, &d), CAIRN_EINVAL);
  assert_non_null(strstr(d.msg, "ball 4: radius must be > 0"));
  assert_int_equal(ball_set_density(w, s, 0, &d), CAIRN_EINVAL);
  assert_non_null(strstr(d.msg, "ball 4: density must be > 0"));
  assert_int_equal(ball_set_damp(w, s, -0.1, &d), CAIRN_EINVAL);
  assert_non_null(strstr(d.msg, "local damping must be in [0, 1)"));
  assert_true(w->balls.mass[s] == m); /* exact: nothing was changed */
}

static void test_ball_slot_of_an_unknown_id_is_not_found(void **state) {
  cairn_diag d = {{0}};
  uint32_t s;
  assert_int_equal(ball_slot(*state, 99, &s, &d), CAIRN_ENOTFOUND);
  assert_non_null(strstr(d.msg, "ball 99 does not exist"));
  assert_int_equal(ball_slot(*state, 0, &s, &d), CAIRN_ENOTFOUND);
  assert_int_equal(contact_delete_ball(*state, 99, &d), CAIRN_ENOTFOUND);
  assert_non_null(strstr(d.msg, "ball 99 does not exist"));
}

/* Four balls of radius 1 on the x axis at 0, 0.8, 1.6 and 2.4: every pair closer than 2 touches,
   so the contacts are 1-2, 1-3, 2-3, 2-4, 3-4 (1-4 are 2.4 apart). */
static void four_touching_balls(cairn_world *w) {
  cairn_diag d = {{0}};
  assert_int_equal(cmat_set_default(w, CAIRN_KIND_BALL_BALL, "linear", 0.0, &d), CAIRN_OK);
  double kn = 1e6;
  assert_int_equal(cmat_set_prop(w, CAIRN_KIND_BALL_BALL, "kn", &kn, 1, &d), CAIRN_OK);
  for (int i = 0; i < 4; i++) {
    ball_spec b = {.id = i + 1, .rad = 1.0, .density = 1000, .pos = {0.8 * i, 0, 0}};
    int64_t id;
    assert_int_equal(ball_create(w, &b, &id, &d), CAIRN_OK);
  }
  assert_int_equal(cycle_detect_only(w, &d), CAIRN_OK);
  assert_int_equal(w->contacts->n, 5);
}

/* A contact joins balls with ids i and j (side 1 the lower id) and is found for them. */
static void assert_contact_joins(const cairn_world *w, int64_t i, int64_t j) {
  cairn_diag d = {{0}};
  uint32_t c;
  assert_int_equal(contact_find(w, CAIRN_KIND_BALL_BALL, i, j, &c, &d), CAIRN_OK);
  assert_true(c < w->contacts->n);
  /* Its sides are the balls' current slots (a deletion may have moved a ball). */
  uint32_t si, sj;
  assert_int_equal(ball_slot(w, i, &si, &d), CAIRN_OK);
  assert_int_equal(ball_slot(w, j, &sj, &d), CAIRN_OK);
  assert_int_equal(w->contacts->a[c], si);
  assert_int_equal(w->contacts->b[c], sj);
  /* Found the same way with the ids swapped. */
  uint32_t c2;
  assert_int_equal(contact_find(w, CAIRN_KIND_BALL_BALL, j, i, &c2, &d), CAIRN_OK);
  assert_int_equal(c2, c);
}

static void assert_no_contact(const cairn_world *w, int64_t i, int64_t j) {
  cairn_diag d = {{0}};
  uint32_t c;
  assert_int_equal(contact_find(w, CAIRN_KIND_BALL_BALL, i, j, &c, &d), CAIRN_ENOTFOUND);
  assert_non_null(strstr(d.msg, "no ball-ball contact"));
}

static void test_ball_delete_removes_its_contacts(void **state) {
  cairn_world *w = *state;
  cairn_diag d = {{0}};
  four_touching_balls(w);
  assert_contact_joins(w, 1, 2);
  assert_no_contact(w, 1, 4);

  assert_int_equal(contact_delete_ball(w, 2, &d), CAIRN_OK);
  assert_int_equal(w->balls.n, 3);
  assert_int_equal(w->contacts->n, 2);
  assert_no_contact(w, 1, 2);
  assert_no_contact(w, 2, 3);
  assert_no_contact(w, 2, 4);
  /* Ball 4 moved into ball 2's slot: the remaining contacts follow it. */
  assert_contact_joins(w, 1, 3);
  assert_contact_joins(w, 3, 4);
  uint32_t s;
  assert_int_equal(ball_slot(w, 2, &s, &d), CAIRN_ENOTFOUND);
  assert_int_equal(ball_slot(w, 4, &s, &d), CAIRN_OK);
  assert_true(w->balls.pos[s][0] == 0.8 * 3);

  /* Detection afterwards neither recreates nor loses contacts, and each contact's model block
     is still its own. */
  assert_int_equal(cycle_detect_only(w, &d), CAIRN_OK);
  assert_int_equal(w->contacts->n, 2);
  assert_contact_joins(w, 1, 3);
  assert_contact_joins(w, 3, 4);
  assert_true(w->contacts->blk[0] != w->contacts->blk[1]);
}

static void test_ball_delete_of_the_last_slot_keeps_the_others(void **state) {
  cairn_world *w = *state;
  cairn_diag d = {{0}};
  four_touching_balls(w);
  assert_int_equal(contact_delete_ball(w, 4, &d), CAIRN_OK);
  assert_int_equal(w->contacts->n, 3);
  assert_contact_joins(w, 1, 2);
  assert_contact_joins(w, 1, 3);
  assert_contact_joins(w, 2, 3);
  assert_no_contact(w, 3, 4);
  /* Deleting everything leaves an empty, working world. */
  for (int64_t id = 1; id <= 3; id++) assert_int_equal(contact_delete_ball(w, id, &d), CAIRN_OK);
  assert_int_equal(w->balls.n, 0);
  assert_int_equal(w->contacts->n, 0);
  assert_int_equal(cycle_detect_only(w, &d), CAIRN_OK);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_ball_create_rejects_zero_radius, setup3, teardown),
      cmocka_unit_test_setup_teardown(test_ball_create_rejects_negative_radius, setup3, teardown),
      cmocka_unit_test_setup_teardown(test_ball_create_rejects_nan_and_infinite_radius, setup3,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_ball_create_rejects_non_positive_density, setup3,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_ball_create_rejects_non_finite_position_and_bad_damping,
                                      setup3, teardown),
      cmocka_unit_test_setup_teardown(test_ball_create_rejects_duplicate_id, setup3, teardown),
      cmocka_unit_test_setup_teardown(test_ball_create_rejects_ids_out_of_range, setup3, teardown),
      cmocka_unit_test_setup_teardown(test_ball_create_with_id_zero_takes_the_next_free_id, setup3,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_ball_create_with_id_zero_after_the_largest_id_is_refused,
                                      setup3, teardown),
      cmocka_unit_test_setup_teardown(test_ball_mass_and_inertia_of_a_2d_disk, setup2, teardown),
      cmocka_unit_test_setup_teardown(test_ball_mass_and_inertia_of_a_3d_sphere, setup3, teardown),
      cmocka_unit_test_setup_teardown(test_ball_setters_reject_bad_values_with_messages, setup3,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_ball_slot_of_an_unknown_id_is_not_found, setup3,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_ball_delete_removes_its_contacts, setup3, teardown),
      cmocka_unit_test_setup_teardown(test_ball_delete_of_the_last_slot_keeps_the_others, setup3,
                                      teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
