/* Tests of src/models/model_burger.c, calling its functions directly with hand-built input blocks
   (contact_model.h conventions: global vectors, gap < 0 when overlapping, normal force > 0 in
   compression). Most tests put the normal along x, so that global (x, y, z) are the contact's
   (n, s, t): the finite-difference update against sequences worked out by hand in exact
   fractions, the slider and its events, the tension mode, validation, and a state round trip
   through the generic state table, an open call raising no event. Two tests turn the normal: the
   shear history turns with it, and the energy bookkeeping balances the work done. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "models/builtin.h"

/* |a - b| <= tol * |b| (relative), both printed on failure. */
#define assert_rel(a, b, tol)                                                                      \
  do {                                                                                             \
    double a_ = (a), b_ = (b), t_ = (tol);                                                         \
    if (!(fabs(a_ - b_) <= t_ * fabs(b_)))                                                         \
      fail_msg("%s = %.17g, expected %.17g within %g relative", #a, a_, b_, t_);                   \
  } while (0)

/* The sequences below are ratios of small integers; the model reaches them through a handful of
   correctly rounded operations per step, so each value is within a few ulp (~1e-15 relative) of
   the fraction. 1e-14 leaves margin and still catches any error in the scheme, which would be of
   order 1. */
#define SEQ_TOL 1e-14

/* Property and state layout (model_burger.c's tables; checked by the first test). bur_force and
   bur_uk are contact-plane vectors in four slots: [normal, x, y, z]; with the normal along x the
   shear slots +2 and +3 are the contact's s and t. */
enum { P_KNK, P_CNK, P_KNM, P_CNM, P_KSK, P_CSK, P_KSM, P_CSM, P_FRIC, P_MODE, N_PROPS };
enum { S_FORCE = 0, S_SLIP = 4, S_UK = 5, S_UN = 9, S_EDASH = 10, S_ESLIP = 11, N_STATE = 12 };
enum { SX = 1, SY = 2, SZ = 3 }; /* offsets of a plane vector's shear components */

typedef struct contact {
  double props[N_PROPS];
  double state[N_STATE];
  cairn_cm_input in;
} contact;

/* dt = 1/4 with the normal set Kk = 1, Ck = 3/8, Km = 2, Cm = 1 gives the Eq. 12/20 constants
   a = dt/(2 Ck A) = 1/4, B/A = 1/2, C = 7/8, D = -1/8; the shear set Kk = 2, Ck = 1/4, Km = 4,
   Cm = 1/2 gives a = 1/4, B/A = 0, C = 3/4, D = 1/4. */
static contact new_contact(void) {
  contact c;
  memset(&c, 0, sizeof c);
  const double p[N_PROPS] = {1.0, 0.375, 2.0, 1.0, 2.0, 0.25, 4.0, 0.5, 1e9, 0};
  memcpy(c.props, p, sizeof p);
  c.in.dim = 3;
  c.in.kind = CAIRN_KIND_BALL_BALL;
  c.in.first = 1;
  c.in.dt = 0.25;
  c.in.n[0] = 1.0; /* normal along x: vel[0] is the normal velocity, vel[1..2] the shear (s, t) */
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
  cairn_model_burger.force(&c->in, c->props, NULL, c->state, &out);
  c->in.first = 0;
  return out;
}

static void test_burger_tables_match_the_documented_order(void **state) {
  (void)state;
  const cairn_contact_model *m = &cairn_model_burger;
  const char *props[] = {"bur_knk", "bur_cnk", "bur_knm", "bur_cnm",  "bur_ksk",
                         "bur_csk", "bur_ksm", "bur_csm", "bur_fric", "bur_mode"};
  assert_int_equal(m->n_props, N_PROPS + 1); /* + the alias */
  for (int i = 0; i < N_PROPS; i++) {
    assert_string_equal(m->props[i].name, props[i]);
    assert_int_equal(m->props[i].access, CAIRN_RW);
    assert_true(m->props[i].def == 0.0 && m->props[i].min == 0.0); /* seed 002, Table 1 */
    assert_int_equal(m->props[i].type, i == P_MODE ? CAIRN_PROP_INT : CAIRN_PROP_FLT);
  }
  assert_true(m->props[P_MODE].max == 1.0);
  assert_string_equal(m->props[N_PROPS].name, "bur_notension");
  assert_int_equal(m->props[N_PROPS].access, CAIRN_ALIAS);
  assert_string_equal(m->props[N_PROPS].default_from, "bur_mode");
  assert_int_equal(m->n_state, 6);
  const char *st[] = {"bur_force", "bur_slip", "bur_uk", "bur_un", "bur_edash", "bur_eslip"};
  const cairn_prop_type ty[] = {CAIRN_PROP_VEC, CAIRN_PROP_BOOL, CAIRN_PROP_VEC,
                                CAIRN_PROP_FLT, CAIRN_PROP_FLT,  CAIRN_PROP_FLT};
  const unsigned fl[] = {CAIRN_STATE_PLANE_XYZ, 0, CAIRN_STATE_PLANE_XYZ, 0, 0, 0};
  int off = 0;
  for (int i = 0; i < 6; i++) {
    assert_string_equal(m->state[i].name, st[i]);
    assert_int_equal(m->state[i].type, ty[i]);
    assert_int_equal(m->state[i].flags, fl[i]);
    off += cairn_state_slots(&m->state[i]);
    if (i == 0) assert_int_equal(off, S_SLIP);
    if (i == 1) assert_int_equal(off, S_UK);
    if (i == 2) assert_int_equal(off, S_UN);
    if (i == 3) assert_int_equal(off, S_EDASH);
    if (i == 4) assert_int_equal(off, S_ESLIP);
  }
  assert_int_equal(off, N_STATE);
  assert_int_equal(m->n_derived, 0); /* the tests pass no derived block */
}

/* Normal: overlap 1 applied in the first step, held, then reduced to 1/2 (worked in fractions
   from Eqs. 19 and 11): f = 8/7, 16/49, -80/343; uk = 2/7, 25/49, 191/686. */
static void test_burger_normal_update_follows_the_hand_sequence(void **state) {
  (void)state;
  contact c = new_contact();
  const double gap[] = {-1.0, -1.0, -0.5};
  const double f[] = {8.0 / 7, 16.0 / 49, -80.0 / 343};
  const double uk[] = {2.0 / 7, 25.0 / 49, 191.0 / 686};
  for (int i = 0; i < 3; i++) {
    c.in.gap = gap[i];
    cairn_cm_output out = step(&c);
    assert_int_equal(out.active, 1);
    assert_rel(out.force_xyz[0], f[i], SEQ_TOL);
    assert_rel(c.state[S_FORCE], f[i], SEQ_TOL);
    assert_rel(c.state[S_UK], uk[i], SEQ_TOL);
    assert_true(c.state[S_UN] == -gap[i]);
    assert_true(out.force_xyz[1] == 0 && out.force_xyz[2] == 0); /* no shear motion */
    assert_true(out.kn_est == 2.0 && out.ks_est == 4.0);
  }
}

/* Shear along t (global z): displacement increments 1/2, 0, -1/4 (velocity 2, 0, -1 times
   dt 1/4). The force opposes the displacement: F_t = -2/3, 0, 1/9; Kelvin uk = 1/6, 1/6, -1/36. */
static void test_burger_shear_update_follows_the_hand_sequence(void **state) {
  (void)state;
  contact c = new_contact();
  c.in.gap = -1.0;
  const double v[] = {2.0, 0.0, -1.0};
  const double ft[] = {-2.0 / 3, 0.0, 1.0 / 9};
  const double uk[] = {1.0 / 6, 1.0 / 6, -1.0 / 36};
  for (int i = 0; i < 3; i++) {
    c.in.vel_xyz[2] = v[i];
    cairn_cm_output out = step(&c);
    if (ft[i] == 0)
      assert_true(fabs(out.force_xyz[2]) <= 1e-16);
    else
      assert_rel(out.force_xyz[2], ft[i], SEQ_TOL);
    assert_rel(c.state[S_UK + SZ], uk[i], SEQ_TOL);
    assert_true(out.force_xyz[1] == 0.0 && c.state[S_UK + SY] == 0.0);
    assert_true(c.state[S_UK + SX] == 0.0 && c.state[S_FORCE + SX] == 0.0); /* in the plane */
    assert_true(out.force_xyz[0] == c.state[S_FORCE]); /* the normal force alone along n */
    assert_true(c.state[S_SLIP] == 0.0);
    assert_int_equal(out.events, 0);
  }
}

/* In 3D both shear components follow the same scalar law: a velocity along (3, 4)/5 gives the
   force of the 1D sequence along the same direction. */
static void test_burger_shear_components_are_independent_without_slip(void **state) {
  (void)state;
  contact c = new_contact();
  c.in.gap = -1.0;
  c.in.vel_xyz[1] = 1.2; /* |v| = 2 */
  c.in.vel_xyz[2] = 1.6;
  cairn_cm_output out = step(&c);
  assert_rel(out.force_xyz[1], -2.0 / 3 * 0.6, SEQ_TOL);
  assert_rel(out.force_xyz[2], -2.0 / 3 * 0.8, SEQ_TOL);
}

/* Eqs. 21-23: strength fric * Fn (Fn > 0 in compression here); the shear force is scaled back to
   it, slip begins (event mode 0), and ends (mode 1) once the shear force falls below it. The
   Kelvin element carries the capped force. */
static void test_burger_slider_caps_the_shear_force_and_raises_events(void **state) {
  (void)state;
  contact c = new_contact();
  c.in.gap = -1.0;
  c.props[P_FRIC] = 0.25; /* strength 0.25 * 8/7 = 2/7 */
  c.in.vel_xyz[1] = 1.2;  /* unconstrained: 2/3 along -(3, 4)/5 */
  c.in.vel_xyz[2] = 1.6;
  cairn_cm_output out = step(&c);
  double fmax = 0.25 * 8.0 / 7;
  double mag = sqrt(out.force_xyz[1] * out.force_xyz[1] + out.force_xyz[2] * out.force_xyz[2]);
  assert_rel(mag, fmax, SEQ_TOL);
  assert_rel(out.force_xyz[1] / out.force_xyz[2], 0.75, SEQ_TOL); /* direction kept */
  assert_true(out.force_xyz[2] < 0);
  assert_true(c.state[S_SLIP] == 1.0);
  assert_int_equal(out.events, CAIRN_EV_SLIP_CHANGE);
  assert_int_equal(out.slip_mode, 0);
  /* Kelvin (shear: a = 1/4, B/A = 0): uk = a (g1 + 0) with g1 = -F, the capped force. */
  assert_rel(c.state[S_UK + SZ], 0.25 * fmax * 0.8, SEQ_TOL);

  /* Moving back a little unloads the spring below the strength (0.25 * 16/49 next step): with
     these constants g2 = du / C exactly, |g2| = 0.025 / 0.75 = 1/30; slip ends. */
  c.in.vel_xyz[1] = -0.06;
  c.in.vel_xyz[2] = -0.08;
  out = step(&c);
  mag = sqrt(out.force_xyz[1] * out.force_xyz[1] + out.force_xyz[2] * out.force_xyz[2]);
  assert_true(mag < 0.25 * c.state[S_FORCE]);
  assert_true(c.state[S_SLIP] == 0.0);
  assert_int_equal(out.events, CAIRN_EV_SLIP_CHANGE);
  assert_int_equal(out.slip_mode, 1);
}

/* Eq. 23 as written: with bur_fric = 0 the strength is 0 = |Fs|, so the contact slips from its
   first step (one slip_change event, mode 0) and carries no shear. */
static void test_burger_zero_friction_slips_from_the_first_step(void **state) {
  (void)state;
  contact c = new_contact();
  c.props[P_FRIC] = 0;
  c.in.gap = -1.0;
  cairn_cm_output out = step(&c);
  assert_true(c.state[S_SLIP] == 1.0);
  assert_int_equal(out.events, CAIRN_EV_SLIP_CHANGE);
  assert_int_equal(out.slip_mode, 0);
  c.in.vel_xyz[2] = 3.0;
  out = step(&c);
  assert_true(out.force_xyz[1] == 0.0 && out.force_xyz[2] == 0.0);
  assert_int_equal(out.events, 0); /* still slipping: no new event */
}

/* Mode 0 lets the normal force pull (third step of the hand sequence: -80/343), and a contact in
   tension has no shear strength. Mode 1 clips that step to 0 and the Kelvin element follows the
   clipped force: uk = 1/2 * 25/49 + 1/4 (0 + 16/49) = 33/98. */
static void test_burger_tension_mode(void **state) {
  (void)state;
  for (int mode = 0; mode <= 1; mode++) {
    contact c = new_contact();
    c.props[P_MODE] = mode;
    c.props[P_FRIC] = 10;
    const double gap[] = {-1.0, -1.0, -0.5};
    cairn_cm_output out;
    for (int i = 0; i < 3; i++) {
      c.in.gap = gap[i];
      c.in.vel_xyz[2] = i == 2 ? 0.1 : 0.0; /* a shear motion while the normal force pulls */
      out = step(&c);
    }
    if (mode == 0) {
      assert_rel(out.force_xyz[0], -80.0 / 343, SEQ_TOL);
      assert_true(out.force_xyz[2] == 0.0); /* no strength in tension */
      assert_true(c.state[S_SLIP] == 1.0);
      assert_int_equal(out.slip_mode, 0);
    } else {
      assert_true(out.force_xyz[0] == 0.0);
      assert_rel(c.state[S_UK], 33.0 / 98, SEQ_TOL);
    }
    assert_int_equal(out.active, 1);
  }
}

static void test_burger_open_contact_has_no_force_and_forgets_its_state(void **state) {
  (void)state;
  contact c = new_contact();
  c.in.gap = -1.0;
  c.in.vel_xyz[2] = 1.0;
  step(&c);
  c.in.gap = 1e-9;
  cairn_cm_output out = step(&c);
  assert_int_equal(out.active, 0);
  assert_int_equal(out.may_delete, 1);
  assert_int_equal(out.events, 0);
  for (int k = 0; k < 3; k++) assert_true(out.force_xyz[k] == 0.0);
  for (int k = 0; k < N_STATE; k++) assert_true(c.state[k] == 0.0);
  /* Touching exactly counts as active (gap <= 0), with no overlap and so no normal force. */
  c.in.gap = 0.0;
  c.in.vel_xyz[2] = 0.0;
  out = step(&c);
  assert_int_equal(out.active, 1);
  assert_true(out.force_xyz[0] == 0.0);
}

static void test_burger_validate_refuses_zeros_that_divide(void **state) {
  (void)state;
  char msg[256];
  contact c = new_contact();
  assert_null(cairn_model_burger.validate(c.props, 3, msg, sizeof msg));
  const int maxwell[] = {P_KNM, P_CNM, P_KSM, P_CSM};
  const char *names[] = {"'bur_knm'", "'bur_cnm'", "'bur_ksm'", "'bur_csm'"};
  for (int i = 0; i < 4; i++) {
    contact z = new_contact();
    z.props[maxwell[i]] = 0;
    const char *r = cairn_model_burger.validate(z.props, 2, msg, sizeof msg);
    assert_non_null(r);
    assert_non_null(strstr(r, names[i]));
  }
  contact k = new_contact();
  k.props[P_KSK] = k.props[P_CSK] = 0;
  const char *r = cairn_model_burger.validate(k.props, 3, msg, sizeof msg);
  assert_non_null(r);
  assert_non_null(strstr(r, "'bur_ksk' and 'bur_csk'"));
  contact inf = new_contact();
  inf.props[P_CNM] = INFINITY;
  assert_non_null(cairn_model_burger.validate(inf.props, 3, msg, sizeof msg));
  /* One of the Kelvin pair alone is a documented limit, accepted. */
  contact lim = new_contact();
  lim.props[P_CNK] = 0;
  lim.props[P_KSK] = 0;
  assert_null(cairn_model_burger.validate(lim.props, 3, msg, sizeof msg));
}

/* Ck = 0: the Kelvin section is its spring alone (a = 1/Kk, B/A = -1): a held overlap then
   relaxes like a Maxwell model of stiffness Kk Km / (Kk + Km); the first step already carries the
   series spring force up to the Maxwell dashpot's half step. With Kk = 1, Km = 2, Cm = 1, dt = 1/4:
   C = 1 + 1/2 + 1/8 = 13/8, f1 = 8/13, uk1 = 8/13 = f1 / Kk. */
static void test_burger_zero_kelvin_viscosity_is_a_plain_spring(void **state) {
  (void)state;
  contact c = new_contact();
  c.props[P_CNK] = 0;
  c.in.gap = -1.0;
  cairn_cm_output out = step(&c);
  assert_rel(out.force_xyz[0], 8.0 / 13, SEQ_TOL);
  assert_rel(c.state[S_UK], 8.0 / 13, SEQ_TOL);
  for (int i = 0; i < 5; i++) {
    out = step(&c);
    assert_rel(c.state[S_UK], out.force_xyz[0] / 1.0, SEQ_TOL); /* the spring's displacement */
  }
}

static void test_burger_stiffness_from_properties(void **state) {
  (void)state;
  contact c = new_contact();
  double kt = -1, kr = -1;
  cairn_model_burger.stiffness(c.props, &kt, &kr);
  assert_true(kt == 6.0); /* Kmn + Kms */
  assert_true(kr == 0.0);
}

/* Copy a state block field by field through the model's state table, matching rows by name and
   taking offsets from the types, as save/restore does (design.md: by name, never by position). */
static void copy_state_by_table(const cairn_contact_model *m, const double *src, double *dst) {
  int src_off = 0;
  for (int i = 0; i < m->n_state; i++) {
    int dst_off = 0, found = 0;
    for (int j = 0; j < m->n_state && !found; j++) {
      if (strcmp(m->state[j].name, m->state[i].name) == 0) {
        found = 1;
        break;
      }
      dst_off += cairn_state_slots(&m->state[j]);
    }
    assert_true(found);
    int n = cairn_state_slots(&m->state[i]);
    for (int k = 0; k < n; k++) dst[dst_off + k] = src[src_off + k];
    src_off += n;
  }
}

/* Run a contact through loading, sliding and unloading, copy its state into a fresh block half
   way, and continue both: every later output and state must be bitwise identical. */
static void test_burger_state_round_trips_through_the_table(void **state) {
  (void)state;
  contact a = new_contact();
  a.props[P_FRIC] = 0.3;
  a.in.gap = -1.0;
  for (int i = 0; i < 7; i++) {
    a.in.vel_xyz[1] = 0.3 * i;
    a.in.vel_xyz[2] = 1.0 - 0.1 * i;
    step(&a);
  }
  contact b = a;
  memset(b.state, 0xff, sizeof b.state); /* garbage, to be overwritten field by field */
  copy_state_by_table(&cairn_model_burger, a.state, b.state);
  assert_memory_equal(a.state, b.state, sizeof a.state);
  for (int i = 0; i < 20; i++) {
    a.in.gap = b.in.gap = -1.0 + 0.03 * i;
    a.in.vel_xyz[1] = b.in.vel_xyz[1] = -0.2 * i;
    a.in.vel_xyz[2] = b.in.vel_xyz[2] = 0.5 - 0.05 * i;
    cairn_cm_output oa = step(&a), ob = step(&b);
    assert_memory_equal(&oa, &ob, sizeof oa);
    assert_memory_equal(a.state, b.state, sizeof a.state);
  }
}

/* Opening ends slip silently: the call in which a sliding contact opens (also the engine's last
   call before it deletes the contact) raises no event, and later open calls none either. */
static void test_burger_opening_while_sliding_raises_no_event(void **state) {
  (void)state;
  contact c = new_contact();
  c.props[P_FRIC] = 0.25;
  c.in.gap = -1.0;
  c.in.vel_xyz[2] = 2.0;
  cairn_cm_output out = step(&c);
  assert_true(c.state[S_SLIP] == 1.0);
  assert_int_equal(out.events, CAIRN_EV_SLIP_CHANGE);
  for (int i = 0; i < 2; i++) {
    c.in.gap = 0.5;
    out = step(&c);
    assert_int_equal(out.events, 0);
    assert_int_equal(out.active, 0);
    assert_int_equal(out.may_delete, 1);
    assert_true(c.state[S_SLIP] == 0.0);
  }
}

/* Rotate v about z by angle a. */
static void rot_z(const double v[3], double a, double r[3]) {
  r[0] = v[0] * cos(a) - v[1] * sin(a);
  r[1] = v[0] * sin(a) + v[1] * cos(a);
  r[2] = v[2];
}

/* The shear history (force and Kelvin displacement) is kept as global vectors that the model turns
   onto the new contact plane: a contact whose normal has turned by a about z, driven by the
   rotated velocities, matches the contact with the unturned normal rotated by a, step for step.
   Here the shear lies in the plane of the rotation (along y, turned about z), where turning onto
   the plane is the rotation itself (contact_model.h, cairn_cm_turn), so only rounding separates
   them: a few roundings per step on values of order 1, 1e-14 relative to the magnitudes. A
   normal velocity along the turned normal is no shear. */
static void test_burger_shear_history_turns_with_the_normal(void **state) {
  (void)state;
  contact a = new_contact(); /* the reference: normal along x throughout */
  a.in.gap = -1.0;
  a.in.vel_xyz[1] = 2.0;
  for (int i = 0; i < 2; i++) step(&a);
  contact b = a;
  const double ang = 0.3;
  double n1[3];
  rot_z(a.in.n, ang, n1);
  for (int k = 0; k < 3; k++) b.in.n[k] = n1[k];
  const double va[][3] = {{0, 0, 0}, {0, 1.0, 0}, {0, 0.5, 0}, {0, 2.0, 0}};
  const double vn[] = {0.0, 0.0, 0.7, -0.4}; /* normal velocity (ignored: the gap rules) */
  for (int i = 0; i < 4; i++) {
    for (int k = 0; k < 3; k++) a.in.vel_xyz[k] = va[i][k];
    rot_z(va[i], ang, b.in.vel_xyz);
    for (int k = 0; k < 3; k++) b.in.vel_xyz[k] += vn[i] * n1[k];
    cairn_cm_output oa = step(&a), ob = step(&b);
    /* The normal slots do not depend on the normal's direction. */
    assert_true(b.state[S_FORCE] == a.state[S_FORCE] && b.state[S_UK] == a.state[S_UK]);
    assert_true(b.state[S_UN] == a.state[S_UN] && b.state[S_SLIP] == a.state[S_SLIP]);
    assert_int_equal(ob.events, oa.events);
    double fa[3], uka[3], outa[3];
    rot_z(a.state + S_FORCE + 1, ang, fa);
    rot_z(a.state + S_UK + 1, ang, uka);
    rot_z(oa.force_xyz, ang, outa);
    double fmag = sqrt(fa[0] * fa[0] + fa[1] * fa[1]),
           ukmag = sqrt(uka[0] * uka[0] + uka[1] * uka[1]);
    double omag = sqrt(outa[0] * outa[0] + outa[1] * outa[1]);
    assert_true(fmag > 0.2 && ukmag > 0.1); /* a shear history to turn */
    for (int k = 0; k < 2; k++) {
      if (fabs(b.state[S_FORCE + 1 + k] - fa[k]) > SEQ_TOL * fmag)
        fail_msg("step %d: force[%d] = %.17g, expected %.17g", i, k, b.state[S_FORCE + 1 + k],
                 fa[k]);
      if (fabs(b.state[S_UK + 1 + k] - uka[k]) > SEQ_TOL * ukmag)
        fail_msg("step %d: uk[%d] = %.17g, expected %.17g", i, k, b.state[S_UK + 1 + k], uka[k]);
      if (fabs(ob.force_xyz[k] - outa[k]) > SEQ_TOL * omag)
        fail_msg("step %d: out[%d] = %.17g, expected %.17g", i, k, ob.force_xyz[k], outa[k]);
    }
    assert_true(b.state[S_FORCE + SZ] == 0.0 && b.state[S_UK + SZ] == 0.0 &&
                ob.force_xyz[2] == 0.0);
  }
}

/* Energy: with energy tracked, the springs' energy (the hook's strain) plus the dashpot and slip
   losses equal the work done on the contact, step by step: W = sum of the mean normal force times
   the overlap increment, plus the mean shear resistance -F_s times the shear displacement vs dt,
   with the last force turned onto the current plane (the model's own turn); when the contact
   opens the springs' energy is booked as lost and the sums survive. The normal turns every step
   (out of the plane too), the shear slips at times, and the velocity has a normal part. Rounding
   only: 1e-12 of the largest term. */
static void test_burger_energy_balances_the_work_with_a_turning_normal(void **state) {
  (void)state;
  contact c = new_contact();
  c.props[P_FRIC] = 0.4;
  c.in.energy = 1;
  double work = 0, scale = 0;
  for (int i = 0; i < 40; i++) {
    double th = 0.05 * i, ph = 0.03 * i;
    double n[3] = {cos(th) * cos(ph), sin(th) * cos(ph), sin(ph)};
    double v[3] = {0.3 * sin(0.7 * i), 1.5 * cos(0.4 * i), -0.8 + 0.05 * i};
    c.in.gap = i < 36 ? -1.0 + 0.02 * i : 0.1; /* opens at step 36 */
    for (int k = 0; k < 3; k++) c.in.n[k] = n[k], c.in.vel_xyz[k] = v[k];
    double f0[3] = {c.state[S_FORCE + 1], c.state[S_FORCE + 2], c.state[S_FORCE + 3]};
    cairn_cm_turn(f0, n);
    double fn0 = c.state[S_FORCE], un0 = c.state[S_UN], vs[3];
    (void)cairn_cm_split(v, n, vs);
    cairn_cm_output out = step(&c);
    const double *f1 = c.state + S_FORCE + 1;
    double un1 = c.in.gap > 0 ? -c.in.gap : c.state[S_UN];
    double dw = 0.5 * (fn0 + c.state[S_FORCE]) * (un1 - un0);
    for (int k = 0; k < 3; k++) dw -= 0.5 * (f0[k] + f1[k]) * vs[k] * c.in.dt;
    work += dw;
    scale = fmax(scale, fabs(dw));
    double e[CAIRN_ENERGY_N] = {0, 0, 0};
    cairn_model_burger.energy(c.props, c.state, e);
    double sum = e[CAIRN_ENERGY_STRAIN] + e[CAIRN_ENERGY_DASHPOT] + e[CAIRN_ENERGY_SLIP];
    if (fabs(sum - work) > 1e-12 * fmax(scale, fabs(work)))
      fail_msg("step %d: stored + lost = %.17g, work = %.17g", i, sum, work);
    assert_true(e[CAIRN_ENERGY_DASHPOT] > 0);
    if (i >= 36) {
      assert_int_equal(out.active, 0);
      assert_true(e[CAIRN_ENERGY_STRAIN] == 0.0);
    }
  }
  double e[CAIRN_ENERGY_N] = {0, 0, 0};
  cairn_model_burger.energy(c.props, c.state, e);
  assert_true(e[CAIRN_ENERGY_SLIP] > 0); /* it slipped */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_burger_tables_match_the_documented_order),
      cmocka_unit_test(test_burger_normal_update_follows_the_hand_sequence),
      cmocka_unit_test(test_burger_shear_update_follows_the_hand_sequence),
      cmocka_unit_test(test_burger_shear_components_are_independent_without_slip),
      cmocka_unit_test(test_burger_slider_caps_the_shear_force_and_raises_events),
      cmocka_unit_test(test_burger_zero_friction_slips_from_the_first_step),
      cmocka_unit_test(test_burger_tension_mode),
      cmocka_unit_test(test_burger_open_contact_has_no_force_and_forgets_its_state),
      cmocka_unit_test(test_burger_validate_refuses_zeros_that_divide),
      cmocka_unit_test(test_burger_zero_kelvin_viscosity_is_a_plain_spring),
      cmocka_unit_test(test_burger_stiffness_from_properties),
      cmocka_unit_test(test_burger_state_round_trips_through_the_table),
      cmocka_unit_test(test_burger_opening_while_sliding_raises_no_event),
      cmocka_unit_test(test_burger_shear_history_turns_with_the_normal),
      cmocka_unit_test(test_burger_energy_balances_the_work_with_a_turning_normal),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
