/* Each ball's contacts in the order of its partners' keys (contact_links in contact.h): walls
   first, by wall id, then balls by the key of the last neighbour rebuild (ball_store.skey: the
   Morton cell of the grid, then the id; the order a contact store sorted by its balls' keys
   gives, issue 32's canonical order), then balls made since that rebuild, by id. */
#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"

uint64_t links_key(const cairn_world *w, uint32_t e) {
  const contact_store *cs = w->contacts;
  uint32_t c = e >> 1;
  if (cs->kind[c] != CAIRN_KIND_BALL_BALL) /* (a mesh's contacts with one ball in order) */
    return (uint64_t)w->walls.w[cs->a[c]].id << 2 | cs->sub[c];
  uint32_t o = (e & 1) ? cs->b[c] : cs->a[c];
  uint64_t k = w->balls.skey[o];
  return k == UINT64_MAX ? UINT64_C(3) << 62 | (uint64_t)w->balls.id[o] : UINT64_C(1) << 62 | k;
}

/* (qsort's comparison of entries: the keys through a file-scope pointer, set by the one thread
   that builds) */
static const cairn_world *sort_world;
static int entry_cmp(const void *x, const void *y) {
  uint64_t a = links_key(sort_world, *(const uint32_t *)x),
           b = links_key(sort_world, *(const uint32_t *)y);
  return (a > b) - (a < b);
}
/* extras by ball, then key */
static int extra_less(const contact_extra *a, const contact_extra *b) {
  return a->ball != b->ball ? a->ball < b->ball : a->key < b->key;
}
static int extra_cmp(const void *x, const void *y) {
  return extra_less(y, x) - extra_less(x, y);
}

static cairn_status reserve_pos(contact_links *l, size_t n, cairn_diag *d) {
  return mem_grow((void **)&l->pos, &l->cap_pos, n, sizeof *l->pos, "contact:links", d);
}

cairn_status links_build(cairn_world *w, cairn_diag *d) {
  contact_store *cs = w->contacts;
  contact_links *l = &cs->links;
  size_t nb = w->balls.n, nc = cs->n;
  l->ok = 0;
  CAIRN_TRY(
      mem_grow((void **)&l->start, &l->cap_start, nb + 2, sizeof *l->start, "contact:links", d));
  CAIRN_TRY(mem_grow((void **)&l->entry, &l->cap_entry, 2 * nc + 1, sizeof *l->entry,
                     "contact:links", d));
  CAIRN_TRY(reserve_pos(l, nc + 1, d));
  uint32_t *start = l->start, *entry = l->entry;
  memset(start, 0, (nb + 2) * sizeof *start);
  for (size_t c = 0; c < nc; c++) {
    start[cs->b[c] + 2]++;
    if (cs->kind[c] == CAIRN_KIND_BALL_BALL) start[cs->a[c] + 2]++;
  }
  /* counts at i + 2, summed to starts at i + 1; filling moves each to ball i's start at i */
  for (size_t i = 2; i < nb + 2; i++) start[i] += start[i - 1];
  for (size_t c = 0; c < nc; c++) {
    entry[start[cs->b[c] + 1]++] = (uint32_t)c << 1;
    if (cs->kind[c] == CAIRN_KIND_BALL_BALL) entry[start[cs->a[c] + 1]++] = (uint32_t)c << 1 | 1u;
  }
  sort_world = w;
  for (size_t i = 0; i < nb; i++) {
    uint32_t *e = entry + start[i];
    size_t n = start[i + 1] - start[i];
    if (n > 24) {
      qsort(e, n, sizeof *e, entry_cmp);
    } else {
      for (size_t j = 1; j < n; j++) { /* insertion: a ball has a few contacts */
        uint32_t x = e[j];
        uint64_t kx = links_key(w, x);
        size_t k = j;
        for (; k > 0 && links_key(w, e[k - 1]) > kx; k--) e[k] = e[k - 1];
        e[k] = x;
      }
    }
    for (size_t j = 0; j < n; j++) l->pos[e[j] >> 1][e[j] & 1] = (uint32_t)(start[i] + j);
  }
  l->n_extra = l->n_sorted = l->n_tombs = 0;
  l->nb = nb;
  l->ok = 1;
  l->layout = w->layout;
  return CAIRN_OK;
}

/* Add entry e of ball 'ball' to the extras; returns its LINK_EXTRA position, or LINK_TOMB
   without memory (the lists are then dropped, to be built again). */
static uint32_t push_extra(const cairn_world *w, contact_links *l, uint32_t ball, uint32_t e) {
  if (mem_grow((void **)&l->extra, &l->cap_extra, l->n_extra + 1, sizeof *l->extra, "contact:links",
               NULL) != CAIRN_OK)
    return LINK_TOMB;
  l->extra[l->n_extra] = (contact_extra){ball, e, links_key(w, e)};
  return LINK_EXTRA | (uint32_t)l->n_extra++;
}

void links_created(cairn_world *w, uint32_t c) {
  contact_store *cs = w->contacts;
  contact_links *l = &cs->links;
  if (!links_current(w, l)) return;
  /* a rebuild costs about a pass over the contacts, and each ball with extras is summed twice a
     step (ball_sums, extra_sums): once the extras (two per ball-ball contact) outnumber a
     thirty-second of the contacts, rather build */
  if (l->n_extra > cs->n / 32 + 64 || reserve_pos(l, (size_t)c + 1, NULL) != CAIRN_OK) {
    l->ok = 0;
    return;
  }
  uint32_t p2 = push_extra(w, l, cs->b[c], c << 1), p1 = 0;
  if (cs->kind[c] == CAIRN_KIND_BALL_BALL) p1 = push_extra(w, l, cs->a[c], c << 1 | 1u);
  if (p2 == LINK_TOMB || p1 == LINK_TOMB) {
    l->ok = 0;
    return;
  }
  l->pos[c][0] = p2, l->pos[c][1] = p1;
}

/* The entry at position p. */
static uint32_t *entry_at(contact_links *l, uint32_t p) {
  return (p & LINK_EXTRA) ? &l->extra[p & ~LINK_EXTRA].entry : &l->entry[p];
}

void links_deleted(cairn_world *w, uint32_t c) {
  contact_store *cs = w->contacts;
  contact_links *l = &cs->links;
  if (!links_current(w, l)) return;
  int sides = cs->kind[c] == CAIRN_KIND_BALL_BALL ? 2 : 1;
  for (int s = 0; s < sides; s++) {
    *entry_at(l, l->pos[c][s]) = LINK_TOMB;
    if (l->pos[c][s] & LINK_EXTRA) l->n_tombs++;
  }
}

void links_moved(cairn_world *w, uint32_t from, uint32_t to) {
  contact_store *cs = w->contacts;
  contact_links *l = &cs->links;
  if (!links_current(w, l)) return;
  int sides = cs->kind[to] == CAIRN_KIND_BALL_BALL ? 2 : 1;
  for (int s = 0; s < sides; s++) *entry_at(l, l->pos[from][s]) = to << 1 | (uint32_t)s;
  l->pos[to][0] = l->pos[from][0], l->pos[to][1] = l->pos[from][1];
}

cairn_status links_sort_extras(cairn_world *w, cairn_diag *d) {
  contact_links *l = &w->contacts->links;
  if (l->n_sorted == l->n_extra && !l->n_tombs) return CAIRN_OK;
  /* the extras made since the last call, sorted, merged into the sorted ones (a few a step
     among many: linear), without the tombstones */
  CAIRN_TRY(mem_grow((void **)&l->merge, &l->cap_merge, l->n_extra + 1, sizeof *l->merge,
                     "contact:links", d));
  contact_extra *x = l->extra, *out = l->merge;
  qsort(x + l->n_sorted, l->n_extra - l->n_sorted, sizeof *x, extra_cmp);
  size_t i = 0, j = l->n_sorted, k = 0;
  while (i < l->n_sorted || j < l->n_extra) {
    const contact_extra *e =
        j == l->n_extra || (i < l->n_sorted && !extra_less(&x[j], &x[i])) ? &x[i++] : &x[j++];
    if (e->entry != LINK_TOMB) out[k++] = *e;
  }
  for (size_t q = 0; q < k; q++)
    l->pos[out[q].entry >> 1][out[q].entry & 1] = LINK_EXTRA | (uint32_t)q;
  l->merge = x, l->extra = out;
  size_t cap = l->cap_merge;
  l->cap_merge = l->cap_extra, l->cap_extra = cap;
  l->n_extra = l->n_sorted = k;
  l->n_tombs = 0;
  return CAIRN_OK;
}

void links_free(contact_links *l) {
  mem_free(l->start, 0);
  mem_free(l->entry, 0);
  mem_free(l->pos, 0);
  mem_free(l->extra, 0);
  mem_free(l->merge, 0);
  memset(l, 0, sizeof *l);
}
