/* Tests of src/cycle/cycle.c with two overlapping 3D balls and the linear model: contact forces
   reach both balls equal and opposite, fixity holds a ball still, the centred-difference update
   and PFC's local damping act per component. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "contact/contact.h"
#include "cycle/cycle.h"
#include "world/world.h"

/* |a - b| <= tol, both printed on failure (cmocka 1.1.5 has no assert for doubles). */
#define assert_near(a, b, tol)                                                                     \
  do {                                                                                             \
    double a_ = (a), b_ = (b), t_ = (tol);                                                         \
    if (!(fabs(a_ - b_) <= t_)) fail_msg("%s = %.17g, expected %.17g within %g", #a, a_, b_, t_);  \
  } while (0)

#define KN 1e6
#define RAD 1.0
#define X2 1.9 /* ball 2's centre; ball 1 sits at the origin */
#define DT 1e-4

/* The overlap 2 - 1.9 comes from a norm and two subtractions of numbers of order 1: absolute
   error a few 1e-16, relative to 0.1 a few 1e-15. Forces proportional to it are checked to
   1e-12 relative, which leaves margin and still catches any wrong factor or sign. */
#define REL 1e-12

typedef struct fixture {
  cairn_world *w;
  uint32_t s1, s2; /* slots of balls 1 and 2 */
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  cairn_world_opts o = {.dim = 3};
  cairn_diag d = {{0}};
  if (!f || cairn_world_create(&o, &f->w, &d) != CAIRN_OK) return -1;
  cairn_world *w = f->w;
  double kn = KN;
  if (cmat_set_default(w, CAIRN_KIND_BALL_BALL, "linear", 0.0, &d) != CAIRN_OK ||
      cmat_set_prop(w, CAIRN_KIND_BALL_BALL, "kn", &kn, 1, &d) != CAIRN_OK)
    return -1;
  ball_spec b1 = {.id = 1, .rad = RAD, .density = 1000};
  ball_spec b2 = {.id = 2, .rad = RAD, .density = 1000, .pos = {X2, 0, 0}};
  int64_t id;
  if (ball_create(w, &b1, &id, &d) || ball_create(w, &b2, &id, &d)) return -1;
  if (ball_slot(w, 1, &f->s1, &d) || ball_slot(w, 2, &f->s2, &d)) return -1;
  w->ts_mode = TS_FIXED;
  w->dt = DT;
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  cairn_world_destroy(&f->w);
  free(f);
  return 0;
}

static double overlap(void) {
  return 2 * RAD - X2;
}

static void test_cycle_detect_only_creates_the_contact(void **state) {
  fixture *f = *state;
  cairn_world *w = f->w;
  cairn_diag d = {{0}};
  assert_int_equal(cycle_detect_only(w, &d), CAIRN_OK);
  assert_int_equal(w->contacts->n, 1);
  uint32_t c;
  assert_int_equal(contact_find(w, CAIRN_KIND_BALL_BALL, 1, 2, &c, &d), CAIRN_OK);
  assert_near(w->contacts->gap[c], -overlap(), REL * overlap());
  /* The normal is (1.9, 0, 0) times the rounded 1 / 1.9: within an ulp or two of (1, 0, 0). */
  assert_near(w->contacts->normal[c][0], 1.0, 1e-15);
  assert_true(w->contacts->normal[c][1] == 0.0 && w->contacts->normal[c][2] == 0.0);
  /* Nothing moved and no time passed. */
  assert_true(w->balls.pos[f->s2][0] == X2);
  assert_true(w->time == 0.0 && w->step == 0);
}

/* cycle.h: "Compute contact forces for the current positions without moving anything: detect,
   then one force pass with the current timestep". */
/* Detection alone (model.clean) creates the contact with its geometry but runs no force update:
   a force pass would advance incremental state (shear springs) without a step being taken. */
static void test_cycle_detect_only_creates_contacts_without_forces(void **state) {
  fixture *f = *state;
  cairn_world *w = f->w;
  cairn_diag d = {{0}};
  assert_int_equal(cycle_detect_only(w, &d), CAIRN_OK);
  assert_int_equal(w->contacts->n, 1);
  assert_near(w->contacts->gap[0], -overlap(), 1e-15); /* round-off of one subtraction */
  assert_true(w->balls.force[f->s1][0] == 0.0 && w->balls.force[f->s2][0] == 0.0);
  assert_true(w->balls.pos[f->s2][0] == X2); /* exact: nothing moved */
}

static void test_cycle_forces_are_equal_and_opposite(void **state) {
  fixture *f = *state;
  cairn_world *w = f->w;
  cairn_diag d = {{0}};
  assert_int_equal(cycle_detect_only(w, &d), CAIRN_OK);
  assert_int_equal(cycle_run(w, 1, &d), CAIRN_OK);
  const double *f1 = w->balls.force[f->s1], *f2 = w->balls.force[f->s2];
  double fn = KN * overlap();
  /* Newton's third law: each ball gets the same contact force, added to one and subtracted
     from the other, so the sum is zero to round-off (exactly zero today); 1e-12 of |F| allows a
     different summation order. */
  for (int k = 0; k < 3; k++) assert_near(f1[k] + f2[k], 0.0, 1e-12 * fn);
  /* Ball 2 (side 2, at larger x) is pushed along +x, ball 1 along -x: F = -kn * overlap on 1. */
  assert_near(f1[0], -fn, REL * fn);
  assert_near(f2[0], fn, REL * fn);
  assert_near(f1[1], 0.0, REL * fn);
  assert_near(f1[2], 0.0, REL * fn);
  /* The contact reports the same force, positive in compression. */
  uint32_t c;
  assert_int_equal(contact_find(w, CAIRN_KIND_BALL_BALL, 1, 2, &c, &d), CAIRN_OK);
  assert_near(w->contacts->force[c][0], fn, REL * fn);
  assert_int_equal(w->contacts->active[c], 1);
  /* The force acts through the centres: no moment. Exact, as r x F has zero components. */
  for (int k = 0; k < 3; k++) assert_true(w->balls.moment[f->s2][k] == 0.0);
  assert_true(w->step == 1);
  assert_near(w->time, DT, 0.0); /* exact: one step from 0 */
}

static void test_cycle_step_updates_velocity_then_position(void **state) {
  fixture *f = *state;
  cairn_world *w = f->w;
  cairn_diag d = {{0}};
  assert_int_equal(cycle_run(w, 1, &d), CAIRN_OK);
  double m = w->balls.mass[f->s2], fn = KN * overlap();
  /* v(dt/2) = v(-dt/2) + F/m dt with v(-dt/2) = 0, then x(dt) = x(0) + v(dt/2) dt. */
  double v = fn / m * DT;
  assert_near(w->balls.vel[f->s2][0], v, REL * v);
  assert_near(w->balls.vel[f->s1][0], -v, REL * v);
  /* x = 1.9 + 2.4e-7: the sum rounds to an ulp of 1.9 (2.2e-16). */
  assert_near(w->balls.pos[f->s2][0], X2 + v * DT, 1e-15);
  assert_near(w->balls.pos[f->s1][0], -v * DT, REL * v * DT);
}

static void test_cycle_ball_fixed_in_velocity_does_not_move(void **state) {
  fixture *f = *state;
  cairn_world *w = f->w;
  cairn_diag d = {{0}};
  w->balls.fix[f->s1] = FIX_VEL;
  w->gravity[2] = -9.81; /* gravity does not move it either */
  assert_int_equal(cycle_detect_only(w, &d), CAIRN_OK);
  assert_int_equal(cycle_run(w, 20, &d), CAIRN_OK);
  /* Exact: a fixed velocity component is never updated and stays 0, so the position never
     changes. */
  for (int k = 0; k < 3; k++) {
    assert_true(w->balls.vel[f->s1][k] == 0.0);
    assert_true(w->balls.pos[f->s1][k] == 0.0);
  }
  /* It still feels the contact force; the free ball moves off. */
  assert_true(w->balls.force[f->s1][0] < 0);
  assert_true(w->balls.vel[f->s2][0] > 0);
  assert_true(w->balls.pos[f->s2][0] > X2);
  assert_true(w->balls.pos[f->s2][2] < 0);
}

static void test_cycle_local_damping_reduces_each_force_component(void **state) {
  fixture *f = *state;
  cairn_world *w = f->w;
  cairn_diag d = {{0}};
  const double alpha = 0.7, g[3] = {0, -10, 3};
  const double v0[3] = {-0.5, -0.2, 0.0}; /* approaching in x, falling in y, still in z */
  uint32_t s = f->s2;
  assert_int_equal(ball_set_damp(w, s, alpha, &d), CAIRN_OK);
  memcpy(w->gravity, g, sizeof g);
  memcpy(w->balls.vel[s], v0, sizeof v0);
  assert_int_equal(cycle_run(w, 1, &d), CAIRN_OK);
  double m = w->balls.mass[s], fn = KN * overlap();
  /* F_k - alpha |F_k| sign(v_k) (design.md, Numerics; gravity included in F):
     x: F = +fn, v < 0: fn (1 + alpha); y: F = -10 m, v < 0: -10 m (1 - alpha);
     z: v = 0: undamped 3 m. */
  double fd[3] = {fn * (1 + alpha), -10 * m * (1 - alpha), 3 * m};
  /* Velocities of order 0.5 plus increments of order 1e-3, each an ulp of 0.5 off at most
     (1.1e-16); 1e-15 absolute is far below the 2 alpha |F| dt / m ~ 3e-3 that a wrong sign
     would make. */
  for (int k = 0; k < 3; k++) assert_near(w->balls.vel[s][k], v0[k] + fd[k] / m * DT, 1e-15);
  /* The reported force is the contact force, undamped. */
  assert_near(w->balls.force[s][0], fn, REL * fn);
  /* Ball 1 has no damping: its velocity takes the full force. */
  double m1 = w->balls.mass[f->s1];
  assert_near(w->balls.vel[f->s1][0], -fn / m1 * DT, REL * fn / m1 * DT);
  assert_near(w->balls.vel[f->s1][1], -10 * DT, 1e-15);
}

static void test_cycle_local_damping_of_a_force_along_the_velocity(void **state) {
  fixture *f = *state;
  cairn_world *w = f->w;
  cairn_diag d = {{0}};
  const double alpha = 0.25;
  uint32_t s = f->s2;
  assert_int_equal(ball_set_damp(w, s, alpha, &d), CAIRN_OK);
  w->balls.vel[s][0] = 0.5; /* separating: the push along +x is reduced */
  assert_int_equal(cycle_run(w, 1, &d), CAIRN_OK);
  double m = w->balls.mass[s], fn = KN * overlap();
  /* As above: an ulp or two of 0.5. */
  assert_near(w->balls.vel[s][0], 0.5 + fn * (1 - alpha) / m * DT, 1e-15);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_cycle_detect_only_creates_the_contact, setup, teardown),
      cmocka_unit_test_setup_teardown(test_cycle_detect_only_creates_contacts_without_forces, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_cycle_forces_are_equal_and_opposite, setup, teardown),
      cmocka_unit_test_setup_teardown(test_cycle_step_updates_velocity_then_position, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_cycle_ball_fixed_in_velocity_does_not_move, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_cycle_local_damping_reduces_each_force_component, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_cycle_local_damping_of_a_force_along_the_velocity, setup,
                                      teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
