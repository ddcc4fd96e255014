/* Tests of src/world/measure.c: the exact intersection areas and volumes against hand values,
   the box-sphere integration against closed forms and a partition sum, and the signs of the
   stress and strain rate on small hand-built worlds. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "contact/contact.h"
#include "cycle/cycle.h"
#include "measure/measure.h"

/* |a - b| <= tol * |b| (or tol when b is 0), both printed on failure. */
#define assert_near(a, b, tol)                                                                     \
  do {                                                                                             \
    double a_ = (a), b_ = (b), t_ = (tol);                                                         \
    if (!(fabs(a_ - b_) <= t_ * (b_ != 0 ? fabs(b_) : 1.0)))                                       \
      fail_msg("%s = %.17g, expected %.17g within %g", #a, a_, b_, t_);                            \
  } while (0)

static void test_measure_circle_disk_area_matches_hand_values(void **state) {
  (void)state;
  /* Two unit circles one radius apart: lens area 2 pi / 3 - sqrt(3) / 2. */
  assert_near(meas_circle_disk_area(1, 1, 1), 2 * M_PI / 3 - sqrt(3) / 2, 1e-15);
  assert_near(meas_circle_disk_area(2, 0.5, 1), M_PI * 0.25, 1e-15); /* inside */
  assert_near(meas_circle_disk_area(0.5, 2, 1.2), M_PI * 0.25, 1e-15);
  assert_near(meas_circle_disk_area(1, 1, 2), 0, 0); /* touching */
  /* Circles of radii 1 and sqrt(3) at distance 2 (they cross at right angles), by hand:
     r^2 acos(1/2) + R^2 acos(sqrt(3)/2) - sqrt(12)/2 = pi/3 + pi/2 - sqrt(3). */
  assert_near(meas_circle_disk_area(sqrt(3), 1, 2), M_PI / 3 + M_PI / 2 - sqrt(3), 1e-14);
}

static void test_measure_sphere_sphere_volume_matches_hand_values(void **state) {
  (void)state;
  /* Equal unit spheres one radius apart: two caps of height 1/2, pi h^2 (3 r - h) / 3 each. */
  double cap = M_PI * 0.25 * (3 - 0.5) / 3;
  assert_near(meas_sphere_sphere_volume(1, 1, 1), 2 * cap, 1e-15);
  assert_near(meas_sphere_sphere_volume(3, 1, 1.5), 4.0 / 3.0 * M_PI, 1e-15);
  assert_near(meas_sphere_sphere_volume(1, 1, 2.5), 0, 0);
  /* R = 2, r = 1, d = 2: the plane of the circle of intersection lies at x = (d^2 + R^2 -
     r^2) / 2d = 7/4, so caps of heights 2 - 7/4 = 1/4 (big) and 1 - 1/4 = 3/4 (small). */
  double v = M_PI * (0.25 * 0.25) * (6 - 0.25) / 3 + M_PI * (0.75 * 0.75) * (3 - 0.75) / 3;
  assert_near(meas_sphere_sphere_volume(2, 1, 2), v, 1e-14);
}

static void test_measure_rect_disk_area_matches_hand_values(void **state) {
  (void)state;
  double c[2] = {0, 0};
  double lo1[2] = {-5, -5}, hi1[2] = {5, 5};
  assert_near(meas_rect_disk_area(lo1, hi1, c, 1), M_PI, 1e-15);
  double lo2[2] = {0, 0}, hi2[2] = {5, 5}; /* corner at the centre: a quarter */
  assert_near(meas_rect_disk_area(lo2, hi2, c, 1), M_PI / 4, 1e-15);
  double lo3[2] = {-5, 0.5}, hi3[2] = {5, 5}; /* segment beyond a chord at 1/2 */
  assert_near(meas_rect_disk_area(lo3, hi3, c, 1), M_PI / 3 - sqrt(3) / 4, 1e-14);
  double lo4[2] = {-5, -0.5}, hi4[2] = {5, 0.5}; /* band: disk minus two segments */
  assert_near(meas_rect_disk_area(lo4, hi4, c, 1), M_PI - 2 * (M_PI / 3 - sqrt(3) / 4), 1e-14);
  double lo5[2] = {2, 2}, hi5[2] = {3, 3};
  assert_near(meas_rect_disk_area(lo5, hi5, c, 1), 0, 0);
  /* A small rectangle wholly inside the disk is its own area. */
  double lo6[2] = {-0.3, -0.2}, hi6[2] = {0.4, 0.5};
  assert_near(meas_rect_disk_area(lo6, hi6, c, 1), 0.7 * 0.7, 1e-14);
}

static void test_measure_box_sphere_volume_matches_closed_forms(void **state) {
  (void)state;
  double c[3] = {0.1, -0.2, 0.3}, r = 1.3, v = 4.0 / 3.0 * M_PI * r * r * r;
  double lo[3] = {0.1, -0.2, 0.3}, hi[3] = {9, 9, 9}; /* a corner at the centre: an octant */
  assert_near(meas_box_sphere_volume(lo, hi, c, r), v / 8, 1e-14);
  double lo2[3] = {-9, -0.2, 0.3}; /* an edge through the centre: a quarter */
  assert_near(meas_box_sphere_volume(lo2, hi, c, r), v / 4, 1e-14);
  /* One face at distance 0.4 from the centre (y): a cap of height h = r - 0.4. */
  double h = r - 0.4, cap = M_PI * h * h * (3 * r - h) / 3;
  double lo3[3] = {-9, 0.2, -9};
  assert_near(meas_box_sphere_volume(lo3, hi, c, r), cap, 1e-14);
  /* The same cap cut across x and across z. */
  double lo4[3] = {0.5, -9, -9}, lo5[3] = {-9, -9, 0.7};
  assert_near(meas_box_sphere_volume(lo4, hi, c, r), cap, 1e-14);
  assert_near(meas_box_sphere_volume(lo5, hi, c, r), cap, 1e-14);
}

/* Planes x = a, y = b, z = e split space into 8 boxes; the sphere's parts in them must add up to
   the whole sphere, whatever the (generic) offsets: each part exercises edge and corner cuts. */
static void test_measure_box_sphere_volume_parts_add_up(void **state) {
  (void)state;
  double c[3] = {0, 0, 0}, r = 1.0, cut[3] = {0.31, -0.47, 0.62}, big = 10;
  double sum = 0;
  for (int m = 0; m < 8; m++) {
    double lo[3], hi[3];
    for (int k = 0; k < 3; k++) {
      int up = (m >> k) & 1;
      lo[k] = up ? cut[k] : -big;
      hi[k] = up ? big : cut[k];
    }
    sum += meas_box_sphere_volume(lo, hi, c, r);
  }
  assert_near(sum, 4.0 / 3.0 * M_PI, 1e-14);
  /* Cuts a hair's breadth from the centre: slices then reach the circle next to an edge, where
     asin(x / r) would lose half the digits (hence atan2 with the exact half chord). */
  for (double e = 1e-2; e > 1e-15; e *= 0.1) {
    double cut2[3] = {e, -e, 2 * e};
    sum = 0;
    for (int m = 0; m < 8; m++) {
      double lo[3], hi[3];
      for (int k = 0; k < 3; k++) {
        int up = (m >> k) & 1;
        lo[k] = up ? cut2[k] : -big;
        hi[k] = up ? big : cut2[k];
      }
      sum += meas_box_sphere_volume(lo, hi, c, r);
    }
    assert_near(sum, 4.0 / 3.0 * M_PI, 1e-14);
  }
  /* A thin slab at generic offsets against the difference of two caps. */
  double lo[3] = {-big, 0.2, -big}, hi[3] = {big, 0.9, big};
  double h1 = 1 - 0.2, h2 = 1 - 0.9;
  double slab = M_PI * h1 * h1 * (3 - h1) / 3 - M_PI * h2 * h2 * (3 - h2) / 3;
  assert_near(meas_box_sphere_volume(lo, hi, c, r), slab, 1e-14);
}

static int setup(void **state, int dim) {
  cairn_world_opts o = {.dim = dim};
  cairn_diag d = {{0}};
  cairn_world *w = NULL;
  if (cairn_world_create(&o, &w, &d) != CAIRN_OK) return -1;
  *state = w;
  return 0;
}
static int setup2(void **state) {
  return setup(state, 2);
}
static int setup3(void **state) {
  return setup(state, 3);
}
static int teardown(void **state) {
  cairn_world *w = *state;
  cairn_world_destroy(&w);
  return 0;
}

static void add_ball(cairn_world *w, double x, double y, double z, double r) {
  cairn_diag d = {{0}};
  ball_spec b = {.rad = r, .density = 1000, .pos = {x, y, z}};
  int64_t id;
  assert_int_equal(ball_create(w, &b, &id, &d), CAIRN_OK);
}

/* Two fixed disks overlapping by 0.01 along x with kn = 1e6: one contact, force 1e4 pushing
   them apart; the stress in a 1 x 1 box around the contact point is f l / A = 1e4 * 0.19 in xx,
   positive because compression is positive. */
static void test_measure_stress_is_positive_in_compression(void **state) {
  cairn_world *w = *state;
  cairn_diag d = {{0}};
  assert_int_equal(cmat_set_default(w, CAIRN_KIND_BALL_BALL, "linear", 0.0, &d), CAIRN_OK);
  double kn = 1e6;
  assert_int_equal(cmat_set_prop(w, CAIRN_KIND_BALL_BALL, "kn", &kn, 1, &d), CAIRN_OK);
  add_ball(w, 0, 0, 0, 0.1);
  add_ball(w, 0.19, 0, 0, 0.1);
  for (uint32_t i = 0; i < 2; i++) w->balls.fix[i] = FIX_VEL | FIX_SPIN;
  w->ts_mode = TS_FIXED;
  w->dt = 1e-6;
  assert_int_equal(cycle_run(w, 1, &d), CAIRN_OK);
  meas_region r = {.shape = MEAS_BOX, .dim = 2, .lo = {-0.405, -0.5}, .hi = {0.595, 0.5}};
  double s[9];
  size_t nc;
  meas_stress(w, &r, s, &nc);
  assert_int_equal(nc, 1);
  assert_near(s[0], 1e4 * 0.19, 1e-12);
  assert_near(s[1], 0, 1e-9);
  assert_near(s[3], 0, 1e-9);
  assert_near(s[4], 0, 1e-9);
  size_t nb;
  assert_near(meas_coordination(w, &r, 0, &nb), 1.0, 0);
  assert_int_equal(nb, 2);
  /* A region that holds neither the contact point nor a centre measures nothing. */
  meas_region far = {.shape = MEAS_CIRCLE, .dim = 2, .centre = {5, 5}, .radius = 1};
  meas_stress(w, &far, s, &nc);
  assert_int_equal(nc, 0);
  assert_near(meas_coordination(w, &far, 1, &nb), 0, 0);
}

/* Balls moving with v = G x: the fitted strain rate is -(G + G^T) / 2 to round-off. */
static void test_measure_strain_rate_recovers_a_linear_field(void **state) {
  cairn_world *w = *state;
  double G[3][3] = {{-0.1, 0.02, 0}, {0.04, 0.3, -0.05}, {0.01, 0, -0.2}};
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 5; j++)
      for (int k = 0; k < 5; k++) add_ball(w, i + 0.1 * j, j + 0.05 * k * k, k + 0.1 * i, 0.1);
  for (size_t b = 0; b < w->balls.n; b++)
    for (int p = 0; p < 3; p++) {
      w->balls.vel[b][p] = 0.7 * p;
      for (int q = 0; q < 3; q++) w->balls.vel[b][p] += G[p][q] * w->balls.pos[b][q];
    }
  meas_region r = {.shape = MEAS_SPHERE, .dim = 3, .centre = {2, 2, 2}, .radius = 2.2};
  double e[9];
  cairn_diag d = {{0}};
  assert_int_equal(meas_strain_rate(w, &r, e, &d), CAIRN_OK);
  for (int p = 0; p < 3; p++)
    for (int q = 0; q < 3; q++)
      if (fabs(e[3 * p + q] + 0.5 * (G[p][q] + G[q][p])) > 1e-13)
        fail_msg("e[%d][%d] = %.17g, expected %.17g", p, q, e[3 * p + q],
                 -0.5 * (G[p][q] + G[q][p]));
  /* Too few balls, or all on a line, is refused with a message. */
  meas_region tiny = {.shape = MEAS_SPHERE, .dim = 3, .centre = {0, 0, 0}, .radius = 0.01};
  assert_int_equal(meas_strain_rate(w, &tiny, e, &d), CAIRN_EINVAL);
  assert_non_null(strstr(d.msg, "the fit needs at least 4"));
  meas_region line = {
      .shape = MEAS_BOX, .dim = 3, .lo = {-0.5, -0.01, -0.01}, .hi = {9, 0.01, 0.6}};
  assert_int_equal(meas_strain_rate(w, &line, e, &d), CAIRN_EINVAL);
  assert_non_null(strstr(d.msg, "lie on a line or plane"));
}

static void test_measure_region_check_names_the_problem(void **state) {
  (void)state;
  cairn_diag d = {{0}};
  meas_region r = {.shape = MEAS_SPHERE, .dim = 2, .radius = 1};
  assert_int_equal(meas_region_check(&r, "measure.create", &d), CAIRN_EINVAL);
  assert_non_null(strstr(d.msg, "a sphere is a 3D region"));
  meas_region r2 = {.shape = MEAS_CIRCLE, .dim = 2, .radius = -1};
  assert_int_equal(meas_region_check(&r2, "measure.create", &d), CAIRN_EINVAL);
  assert_non_null(strstr(d.msg, "radius must be > 0 (got -1)"));
  meas_region r3 = {.shape = MEAS_BOX, .dim = 3, .lo = {0, 0, 0}, .hi = {1, 0, 1}};
  assert_int_equal(meas_region_check(&r3, "measure.create", &d), CAIRN_EINVAL);
  assert_non_null(strstr(d.msg, "coordinate 2"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_measure_circle_disk_area_matches_hand_values),
      cmocka_unit_test(test_measure_sphere_sphere_volume_matches_hand_values),
      cmocka_unit_test(test_measure_rect_disk_area_matches_hand_values),
      cmocka_unit_test(test_measure_box_sphere_volume_matches_closed_forms),
      cmocka_unit_test(test_measure_box_sphere_volume_parts_add_up),
      cmocka_unit_test_setup_teardown(test_measure_stress_is_positive_in_compression, setup2,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_measure_strain_rate_recovers_a_linear_field, setup3,
                                      teardown),
      cmocka_unit_test(test_measure_region_check_names_the_problem),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
