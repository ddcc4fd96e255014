/* Tests of the re-sorting done at each neighbour rebuild (src/detect/pairs.c, src/world/ball.c,
   src/contact/contact.c): balls created in a random order end up near their neighbours in
   memory, contacts follow the order of their pairs, each model's pool blocks follow the
   contacts, and every lookup (ball id -> slot, contact key -> index, contact <-> pair, contact
   sides) stays true, also after cycles that make and lose contacts. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "contact/contact.h"
#include "cycle/cycle.h"
#include "detect/detect.h"
#include "world/world.h"

enum { SIDE = 12, N = SIDE * SIDE * SIDE };

/* A cubic block of balls of radius 1, 1.98 apart (every neighbour overlaps), with small random
   velocities, created in a shuffled order with ids in that order; plus a floor. */
static cairn_world *shuffled_block(void) {
  cairn_diag d = {{0}};
  cairn_world *w = NULL;
  cairn_world_opts o = {.dim = 3};
  assert_int_equal(cairn_world_create(&o, &w, &d), CAIRN_OK);
  double kn = 1e5, fric = 0.5, ratio = 0.2;
  for (int k = 0; k < 2; k++) {
    assert_int_equal(cmat_set_default(w, k, "linear", 0.0, &d), CAIRN_OK);
    assert_int_equal(cmat_set_prop(w, k, "kn", &kn, 1, &d), CAIRN_OK);
    assert_int_equal(cmat_set_prop(w, k, "ks", &kn, 1, &d), CAIRN_OK);
    assert_int_equal(cmat_set_prop(w, k, "fric", &fric, 1, &d), CAIRN_OK);
    assert_int_equal(cmat_set_prop(w, k, "dp_nratio", &ratio, 1, &d), CAIRN_OK);
  }
  int perm[N];
  for (int i = 0; i < N; i++) perm[i] = i;
  uint64_t s = 12345;
  for (int i = N - 1; i > 0; i--) { /* Fisher-Yates with xorshift */
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    int j = (int)(s % (uint64_t)(i + 1)), t = perm[i];
    perm[i] = perm[j], perm[j] = t;
  }
  for (int q = 0; q < N; q++) {
    int i = perm[q] % SIDE, j = perm[q] / SIDE % SIDE, k = perm[q] / (SIDE * SIDE);
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    double v = ((double)(s % 1000) / 1000.0 - 0.5) * 2.0;
    ball_spec b = {.id = q + 1,
                   .rad = 1.0,
                   .density = 1000.0,
                   .pos = {1.98 * i, 1.98 * j, 1.0 + 1.98 * k},
                   .vel = {v, -v, 0.5 * v}};
    int64_t id;
    assert_int_equal(ball_create(w, &b, &id, &d), CAIRN_OK);
  }
  wall_spec floor = {.kind = WALL_PLANE, .point = {0, 0, 0.02}, .normal = {0, 0, 1}};
  int64_t wid;
  assert_int_equal(wall_create(w, &floor, &wid, &d), CAIRN_OK);
  double g[3] = {0, 0, -9.81};
  memcpy(w->gravity, g, sizeof g);
  w->ts_mode = TS_FIXED;
  w->dt = 1e-2; /* the critical step sqrt(m / k) is 0.2 */
  return w;
}

/* Mean distance between the centres of balls in consecutive slots. */
static double mean_step(const cairn_world *w) {
  double sum = 0;
  for (size_t i = 1; i < w->balls.n; i++) {
    double e[3];
    v3_sub(w->balls.pos[i], w->balls.pos[i - 1], e);
    sum += v3_norm(e);
  }
  return sum / (double)(w->balls.n - 1);
}

/* Every lookup agrees with the arrays. With 'sorted', also the order a rebuild leaves. */
static void check_consistent(const cairn_world *w, int sorted) {
  const contact_store *cs = w->contacts;
  const pair_list *p = w->pairs;
  for (size_t i = 0; i < w->balls.n; i++)
    assert_int_equal(idmap_get(&w->balls.map, (uint64_t)w->balls.id[i]), i);
  size_t per_model[64] = {0};
  for (size_t c = 0; c < cs->n; c++) {
    assert_int_equal(idmap_get(&cs->map, contact_key_of(w, (uint32_t)c)), c);
    assert_true(cs->pair[c] < p->n);
    assert_int_equal(p->contact[cs->pair[c]], c);
    assert_int_equal(p->kind[cs->pair[c]], cs->kind[c]);
    assert_int_equal(p->a[cs->pair[c]], cs->a[c]);
    assert_int_equal(p->b[cs->pair[c]], cs->b[c]);
    if (cs->kind[c] == CAIRN_KIND_BALL_BALL) /* side 1 is the lower id */
      assert_true(w->balls.id[cs->a[c]] < w->balls.id[cs->b[c]]);
    if (sorted) {
      if (c) assert_true(cs->pair[c] > cs->pair[c - 1]);
      assert_int_equal(cs->blk[c], per_model[cs->model[c]]++);
    }
  }
}

static void test_sort_puts_balls_near_their_neighbours_and_keeps_every_lookup(void **state) {
  (void)state;
  cairn_world *w = shuffled_block();
  cairn_diag d = {{0}};
  double before = mean_step(w);
  assert_int_equal(cycle_detect_only(w, &d), CAIRN_OK);
  double after = mean_step(w);
  /* In creation (shuffled) order consecutive balls lie about 0.66 of the block's side apart
     (~14); in Morton order most are neighbours, 2 apart, with jumps between cell blocks. */
  assert_true(before > 10.0);
  assert_true(after < 0.25 * before);
  /* Every ball touches its neighbours: 3 n^2 (n - 1) pairs, and the bottom layer the floor. */
  assert_int_equal(w->contacts->n, 3 * SIDE * SIDE * (SIDE - 1) + SIDE * SIDE);
  check_consistent(w, 1);
  cairn_world_destroy(&w);
}

static void test_sort_keeps_lookups_through_cycles_that_make_and_lose_contacts(void **state) {
  (void)state;
  cairn_world *w = shuffled_block();
  cairn_diag d = {{0}};
  uint64_t rebuilds = 0;
  size_t n0 = 0, changed = 0;
  for (int round = 0; round < 40; round++) {
    assert_int_equal(cycle_run(w, 25, &d), CAIRN_OK);
    check_consistent(w, 0);
    if (round == 0) n0 = w->contacts->n;
    if (w->contacts->n != n0) changed = 1;
    rebuilds = w->pairs->rebuilds;
  }
  assert_true(changed);      /* contacts were made and lost */
  assert_true(rebuilds > 2); /* and the pair list was rebuilt (and re-sorted) several times */
  /* A rebuild sorts; the detection that follows may then append and swap contacts. Once those
     are done (a first forced rebuild), a second one with nothing moved leaves the sorted order. */
  world_mark_dirty(w);
  assert_int_equal(cycle_detect_only(w, &d), CAIRN_OK);
  world_mark_dirty(w);
  assert_int_equal(cycle_detect_only(w, &d), CAIRN_OK);
  check_consistent(w, 1);
  cairn_world_destroy(&w);
}

/* mem_permute follows every cycle of a permutation, whatever the element size. */
static void test_mem_permute_applies_any_permutation(void **state) {
  (void)state;
  enum { M = 37 };
  uint32_t order[M];
  double v[M][3];
  uint8_t seen[M];
  for (int i = 0; i < M; i++) order[i] = (uint32_t)((i * 10 + 3) % M); /* one long cycle */
  for (int i = 0; i < M; i++) v[i][0] = i, v[i][1] = -i, v[i][2] = 2 * i;
  mem_permute(v, sizeof v[0], M, order, seen);
  for (int i = 0; i < M; i++) {
    assert_true(v[i][0] == order[i]);
    assert_true(v[i][1] == -(double)order[i]);
    assert_true(v[i][2] == 2.0 * order[i]);
  }
  /* Elements larger than its 128-byte buffer (a pool block) move a slice at a time. */
  static double big[M][40];
  for (int i = 0; i < M; i++)
    for (int k = 0; k < 40; k++) big[i][k] = 100.0 * i + k;
  mem_permute(big, sizeof big[0], M, order, seen);
  for (int i = 0; i < M; i++)
    for (int k = 0; k < 40; k++) assert_true(big[i][k] == 100.0 * order[i] + k);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sort_puts_balls_near_their_neighbours_and_keeps_every_lookup),
      cmocka_unit_test(test_sort_keeps_lookups_through_cycles_that_make_and_lose_contacts),
      cmocka_unit_test(test_mem_permute_applies_any_permutation),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
