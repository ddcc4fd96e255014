/* Tests of src/models/model_softening.c through its force function with hand-built inputs: the
   incremental normal force with its two stiffnesses, the slip limit of the seed's code in
   compression, the strength interpolated on the force angle, the broken contact, the force
   turning with the normal and the validation messages. Vectors are global; unless a test says
   otherwise the normal is n = (1, 0, 0), so vel[0] and force[0] are the normal components
   (v_n > 0 separating, force > 0 in compression) and global y, z play the contact plane's s, t. */
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
/* sof_force is a contact-plane vector of four slots, [normal, x, y, z]. */
enum { S_FORCE = 0, S_UPLAS = 4, S_SOFTENED = 5, S_ISBROKEN = 6, N_STATE = 7 };

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
  c.in.n[0] = 1.0; /* n = (1, 0, 0): x normal, (y, z) the contact plane */
  return c;
}

/* One update with the global relative velocity (vn, vs, vt): with n = (1, 0, 0) its normal and
   shear (s, t) components. */
static cairn_cm_output step(contact *c, double gap, double vn, double vs, double vt) {
  cairn_cm_output out;
  memset(&out, 0, sizeof out);
  out.may_delete = 1;
  c->in.gap = gap;
  c->in.vel_xyz[0] = vn;
  c->in.vel_xyz[1] = vs;
  c->in.vel_xyz[2] = vt;
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
  /* The slot offsets used here (sof_force takes four slots). */
  const char *st[] = {"sof_force", "sof_uplas", "sof_softened", "sof_isbroken"};
  const int offs[] = {S_FORCE, S_UPLAS, S_SOFTENED, S_ISBROKEN};
  assert_int_equal(m->n_state, 4);
  int off = 0;
  for (int i = 0; i < 4; i++) {
    assert_string_equal(m->state[i].name, st[i]);
    assert_int_equal(off, offs[i]);
    off += cairn_state_slots(&m->state[i]);
  }
  assert_int_equal(off, N_STATE);
  assert_int_equal(m->state[0].flags, CAIRN_STATE_PLANE_XYZ);
}

static void test_softening_normal_force_is_incremental_with_two_stiffnesses(void **state) {
  (void)state;
  contact c = new_contact();
  cairn_cm_output out = step(&c, 0.5, -0.01, 0, 0); /* from zero: knt (the force is not > 0) */
  assert_near(out.force_xyz[0], 10.0, 1e-12);       /* the gap plays no part: incremental */
  out = step(&c, 0.5, -0.01, 0, 0);                 /* now compressive: knc */
  assert_near(out.force_xyz[0], 30.0, 1e-12);
  assert_int_equal(out.may_delete, 0); /* bonded */
  out = step(&c, 0.5, 0.02, 0, 0);     /* 30 - 40: tensile, within the strength */
  assert_near(out.force_xyz[0], -10.0, 1e-12);
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
  assert_near(out.force_xyz[2], 150.0 - 500.0 * dup, 1e-12);
  assert_near(c.state[S_UPLAS], dup, 1e-15);
  assert_near(c.state[S_SOFTENED], dup, 1e-15);
  assert_int_equal(out.events, CAIRN_EV_BOND_BREAK);
  assert_int_equal(out.bond_mode, 1);
  /* A huge slip step: the force may not fall below rfric Fn = 25. */
  out = step(&c, -0.1, 0, 0, -3.0);
  assert_near(out.force_xyz[2], 25.0, 1e-12);
  assert_true(out.force_xyz[0] == 100.0); /* broken in compression: the normal force stays */
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
  assert_near(out.force_xyz[0], -f, 1e-12);
  assert_near(out.force_xyz[2], f, 1e-12);
  assert_true(c.state[S_UPLAS] == 0.0);
  double g = 10.0 / sqrt(2.0);
  out = step(&c, 0.1, g / 1000, 0, -g / 1000); /* trial |F| = 80 > 75: yields */
  double fm = sqrt(out.force_xyz[0] * out.force_xyz[0] + out.force_xyz[2] * out.force_xyz[2]);
  double up = c.state[S_UPLAS];
  assert_true(up > 0);
  /* On the softened strength, along the same direction. */
  assert_near(fm, 75.0 * (1.0 - up / 1.0), 1e-9);
  assert_near(-out.force_xyz[0], out.force_xyz[2], 1e-9);
  /* Consistency with an elastic drop along the force: 80 - 1000 up = 75 (1 - up). */
  assert_near(up, 5.0 / 925.0, 1e-12);
}

static void test_softening_broken_contact_has_no_bond(void **state) {
  (void)state;
  contact c = new_contact();
  c.props[P_BROKEN] = 1;
  cairn_cm_output out = step(&c, 0.01, -0.01, 0, 0); /* apart: no force even when closing */
  assert_true(out.force_xyz[0] == 0.0);
  assert_int_equal(out.active, 0);
  assert_int_equal(out.may_delete, 1);
  assert_int_equal(out.events, 0);
  out = step(&c, -0.01, -0.01, 0, 0); /* overlapping: incremental compression */
  assert_near(out.force_xyz[0], 10.0, 1e-12);
  out = step(&c, -0.01, 0, 0, -1.0); /* shear capped at rfric Fn (no cohesion, no fric) */
  assert_near(out.force_xyz[2], 2.5, 1e-12);
  out = step(&c, -0.005, 0.02, 0, 0); /* unloading past zero: no tension */
  assert_true(out.force_xyz[0] == 0.0 && out.force_xyz[2] == 0.0);
  assert_int_equal(out.events, 0);
  assert_true(c.state[S_ISBROKEN] == 1.0);
}

static void test_softening_breaks_in_tension_with_zero_force(void **state) {
  (void)state;
  contact c = new_contact();
  c.props[P_UPLIM] = 0.5;
  step(&c, 0.1, 0.09, 0, 0); /* -90 */
  cairn_cm_output out = step(&c, 0.1, 1.0, 0, 0);
  assert_true(out.force_xyz[0] == 0.0);
  assert_int_equal(out.events, CAIRN_EV_BOND_BREAK);
  assert_int_equal(out.bond_mode, 0);
  assert_int_equal(out.may_delete, 1);
  assert_true(c.state[S_SOFTENED] == 1.0 && c.state[S_ISBROKEN] == 1.0);
}

/* The stored shear force is a global vector that the model turns onto the new contact plane
   (cairn_cm_turn) before each increment. Loaded to a normal force of 30 and a shear force of 25
   along y, the contact then closes at v_n = -0.01 along a normal that turns about z by 0.2 per
   step: the normal force grows by knc v_n dt = 20 per step (only the velocity's normal part
   counts), and the shear force keeps its magnitude and turns with the normal (a vector in the
   plane of the rotation: the turn is the rotation, (0, 25, 0) becoming 25 (-sin a, cos a, 0)),
   well inside the slip limit 0.5 Fn + 50. The global force is Fn n plus it. Then a shear velocity
   along the turned plane increments it there. Rounding only: 1e-12 of the forces. */
static void test_softening_shear_force_turns_with_the_normal(void **state) {
  (void)state;
  contact c = new_contact();
  step(&c, -0.1, -0.01, 0, 0); /* 10 (knt: from zero) */
  step(&c, -0.1, -0.01, 0, 0); /* 30 */
  step(&c, -0.1, 0, -0.05, 0); /* shear 25 along y */
  assert_true(c.state[S_FORCE] == 30.0 && c.state[S_FORCE + 2] == 25.0);
  double a = 0, n[3] = {1, 0, 0};
  for (int i = 1; i <= 5; i++) {
    a = 0.2 * i, n[0] = cos(a), n[1] = sin(a), n[2] = 0.0;
    for (int k = 0; k < 3; k++) c.in.n[k] = n[k];
    cairn_cm_output out = step(&c, -0.1, -0.01 * n[0], -0.01 * n[1], -0.01 * n[2]);
    assert_int_equal(out.events, 0);
    assert_true(c.state[S_UPLAS] == 0.0);
    double fn = 30.0 + 20.0 * i, rot[3] = {-25.0 * sin(a), 25.0 * cos(a), 0.0};
    assert_near(c.state[S_FORCE], fn, 1e-12 * fn);
    for (int k = 0; k < 3; k++) {
      assert_near(c.state[S_FORCE + 1 + k], rot[k], 1e-12 * 25.0);
      assert_near(out.force_xyz[k], fn * n[k] + rot[k], 1e-12 * fn);
    }
  }
  /* A shear velocity of -0.02 along the turned y direction adds 10 there: 35 along it. */
  const double t[3] = {-sin(a), cos(a), 0.0};
  cairn_cm_output out = step(&c, -0.1, -0.02 * t[0], -0.02 * t[1], -0.02 * t[2]);
  assert_near(c.state[S_FORCE], 130.0, 1e-12 * 130.0);
  for (int k = 0; k < 3; k++) {
    assert_near(c.state[S_FORCE + 1 + k], 35.0 * t[k], 1e-12 * 35.0);
    assert_near(out.force_xyz[k], 130.0 * n[k] + 35.0 * t[k], 1e-12 * 130.0);
  }
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
      cmocka_unit_test(test_softening_shear_force_turns_with_the_normal),
      cmocka_unit_test(test_softening_validation_messages),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
