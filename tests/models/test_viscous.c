/* Tests of src/models/model_viscous.c through its force function with hand-built inputs: the
   Maxwell shear step of Eq. 4.8 (3D: Eq. 4.9, a vector), the bond-when-touch switch and its
   limits (no viscosity, infinite viscosity), and the shear force turning with the normal.
   Vectors are global; unless a test says otherwise the normal is n = (1, 0, 0), so global x is
   the normal direction and y, z play the contact plane's s, t (vel[1..2] the shear velocity,
   force[0] the normal force). */
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
/* vis_force is a contact-plane vector of four slots, [normal, x, y, z]: with n = (1, 0, 0),
   S_FORCE + 2 is the s component (global y) and S_FORCE + 3 the t component (global z). */
enum { S_FORCE = 0, S_BONDED = 4, N_STATE = 5 };

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
  c.in.n[0] = 1.0; /* n = (1, 0, 0): x normal, (y, z) the contact plane */
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
  /* The state block is as long as the layout above (vis_force a four-slot plane vector). */
  assert_int_equal(m->n_state, 2);
  assert_string_equal(m->state[0].name, "vis_force");
  assert_true(m->state[0].flags & CAIRN_STATE_PLANE_XYZ);
  int slots = 0;
  for (int i = 0; i < m->n_state; i++) slots += cairn_state_slots(&m->state[i]);
  assert_int_equal(slots, N_STATE);
  assert_int_equal(m->needs, 0);
}

static void test_viscous_maxwell_step_is_eq_4_8_per_component(void **state) {
  (void)state;
  contact c = new_contact(1);
  c.in.vel_xyz[1] = 0.3;
  c.in.vel_xyz[2] = -0.6;
  cairn_cm_output out = step(&c, -0.5);
  /* From zero: -25 v / 1.5 = (-5, 10); Eq. 4.8 with 1/ks - dt/(2 eta) = 0.005 and
     1/ks + dt/(2 eta) = 0.015 gives the same: (0 - 0.3 * 0.25) / 0.015 = -5. */
  assert_near(out.force_xyz[1], -5.0, 1e-12);
  assert_near(out.force_xyz[2], 10.0, 1e-12);
  assert_true(out.force_xyz[0] == 500.0);
  c.in.vel_xyz[1] = c.in.vel_xyz[2] = 0; /* held: the force relaxes by (1 - a) / (1 + a) = 1/3 */
  out = step(&c, -0.5);
  assert_near(out.force_xyz[1], -5.0 / 3, 1e-12);
  assert_near(out.force_xyz[2], 10.0 / 3, 1e-12);
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
  assert_true(out.force_xyz[0] == -200.0);
  assert_int_equal(out.active, 1);
  assert_int_equal(out.may_delete, 0);
}

static void test_viscous_without_bondtouch_acts_only_while_overlapping(void **state) {
  (void)state;
  contact c = new_contact(0);
  c.in.vel_xyz[2] = 0.3;
  cairn_cm_output out = step(&c, -0.1);
  assert_true(out.force_xyz[0] == 100.0);
  assert_near(out.force_xyz[2], -5.0, 1e-12);
  assert_int_equal(out.may_delete, 1);
  out = step(&c, 0.01);
  assert_int_equal(out.active, 0);
  assert_true(out.force_xyz[0] == 0 && c.state[S_FORCE + 3] == 0); /* shear history dropped */
}

static void test_viscous_viscosity_limits(void **state) {
  (void)state;
  contact c = new_contact(1);
  c.props[P_VISC] = INFINITY; /* a plain incremental spring */
  c.in.vel_xyz[2] = 1.0;
  step(&c, -0.1);
  cairn_cm_output out = step(&c, -0.1);
  assert_true(out.force_xyz[2] == -50.0);
  c.props[P_VISC] = 0; /* a free dashpot: no shear force */
  out = step(&c, -0.1);
  assert_true(out.force_xyz[1] == 0.0 && out.force_xyz[2] == 0.0);
  c.props[P_KS] = 0;
  c.props[P_VISC] = 25;
  out = step(&c, -0.1); /* no spring: no shear force, and no NaN */
  assert_true(out.force_xyz[2] == 0.0);
}

/* A bonded contact whose normal turns (about z by 0.01 per step, standing still): the stored
   shear force is turned onto the new plane (cairn_cm_turn: length kept, in the plane) before the
   Maxwell step relaxes it by (1 - a) / (1 + a) = 1/3, so it stays perpendicular to the normal
   with exactly the relaxed magnitude. 1e-12 relative covers the roundings of the turn. */
static void test_viscous_shear_force_turns_with_the_normal(void **state) {
  (void)state;
  contact c = new_contact(1);
  c.props[P_VISC] = INFINITY; /* a plain spring first, to load the shear: (0, -25, 50) */
  c.in.vel_xyz[1] = 1.0;
  c.in.vel_xyz[2] = -2.0;
  step(&c, -0.5);
  assert_true(c.state[S_FORCE + 2] == -25.0 && c.state[S_FORCE + 3] == 50.0);
  c.props[P_VISC] = 25; /* a = 0.5 */
  c.in.vel_xyz[1] = c.in.vel_xyz[2] = 0;
  double mag = sqrt(25.0 * 25.0 + 50.0 * 50.0);
  for (int i = 1; i <= 5; i++) {
    double a = 0.01 * i, n[3] = {cos(a), sin(a), 0.0};
    for (int k = 0; k < 3; k++) c.in.n[k] = n[k];
    cairn_cm_output out = step(&c, -0.5);
    mag /= 3;
    const double *fs = c.state + S_FORCE + 1;
    assert_near(sqrt(fs[0] * fs[0] + fs[1] * fs[1] + fs[2] * fs[2]), mag, 1e-12 * mag);
    assert_near(fs[0] * n[0] + fs[1] * n[1] + fs[2] * n[2], 0.0, 1e-12 * mag);
    assert_true(c.state[S_FORCE] == 500.0);
    for (int k = 0; k < 3; k++) assert_near(out.force_xyz[k], 500.0 * n[k] + fs[k], 1e-12 * 500.0);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_viscous_table_has_the_seed_names_and_bondtouch_on),
      cmocka_unit_test(test_viscous_maxwell_step_is_eq_4_8_per_component),
      cmocka_unit_test(test_viscous_bonds_on_touch_carries_tension_and_is_never_deleted),
      cmocka_unit_test(test_viscous_without_bondtouch_acts_only_while_overlapping),
      cmocka_unit_test(test_viscous_viscosity_limits),
      cmocka_unit_test(test_viscous_shear_force_turns_with_the_normal),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
