/* Exact sums of doubles: a fixed-point accumulator wide enough for every finite double, so the
   sum does not depend on the order of the terms. cairn forms the sums that gather values from
   many balls or contacts into one number (a wall's force, a step's energy) this way, so that
   they are the same whatever order the terms come in: on any thread count, after any reordering
   of the arrays, and on any number of MPI ranks (design.md, Scale). A plain sum of the same
   terms in a different order can differ in its last bits.

   The value is sum_i digit[i] 2^(32 i - XSUM_LOW): 32-bit digits held in 64-bit signed integers,
   so about 2^31 terms can be added before the carries must be propagated (xsum_add does it when
   needed). Infinities and NaNs are summed apart, in a double, where the order does not matter
   either (inf + -inf is NaN in any order). */
#ifndef CAIRN_XSUM_H
#define CAIRN_XSUM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define XSUM_DIGITS 68 /* 2 176 bits: 2^-1074 (the least subnormal) to past 2^1024 */
#define XSUM_LOW 1074

typedef struct xsum {
  int64_t digit[XSUM_DIGITS];
  double special; /* the sum of the non-finite terms (0 if none) */
  uint32_t adds;  /* terms since the carries were last propagated */
} xsum;

void xsum_init(xsum *s);
/* Propagate the carries: each digit in [0, 2^32) but the top one, which carries the sign. The
   exact value then has one representation, which MPI ranks may add digit by digit. */
void xsum_normalize(xsum *s);
/* Add x (inline: a wall's sums add five terms per contact every step). */
static inline void xsum_add(xsum *s, double x) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  int e = (int)((bits >> 52) & 0x7ff);
  if (e == 0x7ff) { /* inf or NaN */
    s->special += x;
    return;
  }
  uint64_t m = bits & ((1ull << 52) - 1);
  if (e == 0) {
    if (m == 0) return; /* a zero adds nothing */
    e = 1;              /* subnormal: no implicit bit, the least exponent */
  } else {
    m |= 1ull << 52;
  }
  /* x = m 2^(e - 1075): its lowest bit at position e - 1 above 2^-1074 */
  unsigned pos = (unsigned)(e - 1), i = pos >> 5, off = pos & 31;
  unsigned __int128 t = (unsigned __int128)m << off; /* up to 85 bits: three digits */
  int64_t d0 = (int64_t)((uint64_t)t & 0xffffffffull),
          d1 = (int64_t)((uint64_t)(t >> 32) & 0xffffffffull), d2 = (int64_t)(uint64_t)(t >> 64);
  if (bits >> 63) d0 = -d0, d1 = -d1, d2 = -d2;
  s->digit[i] += d0;
  s->digit[i + 1] += d1;
  s->digit[i + 2] += d2;
  if (++s->adds >= (1u << 30)) xsum_normalize(s);
}

/* Add another accumulator (for example a thread's or a rank's part). */
void xsum_merge(xsum *s, const xsum *t);
/* The sum as a double: within an ulp or so of the exact value, and the same for the same exact
   value whatever the order of the terms. */
double xsum_value(const xsum *s);
/* Exact sum of n doubles at x, x + stride, ... */
double xsum_of(const double *x, size_t n, size_t stride);

#endif
