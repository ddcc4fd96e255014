/* Tests of src/core/idmap.c: insert, lookup, replace and delete, backward-shift deletion across
   the wrap-around of the table, shrinking to fit, and a long randomized run against a plain
   reference array. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/idmap.h"

/* splitmix64: a fixed, portable sequence, so every run exercises the same operations. */
static uint64_t next_rand(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* Slot of 'key' in the table, or -1: lets a test see where linear probing put an entry. */
static long slot_of(const idmap *m, uint64_t key) {
  for (size_t i = 0; i < m->cap; i++)
    if (m->keys[i] == key + 1) return (long)i;
  return -1;
}

static void test_idmap_empty_map_finds_nothing(void **state) {
  (void)state;
  idmap m = {0};
  assert_int_equal(idmap_get(&m, 0), IDMAP_NONE);
  assert_int_equal(idmap_get(&m, 12345), IDMAP_NONE);
  idmap_del(&m, 7); /* deleting from an empty map is a no-op */
  assert_int_equal(m.n, 0);
  idmap_free(&m);
}

static void test_idmap_put_get_replace_delete(void **state) {
  (void)state;
  idmap m = {0};
  cairn_diag d = {{0}};
  assert_int_equal(idmap_put(&m, 0, 10, &d), CAIRN_OK); /* key 0 is a valid key */
  assert_int_equal(idmap_put(&m, 1, 11, &d), CAIRN_OK);
  assert_int_equal(idmap_put(&m, (uint64_t)1 << 62 | 5, 12, &d), CAIRN_OK);
  assert_int_equal(m.n, 3);
  assert_int_equal(idmap_get(&m, 0), 10);
  assert_int_equal(idmap_get(&m, 1), 11);
  assert_int_equal(idmap_get(&m, (uint64_t)1 << 62 | 5), 12);
  assert_int_equal(idmap_get(&m, 2), IDMAP_NONE);

  /* Replacing keeps the count and never allocates. */
  size_t cap = m.cap;
  assert_int_equal(idmap_put(&m, 1, 99, &d), CAIRN_OK);
  assert_int_equal(m.n, 3);
  assert_int_equal(m.cap, cap);
  assert_int_equal(idmap_get(&m, 1), 99);

  idmap_del(&m, 1);
  assert_int_equal(m.n, 2);
  assert_int_equal(idmap_get(&m, 1), IDMAP_NONE);
  assert_int_equal(idmap_get(&m, 0), 10);
  idmap_del(&m, 1); /* a second delete of the same key changes nothing */
  assert_int_equal(m.n, 2);

  idmap_clear(&m);
  assert_int_equal(m.n, 0);
  assert_int_equal(idmap_get(&m, 0), IDMAP_NONE);
  assert_int_equal(idmap_put(&m, 0, 3, &d), CAIRN_OK);
  assert_int_equal(idmap_get(&m, 0), 3);
  idmap_free(&m);
  assert_null(m.keys);
  assert_int_equal(m.cap, 0);
}

/* UINT64_MAX, whose key + 1 would be the empty mark, is kept apart: found, replaced, deleted,
   and no other key disturbed (the third contact of a ball and a mesh wall whose ids are both
   the largest has that key). */
static void test_idmap_largest_key(void **state) {
  (void)state;
  idmap m = {0};
  assert_int_equal(idmap_get(&m, UINT64_MAX), IDMAP_NONE);
  assert_int_equal(idmap_put(&m, UINT64_MAX, 7, NULL), CAIRN_OK);
  assert_int_equal(idmap_put(&m, 0, 1, NULL), CAIRN_OK);
  assert_int_equal(idmap_get(&m, UINT64_MAX), 7);
  assert_int_equal(idmap_put(&m, UINT64_MAX, 8, NULL), CAIRN_OK);
  assert_int_equal(idmap_get(&m, UINT64_MAX), 8);
  assert_int_equal(idmap_get(&m, 0), 1);
  assert_int_equal(idmap_get(&m, UINT64_MAX - 1), IDMAP_NONE);
  idmap_del(&m, UINT64_MAX);
  assert_int_equal(idmap_get(&m, UINT64_MAX), IDMAP_NONE);
  assert_int_equal(idmap_get(&m, 0), 1);
  idmap_put(&m, UINT64_MAX, 9, NULL);
  idmap_clear(&m);
  assert_int_equal(idmap_get(&m, UINT64_MAX), IDMAP_NONE);
  idmap_free(&m);
}

static void test_idmap_grows_and_keeps_every_entry(void **state) {
  (void)state;
  idmap m = {0};
  cairn_diag d = {{0}};
  for (uint32_t i = 0; i < 5000; i++) {
    assert_int_equal(idmap_put(&m, (uint64_t)i * 7919u, i, &d), CAIRN_OK);
    /* load factor at most 1/2, capacity a power of two */
    assert_true(m.n * 2 <= m.cap);
    assert_int_equal(m.cap & (m.cap - 1), 0);
  }
  assert_int_equal(m.n, 5000);
  for (uint32_t i = 0; i < 5000; i++) assert_int_equal(idmap_get(&m, (uint64_t)i * 7919u), i);
  idmap_free(&m);
}

/* Find 'want' keys whose home slot in a table of 64 is 'home', by inserting each candidate alone
   into a fresh map (where an entry sits at its home). */
/* After most keys go (an MPI division keeps a quarter of the balls), idmap_fit shrinks the
   table to the least power of two at half load, and every key left is still found, the gone
   ones not, and the table grows again as before. */
static void test_idmap_fit_shrinks_and_keeps_the_rest(void **state) {
  (void)state;
  idmap m = {0};
  for (uint64_t k = 1; k <= 10000; k++)
    assert_int_equal(idmap_put(&m, k * 7, (uint32_t)k, NULL), 0);
  assert_int_equal(m.cap, 32768);
  for (uint64_t k = 1; k <= 10000; k++)
    if (k % 4) idmap_del(&m, k * 7);
  idmap_fit(&m);
  assert_int_equal(m.n, 2500);
  assert_int_equal(m.cap, 8192); /* 2 x 2 500 <= 8 192 */
  for (uint64_t k = 1; k <= 10000; k++)
    assert_int_equal(idmap_get(&m, k * 7), k % 4 ? IDMAP_NONE : (uint32_t)k);
  idmap_fit(&m); /* (already fitted: unchanged) */
  assert_int_equal(m.cap, 8192);
  for (uint64_t k = 10001; k <= 14000; k++)
    assert_int_equal(idmap_put(&m, k * 7, (uint32_t)k, NULL), 0);
  assert_int_equal(m.cap, 16384);
  for (uint64_t k = 10001; k <= 14000; k++) assert_int_equal(idmap_get(&m, k * 7), (uint32_t)k);
  idmap_free(&m);
}

static void keys_with_home(size_t home, uint64_t *out, int want, uint64_t start) {
  int got = 0;
  for (uint64_t k = start; got < want; k++) {
    idmap m = {0};
    assert_int_equal(idmap_put(&m, k, 0, NULL), CAIRN_OK);
    assert_int_equal(m.cap, 64);
    if (slot_of(&m, k) == (long)home) out[got++] = k;
    idmap_free(&m);
  }
}

static void test_idmap_delete_shifts_back_across_the_wrap(void **state) {
  (void)state;
  uint64_t h63[3], h0[2], h62[1];
  keys_with_home(63, h63, 3, 1);
  keys_with_home(0, h0, 2, 1);
  keys_with_home(62, h62, 1, 1);
  /* Probe run: slot 62: E (home 62); 63: A (63); 0: B (63); 1: C (63); 2: D (home 0);
     3: F (home 0). */
  idmap m = {0};
  cairn_diag d = {{0}};
  uint64_t order[] = {h62[0], h63[0], h63[1], h63[2], h0[0], h0[1]};
  for (uint32_t i = 0; i < 6; i++) assert_int_equal(idmap_put(&m, order[i], i, &d), CAIRN_OK);
  assert_int_equal(m.cap, 64);
  long expect[] = {62, 63, 0, 1, 2, 3};
  for (int i = 0; i < 6; i++) assert_int_equal(slot_of(&m, order[i]), expect[i]);

  /* Delete A (slot 63): B, C move back across the wrap, then D and F follow (their home 0 is
     not between the hole and them), leaving the run 62..2. */
  idmap_del(&m, h63[0]);
  assert_int_equal(m.n, 5);
  assert_int_equal(slot_of(&m, h63[1]), 63);
  assert_int_equal(slot_of(&m, h63[2]), 0);
  assert_int_equal(slot_of(&m, h0[0]), 1);
  assert_int_equal(slot_of(&m, h0[1]), 2);
  assert_int_equal(m.keys[3], 0);
  for (int i = 0; i < 6; i++)
    assert_int_equal(idmap_get(&m, order[i]), i == 1 ? IDMAP_NONE : (uint32_t)i);

  /* Delete E (slot 62, home 62): every entry after it has its home in (62, j] cyclically, so
     none may move in front of its home; the hole at 62 simply empties. */
  idmap_del(&m, h62[0]);
  assert_int_equal(m.keys[62], 0);
  assert_int_equal(slot_of(&m, h63[1]), 63);
  assert_int_equal(idmap_get(&m, h63[2]), 3);
  assert_int_equal(idmap_get(&m, h0[1]), 5);

  /* Delete C (slot 0, home 63): D (home 0) and F (home 0) both shift back one. */
  idmap_del(&m, h63[2]);
  assert_int_equal(slot_of(&m, h0[0]), 0);
  assert_int_equal(slot_of(&m, h0[1]), 1);
  assert_int_equal(idmap_get(&m, h63[1]), 2);
  assert_int_equal(idmap_get(&m, h0[0]), 4);
  assert_int_equal(idmap_get(&m, h0[1]), 5);
  assert_int_equal(m.n, 3);
  idmap_free(&m);
}

/* Randomized run: 20000 operations (put, replace, delete, get) on 1500 random 64-bit keys, checked
   after each against a plain array. Three phases (mostly inserting, mixed, mostly deleting) so the
   table grows through several capacities and long probe runs get broken up by deletions. */
static void test_idmap_matches_reference_array_over_random_operations(void **state) {
  (void)state;
  enum { NK = 1500, NOPS = 20000 };
  static uint64_t keys[NK];
  static uint32_t ref[NK]; /* IDMAP_NONE when absent */
  uint64_t seed = 20240601;
  for (int i = 0; i < NK; i++) {
    /* Half dense small keys (clustered homes are likely), half arbitrary 63-bit keys. */
    keys[i] = i % 2 ? next_rand(&seed) >> 1 : (uint64_t)i;
    ref[i] = IDMAP_NONE;
  }
  idmap m = {0};
  cairn_diag d = {{0}};
  size_t n_ref = 0, max_cap = 0;
  long deletions = 0;
  for (int op = 0; op < NOPS; op++) {
    int phase = op * 3 / NOPS; /* 0: grow, 1: mixed, 2: shrink */
    unsigned insert_pct = phase == 0 ? 80 : phase == 1 ? 50 : 20;
    size_t k = (size_t)(next_rand(&seed) % NK);
    uint32_t v = (uint32_t)(next_rand(&seed) % 1000000);
    if (next_rand(&seed) % 100 < insert_pct) {
      assert_int_equal(idmap_put(&m, keys[k], v, &d), CAIRN_OK);
      if (ref[k] == IDMAP_NONE) n_ref++;
      ref[k] = v;
    } else {
      idmap_del(&m, keys[k]);
      if (ref[k] != IDMAP_NONE) n_ref--, deletions++;
      ref[k] = IDMAP_NONE;
    }
    assert_int_equal(m.n, n_ref);
    assert_int_equal(idmap_get(&m, keys[k]), ref[k]);
    if (m.cap > max_cap) max_cap = m.cap;
    if (op % 500 == 0 || op == NOPS - 1)
      for (int i = 0; i < NK; i++) assert_int_equal(idmap_get(&m, keys[i]), ref[i]);
  }
  /* The run did what it claims: grew past the first capacities and deleted a lot. */
  assert_true(max_cap >= 1024);
  assert_true(deletions > 3000);
  idmap_free(&m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_idmap_empty_map_finds_nothing),
      cmocka_unit_test(test_idmap_put_get_replace_delete),
      cmocka_unit_test(test_idmap_largest_key),
      cmocka_unit_test(test_idmap_grows_and_keeps_every_entry),
      cmocka_unit_test(test_idmap_delete_shifts_back_across_the_wrap),
      cmocka_unit_test(test_idmap_fit_shrinks_and_keeps_the_rest),
      cmocka_unit_test(test_idmap_matches_reference_array_over_random_operations),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
