/* Diagnostics and the allocator hook. The hook lets tests fail the n-th allocation and check
   that the failure is reported and nothing is left half-changed. */
#include <stdio.h>
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <string.h>

#include "core/core.h"

static long fail_countdown = 0; /* test hook only; 0 = never fail */

void cairn_mem_fail_after(long n) {
  fail_countdown = n;
}

long cairn_mem_fail_pending(void) {
  return fail_countdown;
}

void *mem_realloc(void *p, size_t old_size, size_t new_size, const char *tag) {
  (void)old_size, (void)tag;
  if (new_size == 0) {
    free(p);
    return NULL;
  }
  if (fail_countdown > 0 && --fail_countdown == 0) return NULL;
  return realloc(p, new_size);
}

void mem_free(void *p, size_t size) {
  (void)size;
  free(p);
}

void mem_trim(void) {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

size_t mem_next_cap(size_t cap, size_t need) {
  size_t n = cap ? cap : 16;
  while (n < need) n = (n + n / 2 + 15) & ~(size_t)15;
  return n;
}

cairn_status mem_resize(void **p, size_t old_n, size_t new_n, size_t elem, const char *tag,
                        cairn_diag *d) {
  void *q = mem_realloc(*p, old_n * elem, new_n * elem, tag);
  if (!q && new_n)
    return diag_set(d, CAIRN_ENOMEM, "out of memory growing %s to %zu entries", tag, new_n);
  if (new_n > old_n) memset((char *)q + old_n * elem, 0, (new_n - old_n) * elem);
  *p = q;
  return CAIRN_OK;
}

cairn_status mem_resize_raw(void **p, size_t old_n, size_t new_n, size_t elem, const char *tag,
                            cairn_diag *d) {
  void *q = mem_realloc(*p, old_n * elem, new_n * elem, tag);
  if (!q && new_n)
    return diag_set(d, CAIRN_ENOMEM, "out of memory growing %s to %zu entries", tag, new_n);
  *p = q;
  return CAIRN_OK;
}

cairn_status mem_grow(void **p, size_t *cap, size_t need, size_t elem, const char *tag,
                      cairn_diag *d) {
  if (need <= *cap) return CAIRN_OK;
  size_t n = mem_next_cap(*cap, need);
  CAIRN_TRY(mem_resize(p, *cap, n, elem, tag, d));
  *cap = n;
  return CAIRN_OK;
}

/* Put the elements of an array of n elements of 'size' bytes in the order 'order' (element i
   takes the old element order[i]), in place, by following the permutation's cycles; 'seen' is
   n bytes of scratch. Elements are moved a slice of at most 128 bytes at a time (one pass over
   the cycles per slice), so any size fits the buffer. */
void mem_permute(void *base, size_t size, size_t n, const uint32_t *order, uint8_t *seen) {
  char tmp[128];
  for (size_t off = 0; off < size; off += sizeof tmp) {
    char *v = (char *)base + off;
    size_t len = size - off < sizeof tmp ? size - off : sizeof tmp;
    memset(seen, 0, n);
    for (size_t i = 0; i < n; i++) {
      if (seen[i] || order[i] == i) continue;
      memcpy(tmp, v + i * size, len);
      size_t j = i;
      for (;;) {
        seen[j] = 1;
        size_t k = order[j];
        if (k == i) break;
        memcpy(v + j * size, v + k * size, len);
        j = k;
      }
      memcpy(v + j * size, tmp, len);
    }
  }
}

cairn_status diag_set(cairn_diag *d, cairn_status s, const char *fmt, ...) {
  if (d) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->msg, sizeof d->msg, fmt, ap);
    va_end(ap);
  }
  return s;
}

const char *cairn_status_str(cairn_status s) {
  switch (s) {
  case CAIRN_OK:
    return "ok";
  case CAIRN_EINVAL:
    return "invalid input";
  case CAIRN_ENOMEM:
    return "out of memory";
  case CAIRN_EIO:
    return "input/output error";
  case CAIRN_ENOTFOUND:
    return "not found";
  case CAIRN_EABI:
    return "plugin ABI error";
  case CAIRN_ESTATE:
    return "not possible now";
  case CAIRN_ECALLBACK:
    return "script callback failed";
  }
  return "unknown status";
}
