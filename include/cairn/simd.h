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
#else
#define CAIRN_SIMD_AVX2 0
#define CAIRN_TARGET_AVX2
static inline int cairn_cpu_avx2(void) {
  return 0;
}
#endif

#endif
