/* Tests of src/models/model_ductile.c through its force function with hand-built inputs: the
   tensile path (peak, softening, unloading through the origin, break), the two bond_break
   events, shear while bonded and after the break, and duc_kun's default from duc_kn. */
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

enum { P_KN, P_RATKS, P_RATFS, P_FRIC, P_FTMAX, P_KDUC, P_KUN, N_PROPS };
enum { S_FORCE = 0, S_SOFTENED = 3, S_BROKEN = 4, S_USOFT = 5, S_SLIP = 6, N_STATE = 7 };

typedef struct contact {
  double props[N_PROPS];
  double state[N_STATE];
  cairn_cm_input in;
} contact;

/* kn = kun = 1000, ftmax = 100: peak at opening 0.1; kduc = 250: broken at 0.1 + 0.4 = 0.5. */
static contact new_contact(void) {
  contact c;
  memset(&c, 0, sizeof c);
  c.props[P_KN] = 1000;
  c.props[P_KUN] = 1000;
  c.props[P_RATKS] = 0.5;
  c.props[P_RATFS] = 0.25;
  c.props[P_FRIC] = 0.5;
  c.props[P_FTMAX] = 100;
  c.props[P_KDUC] = 250;
  c.in.dim = 3;
  c.in.kind = CAIRN_KIND_BALL_BALL;
  c.in.dt = 0.25;
  return c;
}

static cairn_cm_output step(contact *c, double gap) {
  cairn_cm_output out;
  memset(&out, 0, sizeof out);
  out.may_delete = 1;
  c->in.gap = gap;
  cairn_model_ductile.force(&c->in, c->props, NULL, c->state, &out);
  return out;
}

static void test_ductile_kun_defaults_to_kn_and_softened_broken_are_state(void **state) {
  (void)state;
  const cairn_contact_model *m = &cairn_model_ductile;
  assert_int_equal(m->n_props, N_PROPS);
  assert_string_equal(m->props[P_KUN].name, "duc_kun");
  assert_string_equal(m->props[P_KUN].default_from, "duc_kn");
  assert_string_equal(m->state[S_SOFTENED - 2].name, "duc_softened");
  assert_string_equal(m->state[S_BROKEN - 2].name, "duc_broken");
  assert_int_equal(m->n_derived, 0); /* the tests pass no derived block */
}

/* Every value on this path is a small binary-friendly number; the secant and softening line
   involve one division each, so 1e-12 of a force of ~100 N. */
static void test_ductile_tensile_path_peak_softening_unloading_break(void **state) {
  (void)state;
  contact c = new_contact();
  cairn_cm_output out = step(&c, 0.05); /* elastic: kun * u */
  assert_near(out.force[0], -50.0, 1e-12);
  assert_int_equal(out.events, 0);
  assert_int_equal(out.may_delete, 0);
  out = step(&c, 0.2); /* past the peak: T = 100 - 250 * (0.2 - 0.1) = 75 */
  assert_near(out.force[0], -75.0, 1e-12);
  assert_int_equal(out.events, CAIRN_EV_BOND_BREAK);
  assert_int_equal(out.bond_mode, 1);
  assert_near(c.state[S_SOFTENED], 0.25, 1e-12);
  out = step(&c, 0.1); /* unloading on the secant 75 / 0.2 through the origin */
  assert_near(out.force[0], -37.5, 1e-12);
  assert_near(out.kn_est, 375.0, 1e-12);
  assert_int_equal(out.events, 0);
  out = step(&c, -0.01); /* compression: duc_kn */
  assert_near(out.force[0], 10.0, 1e-12);
  out = step(&c, 0.2); /* back to the softening point, elastic */
  assert_near(out.force[0], -75.0, 1e-12);
  assert_int_equal(out.events, 0);
  out = step(&c, 0.4); /* 100 - 250 * 0.3 = 25 */
  assert_near(out.force[0], -25.0, 1e-12);
  assert_int_equal(out.events, 0); /* mode 1 only the first time */
  out = step(&c, 0.5);             /* strength zero: broken */
  assert_true(out.force[0] == 0.0);
  assert_int_equal(out.events, CAIRN_EV_BOND_BREAK);
  assert_int_equal(out.bond_mode, 0);
  assert_int_equal(out.may_delete, 1);
  assert_true(c.state[S_BROKEN] == 1.0 && c.state[S_SOFTENED] == 1.0);
  out = step(&c, 0.01); /* no tension any more */
  assert_true(out.force[0] == 0.0);
  assert_int_equal(out.active, 0);
  assert_int_equal(out.may_delete, 1);
  out = step(&c, -0.02); /* compression still works */
  assert_near(out.force[0], 20.0, 1e-12);
  assert_int_equal(out.events, 0);
}

static void test_ductile_kun_sets_the_tensile_stiffness_and_peak(void **state) {
  (void)state;
  contact c = new_contact();
  c.props[P_KUN] = 500; /* peak at 100 / 500 = 0.2 */
  cairn_cm_output out = step(&c, 0.15);
  assert_near(out.force[0], -75.0, 1e-12);
  out = step(&c, 0.25); /* 100 - 250 * 0.05 */
  assert_near(out.force[0], -87.5, 1e-12);
  assert_int_equal(out.bond_mode, 1);
}

static void
test_ductile_bonded_shear_is_capped_by_ratfs_times_the_strength_in_tension(void **state) {
  (void)state;
  contact c = new_contact();
  c.in.vel[2] = 1.0; /* shear stiffness in tension: kun * ratks = 500: -125 per step */
  cairn_cm_output out = step(&c, 0.05);
  assert_near(out.force[2], -25.0, 1e-12); /* capped at 0.25 * 100 */
  c.in.vel[2] = 0;
  out = step(&c, 0.2); /* strength now 75: cap 18.75 */
  assert_near(out.force[2], -18.75, 1e-12);
  /* Bonded in compression: kn * ratks, no slip whatever the normal force. */
  c.in.vel[2] = 4.0;
  out = step(&c, -0.01);
  assert_near(out.force[2], -18.75 - 500.0, 1e-12);
  assert_int_equal(out.events, 0);
}

static void test_ductile_broken_contact_slides_with_friction(void **state) {
  (void)state;
  contact c = new_contact();
  step(&c, 0.6); /* breaks at once: yield and break in one step report the break */
  assert_true(c.state[S_BROKEN] == 1.0);
  c.in.vel[1] = 1.0;
  cairn_cm_output out = step(&c, -0.1); /* Fn 100, shear -125 capped at 50 */
  assert_near(out.force[1], -50.0, 1e-12);
  assert_int_equal(out.events, CAIRN_EV_SLIP_CHANGE);
  assert_int_equal(out.slip_mode, 0);
}

static void test_ductile_2d_shear_lives_in_the_t_slot(void **state) {
  (void)state;
  contact c = new_contact();
  c.in.dim = 2;
  c.in.vel[2] = -0.1;
  cairn_cm_output out = step(&c, -0.1);
  assert_true(out.force[1] == 0.0);
  assert_near(out.force[2], 12.5, 1e-12);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ductile_kun_defaults_to_kn_and_softened_broken_are_state),
      cmocka_unit_test(test_ductile_tensile_path_peak_softening_unloading_break),
      cmocka_unit_test(test_ductile_kun_sets_the_tensile_stiffness_and_peak),
      cmocka_unit_test(test_ductile_bonded_shear_is_capped_by_ratfs_times_the_strength_in_tension),
      cmocka_unit_test(test_ductile_broken_contact_slides_with_friction),
      cmocka_unit_test(test_ductile_2d_shear_lives_in_the_t_slot),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
