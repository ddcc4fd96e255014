/* Tests of src/models/model_linear.c, calling its force function directly with hand-built input
   blocks (contact_model.h conventions: (n, s, t) components, gap < 0 when overlapping, normal
   force > 0 in compression): springs, Coulomb slip with its events, dashpots. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "models/builtin.h"

/* |a - b| <= tol, both printed on failure (cmocka 1.1.5 has no assert for doubles). */
#define assert_near(a, b, tol)                                                                     \
  do {                                                                                             \
    double a_ = (a), b_ = (b), t_ = (tol);                                                         \
    if (!(fabs(a_ - b_) <= t_)) fail_msg("%s = %.17g, expected %.17g within %g", #a, a_, b_, t_);  \
  } while (0)

/* Property and state layout (model_linear.c's tables). */
enum { P_KN, P_KS, P_FRIC, P_DPN, P_DPS, N_PROPS };
enum { S_FORCE = 0, S_SLIP = 3, S_DPFORCE = 4, N_STATE = 7 };

typedef struct contact {
  double props[N_PROPS];
  double state[N_STATE];
  cairn_cm_input in;
} contact;

static contact new_contact(double kn, double ks, double fric) {
  contact c;
  memset(&c, 0, sizeof c);
  c.props[P_KN] = kn;
  c.props[P_KS] = ks;
  c.props[P_FRIC] = fric;
  c.in.dim = 3;
  c.in.kind = CAIRN_KIND_BALL_BALL;
  c.in.first = 1;
  c.in.dt = 0.25;
  c.in.m_eff = 2.0;
  c.in.r1 = c.in.r2 = 1.0;
  c.in.r_eff = 0.5;
  return c;
}

/* One update, with the output initialised as the engine does (zero, may_delete 1, active 0). */
static cairn_cm_output step(contact *c) {
  cairn_cm_output out;
  memset(&out, 0, sizeof out);
  out.may_delete = 1;
  cairn_model_linear.force(&c->in, c->props, NULL, c->state, &out);
  c->in.first = 0;
  return out;
}

static void test_linear_tables_match_the_documented_order(void **state) {
  (void)state;
  const cairn_contact_model *m = &cairn_model_linear;
  const char *props[] = {"kn", "ks", "fric", "dp_nratio", "dp_sratio"};
  assert_int_equal(m->n_props, N_PROPS);
  for (int i = 0; i < N_PROPS; i++) {
    assert_string_equal(m->props[i].name, props[i]);
    assert_int_equal(m->props[i].type, CAIRN_PROP_FLT);
  }
  assert_int_equal(m->n_state, 3);
  assert_string_equal(m->state[0].name, "lin_force");
  assert_int_equal(m->state[0].type, CAIRN_PROP_VEC);
  assert_true(m->state[0].flags & CAIRN_STATE_PLANE_VEC);
  assert_string_equal(m->state[1].name, "lin_slip");
  assert_string_equal(m->state[2].name, "dp_force");
  assert_int_equal(m->state[2].type, CAIRN_PROP_VEC);
  assert_int_equal(m->n_derived, 0); /* the test passes no derived block */
}

/* All values below are small binary fractions (0.25, 0.5, 25, ...), so the spring arithmetic is
   exact and assertions on it use tolerance 0 unless stated. */

/* The Coulomb cap scales the shear force by fmax / |F|: one rounding in the ratio, one in the
   product, so within 2 ulp of 125 (~3e-14); 1e-12 leaves margin and still catches any error in
   the law itself, which would be of order 1 N. */
#define CAP_TOL 1e-12

static void test_linear_normal_force_is_kn_times_overlap(void **state) {
  (void)state;
  contact c = new_contact(1000, 0, 0);
  c.in.gap = -0.5;
  cairn_cm_output out = step(&c);
  assert_true(out.force[0] == 500.0); /* positive: compression */
  assert_true(out.force[1] == 0 && out.force[2] == 0);
  assert_true(c.state[S_FORCE] == 500.0);
  assert_int_equal(out.active, 1);
  assert_true(out.kn_est == 1000.0);
  assert_int_equal(out.events, 0);
  /* The normal force follows the overlap, not its history. */
  c.in.gap = -0.125;
  out = step(&c);
  assert_true(out.force[0] == 125.0);
}

static void test_linear_open_contact_has_no_force_and_clears_its_state(void **state) {
  (void)state;
  contact c = new_contact(1000, 100, 0.25);
  c.in.gap = -0.5;
  c.in.vel[2] = 1.0;
  for (int i = 0; i < 6; i++) step(&c); /* build up shear and slip */
  assert_true(c.state[S_SLIP] == 1.0);
  for (int g = 0; g < 2; g++) {
    c.in.gap = g == 0 ? 0.0 : 0.3; /* touching exactly counts as open */
    c.state[S_FORCE + 2] = -125;   /* as if still loaded */
    c.state[S_SLIP] = 1;
    c.state[S_DPFORCE] = 3;
    cairn_cm_output out = step(&c);
    for (int k = 0; k < 3; k++) assert_true(out.force[k] == 0.0 && out.moment[k] == 0.0);
    for (int k = 0; k < N_STATE; k++) assert_true(c.state[k] == 0.0);
    assert_int_equal(out.active, 0);
    assert_int_equal(out.may_delete, 1);
  }
}

static void test_linear_shear_force_accumulates_increments(void **state) {
  (void)state;
  contact c = new_contact(1000, 100, 10); /* friction high enough never to slip */
  c.in.gap = -0.5;
  c.in.vel[1] = 1.0;
  c.in.vel[2] = -0.5;
  for (int i = 1; i <= 4; i++) {
    cairn_cm_output out = step(&c);
    /* dF = -ks v dt per step: s: -100 * 1 * 0.25 = -25, t: +12.5. */
    assert_true(out.force[1] == -25.0 * i);
    assert_true(out.force[2] == 12.5 * i);
    assert_true(c.state[S_FORCE + 1] == -25.0 * i);
    assert_true(c.state[S_FORCE + 2] == 12.5 * i);
    assert_true(out.force[0] == 500.0);
    assert_true(out.ks_est == 100.0);
  }
  /* Standing still keeps the force; moving back unloads it. */
  c.in.vel[1] = c.in.vel[2] = 0;
  cairn_cm_output out = step(&c);
  assert_true(out.force[1] == -100.0 && out.force[2] == 50.0);
  c.in.vel[1] = -2.0;
  out = step(&c);
  assert_true(out.force[1] == -50.0);
}

static void test_linear_coulomb_slip_caps_the_shear_force_and_raises_events(void **state) {
  (void)state;
  /* Normal spring force 1000 * 0.5 = 500, cap 0.25 * 500 = 125; -25 per step in t. */
  contact c = new_contact(1000, 100, 0.25);
  c.in.gap = -0.5;
  c.in.vel[2] = 1.0;
  cairn_cm_output out;
  for (int i = 1; i <= 5; i++) {
    out = step(&c);
    assert_true(out.force[2] == -25.0 * i); /* 5 steps reach the cap exactly: still sticking */
    assert_int_equal(out.events, 0);
    assert_true(c.state[S_SLIP] == 0.0);
  }
  out = step(&c); /* -150 would exceed the cap */
  assert_near(out.force[2], -125.0, CAP_TOL);
  assert_near(c.state[S_FORCE + 2], -125.0, CAP_TOL);
  assert_true(c.state[S_SLIP] == 1.0);
  assert_int_equal(out.events, CAIRN_EV_SLIP_CHANGE);
  assert_int_equal(out.slip_mode, 0); /* slip began */

  out = step(&c); /* still sliding: no new event */
  assert_near(out.force[2], -125.0, CAP_TOL);
  assert_int_equal(out.events, 0);
  assert_true(c.state[S_SLIP] == 1.0);

  c.in.vel[2] = -1.0; /* reverse: the spring unloads to -100, below the cap */
  out = step(&c);
  assert_near(out.force[2], -100.0, CAP_TOL);
  assert_true(c.state[S_SLIP] == 0.0);
  assert_int_equal(out.events, CAIRN_EV_SLIP_CHANGE);
  assert_int_equal(out.slip_mode, 1); /* slip ended */
}

static void test_linear_slip_keeps_the_shear_direction(void **state) {
  (void)state;
  /* Shear velocity along (3, 4)/5 in (s, t), cap 125: one step takes the spring to
     -ks v dt = (-150, -200), of magnitude 250, which the slider scales back to (-75, -100). */
  contact c = new_contact(1000, 100, 0.25);
  c.in.gap = -0.5;
  c.in.vel[1] = 6.0;
  c.in.vel[2] = 8.0;
  cairn_cm_output out = step(&c);
  /* The ratio 125 / 250 and the products are exact here; CAP_TOL allows another rounding. */
  assert_near(out.force[1], -75.0, CAP_TOL);
  assert_near(out.force[2], -100.0, CAP_TOL);
  assert_int_equal(out.slip_mode, 0);
  assert_int_equal(out.events, CAIRN_EV_SLIP_CHANGE);
}

static void test_linear_normal_dashpot_uses_the_critical_ratio_and_reduced_mass(void **state) {
  (void)state;
  contact c = new_contact(1000, 0, 0);
  c.props[P_DPN] = 0.1;
  c.in.gap = -0.5;
  c.in.m_eff = 2.0;
  c.in.vel[0] = -0.3; /* closing */
  cairn_cm_output out = step(&c);
  /* F_d = -2 beta sqrt(m k) v_n (seed 004): sqrt and three products, each correctly rounded,
     so within a few ulp of ~1.7; 1e-13 absolute on a force of 500 is far above that. */
  double fd = -2 * 0.1 * sqrt(2.0 * 1000) * -0.3;
  assert_near(c.state[S_DPFORCE], fd, 1e-13);
  assert_near(out.force[0], 500.0 + fd, 1e-13);
  assert_true(out.force[0] > 500.0);      /* closing adds compression */
  assert_true(c.state[S_FORCE] == 500.0); /* the spring part alone */
  /* Opening reduces it. */
  c.in.vel[0] = 0.3;
  out = step(&c);
  assert_near(out.force[0], 500.0 - fd, 1e-13);
}

static void test_linear_shear_dashpot_acts_while_sticking_and_is_off_while_sliding(void **state) {
  (void)state;
  contact c = new_contact(1000, 100, 0.25);
  c.props[P_DPS] = 0.5;
  c.in.gap = -0.5;
  c.in.vel[2] = 0.5; /* -12.5 per step: sticking for 10 steps */
  cairn_cm_output out = step(&c);
  double cs = 2 * 0.5 * sqrt(2.0 * 100); /* as the normal dashpot: within a few ulp */
  assert_near(c.state[S_DPFORCE + 2], -cs * 0.5, 1e-13);
  assert_near(out.force[2], -12.5 - cs * 0.5, 1e-13);
  assert_true(c.state[S_DPFORCE + 1] == 0.0); /* no s velocity, no s dashpot */
  /* Slide: a velocity that takes the spring past the cap in one step. */
  c.in.vel[2] = 10.0;
  out = step(&c);
  assert_true(c.state[S_SLIP] == 1.0);
  assert_true(c.state[S_DPFORCE + 2] == 0.0); /* off while sliding */
  assert_near(out.force[2], -125.0, CAP_TOL); /* the capped spring force alone */
}

static void test_linear_stiffness_from_properties(void **state) {
  (void)state;
  double p[N_PROPS] = {1000, 250, 0.5, 0, 0}, kt = -1, kr = -1;
  cairn_model_linear.stiffness(p, &kt, &kr);
  assert_true(kt == 1250.0);
  assert_true(kr == 0.0);
}

static void test_linear_2d_shear_lives_in_the_t_slot(void **state) {
  (void)state;
  contact c = new_contact(1000, 100, 10);
  c.in.dim = 2;
  c.in.gap = -0.5;
  c.in.vel[2] = 1.0; /* in 2D the engine gives the in-plane shear velocity in t, s is 0 */
  cairn_cm_output out = step(&c);
  assert_true(out.force[1] == 0.0);
  assert_true(out.force[2] == -25.0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_linear_tables_match_the_documented_order),
      cmocka_unit_test(test_linear_normal_force_is_kn_times_overlap),
      cmocka_unit_test(test_linear_open_contact_has_no_force_and_clears_its_state),
      cmocka_unit_test(test_linear_shear_force_accumulates_increments),
      cmocka_unit_test(test_linear_coulomb_slip_caps_the_shear_force_and_raises_events),
      cmocka_unit_test(test_linear_slip_keeps_the_shear_direction),
      cmocka_unit_test(test_linear_normal_dashpot_uses_the_critical_ratio_and_reduced_mass),
      cmocka_unit_test(test_linear_shear_dashpot_acts_while_sticking_and_is_off_while_sliding),
      cmocka_unit_test(test_linear_stiffness_from_properties),
      cmocka_unit_test(test_linear_2d_shear_lives_in_the_t_slot),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
