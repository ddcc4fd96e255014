/* Tests of src/models/model_hysdamp.c through its force function with hand-built inputs
   (contact_model.h conventions): the loading and unloading lines of Eqs. 4.13-4.14, tension,
   friction, the contact bond and its break event, the shear force turning with the normal, and
   the validation messages. Vectors are global; unless a test says otherwise the normal is
   n = (1, 0, 0), so global x is the normal direction and y, z play the contact plane's s, t
   (vel[1..2] the shear velocity, force[0] the normal force). */
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

enum { P_KNM, P_DAMPN, P_KS, P_FRIC, P_NSTR, P_SSTR, P_NOTENSION, P_INHERIT, N_PROPS };
/* hys_force is a contact-plane vector of four slots, [normal, x, y, z]: with n = (1, 0, 0),
   S_FORCE + 2 is the s component (global y) and S_FORCE + 3 the t component (global z). */
enum { S_FORCE = 0, S_DMAX = 4, S_SLIP = 5, S_BONDED = 6, S_BROKEN = 7, N_STATE = 8 };

typedef struct contact {
  double props[N_PROPS];
  double derived[2];
  double state[N_STATE];
  cairn_cm_input in;
} contact;

/* hys_knm 750, hys_dampn 0.5: loading stiffness 2 * 0.5 * 750 / 1.5 = 500, unloading
   2 * 750 / 1.5 = 1000, both exact in binary. */
static contact new_contact(double dampn, int notension) {
  contact c;
  memset(&c, 0, sizeof c);
  c.props[P_KNM] = 750;
  c.props[P_DAMPN] = dampn;
  c.props[P_KS] = 100;
  c.props[P_NOTENSION] = notension;
  c.in.dim = 3;
  c.in.kind = CAIRN_KIND_BALL_WALL;
  c.in.first = 1;
  c.in.dt = 0.25;
  c.in.n[0] = 1.0; /* n = (1, 0, 0): x normal, (y, z) the contact plane */
  c.in.m_eff = 2.0;
  return c;
}

static cairn_cm_output step(contact *c, double gap) {
  cairn_cm_output out;
  memset(&out, 0, sizeof out);
  out.may_delete = 1;
  c->in.gap = gap;
  cairn_model_hysdamp.prepare(c->props, c->derived);
  cairn_model_hysdamp.force(&c->in, c->props, c->derived, c->state, &out);
  c->in.first = 0;
  return out;
}

static void test_hysdamp_tables_and_prepare(void **state) {
  (void)state;
  const cairn_contact_model *m = &cairn_model_hysdamp;
  const char *names[] = {"hys_knm",  "hys_dampn", "hys_ks",        "hys_fric",
                         "hys_nstr", "hys_sstr",  "hys_notension", "hys_inheritprop"};
  assert_int_equal(m->n_props, N_PROPS);
  for (int i = 0; i < N_PROPS; i++) assert_string_equal(m->props[i].name, names[i]);
  assert_true(m->props[P_DAMPN].def == 0.8); /* the seed's default */
  assert_true(m->props[P_DAMPN].min == 0.05 && m->props[P_DAMPN].max == 1.0);
  assert_int_equal(m->n_derived, 2);
  /* The state block is as long as the layout above (hys_force a four-slot plane vector). */
  assert_int_equal(m->n_state, 5);
  assert_string_equal(m->state[0].name, "hys_force");
  assert_true(m->state[0].flags & CAIRN_STATE_PLANE_XYZ);
  assert_string_equal(m->state[4].name, "hys_bbroken");
  int slots = 0;
  for (int i = 0; i < m->n_state; i++) slots += cairn_state_slots(&m->state[i]);
  assert_int_equal(slots, N_STATE);
  assert_int_equal(m->needs, 0);
  contact c = new_contact(0.5, 1);
  cairn_model_hysdamp.prepare(c.props, c.derived);
  assert_true(c.derived[0] == 500.0 && c.derived[1] == 1000.0); /* Eqs. 4.13, 4.14 */
  double kt, kr;
  m->stiffness(c.props, &kt, &kr);
  assert_true(kt == 1100.0 && kr == 0.0); /* unloading stiffness + ks */
}

/* Load to overlap 0.5 along kl = 500, unload along ku = 1000 to the zero at (1 - d) dmax =
   0.25, reload along ku, then continue on the loading line past dmax. */
static void test_hysdamp_loads_softly_and_unloads_stiffly(void **state) {
  (void)state;
  contact c = new_contact(0.5, 1);
  double path[][2] = {{-0.25, 125},  {-0.5, 250}, {-0.375, 125},   {-0.25, 0},   {-0.125, 0},
                      {-0.375, 125}, {-0.5, 250}, {-0.625, 312.5}, {-0.5, 187.5}};
  for (size_t i = 0; i < sizeof path / sizeof *path; i++) {
    cairn_cm_output out = step(&c, path[i][0]);
    assert_true(out.force_xyz[0] == path[i][1]);
    assert_int_equal(out.active, 1);
    assert_true(out.kn_est == 1000.0);
  }
  assert_true(c.state[S_DMAX] == 0.625);
  /* Opening drops the history: the next contact loads from scratch on the loading line. */
  cairn_cm_output out = step(&c, 0.01);
  assert_int_equal(out.active, 0);
  assert_true(out.force_xyz[0] == 0 && c.state[S_DMAX] == 0);
  out = step(&c, -0.125);
  assert_true(out.force_xyz[0] == 62.5);
}

static void test_hysdamp_with_tension_follows_the_unloading_line_below_zero(void **state) {
  (void)state;
  contact c = new_contact(0.5, 0);
  step(&c, -0.5);
  cairn_cm_output out = step(&c, -0.125); /* 1000 * (0.125 - 0.25) */
  assert_true(out.force_xyz[0] == -125.0);
  assert_int_equal(out.may_delete, 1);
  out = step(&c, 0.0); /* touching exactly: open, no bond */
  assert_true(out.force_xyz[0] == 0.0);
  assert_int_equal(out.active, 0);
}

static void test_hysdamp_friction_caps_unbonded_shear_and_raises_slip(void **state) {
  (void)state;
  contact c = new_contact(1.0, 1); /* d = 1: kl = ku = 750 */
  c.props[P_FRIC] = 0.5;
  c.in.vel_xyz[1] = 3.0;                /* -75 per step in s */
  c.in.vel_xyz[2] = 4.0;                /* -100 per step in t */
  cairn_cm_output out = step(&c, -0.5); /* Fn 375, cap 187.5, |Fs| 125 */
  assert_true(out.force_xyz[1] == -75.0 && out.force_xyz[2] == -100.0);
  assert_int_equal(out.events, 0);
  out = step(&c, -0.5); /* |Fs| 250 -> 187.5 along (3, 4) */
  assert_near(out.force_xyz[1], -112.5, 1e-12);
  assert_near(out.force_xyz[2], -150.0, 1e-12);
  assert_int_equal(out.events, CAIRN_EV_SLIP_CHANGE);
  assert_int_equal(out.slip_mode, 0);
}

static void test_hysdamp_bond_carries_tension_until_nstr_then_breaks(void **state) {
  (void)state;
  contact c = new_contact(0.5, 1);
  c.props[P_NSTR] = 100;
  c.props[P_SSTR] = 1000;
  cairn_cm_output out = step(&c, -0.25); /* 125 in compression */
  assert_int_equal(out.may_delete, 0);
  assert_true(c.state[S_BONDED] == 1.0);
  out = step(&c, 0.05); /* open but bonded: 1000 * (-0.05 - 0.125) = -175 > nstr */
  assert_int_equal(out.events, CAIRN_EV_BOND_BREAK);
  assert_int_equal(out.bond_mode, 0);
  assert_true(out.force_xyz[0] == 0.0);
  assert_int_equal(out.may_delete, 1);
  assert_true(c.state[S_BROKEN] == 1.0 && c.state[S_BONDED] == 0.0);
  /* A broken bond does not form again. */
  out = step(&c, -0.25);
  assert_true(out.force_xyz[0] == 125.0);
  assert_int_equal(out.may_delete, 1);
  assert_int_equal(out.events, 0);

  /* Within the strength: tension carried even with hys_notension = 1 (that is the bond's use). */
  contact b = new_contact(0.5, 1);
  b.props[P_NSTR] = 100;
  b.props[P_SSTR] = 1000;
  step(&b, -0.25);
  out = step(&b, -0.0625); /* 1000 * (0.0625 - 0.125) = -62.5 */
  assert_true(out.force_xyz[0] == -62.5);
  assert_int_equal(out.events, 0);
  out = step(&b, 0.0); /* -125: broken, and the surfaces are apart */
  assert_int_equal(out.bond_mode, 0);
  assert_int_equal(out.active, 0);
}

static void test_hysdamp_bond_breaks_in_shear_then_slides(void **state) {
  (void)state;
  contact c = new_contact(1.0, 1);
  c.props[P_NSTR] = 1000;
  c.props[P_SSTR] = 100;
  c.props[P_FRIC] = 0.1;
  c.in.vel_xyz[2] = 1.0; /* -25 per step */
  for (int i = 1; i <= 4; i++) {
    cairn_cm_output out = step(&c, -0.5);
    assert_true(out.force_xyz[2] == -25.0 * i); /* bonded: no slip, well above fric * Fn = 37.5 */
    assert_int_equal(out.events, 0);
  }
  cairn_cm_output out = step(&c, -0.5); /* -125 exceeds 100: breaks, then the slider caps */
  assert_true(out.events & CAIRN_EV_BOND_BREAK);
  assert_int_equal(out.bond_mode, 0);
  assert_near(out.force_xyz[2], -37.5, 1e-12);
  assert_true(out.events & CAIRN_EV_SLIP_CHANGE);
}

static void test_hysdamp_2d_forces_stay_in_the_xy_plane(void **state) {
  (void)state;
  /* In 2D every global vector has z = 0. A ball on a floor, n = (0, 1, 0), sliding along -x. */
  contact c = new_contact(1.0, 1);
  c.in.dim = 2;
  c.in.n[0] = 0.0, c.in.n[1] = 1.0;
  c.props[P_FRIC] = 10;
  c.in.vel_xyz[0] = -1.0;
  c.in.vel_xyz[1] = -0.25; /* closing: normal, adds no shear */
  cairn_cm_output out = step(&c, -0.5);
  assert_true(out.force_xyz[0] == 25.0 && out.force_xyz[1] == 375.0 && out.force_xyz[2] == 0.0);
  assert_true(c.state[S_FORCE] == 375.0 && c.state[S_FORCE + 1] == 25.0);
  assert_true(c.state[S_FORCE + 2] == 0.0 && c.state[S_FORCE + 3] == 0.0);
}

/* As the normal turns (about z by 0.01 per step, standing still), the stored shear force is
   turned onto the new plane (cairn_cm_turn): its magnitude is kept and it stays perpendicular to
   the normal, so an intact bond sees the same shear and neither breaks nor slips.
   1e-12 relative covers the roundings of the turn. */
static void test_hysdamp_shear_force_turns_with_the_normal(void **state) {
  (void)state;
  contact c = new_contact(1.0, 1);
  c.props[P_NSTR] = 1000;
  c.props[P_SSTR] = 1000;
  c.in.vel_xyz[1] = 3.0;
  c.in.vel_xyz[2] = -4.0;
  step(&c, -0.5); /* F_s = (0, -75, 100), |F_s| = 125 */
  assert_true(c.state[S_FORCE + 2] == -75.0 && c.state[S_FORCE + 3] == 100.0);
  c.in.vel_xyz[1] = c.in.vel_xyz[2] = 0;
  for (int i = 1; i <= 10; i++) {
    double a = 0.01 * i, n[3] = {cos(a), sin(a), 0.0};
    for (int k = 0; k < 3; k++) c.in.n[k] = n[k];
    cairn_cm_output out = step(&c, -0.5);
    assert_int_equal(out.events, 0);
    assert_true(c.state[S_BONDED] == 1.0);
    const double *fs = c.state + S_FORCE + 1;
    assert_near(sqrt(fs[0] * fs[0] + fs[1] * fs[1] + fs[2] * fs[2]), 125.0, 1e-12 * 125.0);
    assert_near(fs[0] * n[0] + fs[1] * n[1] + fs[2] * n[2], 0.0, 1e-12 * 125.0);
    assert_true(c.state[S_FORCE] == 375.0);
    for (int k = 0; k < 3; k++) assert_near(out.force_xyz[k], 375.0 * n[k] + fs[k], 1e-12 * 375.0);
  }
}

static void test_hysdamp_validation_messages(void **state) {
  (void)state;
  char msg[512];
  contact c = new_contact(0.8, 0);
  assert_null(cairn_model_hysdamp.validate(c.props, 3, msg, sizeof msg));
  c.props[P_INHERIT] = 1;
  assert_non_null(cairn_model_hysdamp.validate(c.props, 3, msg, sizeof msg));
  assert_non_null(strstr(msg, "hys_inheritprop = 1 is not supported"));
  c.props[P_INHERIT] = 0;
  c.props[P_DAMPN] = 0.3; /* allowed only without tension */
  assert_non_null(cairn_model_hysdamp.validate(c.props, 2, msg, sizeof msg));
  assert_non_null(strstr(msg, "hys_dampn = 0.3 is below 0.4"));
  c.props[P_NOTENSION] = 1;
  assert_null(cairn_model_hysdamp.validate(c.props, 2, msg, sizeof msg));
  c.props[P_NSTR] = 5;
  assert_non_null(cairn_model_hysdamp.validate(c.props, 2, msg, sizeof msg));
  assert_non_null(strstr(msg, "needs both strengths"));
  c.props[P_NSTR] = 0;
  c.props[P_KNM] = 0;
  assert_non_null(cairn_model_hysdamp.validate(c.props, 2, msg, sizeof msg));
  assert_non_null(strstr(msg, "hys_knm must be > 0"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hysdamp_tables_and_prepare),
      cmocka_unit_test(test_hysdamp_loads_softly_and_unloads_stiffly),
      cmocka_unit_test(test_hysdamp_with_tension_follows_the_unloading_line_below_zero),
      cmocka_unit_test(test_hysdamp_friction_caps_unbonded_shear_and_raises_slip),
      cmocka_unit_test(test_hysdamp_bond_carries_tension_until_nstr_then_breaks),
      cmocka_unit_test(test_hysdamp_bond_breaks_in_shear_then_slides),
      cmocka_unit_test(test_hysdamp_2d_forces_stay_in_the_xy_plane),
      cmocka_unit_test(test_hysdamp_shear_force_turns_with_the_normal),
      cmocka_unit_test(test_hysdamp_validation_messages),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
