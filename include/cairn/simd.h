/* Vector instructions for vectorised kernels, in cairn's engine and in contact models (built-in
 * or plugin) that write a vectorised slice entry (docs/writing-a-contact-model.md).
 *
 * A kernel is built twice, once for the x86-64 baseline (SSE2) and once for AVX2, and picks one
 * at run time by the CPU: mark the AVX2 copy CAIRN_TARGET_AVX2 and call it where cairn_cpu_avx2()
 * says so. The two give the same bits as long as the code fuses no multiply and add (build with
 * -ffp-contract=off; target("avx2") does not enable FMA): both round every IEEE operation alike.
 * Defining CAIRN_SIMD_BASELINE_ONLY before including this (cairn's -DCAIRN_SIMD=OFF does) leaves
 * the AVX2 copies out. Pure: nothing here has state of its own. */
#ifndef CAIRN_SIMD_H
#define CAIRN_SIMD_H

#if !defined(CAIRN_SIMD_BASELINE_ONLY) && defined(__x86_64__) &&                                   \
    (defined(__GNUC__) || defined(__clang__))
#define CAIRN_SIMD_AVX2 1
#define CAIRN_TARGET_AVX2 __attribute__((target("avx2")))
/* Whether this CPU runs AVX2 (the compiler's run-time library reads the CPU once, at start). */
static inline int cairn_cpu_avx2(void) {
  return __builtin_cpu_supports("avx2") != 0;
}
#include <immintrin.h>
/* Four vectors a, b, c, d (one value of each of four items) as four rows, r[i] = (a[i], b[i],
   c[i], d[i]), or four rows back as four vectors (the transpose is its own inverse): moves only,
   so the same bits. */
CAIRN_TARGET_AVX2 static inline void cairn_transpose4(__m256d a, __m256d b, __m256d c, __m256d d,
                                                      __m256d r[4]) {
  const __m256d t0 = _mm256_unpacklo_pd(a, b), t1 = _mm256_unpackhi_pd(a, b);
  const __m256d t2 = _mm256_unpacklo_pd(c, d), t3 = _mm256_unpackhi_pd(c, d);
  r[0] = _mm256_permute2f128_pd(t0, t2, 0x20), r[1] = _mm256_permute2f128_pd(t1, t3, 0x20);
  r[2] = _mm256_permute2f128_pd(t0, t2, 0x31), r[3] = _mm256_permute2f128_pd(t1, t3, 0x31);
}
#else
#define CAIRN_SIMD_AVX2 0
#define CAIRN_TARGET_AVX2
static inline int cairn_cpu_avx2(void) {
  return 0;
}
#endif

#endif
