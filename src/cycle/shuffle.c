/* Reordering the arrays (cycle.h, cycle_shuffle): a check of the promise that a run's results do
   not depend on where balls and contacts lie in their arrays, which is what lets any thread count
   and any number of MPI ranks give bitwise the same run (design.md, Scale). */
#include <string.h>

#include "contact/contact.h"
#include "cycle/cycle.h"
#include "detect/detect.h"

/* A random permutation of 0 .. n-1 (Fisher-Yates on a 64-bit xorshift stream). */
static void random_order(uint32_t *order, size_t n, uint64_t *state) {
  for (size_t i = 0; i < n; i++) order[i] = (uint32_t)i;
  for (size_t i = n; i > 1; i--) {
    uint64_t x = *state;
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    *state = x;
    size_t j = (size_t)(x % i);
    uint32_t t = order[i - 1];
    order[i - 1] = order[j], order[j] = t;
  }
}

cairn_status cycle_shuffle(cairn_world *w, uint64_t seed, cairn_diag *d) {
  uint64_t state = seed * 0x9e3779b97f4a7c15ull + 1;
  pair_list *p = w->pairs;
  size_t nb = w->balls.n, nc = w->contacts->n, np = p->n, n = nb > nc ? nb : nc;
  if (np > n) n = np;
  if (n == 0) return CAIRN_OK;
  uint32_t *order = mem_realloc(NULL, 0, n * sizeof *order, "shuffle");
  uint32_t *inv = mem_realloc(NULL, 0, n * sizeof *inv, "shuffle");
  uint8_t *seen = mem_realloc(NULL, 0, n, "shuffle");
  cairn_status s = CAIRN_OK;
  if (!order || !inv || !seen) {
    s = diag_set(d, CAIRN_ENOMEM, "out of memory reordering the balls and contacts");
    goto done;
  }
  random_order(order, nb, &state);
  ball_sort(w, order, inv, seen);
  contact_renumber_balls(w, inv);
  /* the pair list names balls by slot: renamed, it stays valid (no rebuild is forced) */
  for (size_t q = 0; q < p->n; q++) {
    p->b[q] = inv[p->b[q]];
    if (p->kind[q] == CAIRN_KIND_BALL_BALL) p->a[q] = inv[p->a[q]];
  }
  random_order(order, nc, &state);
  s = contact_permute(w, order, d);
  if (s != CAIRN_OK || np == 0) goto done;
  /* the pairs in a random order too: each contact's pair index and the look-ahead's follow, and
     the mesh walls' pairs are found again */
  random_order(order, np, &state);
  mem_permute(p->kind, sizeof *p->kind, np, order, seen);
  mem_permute(p->sub, sizeof *p->sub, np, order, seen);
  mem_permute(p->a, sizeof *p->a, np, order, seen);
  mem_permute(p->b, sizeof *p->b, np, order, seen);
  mem_permute(p->contact, sizeof *p->contact, np, order, seen);
  for (size_t q = 0; q < np; q++) inv[order[q]] = (uint32_t)q;
  for (size_t q = 0; q < np; q++)
    if (p->contact[q] != IDMAP_NONE) w->contacts->pair[p->contact[q]] = (uint32_t)q;
  for (size_t k = 0; k < p->n_ahead; k++) p->ahead[k] = inv[p->ahead[k]];
  p->gen++;
done:
  mem_free(order, 0);
  mem_free(inv, 0);
  mem_free(seen, 0);
  return s;
}
