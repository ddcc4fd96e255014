/* Tests of the allocator hook in src/core/core.c: failing the n-th allocation while a world, its
   balls and its contacts are created must give CAIRN_ENOMEM with an "out of memory" message and
   leave the world usable, never crash or leak (this file is meant to run under ASan/LSan). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "contact/contact.h"
#include "cycle/cycle.h"
#include "world/world.h"

enum { N_BALLS = 70 }; /* crosses the ball store's capacities 16, 32, 64 and the idmap's 64 */

static ball_spec spec_of(int i) {
  /* Radius 1, centres 1.9 apart along x: each ball overlaps its neighbours by 0.1. */
  ball_spec s = {.id = i + 1, .rad = 1.0, .density = 1000.0, .pos = {1.9 * i, 0, 0}};
  return s;
}

static void assert_out_of_memory(cairn_status s, const cairn_diag *d) {
  assert_int_equal(s, CAIRN_ENOMEM);
  assert_non_null(strstr(d->msg, "out of memory"));
}

/* Create a world and N_BALLS balls with the n-th allocation failing. Returns 1 if some call
   failed (and checks that it failed cleanly), 0 if the whole scenario ran without a failure. */
static int world_and_balls_with_failure(long n) {
  cairn_diag d = {{0}};
  cairn_world *w = NULL;
  cairn_world_opts o = {.dim = 3};
  int failed = 0;
  cairn_mem_fail_after(n);
  cairn_status s = cairn_world_create(&o, &w, &d);
  if (s != CAIRN_OK) {
    cairn_mem_fail_after(0);
    assert_out_of_memory(s, &d);
    assert_null(w);
    return 1;
  }
  for (int i = 0; i < N_BALLS; i++) {
    ball_spec b = spec_of(i);
    int64_t id = 0;
    size_t before = w->balls.n;
    memset(d.msg, 0, sizeof d.msg);
    s = ball_create(w, &b, &id, &d);
    if (s != CAIRN_OK) {
      cairn_mem_fail_after(0);
      failed = 1;
      assert_out_of_memory(s, &d);
      /* Nothing half-done: the count and the id map are as before, so the same ball can be
         created again once memory is back. */
      assert_int_equal(w->balls.n, before);
      uint32_t slot;
      assert_int_equal(ball_slot(w, b.id, &slot, NULL), CAIRN_ENOTFOUND);
      assert_int_equal(ball_create(w, &b, &id, &d), CAIRN_OK);
      assert_int_equal(id, b.id);
    }
    assert_int_equal(w->balls.n, (size_t)i + 1);
  }
  cairn_mem_fail_after(0);
  /* Every ball is there, at its slot's recorded attributes. */
  for (int i = 0; i < N_BALLS; i++) {
    uint32_t slot;
    assert_int_equal(ball_slot(w, i + 1, &slot, &d), CAIRN_OK);
    /* Exact: the position is copied, not computed. */
    assert_true(w->balls.pos[slot][0] == 1.9 * i);
    assert_true(w->balls.rad[slot] == 1.0);
  }
  cairn_world_destroy(&w);
  assert_null(w);
  return failed;
}

static void test_mem_world_and_ball_creation_fail_cleanly_at_every_allocation(void **state) {
  (void)state;
  long n = 1, failures = 0;
  /* Fail the 1st, 2nd, ... allocation until the scenario makes fewer allocations than n. */
  for (; n < 10000; n++) {
    if (!world_and_balls_with_failure(n)) break;
    failures++;
  }
  assert_true(n < 10000);
  /* World (1), registry (3), assignments (2), 3 rounds of 16 ball arrays, 2 idmap growths: the
     sweep must have hit well over 50 distinct allocations. */
  assert_true(failures > 50);
}

static void test_mem_contact_detection_fails_cleanly_and_recovers(void **state) {
  (void)state;
  long failures = 0, n;
  for (n = 1; n < 10000; n++) {
    cairn_diag d = {{0}};
    cairn_world *w = NULL;
    cairn_world_opts o = {.dim = 3};
    assert_int_equal(cairn_world_create(&o, &w, &d), CAIRN_OK);
    assert_int_equal(cmat_set_default(w, CAIRN_KIND_BALL_BALL, "linear", 0.0, &d), CAIRN_OK);
    double kn = 1e6;
    assert_int_equal(cmat_set_prop(w, CAIRN_KIND_BALL_BALL, "kn", &kn, 1, &d), CAIRN_OK);
    for (int i = 0; i < N_BALLS; i++) {
      ball_spec b = spec_of(i);
      int64_t id;
      assert_int_equal(ball_create(w, &b, &id, &d), CAIRN_OK);
    }
    cairn_mem_fail_after(n);
    cairn_status s = cycle_detect_only(w, &d);
    int failed = s != CAIRN_OK;
    cairn_mem_fail_after(0);
    if (failed) {
      assert_out_of_memory(s, &d);
      failures++;
      /* Memory is back: detection completes the job. */
      assert_int_equal(cycle_detect_only(w, &d), CAIRN_OK);
    }
    /* Exactly the N_BALLS - 1 neighbour contacts, each findable by its ids. */
    assert_int_equal(w->contacts->n, N_BALLS - 1);
    for (int i = 1; i < N_BALLS; i++) {
      uint32_t c;
      assert_int_equal(contact_find(w, CAIRN_KIND_BALL_BALL, i, i + 1, &c, &d), CAIRN_OK);
      assert_int_equal(w->balls.id[w->contacts->a[c]], i);
      assert_int_equal(w->balls.id[w->contacts->b[c]], i + 1);
    }
    /* And the world still cycles. */
    assert_int_equal(cycle_run(w, 2, &d), CAIRN_OK);
    cairn_world_destroy(&w);
    if (!failed) break;
  }
  assert_true(n < 10000);
  /* Pair list (4 arrays, cell grid 3), contact store (18 arrays, twice), pools, idmap. */
  assert_true(failures > 20);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mem_world_and_ball_creation_fail_cleanly_at_every_allocation),
      cmocka_unit_test(test_mem_contact_detection_fails_cleanly_and_recovers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
