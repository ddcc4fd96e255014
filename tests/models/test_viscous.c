/* Tests of src/models/model_viscous.c through its force function with hand-built inputs: the
   Maxwell shear step of Eq. 4.8 (3D: Eq. 4.9, a vector), the bond-when-touch switch and its
   limits (no viscosity, infinite viscosity). */
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

enum { P_KN, P_KS, P_VISC, P_BONDTOUCH, N_PROPS };
enum { S_FORCE = 0, S_BONDED = 3, N_STATE = 4 };

typedef struct contact {
  double props[N_PROPS];
  double state[N_STATE];
  cairn_cm_input in;
} contact;

/* ks = 100, eta = 25, dt = 0.25: a = ks dt / (2 eta) = 0.5, so F' = (F / 2 - 25 v) / 1.5. */
static contact new_contact(int bondtouch) {
  contact c;
  memset(&c, 0, sizeof c);
  c.props[P_KN] = 1000;
  c.props[P_KS] = 100;
  c.props[P_VISC] = 25;
  c.props[P_BONDTOUCH] = bondtouch;
  c.in.dim = 3;
  c.in.dt = 0.25;
  return c;
}

static cairn_cm_output step(contact *c, double gap) {
  cairn_cm_output out;
  memset(&out, 0, sizeof out);
  out.may_delete = 1;
  c->in.gap = gap;
  cairn_model_viscous.force(&c->in, c->props, NULL, c->state, &out);
  return out;
}

static void test_viscous_table_has_the_seed_names_and_bondtouch_on(void **state) {
  (void)state;
  const cairn_contact_model *m = &cairn_model_viscous;
  const char *names[] = {"vis_kn", "vis_ks", "vis_viscosity", "vis_bondtouch"};
  assert_int_equal(m->n_props, N_PROPS);
  for (int i = 0; i < N_PROPS; i++) assert_string_equal(m->props[i].name, names[i]);
  assert_true(m->props[P_BONDTOUCH].def == 1.0);
  assert_int_equal(m->n_derived, 0);
}

static void test_viscous_maxwell_step_is_eq_4_8_per_component(void **state) {
  (void)state;
  contact c = new_contact(1);
  c.in.vel[1] = 0.3;
  c.in.vel[2] = -0.6;
  cairn_cm_output out = step(&c, -0.5);
  /* From zero: -25 v / 1.5 = (-5, 10); Eq. 4.8 with 1/ks - dt/(2 eta) = 0.005 and
     1/ks + dt/(2 eta) = 0.015 gives the same: (0 - 0.3 * 0.25) / 0.015 = -5. */
  assert_near(out.force[1], -5.0, 1e-12);
  assert_near(out.force[2], 10.0, 1e-12);
  assert_true(out.force[0] == 500.0);
  c.in.vel[1] = c.in.vel[2] = 0; /* held: the force relaxes by (1 - a) / (1 + a) = 1/3 */
  out = step(&c, -0.5);
  assert_near(out.force[1], -5.0 / 3, 1e-12);
  assert_near(out.force[2], 10.0 / 3, 1e-12);
}

static void test_viscous_bonds_on_touch_carries_tension_and_is_never_deleted(void **state) {
  (void)state;
  contact c = new_contact(1);
  cairn_cm_output out = step(&c, 0.1); /* not touched yet: nothing, deletable */
  assert_int_equal(out.active, 0);
  assert_int_equal(out.may_delete, 1);
  assert_true(c.state[S_BONDED] == 0.0);
  out = step(&c, -0.1);
  assert_true(c.state[S_BONDED] == 1.0);
  assert_int_equal(out.may_delete, 0);
  out = step(&c, 0.2); /* apart: tension kn * gap */
  assert_true(out.force[0] == -200.0);
  assert_int_equal(out.active, 1);
  assert_int_equal(out.may_delete, 0);
}

static void test_viscous_without_bondtouch_acts_only_while_overlapping(void **state) {
  (void)state;
  contact c = new_contact(0);
  c.in.vel[2] = 0.3;
  cairn_cm_output out = step(&c, -0.1);
  assert_true(out.force[0] == 100.0);
  assert_near(out.force[2], -5.0, 1e-12);
  assert_int_equal(out.may_delete, 1);
  out = step(&c, 0.01);
  assert_int_equal(out.active, 0);
  assert_true(out.force[0] == 0 && c.state[S_FORCE + 2] == 0); /* shear history dropped */
}

static void test_viscous_viscosity_limits(void **state) {
  (void)state;
  contact c = new_contact(1);
  c.props[P_VISC] = INFINITY; /* a plain incremental spring */
  c.in.vel[2] = 1.0;
  step(&c, -0.1);
  cairn_cm_output out = step(&c, -0.1);
  assert_true(out.force[2] == -50.0);
  c.props[P_VISC] = 0; /* a free dashpot: no shear force */
  out = step(&c, -0.1);
  assert_true(out.force[1] == 0.0 && out.force[2] == 0.0);
  c.props[P_KS] = 0;
  c.props[P_VISC] = 25;
  out = step(&c, -0.1); /* no spring: no shear force, and no NaN */
  assert_true(out.force[2] == 0.0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_viscous_table_has_the_seed_names_and_bondtouch_on),
      cmocka_unit_test(test_viscous_maxwell_step_is_eq_4_8_per_component),
      cmocka_unit_test(test_viscous_bonds_on_touch_carries_tension_and_is_never_deleted),
      cmocka_unit_test(test_viscous_without_bondtouch_acts_only_while_overlapping),
      cmocka_unit_test(test_viscous_viscosity_limits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
