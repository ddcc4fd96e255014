/* Tests of src/models/model_linear.c, calling its force function directly with hand-built input
   blocks (contact_model.h conventions: global vectors, gap < 0 when overlapping, normal force
   > 0 in compression): springs, Coulomb slip with its events, dashpots and their modes, and the
   shear force turning with the normal. Unless a test says otherwise the normal is n = (1, 0, 0),
   so global x is the normal direction and y, z play the contact plane's s, t: vel[0] is the
   normal velocity, vel[1..2] the shear velocity, and force[0] the normal force. */
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

/* Property and state layout (model_linear.c's tables). lin_force and dp_force are contact-plane
   vectors of four slots, [normal, x, y, z]: with n = (1, 0, 0), S_FORCE + 2 is the s component
   (global y) and S_FORCE + 3 the t component (global z); S_FORCE + 1 (global x) stays 0. */
enum { P_KN, P_KS, P_FRIC, P_DPN, P_DPS, P_DPMODE, N_PROPS };
enum {
  S_FORCE = 0,
  S_SLIP = 4,
  S_DPFORCE = 5,
  S_DPXI = 9,
  S_EDASH = 10,
  S_ESLIP = 11,
  N_STATE = 12
};

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
  c.in.n[0] = 1.0; /* n = (1, 0, 0): x normal, (y, z) the contact plane */
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
  const char *props[] = {"kn", "ks", "fric", "dp_nratio", "dp_sratio", "dp_mode"};
  assert_int_equal(m->n_props, N_PROPS);
  for (int i = 0; i < N_PROPS; i++) {
    assert_string_equal(m->props[i].name, props[i]);
    assert_int_equal(m->props[i].type, i == P_DPMODE ? CAIRN_PROP_INT : CAIRN_PROP_FLT);
  }
  assert_true(m->props[P_DPMODE].def == 0.0 && m->props[P_DPMODE].max == 3.0);
  assert_int_equal(m->n_state, 6);
  assert_string_equal(m->state[4].name, "lin_edash");
  assert_string_equal(m->state[5].name, "lin_eslip");
  assert_string_equal(m->state[0].name, "lin_force");
  assert_int_equal(m->state[0].type, CAIRN_PROP_VEC);
  assert_true(m->state[0].flags & CAIRN_STATE_PLANE_XYZ);
  assert_string_equal(m->state[1].name, "lin_slip");
  assert_string_equal(m->state[2].name, "dp_force");
  assert_int_equal(m->state[2].type, CAIRN_PROP_VEC);
  assert_true(m->state[2].flags & CAIRN_STATE_PLANE_XYZ);
  assert_string_equal(m->state[3].name, "dp_xi");
  assert_int_equal(m->state[3].type, CAIRN_PROP_FLT);
  assert_int_equal(m->n_derived, 0); /* the test passes no derived block */
  /* The state block is as long as the layout above (the two plane vectors take four slots). */
  int slots = 0;
  for (int i = 0; i < m->n_state; i++) slots += cairn_state_slots(&m->state[i]);
  assert_int_equal(slots, N_STATE);
  assert_int_equal(m->needs, 0); /* reads no spin or radii, writes no moment */
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
  assert_true(out.force_xyz[0] == 500.0); /* positive: compression */
  assert_true(out.force_xyz[1] == 0 && out.force_xyz[2] == 0);
  assert_true(c.state[S_FORCE] == 500.0);
  assert_int_equal(out.active, 1);
  assert_true(out.kn_est == 1000.0);
  assert_int_equal(out.events, 0);
  /* The normal force follows the overlap, not its history. */
  c.in.gap = -0.125;
  out = step(&c);
  assert_true(out.force_xyz[0] == 125.0);
}

static void test_linear_open_contact_has_no_force_and_clears_its_state(void **state) {
  (void)state;
  contact c = new_contact(1000, 100, 0.25);
  c.in.gap = -0.5;
  c.in.vel_xyz[2] = 1.0;
  for (int i = 0; i < 6; i++) step(&c); /* build up shear and slip */
  assert_true(c.state[S_SLIP] == 1.0);
  for (int g = 0; g < 2; g++) {
    c.in.gap = g == 0 ? 0.0 : 0.3; /* touching exactly counts as open */
    c.state[S_FORCE + 3] = -125;   /* as if still loaded */
    c.state[S_SLIP] = 1;
    c.state[S_DPFORCE] = 3;
    cairn_cm_output out = step(&c);
    for (int k = 0; k < 3; k++) assert_true(out.force_xyz[k] == 0.0 && out.moment_xyz[k] == 0.0);
    for (int k = 0; k < N_STATE; k++) assert_true(c.state[k] == 0.0);
    assert_int_equal(out.active, 0);
    assert_int_equal(out.may_delete, 1);
    assert_int_equal(out.events, 0); /* opening while sliding raises no slip-change event */
  }
}

static void test_linear_shear_force_accumulates_increments(void **state) {
  (void)state;
  contact c = new_contact(1000, 100, 10); /* friction high enough never to slip */
  c.in.gap = -0.5;
  c.in.vel_xyz[1] = 1.0;
  c.in.vel_xyz[2] = -0.5;
  for (int i = 1; i <= 4; i++) {
    cairn_cm_output out = step(&c);
    /* dF = -ks v dt per step: s: -100 * 1 * 0.25 = -25, t: +12.5. */
    assert_true(out.force_xyz[1] == -25.0 * i);
    assert_true(out.force_xyz[2] == 12.5 * i);
    assert_true(c.state[S_FORCE + 2] == -25.0 * i);
    assert_true(c.state[S_FORCE + 3] == 12.5 * i);
    assert_true(out.force_xyz[0] == 500.0);
    assert_true(out.ks_est == 100.0);
  }
  /* Standing still keeps the force; moving back unloads it. */
  c.in.vel_xyz[1] = c.in.vel_xyz[2] = 0;
  cairn_cm_output out = step(&c);
  assert_true(out.force_xyz[1] == -100.0 && out.force_xyz[2] == 50.0);
  c.in.vel_xyz[1] = -2.0;
  out = step(&c);
  assert_true(out.force_xyz[1] == -50.0);
}

static void test_linear_coulomb_slip_caps_the_shear_force_and_raises_events(void **state) {
  (void)state;
  /* Normal spring force 1000 * 0.5 = 500, cap 0.25 * 500 = 125; -25 per step in t. */
  contact c = new_contact(1000, 100, 0.25);
  c.in.gap = -0.5;
  c.in.vel_xyz[2] = 1.0;
  cairn_cm_output out;
  for (int i = 1; i <= 5; i++) {
    out = step(&c);
    assert_true(out.force_xyz[2] == -25.0 * i); /* 5 steps reach the cap exactly: still sticking */
    assert_int_equal(out.events, 0);
    assert_true(c.state[S_SLIP] == 0.0);
  }
  out = step(&c); /* -150 would exceed the cap */
  assert_near(out.force_xyz[2], -125.0, CAP_TOL);
  assert_near(c.state[S_FORCE + 3], -125.0, CAP_TOL);
  assert_true(c.state[S_SLIP] == 1.0);
  assert_int_equal(out.events, CAIRN_EV_SLIP_CHANGE);
  assert_int_equal(out.slip_mode, 0); /* slip began */

  out = step(&c); /* still sliding: no new event */
  assert_near(out.force_xyz[2], -125.0, CAP_TOL);
  assert_int_equal(out.events, 0);
  assert_true(c.state[S_SLIP] == 1.0);

  c.in.vel_xyz[2] = -1.0; /* reverse: the spring unloads to -100, below the cap */
  out = step(&c);
  assert_near(out.force_xyz[2], -100.0, CAP_TOL);
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
  c.in.vel_xyz[1] = 6.0;
  c.in.vel_xyz[2] = 8.0;
  cairn_cm_output out = step(&c);
  /* The ratio 125 / 250 and the products are exact here; CAP_TOL allows another rounding. */
  assert_near(out.force_xyz[1], -75.0, CAP_TOL);
  assert_near(out.force_xyz[2], -100.0, CAP_TOL);
  assert_int_equal(out.slip_mode, 0);
  assert_int_equal(out.events, CAIRN_EV_SLIP_CHANGE);
}

/* The normal dashpot of one step (laws.h, law_dashpot_normal_step), computed here by hand from
   its definition: F = kn d + c (xi_b - xi_a) / dt, xi_b = d + (u - F dt / m) dt / 2. Values
   pass through a few divisions and a sqrt, so they agree within a few ulp; 1e-12 relative
   leaves margin and catches any wrong term (each is >= 1e-3 of the force). */
#define DP_REL 1e-12

static void test_linear_normal_dashpot_uses_the_critical_ratio_and_reduced_mass(void **state) {
  (void)state;
  contact c = new_contact(1000, 0, 0);
  c.props[P_DPN] = 0.1;
  c.in.dt = 0.01;
  c.in.gap = -0.05;
  c.in.m_eff = 2.0;
  c.in.vel_xyz[0] = -0.3; /* closing */
  /* First active step: the dashpot interval starts at first touch (xi_a = 0). */
  double cn = 2 * 0.1 * sqrt(2.0 * 1000), dt = 0.01, d = 0.05, u = 0.3, m = 2.0;
  double r = cn * dt / (2 * m);
  double f = (1000 * d + cn * (d + u * dt / 2) / dt) / (1 + r);
  cairn_cm_output out = step(&c);
  assert_near(out.force_xyz[0], f, DP_REL * f);
  assert_true(c.state[S_FORCE] == 50.0); /* the spring part alone */
  assert_near(c.state[S_DPFORCE], f - 50.0, DP_REL * f);
  double xi = d + (u - f * dt / m) * dt / 2; /* overlap at t + dt/2, carried on */
  assert_near(c.state[S_DPXI], xi, DP_REL * xi);
  /* Next step, still closing: the interval starts where the last one ended. */
  c.in.gap = -0.052;
  d = 0.052;
  double f2 = (1000 * d + cn * (d + u * dt / 2 - xi) / dt) / (1 + r);
  out = step(&c);
  assert_near(out.force_xyz[0], f2, DP_REL * f2);
  /* The reduced mass sets c: a heavier contact damps more. */
  contact h = new_contact(1000, 0, 0);
  h.props[P_DPN] = 0.1;
  h.in.dt = 0.01;
  h.in.gap = -0.05;
  h.in.m_eff = 8.0;
  h.in.vel_xyz[0] = -0.3;
  step(&h);
  assert_true(h.state[S_DPFORCE] > c.state[S_DPFORCE]);
}

static void test_linear_normal_dashpot_applies_the_closing_tension_inside_the_step(void **state) {
  (void)state;
  /* Separating fast from a small overlap: the overlap returns to zero before the next step, so
     this step takes the dashpot impulse back to zero overlap, -c xi_a, as a tension. */
  contact c = new_contact(1000, 0, 0);
  c.props[P_DPN] = 0.5;
  c.in.dt = 0.01;
  c.in.first = 0;
  c.in.gap = -0.001;
  c.in.vel_xyz[0] = 1.0;   /* opening at 1: the overlap is gone in 0.001 of a step */
  c.state[S_DPXI] = 0.006; /* overlap half a step ago */
  double cn = 2 * 0.5 * sqrt(2.0 * 1000);
  cairn_cm_output out = step(&c);
  assert_near(out.force_xyz[0], 1.0 - cn * 0.006 / 0.01, DP_REL * cn);
  assert_true(out.force_xyz[0] < 0); /* tension: dp_mode 0 allows it */
  assert_true(c.state[S_DPXI] == 0.0);
  /* dp_mode 1: no tension in the total normal force. */
  contact n = new_contact(1000, 0, 0);
  n.props[P_DPN] = 0.5;
  n.props[P_DPMODE] = 1;
  n.in = c.in;
  n.state[S_DPXI] = 0.006;
  out = step(&n);
  assert_true(out.force_xyz[0] == 0.0);
  assert_true(n.state[S_DPFORCE] == -1.0); /* the dashpot cancels the spring exactly */
}

static void test_linear_dashpot_never_reverses_the_normal_speed_on_its_own(void **state) {
  (void)state;
  /* A very stiff dashpot (beta dt = 50) at first touch would, solved as a centred implicit
     step, throw the balls back; it may at most stop them: |F_d| dt <= m |u|. */
  contact c = new_contact(1000, 0, 0);
  c.props[P_DPN] = 500.0; /* c = 44721, r = c dt / 2m = 112 */
  c.in.dt = 0.01;
  c.in.gap = -0.001;
  c.in.vel_xyz[0] = -0.5;
  cairn_cm_output out = step(&c);
  assert_near(c.state[S_DPFORCE], 2.0 * 0.5 / 0.01, 1e-12 * 100);
  assert_near(out.force_xyz[0], 1.0 + 100.0, 1e-12 * 100);
}

static void test_linear_open_contact_clears_the_dashpot_interval(void **state) {
  (void)state;
  contact c = new_contact(1000, 0, 0);
  c.props[P_DPN] = 0.2;
  c.in.dt = 0.001;
  c.in.gap = -0.01;
  c.in.vel_xyz[0] = -0.1;
  step(&c);
  assert_true(c.state[S_DPXI] > 0);
  c.in.gap = 0.001;
  step(&c);
  assert_true(c.state[S_DPXI] == 0.0);
}

static void test_linear_without_normal_dashpot_the_normal_force_is_the_spring_force(void **state) {
  (void)state;
  /* dp_nratio = 0 must leave the linear model's normal arithmetic exactly as it was (the cm1
     plugin comparison relies on it), in every mode. */
  for (int mode = 0; mode < 4; mode++) {
    contact c = new_contact(1000, 0, 0);
    c.props[P_DPMODE] = mode;
    c.in.gap = -0.123;
    c.in.vel_xyz[0] = 0.7;
    cairn_cm_output out = step(&c);
    assert_true(out.force_xyz[0] == 1000 * 0.123);
    assert_true(c.state[S_DPXI] == 0.0);
  }
}

static void test_linear_shear_dashpot_acts_while_sticking_and_is_off_while_sliding(void **state) {
  (void)state;
  contact c = new_contact(1000, 100, 0.25);
  c.props[P_DPS] = 0.5;
  c.props[P_DPMODE] = 2; /* no shear dashpot while sliding */
  c.in.gap = -0.5;
  c.in.vel_xyz[2] = 0.5; /* -12.5 per step: sticking for 10 steps */
  cairn_cm_output out = step(&c);
  double cs = 2 * 0.5 * sqrt(2.0 * 100); /* as the normal dashpot: within a few ulp */
  assert_near(c.state[S_DPFORCE + 3], -cs * 0.5, 1e-13);
  assert_near(out.force_xyz[2], -12.5 - cs * 0.5, 1e-13);
  assert_true(c.state[S_DPFORCE + 2] == 0.0); /* no s velocity, no s dashpot */
  /* Slide: a velocity that takes the spring past the cap in one step. */
  c.in.vel_xyz[2] = 10.0;
  out = step(&c);
  assert_true(c.state[S_SLIP] == 1.0);
  assert_true(c.state[S_DPFORCE + 3] == 0.0);     /* off while sliding */
  assert_near(out.force_xyz[2], -125.0, CAP_TOL); /* the capped spring force alone */
  /* dp_mode 0 (full): the shear dashpot keeps acting while sliding, beyond the slider. */
  contact f = new_contact(1000, 100, 0.25);
  f.props[P_DPS] = 0.5;
  f.in.gap = -0.5;
  f.in.vel_xyz[2] = 10.0;
  out = step(&f);
  assert_true(f.state[S_SLIP] == 1.0);
  assert_near(f.state[S_DPFORCE + 3], -cs * 10.0, 1e-12);
  assert_near(out.force_xyz[2], -125.0 - cs * 10.0, CAP_TOL);
}

static void test_linear_stiffness_from_properties(void **state) {
  (void)state;
  double p[N_PROPS] = {1000, 250, 0.5, 0, 0, 0}, kt = -1, kr = -1;
  cairn_model_linear.stiffness(p, &kt, &kr);
  assert_true(kt == 1250.0);
  assert_true(kr == 0.0);
}

static void test_linear_2d_forces_stay_in_the_xy_plane(void **state) {
  (void)state;
  /* In 2D every global vector has z = 0. A ball on a floor: n = (0, 1, 0), sliding along x. */
  contact c = new_contact(1000, 100, 10);
  c.in.dim = 2;
  c.in.kind = CAIRN_KIND_BALL_WALL;
  c.in.n[0] = 0.0, c.in.n[1] = 1.0;
  c.in.gap = -0.5;
  c.in.vel_xyz[0] = 1.0; /* shear: -25 per step along x */
  cairn_cm_output out = step(&c);
  assert_true(out.force_xyz[0] == -25.0);
  assert_true(out.force_xyz[1] == 500.0); /* the normal force pushes the ball along +n */
  assert_true(out.force_xyz[2] == 0.0);
  /* A normal velocity adds no shear: only its in-plane part increments the spring. */
  c.in.vel_xyz[1] = -0.5;
  out = step(&c);
  assert_true(out.force_xyz[0] == -50.0 && out.force_xyz[1] == 500.0 && out.force_xyz[2] == 0.0);
  assert_true(c.state[S_FORCE] == 500.0);
  assert_true(c.state[S_FORCE + 1] == -50.0);
  assert_true(c.state[S_FORCE + 2] == 0.0 && c.state[S_FORCE + 3] == 0.0);
}

/* The stored shear force is a global vector that the model turns onto the new contact plane each
   step (cairn_cm_turn): as the normal turns, the shear force keeps its magnitude and stays
   perpendicular to the normal, and it follows the rigid rotation of the contact to O(theta^2).
   Tolerances: the turn is a projection and a rescaling by a square root ratio, a few roundings
   on values of order 100 (~1e-14 each); 1e-12 relative leaves margin and catches any error of
   the law, of order theta |F| = 1 N here. */
static void test_linear_shear_force_turns_with_the_normal(void **state) {
  (void)state;
  contact c = new_contact(1000, 100, 10); /* friction high enough never to slip */
  c.in.gap = -0.5;
  c.in.vel_xyz[1] = 1.0;
  c.in.vel_xyz[2] = -0.5;
  for (int i = 0; i < 4; i++) step(&c); /* F_s = (0, -100, 50) on the plane x = 0 */
  assert_true(c.state[S_FORCE + 1] == 0.0 && c.state[S_FORCE + 2] == -100.0 &&
              c.state[S_FORCE + 3] == 50.0);
  const double mag = sqrt(100.0 * 100.0 + 50.0 * 50.0), tol = 1e-12 * mag;
  double e0[CAIRN_ENERGY_N] = {0, 0, 0};
  cairn_model_linear.energy(c.props, c.state, e0);
  /* The normal turns by theta = 0.01 about z each step, standing still (vel = 0). */
  const double theta = 0.01;
  c.in.vel_xyz[1] = c.in.vel_xyz[2] = 0;
  for (int i = 1; i <= 10; i++) {
    double a = i * theta, n[3] = {cos(a), sin(a), 0.0};
    for (int k = 0; k < 3; k++) c.in.n[k] = n[k];
    cairn_cm_output out = step(&c);
    assert_int_equal(out.events, 0);
    assert_true(c.state[S_SLIP] == 0.0);
    const double *fs = c.state + S_FORCE + 1;
    assert_near(sqrt(fs[0] * fs[0] + fs[1] * fs[1] + fs[2] * fs[2]), mag, tol);
    assert_near(fs[0] * n[0] + fs[1] * n[1] + fs[2] * n[2], 0.0, tol);
    /* The global force is the normal force along the new normal plus the turned shear force. */
    assert_true(c.state[S_FORCE] == 500.0);
    for (int k = 0; k < 3; k++) assert_near(out.force_xyz[k], 500.0 * n[k] + fs[k], 1e-12 * 500.0);
    /* Against the contact's rigid rotation by a about z, which takes (0, -100, 50) to
       (100 sin a, -100 cos a, 50): each step's turn errs by O(theta^2) in direction. */
    double rot[3] = {100.0 * sin(a), -100.0 * cos(a), 50.0};
    for (int k = 0; k < 3; k++) assert_near(fs[k], rot[k], i * theta * theta * mag);
  }
  /* Turning stores no energy: the spring's strain is the same. */
  double e1[CAIRN_ENERGY_N] = {0, 0, 0};
  cairn_model_linear.energy(c.props, c.state, e1);
  assert_near(e1[CAIRN_ENERGY_STRAIN], e0[CAIRN_ENERGY_STRAIN], 1e-12 * e0[CAIRN_ENERGY_STRAIN]);
  /* A velocity along the turned normal is no shear: the shear force keeps its value. */
  double before[3] = {c.state[S_FORCE + 1], c.state[S_FORCE + 2], c.state[S_FORCE + 3]};
  for (int k = 0; k < 3; k++) c.in.vel_xyz[k] = -0.5 * c.in.n[k];
  step(&c);
  for (int k = 0; k < 3; k++) assert_near(c.state[S_FORCE + 1 + k], before[k], tol);
}

/* Energy: the hook's strain is F^2 / 2k of each spring; a sticking shear step books no slip loss,
   a sliding one books the mean force times the slide less the spring's gain; nothing is booked
   while in.energy is 0; the sums survive the contact opening. Values are binary fractions, so
   the arithmetic is exact. */
static void test_linear_energy_books_slip_only_while_sliding(void **state) {
  (void)state;
  contact c = new_contact(8.0, 4.0, 0.5);
  c.in.energy = 1;
  c.in.gap = -0.5;       /* fn = 4, cap 2 */
  c.in.vel_xyz[2] = 1.0; /* shear displacement 0.25 per step: spring force -1 */
  step(&c);
  assert_true(c.state[S_FORCE + 3] == -1.0 && c.state[S_SLIP] == 0);
  assert_true(c.state[S_ESLIP] == 0.0 && c.state[S_EDASH] == 0.0);
  double e[CAIRN_ENERGY_N] = {0, 0, 0};
  cairn_model_linear.energy(c.props, c.state, e);
  assert_true(e[CAIRN_ENERGY_STRAIN] == 16.0 / 16.0 + 1.0 / 8.0); /* 4^2/(2*8) + 1/(2*4) */
  c.in.vel_xyz[2] = 8.0; /* trial -1 - 8 = -9, capped to -2: slides */
  step(&c);
  assert_true(c.state[S_FORCE + 3] == -2.0 && c.state[S_SLIP] == 1);
  /* work -(-1 + -2)/2 * 2 = 3, spring gain (4 - 1) / 8 = 0.375: slip 2.625 */
  assert_true(c.state[S_ESLIP] == 2.625);
  c.in.energy = 0;
  step(&c);
  assert_true(c.state[S_ESLIP] == 2.625);
  c.in.gap = 0.1; /* opens: the sums stay, the rest is reset */
  step(&c);
  assert_true(c.state[S_ESLIP] == 2.625 && c.state[S_FORCE + 3] == 0.0);
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
      cmocka_unit_test(test_linear_normal_dashpot_applies_the_closing_tension_inside_the_step),
      cmocka_unit_test(test_linear_dashpot_never_reverses_the_normal_speed_on_its_own),
      cmocka_unit_test(test_linear_open_contact_clears_the_dashpot_interval),
      cmocka_unit_test(test_linear_without_normal_dashpot_the_normal_force_is_the_spring_force),
      cmocka_unit_test(test_linear_shear_dashpot_acts_while_sticking_and_is_off_while_sliding),
      cmocka_unit_test(test_linear_stiffness_from_properties),
      cmocka_unit_test(test_linear_energy_books_slip_only_while_sliding),
      cmocka_unit_test(test_linear_2d_forces_stay_in_the_xy_plane),
      cmocka_unit_test(test_linear_shear_force_turns_with_the_normal),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
