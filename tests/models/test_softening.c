/* Tests of src/models/model_softening.c through its force function with hand-built inputs: the
   incremental normal force with its two stiffnesses, the slip limit of the seed's code in
   compression, the strength interpolated on the force angle, the broken contact and the
   validation messages. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "models/builtin.h"

#define assert_near(a, b, tol)                                                                     \
  do {                                                                                             \
    double a_ = (a), b_ = (b), t_ = (tol);                                                         \
    if (!(fabs(a_ - b_) <= t_)) fail_msg("%s = %.17g, expected %.17g within %g", #a, a_, b_, t_);  \
  } while (0)

enum { P_KNC, P_KNT, P_KS, P_FTMAX, P_FSMAX, P_FRIC, P_RFRIC, P_UPLIM, P_BROKEN, N_PROPS };
enum { S_FORCE = 0, S_UPLAS = 3, S_SOFTENED = 4, S_ISBROKEN = 5, N_STATE = 6 };

typedef struct contact {
  double props[N_PROPS];
  double state[N_STATE];
  cairn_cm_input in;
} contact;

static contact new_contact(void) {
  contact c;
  memset(&c, 0, sizeof c);
  c.props[P_KNC] = 2000;
  c.props[P_KNT] = 1000;
  c.props[P_KS] = 500;
  c.props[P_FTMAX] = 100;
  c.props[P_FSMAX] = 50;
  c.props[P_FRIC] = 0.5;
  c.props[P_RFRIC] = 0.25;
  c.props[P_UPLIM] = 1.0;
  c.in.dim = 3;
  c.in.dt = 1.0;
  return c;
}

static cairn_cm_output step(contact *c, double gap, double vn, double vs, double vt) {
  cairn_cm_output out;
  memset(&out, 0, sizeof out);
  out.may_delete = 1;
  c->in.gap = gap;
  c->in.vel[0] = vn;
  c->in.vel[1] = vs;
  c->in.vel[2] = vt;
  cairn_model_softening.force(&c->in, c->props, NULL, c->state, &out);
  return out;
}

static void test_softening_table_names(void **state) {
  (void)state;
  const cairn_contact_model *m = &cairn_model_softening;
  const char *names[] = {"sof_knc",  "sof_knt",   "sof_ks",    "sof_ftmax", "sof_fsmax",
                         "sof_fric", "sof_rfric", "sof_uplim", "sof_broken"};
  assert_int_equal(m->n_props, N_PROPS);
  for (int i = 0; i < N_PROPS; i++) assert_string_equal(m->props[i].name, names[i]);
  assert_string_equal(m->state[1].name, "sof_uplas");
  assert_string_equal(m->state[2].name, "sof_softened");
}

static void test_softening_normal_force_is_incremental_with_two_stiffnesses(void **state) {
  (void)state;
  contact c = new_contact();
  cairn_cm_output out = step(&c, 0.5, -0.01, 0, 0); /* from zero: knt (the force is not > 0) */
  assert_near(out.force[0], 10.0, 1e-12);           /* the gap plays no part: incremental */
  out = step(&c, 0.5, -0.01, 0, 0);                 /* now compressive: knc */
  assert_near(out.force[0], 30.0, 1e-12);
  assert_int_equal(out.may_delete, 0); /* bonded */
  out = step(&c, 0.5, 0.02, 0, 0);     /* 30 - 40: tensile, within the strength */
  assert_near(out.force[0], -10.0, 1e-12);
  assert_true(out.kn_est == 1000.0);
}

/* Compression 100: slip limit fric Fn + fsmax = 100 at s = 0. A shear trial of 150 yields
   dUp = (150 - 100) / (ks - fsmax / uplim) = 50 / 450, the force drops by ks dUp to 94.44...,
   s becomes dUp / uplim. */
static void test_softening_compressive_slip_softens_and_keeps_residual_friction(void **state) {
  (void)state;
  contact c = new_contact();
  c.state[S_FORCE] = 100;
  cairn_cm_output out = step(&c, -0.1, 0, 0, -0.3); /* +150 in t */
  double dup = 50.0 / 450.0;
  assert_near(out.force[2], 150.0 - 500.0 * dup, 1e-12);
  assert_near(c.state[S_UPLAS], dup, 1e-15);
  assert_near(c.state[S_SOFTENED], dup, 1e-15);
  assert_int_equal(out.events, CAIRN_EV_BOND_BREAK);
  assert_int_equal(out.bond_mode, 1);
  /* A huge slip step: the force may not fall below rfric Fn = 25. */
  out = step(&c, -0.1, 0, 0, -3.0);
  assert_near(out.force[2], 25.0, 1e-12);
  assert_true(out.force[0] == 100.0); /* broken in compression: the normal force stays */
  assert_true(c.state[S_ISBROKEN] == 1.0 && c.state[S_SOFTENED] == 1.0);
  assert_int_equal(out.bond_mode, 0);
}

/* A tensile force at 45 degrees: strength (1 - 0.5) ftmax + 0.5 fsmax = 75. */
static void test_softening_strength_is_interpolated_on_the_force_angle(void **state) {
  (void)state;
  contact c = new_contact();
  c.props[P_KS] = 1000; /* equal stiffnesses: the flow keeps the force on its ray */
  double f = 70.0 / sqrt(2.0);
  cairn_cm_output out = step(&c, 0.1, f / 1000, 0, -f / 1000); /* |F| = 70 < 75 */
  assert_near(out.force[0], -f, 1e-12);
  assert_near(out.force[2], f, 1e-12);
  assert_true(c.state[S_UPLAS] == 0.0);
  double g = 10.0 / sqrt(2.0);
  out = step(&c, 0.1, g / 1000, 0, -g / 1000); /* trial |F| = 80 > 75: yields */
  double fm = sqrt(out.force[0] * out.force[0] + out.force[2] * out.force[2]);
  double up = c.state[S_UPLAS];
  assert_true(up > 0);
  /* On the softened strength, along the same direction. */
  assert_near(fm, 75.0 * (1.0 - up / 1.0), 1e-9);
  assert_near(-out.force[0], out.force[2], 1e-9);
  /* Consistency with an elastic drop along the force: 80 - 1000 up = 75 (1 - up). */
  assert_near(up, 5.0 / 925.0, 1e-12);
}

static void test_softening_broken_contact_has_no_bond(void **state) {
  (void)state;
  contact c = new_contact();
  c.props[P_BROKEN] = 1;
  cairn_cm_output out = step(&c, 0.01, -0.01, 0, 0); /* apart: no force even when closing */
  assert_true(out.force[0] == 0.0);
  assert_int_equal(out.active, 0);
  assert_int_equal(out.may_delete, 1);
  out = step(&c, -0.01, -0.01, 0, 0); /* overlapping: incremental compression */
  assert_near(out.force[0], 10.0, 1e-12);
  out = step(&c, -0.01, 0, 0, -1.0); /* shear capped at rfric Fn (no cohesion, no fric) */
  assert_near(out.force[2], 2.5, 1e-12);
  out = step(&c, -0.005, 0.02, 0, 0); /* unloading past zero: no tension */
  assert_true(out.force[0] == 0.0 && out.force[2] == 0.0);
  assert_int_equal(out.events, 0);
  assert_true(c.state[S_ISBROKEN] == 1.0);
}

static void test_softening_breaks_in_tension_with_zero_force(void **state) {
  (void)state;
  contact c = new_contact();
  c.props[P_UPLIM] = 0.5;
  step(&c, 0.1, 0.09, 0, 0); /* -90 */
  cairn_cm_output out = step(&c, 0.1, 1.0, 0, 0);
  assert_true(out.force[0] == 0.0);
  assert_int_equal(out.events, CAIRN_EV_BOND_BREAK);
  assert_int_equal(out.bond_mode, 0);
  assert_int_equal(out.may_delete, 1);
  assert_true(c.state[S_SOFTENED] == 1.0 && c.state[S_ISBROKEN] == 1.0);
}

static void test_softening_validation_messages(void **state) {
  (void)state;
  char msg[512];
  contact c = new_contact();
  assert_null(cairn_model_softening.validate(c.props, 3, msg, sizeof msg));
  c.props[P_UPLIM] = 0;
  assert_non_null(cairn_model_softening.validate(c.props, 3, msg, sizeof msg));
  assert_non_null(strstr(msg, "sof_uplim must be > 0"));
  c.props[P_BROKEN] = 1; /* no bond: uplim not needed */
  assert_null(cairn_model_softening.validate(c.props, 3, msg, sizeof msg));
  c.props[P_BROKEN] = 0;
  c.props[P_UPLIM] = 0.05; /* fsmax / uplim = 1000 > ks = 500 */
  assert_non_null(cairn_model_softening.validate(c.props, 3, msg, sizeof msg));
  assert_non_null(strstr(msg, "must exceed sof_fsmax / sof_uplim"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_softening_table_names),
      cmocka_unit_test(test_softening_normal_force_is_incremental_with_two_stiffnesses),
      cmocka_unit_test(test_softening_compressive_slip_softens_and_keeps_residual_friction),
      cmocka_unit_test(test_softening_strength_is_interpolated_on_the_force_angle),
      cmocka_unit_test(test_softening_broken_contact_has_no_bond),
      cmocka_unit_test(test_softening_breaks_in_tension_with_zero_force),
      cmocka_unit_test(test_softening_validation_messages),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
