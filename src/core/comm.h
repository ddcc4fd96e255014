/* Communication between MPI ranks (design.md, Scale): the few collective operations the engine
   needs, so that no other file includes mpi.h. Built with -DCAIRN_MPI=ON they run on Open MPI;
   otherwise there is one rank and each is the identity. Every collective is called by every
   rank in the same order. */
#ifndef CAIRN_COMM_H
#define CAIRN_COMM_H

#include <stddef.h>
#include <stdint.h>

#include "cairn/cairn.h"
#include "core/xsum.h"

/* Start and stop (the command line's main; a no-op without MPI). comm_init returns 0 on
   success. */
int comm_init(int *argc, char ***argv);
void comm_finalize(void);
/* Stop every rank with this exit code (without MPI: exit). */
void comm_abort(int code);
int comm_rank(void);
int comm_size(void);

/* In place, over every rank: the largest or smallest of each of n values, the sum of n whole
   numbers, the exact sum of n accumulators. The same result on every rank. */
void comm_max(double *v, int n);
void comm_min(double *v, int n);
void comm_sum_i64(int64_t *v, int n);
void comm_xsum(xsum *s, int n);
/* In place, the bitwise or of n words over every rank: what one rank holds reaches all, bit for
   bit, where the others give zeros. */
void comm_or_u64(uint64_t *v, int n);

/* Agree on a failure: every rank passes its own status (and message in d); if any failed, every
   rank returns the status and message of the lowest rank that failed. */
cairn_status comm_agree(cairn_status s, cairn_diag *d);

/* Several of the above in one MPI call, for the few points of a step where the ranks meet (each
   costs a round of latency, which a small model's step cannot hide): up to COMM_FUSED_MAX
   largest values (a smallest: its negation) and whole-number sums, up to 4 arrays of exact
   sums, and the ranks' statuses agreed as comm_agree does. Fill with the push calls (each
   returns the value's index in max[] or sum[]), then reduce: the values are every rank's. One
   rank: the values stay as they are. */
#define COMM_FUSED_MAX 8
/* The digits an array of exact sums sent last time (every rank's, the same everywhere): a sum of
   forces or energies lives in a few of an accumulator's 68 digits, so only those travel (kept
   by the caller from one reduction to the next; {1, 0}, as comm_window_init sets: not known, all
   digits). A rank whose digits fall outside says so in the same reduction, and every rank then
   sends them all in a second one: the sums are exact either way. */
typedef struct comm_window {
  int lo, hi;
} comm_window;
static inline void comm_window_init(comm_window *w) {
  w->lo = 1, w->hi = 0;
}
typedef struct comm_fused {
  double max[COMM_FUSED_MAX];
  int64_t sum[COMM_FUSED_MAX];
  int n_max, n_sum, n_arrays;
  xsum *xs[4];
  int n_xs[4];
  comm_window *win[4];
} comm_fused;
void comm_fused_init(comm_fused *f);
int comm_fused_max(comm_fused *f, double v);
int comm_fused_sum(comm_fused *f, int64_t v);
void comm_fused_xsums(comm_fused *f, xsum *s, int n, comm_window *win);
cairn_status comm_fused_reduce(comm_fused *f, cairn_status s, cairn_diag *d);

/* Every rank sends send_count[r] bytes to rank r from send (in rank order); *recv (grown with
   mem_grow from *recv_cap) receives what every rank sent to this one, in rank order, with
   recv_count[r] bytes from rank r. send_count and recv_count have comm_size() entries. Any size:
   a transfer of 1 GiB or more goes in pieces (comm.c). */
cairn_status comm_exchange(const void *send, const size_t *send_count, void **recv,
                           size_t *recv_cap, size_t *recv_count, cairn_diag *d);
/* Every rank sends send_count[r] bytes from send[r] to rank r, and receives recv_count[r] bytes
   from rank r into recv (in rank order), with every count known on both sides beforehand (a
   rank r with nothing to send here has recv_count[r] = 0 here): point to point, with the ranks
   concerned only, no count exchanged and nothing allocated but the requests. The per-step
   exchange of ghosts between neighbouring bricks. */
void comm_swap_known(const void *const *send, const size_t *send_count, void *recv,
                     const size_t *recv_count);
/* Every rank writes its n bytes at byte 'off' of the file 'path', which exists (the ranks' parts
   of one file: MPI-IO); collective, every rank's failure shared. A rank may write nothing. */
cairn_status comm_write_at(const char *path, uint64_t off, const void *p, size_t n, cairn_diag *d);
/* Every rank's bytes, in rank order, to every rank (recv_count: comm_size() entries). */
cairn_status comm_gather_all(const void *send, size_t n, void **recv, size_t *recv_cap,
                             size_t *recv_count, cairn_diag *d);

/* The script's collective calls (docs/parallel.md, "Collective calls"): before each call that
   waits for the other ranks, and at the end of the script, every rank says which call it makes
   (code: the caller's numbering, the same on every rank) and, for a message, what it is and
   where. They meet on a communicator of their own, so that a rank out of step never meets an
   exchange of the engine. Returns 1 when every rank makes the call with this code; else 0, with
   every rank's call in *all (comm_size() entries, owned here, the same on every rank). Once
   the ranks are out of step they stay so (no exchange between them is safe any more): every
   later call returns 0 at once, with the calls of the first mismatch. One rank: always 1. */
typedef struct comm_call {
  int32_t code;
  char what[92];   /* e.g. "called model.save" */
  char where[160]; /* e.g. "script.lua:12", or "" */
} comm_call;
int comm_same_call(const comm_call *mine, const comm_call **all);

/* Whether this rank waits for the others before printing a failure: at an error exit every rank
   calls comm_error_exit; if all the ranks fail alike (a script's error, which every rank meets)
   rank 0 alone prints, and if one rank fails alone it prints and stops the others. Returns
   whether this rank should print the message. */
int comm_error_exit_should_print(void);

#endif
