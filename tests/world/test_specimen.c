/* Tests of src/world/specimen.c: the random-number generator (reference values, determinism),
   size distributions, generation (reproducible, no overlap, inside the region, all or nothing
   with a message when the target cannot be reached) and lattices. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "world/specimen.h"

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

/* splitmix64 from seed 1234567: the reference sequence of Vigna's splitmix64.c. */
static void test_specimen_splitmix64_gives_the_reference_sequence(void **state) {
  (void)state;
  static const uint64_t ref[5] = {6457827717110365317ULL, 3203168211198807973ULL,
                                  9817491932198370423ULL, 4593380528125082431ULL,
                                  16408922859458223821ULL};
  uint64_t x = 1234567;
  for (int i = 0; i < 5; i++) assert_true(spec_splitmix64(&x) == ref[i]);
}

static void test_specimen_rng_is_deterministic_and_in_range(void **state) {
  (void)state;
  spec_rng a, b, c;
  spec_rng_seed(&a, 42);
  spec_rng_seed(&b, 42);
  spec_rng_seed(&c, 43);
  int differ = 0;
  double sum = 0;
  for (int i = 0; i < 100000; i++) {
    uint64_t x = spec_rng_next(&a), y = spec_rng_next(&b), z = spec_rng_next(&c);
    assert_true(x == y);
    differ += x != z;
    spec_rng_seed(&a, (uint64_t)i); /* reseeding restarts the sequence */
    spec_rng_seed(&b, (uint64_t)i);
    double u = spec_rng_uniform(&a);
    assert_true(u >= 0 && u < 1);
    assert_true(u == spec_rng_uniform(&b));
    sum += u;
  }
  assert_true(differ > 99990);
  /* Mean of 1e5 uniforms: 0.5 within 5 standard deviations (sqrt(1/12/1e5) = 9.1e-4). */
  assert_true(fabs(sum / 1e5 - 0.5) < 5 * 9.1e-4);
}

static void test_specimen_size_curve_cdf_by_number_is_linear(void **state) {
  (void)state;
  spec_size z = {.kind = SIZE_CURVE, .n_pts = 3, .by_number = 1};
  z.diam[0] = 1, z.diam[1] = 2, z.diam[2] = 4;
  z.frac[0] = 0, z.frac[1] = 0.5, z.frac[2] = 1;
  cairn_diag d = {{0}};
  assert_int_equal(spec_size_check(&z, &d), CAIRN_OK);
  assert_true(fabs(spec_size_cdf(&z, 3, 0.75) - 0.25) < 1e-15); /* d = 1.5 */
  assert_true(fabs(spec_size_cdf(&z, 3, 1.5) - 0.75) < 1e-15);  /* d = 3 */
  /* By mass in 3D, one bin: number density ~ d^-3, CDF (1 - d^-2) / (1 - 1/4) on [1, 2]. */
  spec_size m = {.kind = SIZE_CURVE, .n_pts = 2};
  m.diam[0] = 1, m.diam[1] = 2, m.frac[0] = 0, m.frac[1] = 1;
  assert_true(fabs(spec_size_cdf(&m, 3, 0.75) - (1 - 1 / 2.25) / 0.75) < 1e-15);
  /* Draws follow the CDF: the drawn radius maps to its uniform through the CDF. */
  spec_rng g;
  spec_rng_seed(&g, 5);
  double mean_u = 0;
  for (int i = 0; i < 10000; i++) mean_u += spec_size_cdf(&m, 3, spec_size_draw(&m, 3, &g));
  assert_true(fabs(mean_u / 1e4 - 0.5) < 5 * 2.9e-3);
}

static void test_specimen_size_check_refuses_bad_curves(void **state) {
  (void)state;
  cairn_diag d = {{0}};
  spec_size z = {.kind = SIZE_CURVE, .n_pts = 2};
  z.diam[0] = 1, z.diam[1] = 2, z.frac[0] = 0.1, z.frac[1] = 1;
  assert_int_equal(spec_size_check(&z, &d), CAIRN_EINVAL);
  assert_non_null(strstr(d.msg, "must start at 0 % passing"));
  z.frac[0] = 0, z.diam[1] = 0.5;
  assert_int_equal(spec_size_check(&z, &d), CAIRN_EINVAL);
  assert_non_null(strstr(d.msg, "diameters must increase"));
  spec_size n = {.kind = SIZE_NORMAL, .rmin = 1, .rmax = 1.1, .mean = 0, .std = 0.1};
  assert_int_equal(spec_size_check(&n, &d), CAIRN_EINVAL);
  assert_non_null(strstr(d.msg, "widen the bounds"));
}

static spec_gen box_gen(int dim, double porosity) {
  spec_gen g = {
      .porosity = porosity, .seed = 9, .tries = 1000, .max_count = 1000000, .density = 1000};
  g.region.shape = SPEC_BOX;
  for (int k = 0; k < dim; k++) g.region.lo[k] = 0, g.region.hi[k] = 1;
  g.size.kind = SIZE_UNIFORM;
  g.size.rmin = 0.02, g.size.rmax = 0.04;
  return g;
}

/* No two balls overlap and every ball lies inside the region (brute force over all pairs). */
static void assert_valid_packing(const cairn_world *w, const spec_region *r) {
  const ball_store *b = &w->balls;
  for (size_t i = 0; i < b->n; i++) {
    for (int k = 0; k < w->dim; k++) {
      if (r->shape == SPEC_BOX) {
        assert_true(b->pos[i][k] - b->rad[i] >= r->lo[k]);
        assert_true(b->pos[i][k] + b->rad[i] <= r->hi[k]);
      }
    }
    if (r->shape == SPEC_SPHERE) {
      double x[3];
      v3_sub(b->pos[i], r->centre, x);
      assert_true(v3_norm(x) + b->rad[i] <= r->radius * (1 + 1e-12));
    }
    for (size_t j = 0; j < i; j++) {
      double x[3];
      v3_sub(b->pos[i], b->pos[j], x);
      if (v3_norm(x) < b->rad[i] + b->rad[j])
        fail_msg("balls %zu and %zu overlap: distance %.17g, radii %g + %g", i, j, v3_norm(x),
                 b->rad[i], b->rad[j]);
    }
  }
}

static void test_specimen_generate_is_reproducible_and_without_overlap(void **state) {
  cairn_world *w = *state;
  cairn_diag d = {{0}};
  spec_gen g = box_gen(2, 0.7);
  spec_result res;
  assert_int_equal(specimen_generate(w, &g, &res, &d), CAIRN_OK);
  assert_int_equal(res.count, w->balls.n);
  assert_true(fabs(res.porosity - 0.7) < 0.01); /* within one ball of the target */
  assert_valid_packing(w, &g.region);
  /* Largest first. */
  for (size_t i = 1; i < w->balls.n; i++) assert_true(w->balls.rad[i] <= w->balls.rad[i - 1]);
  /* The same seed in a fresh world gives the same specimen, bit for bit. */
  cairn_world *w2 = NULL;
  cairn_world_opts o = {.dim = 2};
  assert_int_equal(cairn_world_create(&o, &w2, &d), CAIRN_OK);
  assert_int_equal(specimen_generate(w2, &g, &res, &d), CAIRN_OK);
  assert_int_equal(w2->balls.n, w->balls.n);
  assert_memory_equal(w2->balls.pos, w->balls.pos, w->balls.n * sizeof *w->balls.pos);
  assert_memory_equal(w2->balls.rad, w->balls.rad, w->balls.n * sizeof *w->balls.rad);
  cairn_world_destroy(&w2);
  /* A second specimen in the same box avoids the balls already there. */
  size_t n1 = w->balls.n;
  g.porosity = 0.95;
  g.seed = 10;
  assert_int_equal(specimen_generate(w, &g, &res, &d), CAIRN_OK);
  assert_true(w->balls.n > n1);
  assert_valid_packing(w, &g.region);
}

static void test_specimen_generate_in_a_sphere_with_a_count(void **state) {
  cairn_world *w = *state;
  cairn_diag d = {{0}};
  spec_gen g = box_gen(3, NAN);
  g.count = 500;
  g.region.shape = SPEC_SPHERE;
  g.region.radius = 1;
  g.size.kind = SIZE_NORMAL, g.size.mean = 0.06, g.size.std = 0.01;
  g.size.rmin = 0.04, g.size.rmax = 0.08;
  spec_result res;
  assert_int_equal(specimen_generate(w, &g, &res, &d), CAIRN_OK);
  assert_int_equal(w->balls.n, 500);
  assert_valid_packing(w, &g.region);
  for (size_t i = 0; i < w->balls.n; i++)
    assert_true(w->balls.rad[i] >= 0.04 && w->balls.rad[i] <= 0.08);
}

static void test_specimen_generate_refuses_an_unreachable_porosity(void **state) {
  cairn_world *w = *state;
  cairn_diag d = {{0}};
  spec_gen g = box_gen(3, 0.3); /* random placement jams near 0.62 in 3D */
  spec_result res;
  assert_int_equal(specimen_generate(w, &g, &res, &d), CAIRN_EINVAL);
  assert_non_null(strstr(d.msg, "found no free place in 1000 tries; reached"));
  assert_non_null(strstr(d.msg, "the target porosity was 0.3"));
  assert_non_null(strstr(d.msg, "nothing was created"));
  assert_int_equal(w->balls.n, 0);
  /* A ball larger than the region. */
  g = box_gen(3, 0.5);
  g.size.rmax = 0.6;
  assert_int_equal(specimen_generate(w, &g, &res, &d), CAIRN_EINVAL);
  assert_non_null(strstr(d.msg, "largest radius 0.6 does not fit in the box (at most 0.5)"));
  /* A region of the other dimension. */
  g = box_gen(3, 0.5);
  g.region.shape = SPEC_DISK, g.region.radius = 1;
  assert_int_equal(specimen_generate(w, &g, &res, &d), CAIRN_EINVAL);
  assert_non_null(strstr(d.msg, "region 'disk' is 2D"));
  assert_int_equal(w->balls.n, 0);
}

static void test_specimen_lattices_have_their_neighbour_distance(void **state) {
  cairn_world *w = *state;
  cairn_diag d = {{0}};
  spec_lattice l = {.kind = LATTICE_FCC, .rad = 0.5, .spacing = 1.0, .n = {2, 3, 4}, .density = 1};
  spec_result res;
  assert_int_equal(specimen_lattice(w, &l, &res, &d), CAIRN_OK);
  assert_int_equal(w->balls.n, 4 * 2 * 3 * 4);
  assert_int_equal(res.last_id - res.first_id + 1, 96);
  /* The nearest neighbour of every ball is at the spacing (touching, never overlapping). */
  const ball_store *b = &w->balls;
  for (size_t i = 0; i < b->n; i++) {
    double best = INFINITY;
    for (size_t j = 0; j < b->n; j++) {
      if (j == i) continue;
      double x[3];
      v3_sub(b->pos[i], b->pos[j], x);
      if (v3_norm(x) < best) best = v3_norm(x);
    }
    assert_true(fabs(best - 1.0) < 1e-12);
  }
  l.kind = LATTICE_HEX;
  assert_int_equal(specimen_lattice(w, &l, &res, &d), CAIRN_EINVAL);
  assert_non_null(strstr(d.msg, "'hex' is a 2D lattice, this model is 3D"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_specimen_splitmix64_gives_the_reference_sequence),
      cmocka_unit_test(test_specimen_rng_is_deterministic_and_in_range),
      cmocka_unit_test(test_specimen_size_curve_cdf_by_number_is_linear),
      cmocka_unit_test(test_specimen_size_check_refuses_bad_curves),
      cmocka_unit_test_setup_teardown(test_specimen_generate_is_reproducible_and_without_overlap,
                                      setup2, teardown),
      cmocka_unit_test_setup_teardown(test_specimen_generate_in_a_sphere_with_a_count, setup3,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_specimen_generate_refuses_an_unreachable_porosity,
                                      setup3, teardown),
      cmocka_unit_test_setup_teardown(test_specimen_lattices_have_their_neighbour_distance, setup3,
                                      teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
