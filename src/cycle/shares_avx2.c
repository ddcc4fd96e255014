/* Stage 3 of ball-ball contacts with AVX2, four contacts at a time (gather.h): each contact's
   moments and stiffness estimates from the slice's columns, and its record (side 2's share, then
   side 1's, forces.h) written row by row through 4x4 transposes. The arithmetic is forces.c's
   scalar loop operation for operation (no fused multiply-add: target("avx2") does not enable FMA,
   and the build has -ffp-contract=off; a negation flips the sign bit, as C's minus does), so
   every result has the scalar one's bits. */
#include "cycle/gather.h"

#include "cairn/simd.h"

#if CAIRN_SIMD_AVX2

CAIRN_TARGET_AVX2 size_t shares_bb_avx2(double *rec, double (*cforce)[3], size_t n,
                                        const slice_buf *s, const double *ox, const double *oy,
                                        const double *oz) {
  const __m256d sign = _mm256_set1_pd(-0.0);
  const __m256i three = _mm256_set_epi64x(0, -1, -1, -1);
  size_t k = 0;
  for (; k + 4 <= n; k += 4) {
    const __m256d fx = _mm256_loadu_pd(s->fx + k), fy = _mm256_loadu_pd(s->fy + k);
    const __m256d fz = _mm256_loadu_pd(s->fz + k), nx = _mm256_loadu_pd(s->nx + k);
    const __m256d ny = _mm256_loadu_pd(s->ny + k), nz = _mm256_loadu_pd(s->nz + k);
    const __m256d a1 = _mm256_loadu_pd(s->arm1 + k), a2 = _mm256_loadu_pd(s->arm2 + k);
    const __m256d mx = _mm256_loadu_pd(ox + k), my = _mm256_loadu_pd(oy + k);
    const __m256d mz = _mm256_loadu_pd(oz + k), kn = _mm256_loadu_pd(s->kn + k);
    const __m256d ks = _mm256_loadu_pd(s->ks + k), kr = _mm256_loadu_pd(s->kr + k);
    /* n x f; side 2's moment o - a2 (n x f), side 1's -o - a1 (n x f) */
    const __m256d nf0 = _mm256_sub_pd(_mm256_mul_pd(ny, fz), _mm256_mul_pd(nz, fy));
    const __m256d nf1 = _mm256_sub_pd(_mm256_mul_pd(nz, fx), _mm256_mul_pd(nx, fz));
    const __m256d nf2 = _mm256_sub_pd(_mm256_mul_pd(nx, fy), _mm256_mul_pd(ny, fx));
    const __m256d m2x = _mm256_sub_pd(mx, _mm256_mul_pd(a2, nf0));
    const __m256d m2y = _mm256_sub_pd(my, _mm256_mul_pd(a2, nf1));
    const __m256d m2z = _mm256_sub_pd(mz, _mm256_mul_pd(a2, nf2));
    const __m256d m1x = _mm256_sub_pd(_mm256_xor_pd(mx, sign), _mm256_mul_pd(a1, nf0));
    const __m256d m1y = _mm256_sub_pd(_mm256_xor_pd(my, sign), _mm256_mul_pd(a1, nf1));
    const __m256d m1z = _mm256_sub_pd(_mm256_xor_pd(mz, sign), _mm256_mul_pd(a1, nf2));
    const __m256d kt = _mm256_add_pd(kn, ks);
    const __m256d kr2 = _mm256_add_pd(kr, _mm256_mul_pd(_mm256_mul_pd(ks, a2), a2));
    const __m256d kr1 = _mm256_add_pd(kr, _mm256_mul_pd(_mm256_mul_pd(ks, a1), a1));
    __m256d lo2[4], hi2[4], lo1[4], hi1[4];
    cairn_transpose4(fx, fy, fz, m2x, lo2);
    cairn_transpose4(m2y, m2z, kt, kr2, hi2);
    cairn_transpose4(_mm256_xor_pd(fx, sign), _mm256_xor_pd(fy, sign), _mm256_xor_pd(fz, sign), m1x,
                     lo1);
    cairn_transpose4(m1y, m1z, kt, kr1, hi1);
    for (int i = 0; i < 4; i++) {
      double *r = rec + 16 * (k + (size_t)i);
      _mm256_storeu_pd(r, lo2[i]), _mm256_storeu_pd(r + 4, hi2[i]);
      _mm256_storeu_pd(r + 8, lo1[i]), _mm256_storeu_pd(r + 12, hi1[i]);
      _mm256_maskstore_pd(cforce[k + (size_t)i], three, lo2[i]); /* (fx fy fz) */
    }
  }
  return k;
}
#else
size_t shares_bb_avx2(double *rec, double (*cforce)[3], size_t n, const slice_buf *s,
                      const double *ox, const double *oy, const double *oz) {
  (void)rec, (void)cforce, (void)n, (void)s, (void)ox, (void)oy, (void)oz;
  return 0;
}
#endif
