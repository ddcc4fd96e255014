/* An open-addressing hash map from 64-bit keys to 32-bit values (ids to slots, contact keys to
   contact indices). Deletion uses backward shifting, so there are no tombstones. */
#ifndef CAIRN_IDMAP_H
#define CAIRN_IDMAP_H

#include "core/core.h"

typedef struct idmap {
  uint64_t *keys; /* key + 1; 0 marks an empty slot */
  uint32_t *vals;
  size_t cap, n; /* cap is a power of two */
  /* the one key that key + 1 cannot hold, UINT64_MAX (a contact key of the third kind with both
     ids at the largest, contact.h), kept apart */
  int has_top;
  uint32_t top_val;
} idmap;

#define IDMAP_NONE UINT32_MAX

void idmap_free(idmap *m);
uint32_t idmap_get(const idmap *m, uint64_t key);
/* Insert or replace. May allocate. */
cairn_status idmap_put(idmap *m, uint64_t key, uint32_t val, cairn_diag *d);
void idmap_del(idmap *m, uint64_t key);
void idmap_clear(idmap *m);
/* Shrink the table to the least power of two that holds its keys at half load, when that is
   smaller (after most keys went); without the memory for it, the table stays as it is. */
void idmap_fit(idmap *m);

#endif
