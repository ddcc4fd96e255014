/* Exact sums (src/core/xsum.c): the result is the exact sum rounded once, whatever the order of
   the terms, across the whole range of doubles. The expected values are exact by construction
   (integers and powers of two a double holds), so the checks are equalities. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <float.h>
#include <cmocka.h>

#include "core/xsum.h"

static double sum_of(const double *x, int n) {
  xsum s;
  xsum_init(&s);
  for (int i = 0; i < n; i++) xsum_add(&s, x[i]);
  return xsum_value(&s);
}

/* Cancellation a plain sum gets wrong: (1e16 + 1) - 1e16 is 0 in doubles, 1 exactly. */
static void cancellation(void **state) {
  (void)state;
  double x[] = {1e16, 1.0, -1e16};
  assert_true(sum_of(x, 3) == 1.0);
  double y[] = {1e300, 1e-300, -1e300, 3.0};
  assert_true(sum_of(y, 4) == 3.0 + 1e-300);
  double z[] = {DBL_MAX, DBL_MAX, -DBL_MAX}; /* past the largest double on the way */
  assert_true(sum_of(z, 3) == DBL_MAX);
  double t[] = {DBL_TRUE_MIN, DBL_TRUE_MIN, -1.0, 1.0}; /* subnormals */
  assert_true(sum_of(t, 4) == 2 * DBL_TRUE_MIN);
  double neg[] = {-0.5, -0.25, 1e-20, -1e-20};
  assert_true(sum_of(neg, 4) == -0.75);
  assert_true(sum_of(neg, 0) == 0.0);
}

/* Random terms of many magnitudes, summed in many orders: always the same bits, and within an
   ulp of the exact sum, computed in integers (terms are whole multiples of 2^-40 below 2^10,
   each held exactly, and 2 000 of them sum below 2^62 units). */
static void any_order(void **state) {
  (void)state;
  enum { N = 2000 };
  static double x[N];
  uint64_t r = 88172645463325252ull;
  int64_t exact = 0; /* in units of 2^-40 */
  for (int i = 0; i < N; i++) {
    r ^= r << 13, r ^= r >> 7, r ^= r << 17;
    int64_t m = (int64_t)(r >> 14) >> (r & 31); /* below 2^50 units: held exactly */
    if (r & (1ull << 62)) m = -m;
    x[i] = ldexp((double)m, -40);
    exact += m;
  }
  double first = sum_of(x, N);
  double want = ldexp((double)exact, -40); /* (one rounding of the exact integer) */
  assert_true(fabs(first - want) <= fabs(want) * DBL_EPSILON);
  for (int round = 0; round < 20; round++) {
    for (int i = N - 1; i > 0; i--) {
      r ^= r << 13, r ^= r >> 7, r ^= r << 17;
      int j = (int)(r % (uint64_t)(i + 1));
      double t = x[i];
      x[i] = x[j], x[j] = t;
    }
    double again = sum_of(x, N);
    assert_memory_equal(&first, &again, sizeof first);
  }
}

/* Parts summed apart and merged give the whole (as threads' or ranks' parts do). */
static void merge_parts(void **state) {
  (void)state;
  double x[] = {3.5, 1e-30, -2.25, 7e20, -7e20, 0.125};
  xsum a, b;
  xsum_init(&a), xsum_init(&b);
  for (int i = 0; i < 6; i++) xsum_add(i % 2 ? &a : &b, x[i]);
  xsum_merge(&a, &b);
  assert_true(xsum_value(&a) == 1.375 + 1e-30);
}

/* Infinities and NaNs: the order does not matter either. */
static void specials(void **state) {
  (void)state;
  double x[] = {1.0, INFINITY, 2.0};
  assert_true(sum_of(x, 3) == INFINITY);
  double y[] = {INFINITY, 1.0, -INFINITY};
  assert_true(isnan(sum_of(y, 3)));
  double z[] = {NAN, 1.0};
  assert_true(isnan(sum_of(z, 2)));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(cancellation),
      cmocka_unit_test(any_order),
      cmocka_unit_test(merge_parts),
      cmocka_unit_test(specials),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
