/* Tests of src/models/model_ductile.c through its force function with hand-built inputs: the
   tensile path (peak, softening, unloading through the origin, break), the two bond_break
   events, shear while bonded and after the break, the shear force turning with the normal, and
   duc_kun's default from duc_kn. Vectors are global; unless a test says otherwise the normal is
   n = (1, 0, 0), so force[0] is the normal force (> 0 in compression) and global y, z play the
   contact plane's s, t. */
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
/* duc_force is a contact-plane vector of four slots, [normal, x, y, z]. */
enum { S_FORCE = 0, S_SOFTENED = 4, S_BROKEN = 5, S_USOFT = 6, S_SLIP = 7, N_STATE = 8 };

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
  c.in.n[0] = 1.0; /* n = (1, 0, 0): x normal, (y, z) the contact plane */
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
  /* The state table and the slot offsets used here (duc_force takes four slots). */
  const char *names[] = {"duc_force", "duc_softened", "duc_broken", "duc_usoft", "duc_slip"};
  const int offs[] = {S_FORCE, S_SOFTENED, S_BROKEN, S_USOFT, S_SLIP};
  assert_int_equal(m->n_state, 5);
  int off = 0;
  for (int i = 0; i < 5; i++) {
    assert_string_equal(m->state[i].name, names[i]);
    assert_int_equal(off, offs[i]);
    off += cairn_state_slots(&m->state[i]);
  }
  assert_int_equal(off, N_STATE);
  assert_int_equal(m->state[0].flags, CAIRN_STATE_PLANE_XYZ);
  assert_int_equal(m->n_derived, 0); /* the tests pass no derived block */
}

/* Every value on this path is a small binary-friendly number; the secant and softening line
   involve one division each, so 1e-12 of a force of ~100 N. */
static void test_ductile_tensile_path_peak_softening_unloading_break(void **state) {
  (void)state;
  contact c = new_contact();
  cairn_cm_output out = step(&c, 0.05); /* elastic: kun * u */
  assert_near(out.force_xyz[0], -50.0, 1e-12);
  assert_int_equal(out.events, 0);
  assert_int_equal(out.may_delete, 0);
  out = step(&c, 0.2); /* past the peak: T = 100 - 250 * (0.2 - 0.1) = 75 */
  assert_near(out.force_xyz[0], -75.0, 1e-12);
  assert_int_equal(out.events, CAIRN_EV_BOND_BREAK);
  assert_int_equal(out.bond_mode, 1);
  assert_near(c.state[S_SOFTENED], 0.25, 1e-12);
  out = step(&c, 0.1); /* unloading on the secant 75 / 0.2 through the origin */
  assert_near(out.force_xyz[0], -37.5, 1e-12);
  assert_near(out.kn_est, 375.0, 1e-12);
  assert_int_equal(out.events, 0);
  out = step(&c, -0.01); /* compression: duc_kn */
  assert_near(out.force_xyz[0], 10.0, 1e-12);
  out = step(&c, 0.2); /* back to the softening point, elastic */
  assert_near(out.force_xyz[0], -75.0, 1e-12);
  assert_int_equal(out.events, 0);
  out = step(&c, 0.4); /* 100 - 250 * 0.3 = 25 */
  assert_near(out.force_xyz[0], -25.0, 1e-12);
  assert_int_equal(out.events, 0); /* mode 1 only the first time */
  out = step(&c, 0.5);             /* strength zero: broken */
  assert_true(out.force_xyz[0] == 0.0);
  assert_int_equal(out.events, CAIRN_EV_BOND_BREAK);
  assert_int_equal(out.bond_mode, 0);
  assert_int_equal(out.may_delete, 1);
  assert_true(c.state[S_BROKEN] == 1.0 && c.state[S_SOFTENED] == 1.0);
  out = step(&c, 0.01); /* no tension any more */
  assert_true(out.force_xyz[0] == 0.0);
  assert_int_equal(out.active, 0);
  assert_int_equal(out.may_delete, 1);
  out = step(&c, -0.02); /* compression still works */
  assert_near(out.force_xyz[0], 20.0, 1e-12);
  assert_int_equal(out.events, 0);
}

static void test_ductile_kun_sets_the_tensile_stiffness_and_peak(void **state) {
  (void)state;
  contact c = new_contact();
  c.props[P_KUN] = 500; /* peak at 100 / 500 = 0.2 */
  cairn_cm_output out = step(&c, 0.15);
  assert_near(out.force_xyz[0], -75.0, 1e-12);
  out = step(&c, 0.25); /* 100 - 250 * 0.05 */
  assert_near(out.force_xyz[0], -87.5, 1e-12);
  assert_int_equal(out.bond_mode, 1);
}

static void
test_ductile_bonded_shear_is_capped_by_ratfs_times_the_strength_in_tension(void **state) {
  (void)state;
  contact c = new_contact();
  c.in.vel_xyz[2] = 1.0; /* shear stiffness in tension: kun * ratks = 500: -125 per step */
  cairn_cm_output out = step(&c, 0.05);
  assert_near(out.force_xyz[2], -25.0, 1e-12); /* capped at 0.25 * 100 */
  c.in.vel_xyz[2] = 0;
  out = step(&c, 0.2); /* strength now 75: cap 18.75 */
  assert_near(out.force_xyz[2], -18.75, 1e-12);
  /* Bonded in compression: kn * ratks, no slip whatever the normal force. */
  c.in.vel_xyz[2] = 4.0;
  out = step(&c, -0.01);
  assert_near(out.force_xyz[2], -18.75 - 500.0, 1e-12);
  assert_int_equal(out.events, 0);
}

static void test_ductile_broken_contact_slides_with_friction(void **state) {
  (void)state;
  contact c = new_contact();
  step(&c, 0.6); /* breaks at once: yield and break in one step report the break */
  assert_true(c.state[S_BROKEN] == 1.0);
  c.in.vel_xyz[1] = 1.0;
  cairn_cm_output out = step(&c, -0.1); /* Fn 100, shear -125 capped at 50 */
  assert_near(out.force_xyz[1], -50.0, 1e-12);
  assert_int_equal(out.events, CAIRN_EV_SLIP_CHANGE);
  assert_int_equal(out.slip_mode, 0);
}

/* 2D: every vector lies in the xy plane. Normal n = (0.6, 0.8, 0), shear direction
   t = (-0.8, 0.6, 0); a shear velocity of -0.1 along t over dt = 0.25 with ks = 500 gives a shear
   force of 12.5 along t, the overlap 0.1 a normal force of 100 along n, whatever the normal
   velocity: the force is 100 n + 12.5 t = (50, 87.5, 0). */
static void test_ductile_2d_shear_lies_in_the_plane(void **state) {
  (void)state;
  contact c = new_contact();
  c.in.dim = 2;
  const double n[3] = {0.6, 0.8, 0.0}, t[3] = {-0.8, 0.6, 0.0};
  for (int k = 0; k < 3; k++) {
    c.in.n[k] = n[k];
    c.in.vel_xyz[k] = -0.1 * t[k] + 0.3 * n[k];
  }
  cairn_cm_output out = step(&c, -0.1);
  assert_near(out.force_xyz[0], 50.0, 1e-12);
  assert_near(out.force_xyz[1], 87.5, 1e-12);
  assert_true(out.force_xyz[2] == 0.0 && c.state[S_FORCE + 3] == 0.0);
  assert_near(c.state[S_FORCE], 100.0, 1e-12);
  assert_near(c.state[S_FORCE + 1], -10.0, 1e-12); /* 12.5 t */
  assert_near(c.state[S_FORCE + 2], 7.5, 1e-12);
}

/* The stored shear force is a global vector that the model turns onto the new contact plane
   (cairn_cm_turn) before each increment: as the normal turns about z, a shear force along y keeps
   its magnitude and turns with the normal (for a vector in the plane of the rotation the turn is
   the rotation: (0, F, 0) becomes F (-sin a, cos a, 0)); the global force is the normal force
   along the new normal plus it. Bonded in compression, standing still; broken, still sliding
   along the turned direction (so that it stays at the limit: standing still exactly at it, the
   slip state would hang on rounding), with no event. Rounding only: 1e-12. */
static void test_ductile_shear_force_turns_with_the_normal(void **state) {
  (void)state;
  for (int broken = 0; broken <= 1; broken++) {
    contact c = new_contact();
    if (broken) {
      step(&c, 0.6); /* breaks at once */
      assert_true(c.state[S_BROKEN] == 1.0);
    }
    c.in.vel_xyz[1] = -1.0; /* bonded: +125 per step along y; broken: capped at 0.5 * 100 = 50 */
    step(&c, -0.1);
    double fs = broken ? 50.0 : 125.0;
    assert_near(c.state[S_FORCE + 2], fs, 1e-12);
    assert_true(c.state[S_SLIP] == (double)broken);
    for (int i = 1; i <= 5; i++) {
      double a = 0.2 * i, n[3] = {cos(a), sin(a), 0.0}, t[3] = {-sin(a), cos(a), 0.0};
      for (int k = 0; k < 3; k++) c.in.n[k] = n[k], c.in.vel_xyz[k] = broken ? -1.0 * t[k] : 0.0;
      cairn_cm_output out = step(&c, -0.1);
      assert_int_equal(out.events, 0);
      assert_int_equal(out.active, 1);
      assert_true(c.state[S_SLIP] == (double)broken); /* at the limit: still sliding */
      const double *f = c.state + S_FORCE + 1, rot[3] = {-fs * sin(a), fs * cos(a), 0.0};
      assert_near(c.state[S_FORCE], 100.0, 1e-12);
      for (int k = 0; k < 3; k++) {
        assert_near(f[k], rot[k], 1e-12 * fs);
        assert_near(out.force_xyz[k], 100.0 * n[k] + rot[k], 1e-12 * 100.0);
      }
    }
  }
}

/* The engine calls a contact once more when it opens beyond proximity, before deleting it: a
   broken contact that was sliding opens with no force and no event (slip ends quietly). */
static void test_ductile_opening_while_sliding_raises_no_event(void **state) {
  (void)state;
  contact c = new_contact();
  step(&c, 0.6); /* breaks */
  c.in.vel_xyz[1] = 1.0;
  cairn_cm_output out = step(&c, -0.1);
  assert_int_equal(out.events, CAIRN_EV_SLIP_CHANGE);
  for (int i = 0; i < 2; i++) {
    out = step(&c, 0.5);
    assert_int_equal(out.events, 0);
    assert_int_equal(out.active, 0);
    assert_int_equal(out.may_delete, 1);
    for (int k = 0; k < 3; k++) assert_true(out.force_xyz[k] == 0.0);
    for (int k = 0; k < 4; k++) assert_true(c.state[S_FORCE + k] == 0.0);
    assert_true(c.state[S_SLIP] == 0.0);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ductile_kun_defaults_to_kn_and_softened_broken_are_state),
      cmocka_unit_test(test_ductile_tensile_path_peak_softening_unloading_break),
      cmocka_unit_test(test_ductile_kun_sets_the_tensile_stiffness_and_peak),
      cmocka_unit_test(test_ductile_bonded_shear_is_capped_by_ratfs_times_the_strength_in_tension),
      cmocka_unit_test(test_ductile_broken_contact_slides_with_friction),
      cmocka_unit_test(test_ductile_2d_shear_lies_in_the_plane),
      cmocka_unit_test(test_ductile_shear_force_turns_with_the_normal),
      cmocka_unit_test(test_ductile_opening_while_sliding_raises_no_event),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
