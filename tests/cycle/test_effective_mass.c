/* Tests of the effective mass the engine hands to contact models (src/cycle/cycle.c,
   design.md "Effective mass"): the reduced mass of two free balls, the ball's mass against a
   wall or against a ball fixed in every velocity component, and the reduced mass of the actual
   masses when both balls are fixed. A probe model records in->m_eff in its state. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "contact/contact.h"
#include "cycle/cycle.h"
#include "world/world.h"

/* |a - b| <= tol, both printed on failure (cmocka 1.1.5 has no assert for doubles). */
#define assert_near(a, b, tol)                                                                     \
  do {                                                                                             \
    double a_ = (a), b_ = (b), t_ = (tol);                                                         \
    if (!(fabs(a_ - b_) <= t_)) fail_msg("%s = %.17g, expected %.17g within %g", #a, a_, b_, t_);  \
  } while (0)

/* Masses come from density * volume (pi and a cube): the reduced mass is a few roundings away
   from the value computed here the same way, so 1e-14 relative. */
#define REL 1e-14

static const cairn_state_desc probe_state[] = {
    {"probe_meff", CAIRN_PROP_FLT, 0, "kg", "m_eff given by the engine"},
};

static void probe_force(const cairn_cm_input *in, const double *p, const double *derived,
                        double *st, cairn_cm_output *out) {
  (void)p, (void)derived;
  st[0] = in->m_eff;
  out->active = in->gap < 0;
}

static void probe_stiffness(const double *p, double *kt, double *kr) {
  (void)p;
  *kt = 1.0, *kr = 0.0;
}

static const cairn_contact_model probe = {
    .abi_version = CAIRN_CM_ABI_VERSION,
    .name = "meff_probe",
    .version = 1,
    .doc = "records the effective mass",
    .state = probe_state,
    .n_state = 1,
    .force = probe_force,
    .stiffness = probe_stiffness,
};

/* A world of dimension dim with balls 1 (density 1000) and 2 (density 3000) of radius 0.1
   overlapping by 0.01 along x, the probe on every contact kind. */
static cairn_world *make_world(int dim) {
  cairn_world_opts o = {.dim = dim};
  cairn_diag d = {{0}};
  cairn_world *w = NULL;
  if (cairn_world_create(&o, &w, &d) != CAIRN_OK) return NULL;
  if (registry_add(w->reg, &probe, "test", &d) != CAIRN_OK) return NULL;
  for (int k = 0; k < 2; k++)
    if (cmat_set_default(w, k, "meff_probe", 0.0, &d) != CAIRN_OK) return NULL;
  ball_spec b1 = {.id = 1, .rad = 0.1, .density = 1000};
  ball_spec b2 = {.id = 2, .rad = 0.1, .density = 3000, .pos = {0.19, 0, 0}};
  int64_t id;
  if (ball_create(w, &b1, &id, &d) || ball_create(w, &b2, &id, &d)) return NULL;
  w->ts_mode = TS_FIXED;
  w->dt = 1e-6;
  return w;
}

static double mass(cairn_world *w, int64_t id) {
  uint32_t s;
  cairn_diag d = {{0}};
  assert_int_equal(ball_slot(w, id, &s, &d), CAIRN_OK);
  return w->balls.mass[s];
}

static void fix_velocity(cairn_world *w, int64_t id, unsigned bits) {
  uint32_t s;
  cairn_diag d = {{0}};
  assert_int_equal(ball_slot(w, id, &s, &d), CAIRN_OK);
  w->balls.fix[s] |= (uint8_t)bits;
}

/* One step, then the m_eff the model saw on contact (kind, id1, id2). */
static double seen(cairn_world *w, int kind, int64_t id1, int64_t id2) {
  cairn_diag d = {{0}};
  assert_int_equal(cycle_run(w, 1, &d), CAIRN_OK);
  uint32_t c;
  assert_int_equal(contact_find(w, kind, id1, id2, &c, &d), CAIRN_OK);
  double v[3];
  int n;
  assert_int_equal(contact_prop_get(w, c, "probe_meff", v, &n, &d), CAIRN_OK);
  return v[0];
}

static void test_effective_mass_of_two_free_balls_is_the_reduced_mass(void **state) {
  (void)state;
  for (int dim = 2; dim <= 3; dim++) {
    cairn_world *w = make_world(dim);
    assert_non_null(w);
    double m1 = mass(w, 1), m2 = mass(w, 2), mr = m1 * m2 / (m1 + m2);
    assert_true(m2 > 2.9 * m1); /* unequal, so the arithmetic mean would differ (seed 004) */
    assert_near(seen(w, CAIRN_KIND_BALL_BALL, 1, 2), mr, REL * mr);
    cairn_world_destroy(&w);
  }
}

static void test_effective_mass_against_a_wall_is_the_ball_mass(void **state) {
  (void)state;
  for (int dim = 2; dim <= 3; dim++) {
    cairn_world *w = make_world(dim);
    assert_non_null(w);
    wall_spec ws = {.id = 1};
    if (dim == 2) {
      ws.kind = WALL_SEGMENT, ws.n_nodes = 2;
      ws.nodes[0][0] = 0.1, ws.nodes[0][1] = -1; /* x = 0.1 is inside ball 2 (x 0.09 .. 0.29) */
      ws.nodes[1][0] = 0.1, ws.nodes[1][1] = 1;
    } else {
      /* x = 0.25 is inside ball 2, facing it; ball 1 (whose centre was behind the plane at
         x = 0.1 facing +x, refused now) is out of its reach */
      ws.kind = WALL_PLANE, ws.point[0] = 0.25, ws.normal[0] = -1;
    }
    int64_t id;
    cairn_diag d = {{0}};
    assert_int_equal(wall_create(w, &ws, &id, &d), CAIRN_OK);
    double m2 = mass(w, 2);
    assert_true(seen(w, CAIRN_KIND_BALL_WALL, 2, 1) == m2);
    cairn_world_destroy(&w);
  }
}

static void test_effective_mass_with_a_fixed_ball_is_the_other_mass(void **state) {
  (void)state;
  for (int dim = 2; dim <= 3; dim++) {
    /* Fixed in every velocity component (x and y in 2D): infinitely heavy. */
    cairn_world *w = make_world(dim);
    assert_non_null(w);
    fix_velocity(w, 1, dim == 2 ? (FIX_VX | FIX_VY) : FIX_VEL);
    assert_true(seen(w, CAIRN_KIND_BALL_BALL, 1, 2) == mass(w, 2));
    cairn_world_destroy(&w);
    w = make_world(dim);
    fix_velocity(w, 2, FIX_VEL);
    assert_true(seen(w, CAIRN_KIND_BALL_BALL, 1, 2) == mass(w, 1));
    cairn_world_destroy(&w);
    /* Fixed in one component only: still free along the others, so the reduced mass. */
    w = make_world(dim);
    fix_velocity(w, 1, FIX_VX);
    double m1 = mass(w, 1), m2 = mass(w, 2), mr = m1 * m2 / (m1 + m2);
    assert_near(seen(w, CAIRN_KIND_BALL_BALL, 1, 2), mr, REL * mr);
    cairn_world_destroy(&w);
  }
}

static void test_effective_mass_of_two_fixed_balls_is_their_reduced_mass(void **state) {
  (void)state;
  cairn_world *w = make_world(3);
  assert_non_null(w);
  fix_velocity(w, 1, FIX_VEL);
  fix_velocity(w, 2, FIX_VEL);
  double m1 = mass(w, 1), m2 = mass(w, 2), mr = m1 * m2 / (m1 + m2);
  assert_near(seen(w, CAIRN_KIND_BALL_BALL, 1, 2), mr, REL * mr);
  cairn_world_destroy(&w);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_effective_mass_of_two_free_balls_is_the_reduced_mass),
      cmocka_unit_test(test_effective_mass_against_a_wall_is_the_ball_mass),
      cmocka_unit_test(test_effective_mass_with_a_fixed_ball_is_the_other_mass),
      cmocka_unit_test(test_effective_mass_of_two_fixed_balls_is_their_reduced_mass),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
