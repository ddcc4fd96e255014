/* Forces and moments that scripts apply to balls: a short list by ball id, added to the balls'
   forces after each step's contact forces. */
#include <stdlib.h>
#include <string.h>

#include "core/idmap.h"
#include "world/world.h"

static long find(const load_set *l, int64_t id) {
  uint32_t i = idmap_get(&l->map, (uint64_t)id);
  return i == IDMAP_NONE ? -1 : (long)i;
}

static void drop(load_set *l, size_t i) {
  size_t last = l->n - 1;
  idmap_del(&l->map, (uint64_t)l->id[i]);
  if (i != last) {
    l->id[i] = l->id[last];
    memcpy(l->f[i], l->f[last], sizeof l->f[i]);
    memcpy(l->m[i], l->m[last], sizeof l->m[i]);
    idmap_put(&l->map, (uint64_t)l->id[i], (uint32_t)i, NULL); /* replaces: never allocates */
  }
  l->n = last;
}

cairn_status loads_set(cairn_world *w, int64_t id, int which, const double v[3], cairn_diag *d) {
  load_set *l = &w->loads;
  long i = find(l, id);
  if (i < 0) {
    if (v[0] == 0 && v[1] == 0 && v[2] == 0) return CAIRN_OK;
    if (l->n == l->cap) {
      size_t cap = l->cap;
      CAIRN_TRY(mem_grow((void **)&l->id, &cap, l->n + 1, sizeof *l->id, "loads:id", d));
      size_t c2 = l->cap;
      CAIRN_TRY(mem_grow((void **)&l->f, &c2, l->n + 1, sizeof *l->f, "loads:f", d));
      size_t c3 = l->cap;
      CAIRN_TRY(mem_grow((void **)&l->m, &c3, l->n + 1, sizeof *l->m, "loads:m", d));
      l->cap = cap;
    }
    CAIRN_TRY(idmap_put(&l->map, (uint64_t)id, (uint32_t)l->n, d));
    i = (long)l->n++;
    l->id[i] = id;
    memset(l->f[i], 0, sizeof l->f[i]);
    memset(l->m[i], 0, sizeof l->m[i]);
  }
  memcpy(which ? l->m[i] : l->f[i], v, 3 * sizeof *v);
  const double *f = l->f[i], *m = l->m[i];
  if (!f[0] && !f[1] && !f[2] && !m[0] && !m[1] && !m[2]) drop(l, (size_t)i);
  return CAIRN_OK;
}

void loads_get(const cairn_world *w, int64_t id, int which, double v[3]) {
  long i = find(&w->loads, id);
  if (i < 0)
    v[0] = v[1] = v[2] = 0;
  else
    memcpy(v, which ? w->loads.m[i] : w->loads.f[i], 3 * sizeof *v);
}

void loads_remove(cairn_world *w, int64_t id) {
  long i = find(&w->loads, id);
  if (i >= 0) drop(&w->loads, (size_t)i);
}

void loads_apply(cairn_world *w) {
  const load_set *l = &w->loads;
  ball_store *b = &w->balls;
  size_t own = balls_owned(w);
  for (size_t i = 0; i < l->n; i++) {
    uint32_t s = idmap_get(&b->map, (uint64_t)l->id[i]);
    if (s == IDMAP_NONE || s >= own) continue; /* (a ghost: its owner applies it) */
    v3_add(b->force[s], l->f[i], b->force[s]);
    v3_add(b->moment[s], l->m[i], b->moment[s]);
  }
}

/* As gravity's (cycle.c): the force times this step's displacement v dt, the moment times this
   step's rotation (2D: about z only). */
void loads_work(const cairn_world *w, double dt, xsum *acc) {
  const load_set *l = &w->loads;
  const ball_store *b = &w->balls;
  size_t own = balls_owned(w);
  for (size_t i = 0; i < l->n; i++) {
    uint32_t s = idmap_get(&b->map, (uint64_t)l->id[i]);
    if (s == IDMAP_NONE || s >= own) continue;
    /* (under MPI a ball that left the domain this step is deleted after this, one process's
       before: its load does no work this step either way) */
    if (w->n_leaving && w->del_mark[s]) continue;
    for (int k = 0; k < w->dim; k++) xsum_add(acc, l->f[i][k] * b->vel[s][k] * dt);
    for (int k = w->dim == 2 ? 2 : 0; k < 3; k++) xsum_add(acc, l->m[i][k] * b->spin[s][k] * dt);
  }
}

void loads_row(const cairn_world *w, size_t k, uint8_t *out) {
  const load_set *l = &w->loads;
  memcpy(out, &l->id[k], sizeof l->id[k]);
  memcpy(out + sizeof l->id[k], l->f[k], 3 * sizeof(double));
  memcpy(out + sizeof l->id[k] + 3 * sizeof(double), l->m[k], 3 * sizeof(double));
}

void loads_row_read(const uint8_t *row, int64_t *id, double f[3], double m[3]) {
  memcpy(id, row, sizeof *id);
  memcpy(f, row + sizeof *id, 3 * sizeof *f);
  memcpy(m, row + sizeof *id + 3 * sizeof *f, 3 * sizeof *m);
}

cairn_status loads_row_set(cairn_world *w, const uint8_t *row, cairn_diag *d) {
  int64_t id;
  double f[3], m[3];
  loads_row_read(row, &id, f, m);
  CAIRN_TRY(loads_set(w, id, 0, f, d));
  return loads_set(w, id, 1, m, d);
}

static int row_cmp(const void *x, const void *y) {
  int64_t a, b;
  memcpy(&a, x, sizeof a);
  memcpy(&b, y, sizeof b);
  return (a > b) - (a < b);
}

void loads_rows_sort(uint8_t *rows, size_t n) {
  qsort(rows, n, LOAD_ROW, row_cmp);
}

cairn_status loads_rows_sorted(const cairn_world *w, uint8_t **out, size_t *n, cairn_diag *d) {
  const load_set *l = &w->loads;
  *n = l->n;
  *out = mem_realloc(NULL, 0, l->n * LOAD_ROW + 1, "loads:rows");
  CAIRN_CHECK(*out, d, CAIRN_ENOMEM, "out of memory listing %zu applied loads", l->n);
  for (size_t i = 0; i < l->n; i++) loads_row(w, i, *out + i * LOAD_ROW);
  loads_rows_sort(*out, l->n);
  return CAIRN_OK;
}

void loads_keep_owned(cairn_world *w, size_t owned) {
  load_set *l = &w->loads;
  const ball_store *b = &w->balls;
  for (size_t i = l->n; i-- > 0;) {
    uint32_t s = idmap_get(&b->map, (uint64_t)l->id[i]);
    if (s == IDMAP_NONE || s >= owned) drop(l, i);
  }
}

void loads_clear(load_set *l) {
  l->n = 0;
  idmap_clear(&l->map);
}

void loads_free(load_set *l) {
  idmap_free(&l->map);
  mem_free(l->id, 0);
  mem_free(l->f, 0);
  mem_free(l->m, 0);
  memset(l, 0, sizeof *l);
}
