/* Core helpers shared by every subsystem: diagnostics, the allocator hook, small vectors. */
#ifndef CAIRN_CORE_H
#define CAIRN_CORE_H

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cairn/cairn.h"

/* Fill d->msg (if d is not NULL) and return s. */
cairn_status diag_set(cairn_diag *d, cairn_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#define CAIRN_TRY(expr)                                                                            \
  do {                                                                                             \
    cairn_status try_s_ = (expr);                                                                  \
    if (try_s_ != CAIRN_OK) return try_s_;                                                         \
  } while (0)

#define CAIRN_CHECK(cond, d, status, ...)                                                          \
  do {                                                                                             \
    if (!(cond)) return diag_set((d), (status), __VA_ARGS__);                                      \
  } while (0)

/* Every allocation goes through here. 'tag' names what is allocated, for failure messages.
   new_size 0 frees and returns NULL. Returns NULL on failure and leaves p untouched. */
void *mem_realloc(void *p, size_t old_size, size_t new_size, const char *tag);
void mem_free(void *p, size_t size);
/* Hand the allocator's free memory back to the system (glibc's malloc_trim; elsewhere nothing):
   after a large store has shrunk, so that the process's resident memory shrinks with it. */
void mem_trim(void);

/* Test hook: make the n-th allocation from now fail (n >= 1), or never (n = 0). */
CAIRN_API void cairn_mem_fail_after(long n);
/* The allocations left before the one set to fail (0: none pending, it failed or was never set). */
CAIRN_API long cairn_mem_fail_pending(void);

/* Resize an array from old_n to new_n elements of 'elem' bytes, zeroing the new tail. */
cairn_status mem_resize(void **p, size_t old_n, size_t new_n, size_t elem, const char *tag,
                        cairn_diag *d);
/* mem_resize without zeroing the new elements, for the arrays whose every element is written
   before it is read (balls, contacts, pairs and the force pass's scratch). A grown array's tail
   is then left untouched, and the operating system makes no memory resident for it until it is
   used: the spare capacity of the growth costs address space, not memory. */
cairn_status mem_resize_raw(void **p, size_t old_n, size_t new_n, size_t elem, const char *tag,
                            cairn_diag *d);
/* Capacity for at least 'need' elements: 'cap' grown by half (from 16), in multiples of 16,
   until it fits. Half, not double: a store zeroed as it grows (mem_resize) is resident in full,
   and an MPI rank's share of a large model then stays within 0.3 of one process's memory
   (docs/parallel.md, Memory); the copies cost no more than a few per cent of the time spent
   filling the store. */
size_t mem_next_cap(size_t cap, size_t need);

/* Grow an array to hold at least 'need' elements of 'elem' bytes, doubling. */
cairn_status mem_grow(void **p, size_t *cap, size_t need, size_t elem, const char *tag,
                      cairn_diag *d);

/* Put the n elements (of any size) of an array in the order 'order' (element i takes the old
   element order[i]; a permutation of 0..n-1), in place; 'seen' is n bytes of scratch. */
void mem_permute(void *base, size_t size, size_t n, const uint32_t *order, uint8_t *seen);

/* 3-vectors. */
static inline double v3_dot(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static inline void v3_cross(const double a[3], const double b[3], double out[3]) {
  double x = a[1] * b[2] - a[2] * b[1];
  double y = a[2] * b[0] - a[0] * b[2];
  double z = a[0] * b[1] - a[1] * b[0];
  out[0] = x, out[1] = y, out[2] = z;
}
static inline double v3_norm(const double a[3]) {
  return sqrt(v3_dot(a, a));
}
static inline void v3_sub(const double a[3], const double b[3], double out[3]) {
  out[0] = a[0] - b[0], out[1] = a[1] - b[1], out[2] = a[2] - b[2];
}
static inline void v3_add(const double a[3], const double b[3], double out[3]) {
  out[0] = a[0] + b[0], out[1] = a[1] + b[1], out[2] = a[2] + b[2];
}
static inline void v3_scale(const double a[3], double s, double out[3]) {
  out[0] = a[0] * s, out[1] = a[1] * s, out[2] = a[2] * s;
}
static inline void v3_copy(const double a[3], double out[3]) {
  out[0] = a[0], out[1] = a[1], out[2] = a[2];
}
static inline void v3_zero(double a[3]) {
  a[0] = a[1] = a[2] = 0.0;
}

#endif
