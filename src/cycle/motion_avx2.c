/* The motion of four free balls with AVX2 (motion_avx2.h). The three components of four balls
   are twelve consecutive doubles of each row array (position, velocity, ...), read as three
   vectors; each ball's mass and moment of inertia are spread to the lanes of its components, and
   gravity's components laid out the same way. Each lane then does what advance_ball does for one
   component: f = F + m g, v += f / m dtk, dx = v dt, x += dx, disp += dx; spin += M / I dtk. */
#include "cycle/motion_avx2.h"

#include "cairn/simd.h"

#if CAIRN_SIMD_AVX2
#include <immintrin.h>

const int motion_avx2_built = 1;

CAIRN_TARGET_AVX2 void motion4_avx2(ball_store *b, size_t i0, const double g[3], double dt,
                                    double dtk) {
  double *vel = b->vel[i0], *pos = b->pos[i0], *disp = b->disp[i0], *spin = b->spin[i0];
  const double *force = b->force[i0], *moment = b->moment[i0];
  const __m256d m = _mm256_loadu_pd(&b->mass[i0]), in = _mm256_loadu_pd(&b->inertia[i0]);
  /* lanes of the three vectors: balls 0 0 0 1 | 1 1 2 2 | 2 3 3 3, components x y z x | ... */
  const __m256d ms[3] = {_mm256_permute4x64_pd(m, 0x40), _mm256_permute4x64_pd(m, 0xA5),
                         _mm256_permute4x64_pd(m, 0xFE)};
  const __m256d is[3] = {_mm256_permute4x64_pd(in, 0x40), _mm256_permute4x64_pd(in, 0xA5),
                         _mm256_permute4x64_pd(in, 0xFE)};
  const __m256d gs[3] = {_mm256_setr_pd(g[0], g[1], g[2], g[0]),
                         _mm256_setr_pd(g[1], g[2], g[0], g[1]),
                         _mm256_setr_pd(g[2], g[0], g[1], g[2])};
  const __m256d vdt = _mm256_set1_pd(dt), vdtk = _mm256_set1_pd(dtk);
  for (int j = 0; j < 3; j++) {
    __m256d f = _mm256_add_pd(_mm256_loadu_pd(force + 4 * j), _mm256_mul_pd(ms[j], gs[j]));
    __m256d v =
        _mm256_add_pd(_mm256_loadu_pd(vel + 4 * j), _mm256_mul_pd(_mm256_div_pd(f, ms[j]), vdtk));
    _mm256_storeu_pd(vel + 4 * j, v);
    __m256d dx = _mm256_mul_pd(v, vdt);
    _mm256_storeu_pd(pos + 4 * j, _mm256_add_pd(_mm256_loadu_pd(pos + 4 * j), dx));
    _mm256_storeu_pd(disp + 4 * j, _mm256_add_pd(_mm256_loadu_pd(disp + 4 * j), dx));
    __m256d s =
        _mm256_add_pd(_mm256_loadu_pd(spin + 4 * j),
                      _mm256_mul_pd(_mm256_div_pd(_mm256_loadu_pd(moment + 4 * j), is[j]), vdtk));
    _mm256_storeu_pd(spin + 4 * j, s);
  }
}

#else
const int motion_avx2_built = 0;

void motion4_avx2(ball_store *b, size_t i0, const double g[3], double dt, double dtk) {
  (void)b, (void)i0, (void)g, (void)dt, (void)dtk;
}
#endif
