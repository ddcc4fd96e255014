/* Exact, order-independent sums of doubles (xsum.h). */
#include "core/xsum.h"

#include <math.h>
#include <string.h>

#include "core/core.h"

void xsum_init(xsum *s) {
  memset(s, 0, sizeof *s);
}

void xsum_normalize(xsum *s) {
  int64_t carry = 0;
  for (int i = 0; i < XSUM_DIGITS; i++) {
    int64_t v = s->digit[i] + carry;
    carry = v >> 32; /* arithmetic: floor division by 2^32 */
    s->digit[i] = v - carry * ((int64_t)1 << 32);
  }
  /* the top digit holds what is left, with its sign (it cannot overflow: every finite double
     fits far below it) */
  s->digit[XSUM_DIGITS - 1] += carry * ((int64_t)1 << 32);
  s->adds = 0;
}

void xsum_merge(xsum *s, const xsum *t) {
  xsum u = *t;
  xsum_normalize(&u);
  xsum_normalize(s);
  for (int i = 0; i < XSUM_DIGITS; i++) s->digit[i] += u.digit[i];
  s->special += u.special;
  xsum_normalize(s);
}

double xsum_value(const xsum *s) {
  if (s->special != 0 || isnan(s->special)) return s->special; /* inf, -inf or NaN */
  /* (no term added since the carries were propagated: s is normalized already, as after an MPI
     reduction, and is read in place; a copy is made only to normalize or negate) */
  xsum u;
  const int64_t *dg = s->digit;
  if (s->adds) {
    u = *s;
    xsum_normalize(&u);
    dg = u.digit;
  }
  int top = XSUM_DIGITS - 1;
  while (top >= 0 && dg[top] == 0) top--;
  if (top < 0) return 0.0;
  double sign = 1.0;
  if (dg[top] < 0) { /* negative: the magnitude's digits, all in [0, 2^32) */
    if (dg != u.digit) u = *s;
    for (int i = 0; i <= top; i++) u.digit[i] = -u.digit[i];
    xsum_normalize(&u);
    dg = u.digit;
    while (top >= 0 && dg[top] == 0) top--;
    sign = -1.0;
  }
  /* The top four digits carry at least 97 significant bits: far more than a double keeps. They
     are added from the least of them up, each scaled exactly (a power of two), and the sum is
     scaled once. */
  static const double scale[4] = {1.0, 4294967296.0, 18446744073709551616.0,
                                  79228162514264337593543950336.0};
  int lo = top - 3 < 0 ? 0 : top - 3;
  double v = 0;
  for (int i = lo; i <= top; i++) v += (double)dg[i] * scale[i - lo];
  return sign * ldexp(v, 32 * lo - XSUM_LOW);
}

double xsum_of(const double *x, size_t n, size_t stride) {
  xsum s;
  xsum_init(&s);
  for (size_t i = 0; i < n; i++) xsum_add(&s, x[i * stride]);
  return xsum_value(&s);
}
