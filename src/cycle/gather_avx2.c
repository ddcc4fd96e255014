/* The gather of ball-ball contacts with AVX2, four contacts at a time (gather.h). Each ball's
   position, velocity and spin are three doubles in a row of the ball store; a row is read as a
   vector of four with its fourth lane masked off (nothing read past the row), and four rows are
   transposed into x, y and z vectors. The arithmetic is forces.c's scalar gather operation for
   operation (no fused multiply-add: target("avx2") does not enable FMA, and the build has
   -ffp-contract=off), so every result has the scalar one's bits. */
#include "cycle/gather.h"

#include "cairn/simd.h"

#if CAIRN_SIMD_AVX2
#include <immintrin.h>

/* x, y and z of four rows of three doubles. */
CAIRN_TARGET_AVX2 static inline void rows4(const double (*v)[3], const uint32_t i[4], __m256d *x,
                                           __m256d *y, __m256d *z) {
  const __m256i m = _mm256_set_epi64x(0, -1, -1, -1);
  __m256d r0 = _mm256_maskload_pd(v[i[0]], m), r1 = _mm256_maskload_pd(v[i[1]], m);
  __m256d r2 = _mm256_maskload_pd(v[i[2]], m), r3 = _mm256_maskload_pd(v[i[3]], m);
  __m256d t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1); /* x0 x1 z0 z1 */
  __m256d t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3); /* y0 y1 . . */
  *x = _mm256_permute2f128_pd(t0, t2, 0x20);
  *y = _mm256_permute2f128_pd(t1, t3, 0x20);
  *z = _mm256_permute2f128_pd(t0, t2, 0x31);
}

/* One double of each of four balls. */
CAIRN_TARGET_AVX2 static inline __m256d col4(const double *v, const uint32_t i[4]) {
  return _mm256_set_pd(v[i[3]], v[i[2]], v[i[1]], v[i[0]]);
}

CAIRN_TARGET_AVX2 size_t gather_bb_avx2(const ball_store *bs, const uint32_t *ca,
                                        const uint32_t *cb, size_t c0, size_t n, slice_buf *s) {
  const double(*pos)[3] = (const double(*)[3])bs->pos;
  const double(*vel)[3] = (const double(*)[3])bs->vel;
  const double(*spin)[3] = (const double(*)[3])bs->spin;
  const __m256d half = _mm256_set1_pd(0.5), one = _mm256_set1_pd(1.0);
  const __m256d zero = _mm256_setzero_pd();
  size_t k = 0;
  for (; k + 4 <= n; k += 4) {
    const uint32_t *a = ca + c0 + k, *b = cb + c0 + k;
    __m256d pax, pay, paz, pbx, pby, pbz;
    rows4(pos, a, &pax, &pay, &paz);
    rows4(pos, b, &pbx, &pby, &pbz);
    /* geom_ball_ball: e = c2 - c1, dist = |e| */
    __m256d ex = _mm256_sub_pd(pbx, pax), ey = _mm256_sub_pd(pby, pay);
    __m256d ez = _mm256_sub_pd(pbz, paz);
    __m256d d2 = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(ex, ex), _mm256_mul_pd(ey, ey)),
                               _mm256_mul_pd(ez, ez));
    __m256d dist = _mm256_sqrt_pd(d2);
    /* !(dist > 0) in a lane: no normal; the scalar gather keeps the last geometry */
    if (_mm256_movemask_pd(_mm256_cmp_pd(dist, zero, _CMP_GT_OQ)) != 15) break;
    __m256d inv = _mm256_div_pd(one, dist);
    __m256d nx = _mm256_mul_pd(ex, inv), ny = _mm256_mul_pd(ey, inv);
    __m256d nz = _mm256_mul_pd(ez, inv);
    __m256d ra = col4(bs->rad, a), rb = col4(bs->rad, b);
    __m256d gap = _mm256_sub_pd(_mm256_sub_pd(dist, ra), rb);
    __m256d a1 = _mm256_add_pd(ra, _mm256_mul_pd(half, gap));
    __m256d a2 = _mm256_add_pd(rb, _mm256_mul_pd(half, gap));
    /* velocity of each ball's material point at the contact point */
    __m256d wax, way, waz, wbx, wby, wbz, vax, vay, vaz, vbx, vby, vbz;
    rows4(spin, a, &wax, &way, &waz);
    rows4(spin, b, &wbx, &wby, &wbz);
    rows4(vel, a, &vax, &vay, &vaz);
    rows4(vel, b, &vbx, &vby, &vbz);
    __m256d ox = _mm256_add_pd(_mm256_mul_pd(a2, wbx), _mm256_mul_pd(a1, wax));
    __m256d oy = _mm256_add_pd(_mm256_mul_pd(a2, wby), _mm256_mul_pd(a1, way));
    __m256d oz = _mm256_add_pd(_mm256_mul_pd(a2, wbz), _mm256_mul_pd(a1, waz));
    __m256d vx = _mm256_sub_pd(_mm256_sub_pd(vbx, vax),
                               _mm256_sub_pd(_mm256_mul_pd(oy, nz), _mm256_mul_pd(oz, ny)));
    __m256d vy = _mm256_sub_pd(_mm256_sub_pd(vby, vay),
                               _mm256_sub_pd(_mm256_mul_pd(oz, nx), _mm256_mul_pd(ox, nz)));
    __m256d vz = _mm256_sub_pd(_mm256_sub_pd(vbz, vaz),
                               _mm256_sub_pd(_mm256_mul_pd(ox, ny), _mm256_mul_pd(oy, nx)));
    __m256d ma = col4(bs->mass, a), mb = col4(bs->mass, b);
    __m256d meff = _mm256_div_pd(_mm256_mul_pd(ma, mb), _mm256_add_pd(ma, mb));
    _mm256_storeu_pd(&s->vx[k], vx), _mm256_storeu_pd(&s->vy[k], vy);
    _mm256_storeu_pd(&s->vz[k], vz);
    _mm256_storeu_pd(&s->wx[k], _mm256_sub_pd(wbx, wax));
    _mm256_storeu_pd(&s->wy[k], _mm256_sub_pd(wby, way));
    _mm256_storeu_pd(&s->wz[k], _mm256_sub_pd(wbz, waz));
    _mm256_storeu_pd(&s->gap[k], gap), _mm256_storeu_pd(&s->nx[k], nx);
    _mm256_storeu_pd(&s->ny[k], ny), _mm256_storeu_pd(&s->nz[k], nz);
    _mm256_storeu_pd(&s->m_eff[k], meff);
    _mm256_storeu_pd(&s->r1[k], ra), _mm256_storeu_pd(&s->r2[k], rb);
    _mm256_storeu_pd(&s->arm1[k], a1), _mm256_storeu_pd(&s->arm2[k], a2);
  }
  return k;
}

#else
size_t gather_bb_avx2(const ball_store *bs, const uint32_t *ca, const uint32_t *cb, size_t c0,
                      size_t n, slice_buf *s) {
  (void)bs, (void)ca, (void)cb, (void)c0, (void)n, (void)s;
  return 0;
}
#endif
