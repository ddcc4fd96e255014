/* Tests of the nearest-point searches of src/world/mesh.c on a bumpy surface (convex and concave
   regions, triangles of different sizes): the grid search finds the nearest triangle of a brute
   force over every triangle, whatever triangle it is told to try first; and the search from a
   rebuild's list, where it answers, gives the grid search's answer to the bit (the restored run
   that has no lists yet must continue bit for bit). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "world/mesh.h"

#define NX 14
#define NPOINTS 3000

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static double uniform(void) { /* in [0, 1) */
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (double)(rng >> 11) * 0x1.0p-53;
}

/* A height field over [0, 1]^2 with jittered, unevenly spaced nodes: hills and hollows. */
static wall_mesh *bumpy(void) {
  static double tri[2 * NX * NX][3][3];
  double node[NX + 1][NX + 1][3];
  for (int j = 0; j <= NX; j++)
    for (int i = 0; i <= NX; i++) {
      double x = pow((double)i / NX, 1.3), y = pow((double)j / NX, 0.8);
      if (i > 0 && i < NX) x += 0.2 / NX * (uniform() - 0.5);
      if (j > 0 && j < NX) y += 0.2 / NX * (uniform() - 0.5);
      node[j][i][0] = x, node[j][i][1] = y;
      node[j][i][2] = 0.15 * sin(7 * x) * cos(5 * y);
    }
  size_t n = 0;
  for (int j = 0; j < NX; j++)
    for (int i = 0; i < NX; i++) {
      memcpy(tri[n][0], node[j][i], sizeof tri[n][0]);
      memcpy(tri[n][1], node[j][i + 1], sizeof tri[n][0]);
      memcpy(tri[n][2], node[j + 1][i + 1], sizeof tri[n][0]);
      n++;
      memcpy(tri[n][0], node[j][i], sizeof tri[n][0]);
      memcpy(tri[n][1], node[j + 1][i + 1], sizeof tri[n][0]);
      memcpy(tri[n][2], node[j + 1][i], sizeof tri[n][0]);
      n++;
    }
  wall_mesh *m = NULL;
  cairn_diag d = {{0}};
  assert_int_equal(mesh_build((const double(*)[3][3])tri, n, "the test's surface", &m, &d),
                   CAIRN_OK);
  return m;
}

/* Distance from c to segment [a, b]. */
static double to_segment(const double a[3], const double b[3], const double c[3]) {
  double e[3], ac[3];
  v3_sub(b, a, e), v3_sub(c, a, ac);
  double t = fmin(1, fmax(0, v3_dot(ac, e) / v3_dot(e, e)));
  for (int k = 0; k < 3; k++) ac[k] -= t * e[k];
  return v3_norm(ac);
}

/* Distance from c to triangle k, otherwise than the searches: the foot of the perpendicular
   where its barycentric coordinates are all positive, else the nearest of the three edges. */
static double brute(const wall_mesh *m, size_t k, const double c[3]) {
  const double *a = m->v[m->t[k][0]], *b = m->v[m->t[k][1]], *p = m->v[m->t[k][2]];
  double e1[3], e2[3], n[3], ac[3];
  v3_sub(b, a, e1), v3_sub(p, a, e2), v3_cross(e1, e2, n), v3_sub(c, a, ac);
  double nn = v3_dot(n, n), h = v3_dot(ac, n) / nn;
  double f[3];
  for (int i = 0; i < 3; i++) f[i] = ac[i] - h * n[i];
  double x[3], u, v;
  v3_cross(f, e2, x), u = v3_dot(x, n) / nn;
  v3_cross(e1, f, x), v = v3_dot(x, n) / nn;
  if (u >= 0 && v >= 0 && u + v <= 1) return fabs(h) * sqrt(nn);
  return fmin(to_segment(a, b, c), fmin(to_segment(b, p, c), to_segment(p, a, c)));
}

static void random_point(double c[3]) {
  c[0] = 1.2 * uniform() - 0.1, c[1] = 1.2 * uniform() - 0.1, c[2] = 0.6 * uniform() - 0.3;
}

/* The grid search against the brute force, with no hint, the right one and a wrong one. */
static void test_mesh_grid_search_finds_the_nearest_triangle(void **state) {
  (void)state;
  wall_mesh *m = bumpy();
  for (int s = 0; s < NPOINTS; s++) {
    double c[3], q[3], best = INFINITY;
    random_point(c);
    for (size_t k = 0; k < m->nt; k++) best = fmin(best, brute(m, k, c));
    uint32_t tri = UINT32_MAX;
    double hf, hf2;
    assert_int_equal(mesh_closest(m, c, 10, q, &tri, &hf), 1);
    /* on a face, the signed distance from its plane is the point's distance */
    if (!isnan(hf)) assert_true(fabs(fabs(hf) - best) <= 1e-14);
    double e[3];
    v3_sub(c, q, e);
    /* two computations of one distance of order 0.1 on numbers of order 1: a few ulp */
    if (!(fabs(v3_norm(e) - best) <= 1e-14))
      fail_msg("point %d: the search's distance %.17g, the brute force's %.17g", s, v3_norm(e),
               best);
    assert_true(fabs(brute(m, tri, c) - best) <= 1e-14);
    uint32_t hints[2] = {tri, (uint32_t)(uniform() * (double)m->nt)};
    for (int h = 0; h < 2; h++) {
      double q2[3];
      uint32_t t2 = hints[h];
      assert_int_equal(mesh_closest(m, c, 10, q2, &t2, &hf2), 1);
      assert_int_equal(t2, tri);
      assert_memory_equal(q2, q, sizeof q);
      assert_memory_equal(&hf2, &hf, sizeof hf);
    }
    /* and nothing within a reach shorter than the nearest */
    tri = UINT32_MAX;
    assert_int_equal(mesh_closest(m, c, 0.999 * best, q, &tri, &hf), 0);
  }
  mesh_free(m);
}

/* Lists made at points p0 (cut 0.2), asked at points moved up to 0.15 from them: wherever the
   list answers, the grid search's triangle and point, bit for bit; it must answer most of the
   time (else it would be a slow way to the grid), and never when the move leaves it unsure. */
static void test_mesh_list_search_gives_the_grid_search_answer(void **state) {
  (void)state;
  wall_mesh *m = bumpy();
  static double p0[NPOINTS][3];
  cairn_diag d = {{0}};
  assert_int_equal(mesh_lists_begin(m, NPOINTS, &d), CAIRN_OK);
  for (int s = 0; s < NPOINTS; s++) {
    random_point(p0[s]);
    if (s % 7 == 3) continue; /* some slots without a list */
    assert_int_equal(mesh_list_add(m, (size_t)s, p0[s], 0.2, 0.1, &d), CAIRN_OK);
  }
  int answered = 0, without = 0;
  for (int s = 0; s < NPOINTS; s++) {
    double c[3], q[3], q2[3], d2, u[3];
    double len = 0.15 * uniform();
    for (int k = 0; k < 3; k++) u[k] = uniform() - 0.5;
    double un = v3_norm(u);
    for (int k = 0; k < 3; k++) c[k] = p0[s][k] + len * u[k] / un;
    uint32_t ref = UINT32_MAX;
    double href, hf;
    assert_int_equal(mesh_closest(m, c, 10, q2, &ref, &href), 1);
    /* no hint, the answer as hint, a random triangle as hint */
    uint32_t hints[3] = {UINT32_MAX, ref, (uint32_t)(uniform() * (double)m->nt)};
    for (int h = 0; h < 3; h++) {
      uint32_t tri = hints[h];
      if (!mesh_closest_listed(m, (size_t)s, c, q, &tri, &d2, &hf, 0)) {
        if (s % 7 == 3) without++;
        continue;
      }
      assert_true(s % 7 != 3);
      answered++;
      if (tri != ref) {
        double e2[3], e3[3];
        v3_sub(c, q, e2), v3_sub(c, q2, e3);
        fail_msg("s %d hint %d (%u): listed %u d %.17g, grid %u d %.17g (brute %.17g %.17g) len %g",
                 s, h, hints[h], tri, v3_norm(e2), ref, v3_norm(e3), brute(m, tri, c),
                 brute(m, ref, c), len);
      }
      assert_memory_equal(q, q2, sizeof q);
      assert_memory_equal(&hf, &href, sizeof hf);
      double e[3];
      v3_sub(c, q, e);
      assert_true(d2 == (isnan(hf) ? v3_dot(e, e) : hf * hf)); /* (on a face: the plane's) */
      /* sure: every triangle left out is beyond the cut from p0 */
      assert_true(sqrt(d2) + len <= 0.2);
    }
  }
  assert_int_equal(without, 3 * ((NPOINTS + 3) / 7));
  /* (the points whose nearest triangle is further than 0.05 from p0 and that moved more than
     0.2 less that cannot be answered: about a third here) */
  if (!(answered > NPOINTS))
    fail_msg("the lists answered %d of %d searches", answered, 3 * NPOINTS);
  /* moving the frame drops the lists */
  double e[3] = {0.5, 0, 0}, q[3], d2;
  mesh_shift(m, e);
  uint32_t tri = UINT32_MAX;
  double hf;
  assert_int_equal(mesh_closest_listed(m, 0, p0[0], q, &tri, &d2, &hf, 0), 0);
  mesh_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mesh_grid_search_finds_the_nearest_triangle),
      cmocka_unit_test(test_mesh_list_search_gives_the_grid_search_answer),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
