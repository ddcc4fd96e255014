/* Vector instructions for the vectorised kernels: the models' slices and the engine's passes
   (which include this from below). A kernel is built twice, for the x86-64 baseline (SSE2) and
   for AVX2, and picks one at run time by the CPU; the two give the same bits, because both round
   each IEEE operation the same way and neither fuses a multiply and an add (the build has
   -ffp-contract=off, and target("avx2") does not enable FMA). A build configured with
   -DCAIRN_SIMD=OFF has the baseline versions only: the tests build the models that way too, to
   check both against the scalar laws. Pure: a model that includes it stays a plugin's equal. */
#ifndef CAIRN_MODELS_SIMD_H
#define CAIRN_MODELS_SIMD_H

#if !defined(CAIRN_SIMD_BASELINE_ONLY) && defined(__x86_64__) &&                                   \
    (defined(__GNUC__) || defined(__clang__))
#define SIMD_AVX2 1
#define SIMD_TARGET_AVX2 __attribute__((target("avx2")))
/* Whether this CPU runs AVX2 (libgcc reads the CPU once, before main). */
static inline int simd_cpu_avx2(void) {
  return __builtin_cpu_supports("avx2");
}
#else
#define SIMD_AVX2 0
#define SIMD_TARGET_AVX2
static inline int simd_cpu_avx2(void) {
  return 0;
}
#endif

#endif
