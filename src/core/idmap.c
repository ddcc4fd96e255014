/* Open-addressing hash map with linear probing and backward-shift deletion. */
#include <string.h>

#include "core/idmap.h"

static inline size_t hash64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return (size_t)k;
}

void idmap_free(idmap *m) {
  mem_free(m->keys, m->cap * sizeof *m->keys);
  mem_free(m->vals, m->cap * sizeof *m->vals);
  memset(m, 0, sizeof *m);
}

void idmap_clear(idmap *m) {
  if (m->keys) memset(m->keys, 0, m->cap * sizeof *m->keys);
  m->n = 0;
  m->has_top = 0;
}

static void insert_raw(uint64_t *keys, uint32_t *vals, size_t cap, uint64_t k1, uint32_t v) {
  size_t mask = cap - 1, i = hash64(k1 - 1) & mask;
  while (keys[i] != 0 && keys[i] != k1) i = (i + 1) & mask;
  keys[i] = k1;
  vals[i] = v;
}

void idmap_fit(idmap *m) {
  size_t ncap = 64;
  while (ncap < 2 * m->n) ncap *= 2;
  if (ncap >= m->cap) return;
  uint64_t *nk = mem_realloc(NULL, 0, ncap * sizeof *nk, "idmap:keys");
  uint32_t *nv = nk ? mem_realloc(NULL, 0, ncap * sizeof *nv, "idmap:vals") : NULL;
  if (!nk || !nv) {
    mem_free(nk, 0);
    return;
  }
  memset(nk, 0, ncap * sizeof *nk);
  for (size_t i = 0; i < m->cap; i++)
    if (m->keys[i]) insert_raw(nk, nv, ncap, m->keys[i], m->vals[i]);
  mem_free(m->keys, 0), mem_free(m->vals, 0);
  m->keys = nk, m->vals = nv, m->cap = ncap;
}

uint32_t idmap_get(const idmap *m, uint64_t key) {
  if (key == UINT64_MAX) return m->has_top ? m->top_val : IDMAP_NONE;
  if (!m->cap) return IDMAP_NONE;
  size_t mask = m->cap - 1, i = hash64(key) & mask;
  for (;;) {
    uint64_t k = m->keys[i];
    if (k == 0) return IDMAP_NONE;
    if (k == key + 1) return m->vals[i];
    i = (i + 1) & mask;
  }
}

cairn_status idmap_put(idmap *m, uint64_t key, uint32_t val, cairn_diag *d) {
  if (key == UINT64_MAX) {
    m->has_top = 1, m->top_val = val;
    return CAIRN_OK;
  }
  if (m->cap) { /* replacing never allocates */
    size_t mask = m->cap - 1, i = hash64(key) & mask;
    for (; m->keys[i] != 0; i = (i + 1) & mask)
      if (m->keys[i] == key + 1) {
        m->vals[i] = val;
        return CAIRN_OK;
      }
  }
  if ((m->n + 1) * 2 > m->cap) {
    size_t ncap = m->cap ? m->cap * 2 : 64;
    uint64_t *nk = mem_realloc(NULL, 0, ncap * sizeof *nk, "idmap:keys");
    uint32_t *nv = nk ? mem_realloc(NULL, 0, ncap * sizeof *nv, "idmap:vals") : NULL;
    if (!nk || !nv) {
      mem_free(nk, 0);
      return diag_set(d, CAIRN_ENOMEM, "out of memory growing a lookup table to %zu entries", ncap);
    }
    memset(nk, 0, ncap * sizeof *nk);
    for (size_t i = 0; i < m->cap; i++)
      if (m->keys[i]) insert_raw(nk, nv, ncap, m->keys[i], m->vals[i]);
    mem_free(m->keys, 0), mem_free(m->vals, 0);
    m->keys = nk, m->vals = nv, m->cap = ncap;
  }
  insert_raw(m->keys, m->vals, m->cap, key + 1, val);
  m->n++;
  return CAIRN_OK;
}

void idmap_del(idmap *m, uint64_t key) {
  if (key == UINT64_MAX) {
    m->has_top = 0;
    return;
  }
  if (!m->cap) return;
  size_t mask = m->cap - 1, i = hash64(key) & mask;
  for (;;) {
    if (m->keys[i] == 0) return;
    if (m->keys[i] == key + 1) break;
    i = (i + 1) & mask;
  }
  m->n--;
  /* Backward shift: move later entries of the probe run into the hole. */
  size_t hole = i;
  for (size_t j = (i + 1) & mask; m->keys[j] != 0; j = (j + 1) & mask) {
    size_t home = hash64(m->keys[j] - 1) & mask;
    /* Entry j may move into the hole if its home is not in (hole, j] cyclically. */
    int in_range = (hole <= j) ? (home > hole && home <= j) : (home > hole || home <= j);
    if (!in_range) {
      m->keys[hole] = m->keys[j];
      m->vals[hole] = m->vals[j];
      hole = j;
    }
  }
  m->keys[hole] = 0;
}
