/* Tests of src/io/save.c that need the engine's hooks: a save that fails part-way (a simulated
   full disk) leaves an earlier save of the same name untouched and no temporary file behind; a
   restore gives every ball the key of its last neighbour rebuild (ball_store.skey), on which the
   order of its sums may depend. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>
#include <cmocka.h>

#include "contact/cmat.h"
#include "cycle/cycle.h"
#include "io/io.h"

static char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *p = malloc((size_t)len + 1);
  *n = p ? fread(p, 1, (size_t)len, f) : 0;
  fclose(f);
  return p;
}

static int count_temporaries(const char *dir) {
  DIR *dp = opendir(dir);
  int n = 0;
  struct dirent *e;
  while ((e = readdir(dp)))
    if (strstr(e->d_name, ".tmp-")) n++;
  closedir(dp);
  return n;
}

/* A new folder (dir, a mkdtemp template) and the path of 'name' in it. */
static void temp_file(char *dir, char *path, size_t n, const char *name) {
  assert_non_null(mkdtemp(dir));
  snprintf(path, n, "%s/%s", dir, name);
}

static cairn_status make_world(void *ud, int dim, cairn_world **out, cairn_diag *d) {
  (void)ud;
  cairn_world_opts o = {.dim = dim};
  return cairn_world_create(&o, out, d);
}

static void test_save_failing_midway_keeps_the_earlier_file(void **state) {
  (void)state;
  char dir[] = "/tmp/cairn-save-XXXXXX", path[256];
  temp_file(dir, path, sizeof path, "run.sav");
  cairn_world *w = NULL;
  cairn_diag d = {{0}};
  assert_int_equal(make_world(NULL, 3, &w, &d), CAIRN_OK);
  for (int i = 0; i < 50; i++) {
    ball_spec s = {.id = i + 1, .rad = 0.1, .density = 1000, .pos = {0.3 * i, 0, 0}};
    int64_t id;
    assert_int_equal(ball_create(w, &s, &id, &d), CAIRN_OK);
  }
  assert_int_equal(io_save(w, path, NULL, 0, &d), CAIRN_OK);
  size_t n0 = 0, n1 = 0;
  char *first = slurp(path, &n0);
  assert_non_null(first);

  /* Change the world, then fail the next save at several points of the file. */
  w->balls.pos[3][0] += 1.0;
  long cuts[] = {0, 5, 24, 500, (long)n0 - 9};
  for (size_t k = 0; k < sizeof cuts / sizeof *cuts; k++) {
    cairn_io_fail_after(cuts[k]);
    cairn_status s = io_save(w, path, NULL, 0, &d);
    cairn_io_fail_after(-1);
    assert_int_equal(s, CAIRN_EIO);
    assert_non_null(strstr(d.msg, "an earlier file of that name is unchanged"));
    char *now = slurp(path, &n1);
    assert_int_equal(n1, n0);
    assert_memory_equal(now, first, n0); /* byte for byte the earlier save */
    free(now);
    assert_int_equal(count_temporaries(dir), 0);
  }
  /* Without the hook the new save replaces the old one. */
  assert_int_equal(io_save(w, path, NULL, 0, &d), CAIRN_OK);
  char *second = slurp(path, &n1);
  assert_true(n1 == n0 && memcmp(second, first, n0) != 0);
  free(second);
  free(first);
  remove(path);
  rmdir(dir);
  cairn_world_destroy(&w);
}

static void test_restore_keeps_the_neighbour_keys(void **state) {
  (void)state;
  char dir[] = "/tmp/cairn-save-XXXXXX", path[256];
  temp_file(dir, path, sizeof path, "keys.sav");
  cairn_world *w = NULL;
  cairn_diag d = {{0}};
  assert_int_equal(make_world(NULL, 3, &w, &d), CAIRN_OK);
  assert_int_equal(cmat_set_default(w, CAIRN_KIND_BALL_BALL, "linear", 0.0, &d), CAIRN_OK);
  double kn = 1e5;
  assert_int_equal(cmat_set_prop(w, CAIRN_KIND_BALL_BALL, "kn", &kn, 1, &d), CAIRN_OK);
  /* a row of touching balls whose ids run against their places, so a rebuild reorders them */
  for (int i = 0; i < 40; i++) {
    ball_spec s = {.id = 40 - i, .rad = 0.1, .density = 1000, .pos = {0.19 * i, 0.01 * (i % 3), 0}};
    int64_t id;
    assert_int_equal(ball_create(w, &s, &id, &d), CAIRN_OK);
  }
  w->ts_mode = TS_FIXED;
  w->dt = 1e-4;
  assert_int_equal(cycle_run(w, 3, &d), CAIRN_OK);
  for (size_t i = 0; i < w->balls.n; i++) /* keyed by the rebuild: a Morton code, then the id */
    assert_int_equal(w->balls.skey[i] & CAIRN_ID_MAX, w->balls.id[i]);
  assert_int_equal(io_save(w, path, NULL, 0, &d), CAIRN_OK);
  cairn_world *r = NULL;
  restore_info info;
  assert_int_equal(io_restore(path, 3, make_world, NULL, &r, &info, &d), CAIRN_OK);
  assert_int_equal(r->balls.n, w->balls.n);
  for (size_t i = 0; i < w->balls.n; i++) {
    assert_int_equal(r->balls.id[i], w->balls.id[i]);
    assert_int_equal(r->balls.skey[i], w->balls.skey[i]);
  }
  cairn_world_destroy(&r);
  cairn_world_destroy(&w);
  remove(path);
  rmdir(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_save_failing_midway_keeps_the_earlier_file),
      cmocka_unit_test(test_restore_keeps_the_neighbour_keys),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
