/* Communication between MPI ranks (comm.h). */
#include "core/comm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/core.h"

#ifdef CAIRN_MPI
#include <mpi.h>

static int rank_ = 0, size_ = 1, started_ = 0;
static MPI_Comm calls_ = MPI_COMM_NULL; /* the collective calls' handshakes (comm_same_call) */
static comm_call *out_of_step;          /* every rank's call at the first mismatch, or NULL */

int comm_init(int *argc, char ***argv) {
  int ok = 0;
  MPI_Initialized(&ok);
  if (!ok && MPI_Init(argc, argv) != MPI_SUCCESS) return -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  if (MPI_Comm_dup(MPI_COMM_WORLD, &calls_) != MPI_SUCCESS) return -1;
  started_ = 1;
  return 0;
}

void comm_finalize(void) {
  if (started_) {
    MPI_Comm_free(&calls_);
    MPI_Finalize();
  }
  started_ = 0;
  free(out_of_step);
  out_of_step = NULL;
}

void comm_abort(int code) {
  if (started_) MPI_Abort(MPI_COMM_WORLD, code);
  exit(code);
}

int comm_rank(void) {
  return rank_;
}
int comm_size(void) {
  return size_;
}

void comm_max(double *v, int n) {
  if (size_ > 1) MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
}
void comm_min(double *v, int n) {
  if (size_ > 1) MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
}
void comm_sum_i64(int64_t *v, int n) {
  if (size_ > 1) MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
}
void comm_or_u64(uint64_t *v, int n) {
  if (size_ > 1) MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_UINT64_T, MPI_BOR, MPI_COMM_WORLD);
}

void comm_xsum(xsum *s, int n) {
  if (size_ <= 1) return;
  /* digits summed as whole numbers (exact, so in any order), the non-finite parts as doubles
     (inf and NaN come out alike in any order) */
  int64_t *dg = malloc((size_t)n * XSUM_DIGITS * sizeof *dg);
  double *sp = malloc((size_t)n * sizeof *sp);
  if (!dg || !sp) comm_abort(3);
  for (int k = 0; k < n; k++) {
    xsum_normalize(&s[k]);
    memcpy(dg + (size_t)k * XSUM_DIGITS, s[k].digit, sizeof s[k].digit);
    sp[k] = s[k].special;
  }
  MPI_Allreduce(MPI_IN_PLACE, dg, n * XSUM_DIGITS, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, sp, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  for (int k = 0; k < n; k++) {
    memcpy(s[k].digit, dg + (size_t)k * XSUM_DIGITS, sizeof s[k].digit);
    s[k].special = sp[k];
    s[k].adds = 0;
    xsum_normalize(&s[k]);
  }
  free(dg);
  free(sp);
}

/* The status and message of rank 'first', the lowest that failed, on every rank (s and d: this
   rank's). */
static cairn_status failure_of(int first, cairn_status s, cairn_diag *d) {
  struct {
    int status;
    char msg[sizeof d->msg];
  } m;
  memset(&m, 0, sizeof m);
  if (rank_ == first) {
    m.status = (int)s;
    if (d) memcpy(m.msg, d->msg, sizeof m.msg);
  }
  MPI_Bcast(&m, (int)sizeof m, MPI_BYTE, first, MPI_COMM_WORLD);
  if (d) memcpy(d->msg, m.msg, sizeof d->msg);
  return (cairn_status)m.status;
}

cairn_status comm_agree(cairn_status s, cairn_diag *d) {
  if (size_ <= 1) return s;
  int mine = s == CAIRN_OK ? size_ : rank_, first = size_;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == size_) return CAIRN_OK;
  return failure_of(first, s, d);
}

/* The fused reduction's buffer, in 8-byte words: a header of three counts (the same on every
   rank), the largest values (doubles: the caller's, the status, then per array of exact sums its
   digits' lowest index negated, highest index and whether any fell outside its window), the
   whole-number sums and the exact sums' digits in their windows (int64), the exact sums'
   non-finite parts (doubles). One element of a contiguous type of the whole buffer, so that MPI
   hands the operation the buffer whole. */
static void fused_op(void *in, void *inout, int *len, MPI_Datatype *type) {
  (void)len, (void)type;
  const int64_t *a = in;
  int64_t *b = inout;
  int64_t nm = b[0], ns = b[1], nd = b[2];
  const double *am = (const double *)(a + 3);
  double *bm = (double *)(b + 3);
  for (int64_t i = 0; i < nm; i++)
    if (am[i] > bm[i] || am[i] != am[i]) bm[i] = am[i]; /* (a NaN wins, on any rank) */
  for (int64_t i = 0; i < ns; i++) b[3 + nm + i] += a[3 + nm + i];
  const double *ad = (const double *)(a + 3 + nm + ns);
  double *bd = (double *)(b + 3 + nm + ns);
  for (int64_t i = 0; i < nd; i++) bd[i] += ad[i];
}

/* One Allreduce of the buffer in 'buf' ('words' of it), with the fused operation. */
static void fused_allreduce(int64_t *buf, size_t words) {
  static MPI_Op op = MPI_OP_NULL;
  static struct {
    size_t words;
    MPI_Datatype type;
  } types[16];
  static int n_types;
  if (op == MPI_OP_NULL) MPI_Op_create(fused_op, 1, &op);
  MPI_Datatype type = MPI_DATATYPE_NULL;
  for (int i = 0; i < n_types && type == MPI_DATATYPE_NULL; i++)
    if (types[i].words == words) type = types[i].type;
  if (type == MPI_DATATYPE_NULL) {
    MPI_Type_contiguous((int)(words * sizeof *buf), MPI_BYTE, &type);
    MPI_Type_commit(&type);
    if (n_types == 16) { /* (the oldest goes) */
      MPI_Type_free(&types[0].type);
      memmove(types, types + 1, 15 * sizeof *types);
      n_types = 15;
    }
    types[n_types].words = words, types[n_types++].type = type;
  }
  MPI_Allreduce(MPI_IN_PLACE, buf, 1, type, op, MPI_COMM_WORLD);
}

/* Digits are sent as they are, without their carries propagated (a negative sum's would fill
   every digit above it): at most 2^19 terms each, so that 4 096 ranks' digits add within an
   int64 (each term adds less than 2^32 to a digit). */
#define FUSED_ADDS_MAX (1u << 19)

cairn_status comm_fused_reduce(comm_fused *f, cairn_status s, cairn_diag *d) {
  if (size_ <= 1) return s;
  static int64_t *buf;
  static size_t cap;
  int lo[4], hi[4], nx = 0, nwin = 0; /* each array's digits sent: [lo, hi] */
  for (int a = 0; a < f->n_arrays; a++) {
    comm_window *w = f->win[a];
    int known = w && w->lo <= w->hi;
    lo[a] = known ? w->lo : 0, hi[a] = known ? w->hi : XSUM_DIGITS - 1;
    nx += f->n_xs[a], nwin += f->n_xs[a] * (hi[a] - lo[a] + 1);
  }
  for (int full = 0; full < 2; full++) {
    int64_t nm = f->n_max + 1 + 3 * f->n_arrays, ns = f->n_sum + nwin, nd = nx;
    size_t words = 3 + (size_t)(nm + ns + nd);
    if (words > cap) {
      int64_t *grown = realloc(buf, words * sizeof *grown);
      if (!grown) comm_abort(3);
      buf = grown, cap = words;
    }
    buf[0] = nm, buf[1] = ns, buf[2] = nd;
    double *m = (double *)(buf + 3);
    for (int i = 0; i < f->n_max; i++) m[i] = f->max[i];
    m[f->n_max] = s == CAIRN_OK ? 0.0 : (double)(size_ - rank_); /* (the lowest failing rank) */
    int64_t *w = buf + 3 + nm;
    for (int i = 0; i < f->n_sum; i++) *w++ = f->sum[i];
    double *sp = (double *)(buf + 3 + nm + ns);
    for (int a = 0; a < f->n_arrays; a++) {
      int used_lo = XSUM_DIGITS, used_hi = -1;
      for (int k = 0; k < f->n_xs[a]; k++) {
        xsum *x = &f->xs[a][k];
        if (x->adds >= FUSED_ADDS_MAX) xsum_normalize(x);
        for (int i = 0; i < XSUM_DIGITS; i++)
          if (x->digit[i]) {
            if (i < used_lo) used_lo = i;
            if (i > used_hi) used_hi = i;
          }
        memcpy(w, x->digit + lo[a], (size_t)(hi[a] - lo[a] + 1) * sizeof *w);
        w += hi[a] - lo[a] + 1;
        *sp++ = x->special;
      }
      double *wm = m + f->n_max + 1 + 3 * a;
      wm[0] = -(double)used_lo, wm[1] = (double)used_hi;
      wm[2] = used_hi >= used_lo && (used_lo < lo[a] || used_hi > hi[a]); /* (outside) */
    }
    fused_allreduce(buf, words);
    int outside = 0;
    for (int a = 0; a < f->n_arrays; a++) outside |= m[f->n_max + 1 + 3 * a + 2] > 0;
    if (outside && !full) { /* every rank sends every digit of every array */
      nwin = 0;
      for (int a = 0; a < f->n_arrays; a++) {
        lo[a] = 0, hi[a] = XSUM_DIGITS - 1;
        nwin += f->n_xs[a] * XSUM_DIGITS;
      }
      continue;
    }
    for (int i = 0; i < f->n_max; i++) f->max[i] = m[i];
    w = buf + 3 + nm;
    for (int i = 0; i < f->n_sum; i++) f->sum[i] = *w++;
    sp = (double *)(buf + 3 + nm + ns);
    for (int a = 0; a < f->n_arrays; a++) {
      for (int k = 0; k < f->n_xs[a]; k++) {
        xsum *x = &f->xs[a][k];
        memset(x->digit, 0, sizeof x->digit);
        memcpy(x->digit + lo[a], w, (size_t)(hi[a] - lo[a] + 1) * sizeof *w);
        w += hi[a] - lo[a] + 1;
        x->special = *sp++;
        x->adds = 0;
        xsum_normalize(x);
      }
      /* the next window: every rank's digits this time, and one more on each side */
      const double *wm = m + f->n_max + 1 + 3 * a;
      if (f->win[a]) {
        int ulo = (int)-wm[0], uhi = (int)wm[1];
        f->win[a]->lo = uhi >= ulo ? (ulo > 0 ? ulo - 1 : 0) : 1;
        f->win[a]->hi = uhi >= ulo ? (uhi < XSUM_DIGITS - 1 ? uhi + 1 : XSUM_DIGITS - 1) : 0;
      }
    }
    if (m[f->n_max] == 0) return CAIRN_OK;
    return failure_of(size_ - (int)m[f->n_max], s, d);
  }
  return s; /* (not reached: the second pass sends every digit) */
}

/* MPI's counts and displacements are ints: one call moves less than 2 GiB. Larger transfers
   go in pieces of at most max_piece() bytes (1 GiB; CAIRN_MPI_PIECE=BYTES sets it lower, so that
   the tests can take this path with a small model). Counts travel as 64-bit numbers. */
static size_t max_piece(void) {
  static size_t piece = 0;
  if (!piece) {
    const char *e = getenv("CAIRN_MPI_PIECE");
    long long v = e ? atoll(e) : 0;
    piece = v > 0 && v < (1ll << 30) ? (size_t)v : (size_t)1 << 30;
  }
  return piece;
}

/* The next piece of a transfer with 'left' bytes still to go. */
static int piece_of(size_t left) {
  return (int)(left < max_piece() ? left : max_piece());
}

/* The counts as ints with their displacements, if every count and the total fit one call's
   limit (1: they do; 0: the transfer goes in pieces). */
static int as_ints(const size_t *c, int *out, int *disp, size_t *total) {
  size_t t = 0, lim = max_piece();
  for (int r = 0; r < size_; r++) {
    out[r] = (int)(c[r] < lim ? c[r] : 0);
    disp[r] = (int)(t < lim ? t : 0);
    t += c[r];
  }
  *total = t;
  return t < lim;
}

cairn_status comm_exchange(const void *send, const size_t *send_count, void **recv,
                           size_t *recv_cap, size_t *recv_count, cairn_diag *d) {
  int *sc = malloc(4 * (size_t)size_ * sizeof *sc);
  uint64_t *c64 = malloc(2 * (size_t)size_ * sizeof *c64);
  size_t *off = malloc(2 * ((size_t)size_ + 1) * sizeof *off);
  if (!sc || !c64 || !off) {
    free(sc), free(c64), free(off);
    return diag_set(d, CAIRN_ENOMEM, "out of memory for an MPI exchange");
  }
  int *sd = sc + size_, *rc = sd + size_, *rd = rc + size_;
  uint64_t *r64 = c64 + size_;
  for (int r = 0; r < size_; r++) c64[r] = send_count[r];
  MPI_Alltoall(c64, 1, MPI_UINT64_T, r64, 1, MPI_UINT64_T, MPI_COMM_WORLD);
  for (int r = 0; r < size_; r++) recv_count[r] = (size_t)r64[r];
  size_t st = 0, rt = 0;
  int small = as_ints(send_count, sc, sd, &st);
  small &= as_ints(recv_count, rc, rd, &rt);
  /* every rank must take the same path: one reduction decides it and agrees on the buffer */
  comm_fused f;
  comm_fused_init(&f);
  int big = comm_fused_max(&f, small ? 0.0 : 1.0);
  cairn_status s =
      comm_fused_reduce(&f, mem_grow(recv, recv_cap, rt + 1, 1, "comm:exchange", d), d);
  int all_small = f.max[big] == 0;
  if (s == CAIRN_OK && all_small) {
    MPI_Alltoallv(send, sc, sd, MPI_BYTE, *recv, rc, rd, MPI_BYTE, MPI_COMM_WORLD);
  } else if (s == CAIRN_OK) {
    size_t *soff = off, *roff = off + size_ + 1;
    soff[0] = roff[0] = 0;
    for (int r = 0; r < size_; r++)
      soff[r + 1] = soff[r] + send_count[r], roff[r + 1] = roff[r] + recv_count[r];
    memcpy((char *)*recv + roff[rank_], (const char *)send + soff[rank_], recv_count[rank_]);
    /* round k: to rank + k, from rank - k; each pair in pieces */
    for (int k = 1; k < size_; k++) {
      int to = (rank_ + k) % size_, from = (rank_ - k + size_) % size_;
      size_t ns = send_count[to], nr = recv_count[from], os = 0, orr = 0;
      while (os < ns || orr < nr) {
        int ks = piece_of(ns - os), kr = piece_of(nr - orr);
        MPI_Sendrecv((const char *)send + soff[to] + os, ks, MPI_BYTE, to, 1,
                     (char *)*recv + roff[from] + orr, kr, MPI_BYTE, from, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        os += (size_t)ks, orr += (size_t)kr;
      }
    }
  }
  free(sc), free(c64), free(off);
  return s;
}

cairn_status comm_gather_all(const void *send, size_t n, void **recv, size_t *recv_cap,
                             size_t *recv_count, cairn_diag *d) {
  int *rc = malloc(2 * (size_t)size_ * sizeof *rc);
  uint64_t *c64 = malloc((size_t)size_ * sizeof *c64);
  if (!rc || !c64) {
    free(rc), free(c64);
    return diag_set(d, CAIRN_ENOMEM, "out of memory for an MPI exchange");
  }
  int *rd = rc + size_;
  uint64_t mine = n;
  MPI_Allgather(&mine, 1, MPI_UINT64_T, c64, 1, MPI_UINT64_T, MPI_COMM_WORLD);
  for (int r = 0; r < size_; r++) recv_count[r] = (size_t)c64[r];
  size_t total = 0;
  int small = as_ints(recv_count, rc, rd, &total); /* (the same on every rank) */
  cairn_status s = comm_agree(mem_grow(recv, recv_cap, total + 1, 1, "comm:gather", d), d);
  if (s == CAIRN_OK && small) {
    MPI_Allgatherv(send, (int)n, MPI_BYTE, *recv, rc, rd, MPI_BYTE, MPI_COMM_WORLD);
  } else if (s == CAIRN_OK) {
    /* each rank's part to every rank in turn, in pieces (a broadcast from it) */
    size_t at = 0;
    for (int r = 0; r < size_; r++) {
      char *dst = (char *)*recv + at;
      if (r == rank_) memcpy(dst, send, n);
      for (size_t off = 0; off < recv_count[r];) {
        int k = piece_of(recv_count[r] - off);
        MPI_Bcast(dst + off, k, MPI_BYTE, r, MPI_COMM_WORLD);
        off += (size_t)k;
      }
      at += recv_count[r];
    }
  }
  free(rc), free(c64);
  return s;
}

void comm_swap_known(const void *const *send, const size_t *send_count, void *recv,
                     const size_t *recv_count) {
  static MPI_Request *req;
  static size_t cap;
  size_t piece = max_piece(), n = 0, need = 0; /* (requests: one per piece) */
  for (int r = 0; r < size_; r++)
    need += (send_count[r] + piece - 1) / piece + (recv_count[r] + piece - 1) / piece;
  if (need > cap) {
    MPI_Request *grown = realloc(req, need * sizeof *grown);
    if (!grown) {
      fprintf(stderr, "cairn: out of memory for %zu MPI requests\n", need);
      comm_abort(1);
    }
    req = grown, cap = need;
  }
  char *to = recv;
  for (int r = 0; r < size_; r++) {
    for (size_t off = 0, k = 0; off < recv_count[r]; off += piece, k++)
      MPI_Irecv(to + off, piece_of(recv_count[r] - off), MPI_BYTE, r, 100 + (int)k, MPI_COMM_WORLD,
                &req[n++]);
    to += recv_count[r];
  }
  for (int r = 0; r < size_; r++) {
    const char *from = send[r];
    for (size_t off = 0, k = 0; off < send_count[r]; off += piece, k++)
      MPI_Isend(from + off, piece_of(send_count[r] - off), MPI_BYTE, r, 100 + (int)k,
                MPI_COMM_WORLD, &req[n++]);
  }
  MPI_Waitall((int)n, req, MPI_STATUSES_IGNORE);
}

int comm_same_call(const comm_call *mine, const comm_call **all) {
  if (size_ <= 1 || !started_) return 1;
  if (out_of_step) {
    *all = out_of_step;
    return 0;
  }
  /* the same code everywhere when the largest code and the largest negated code agree: one
     reduction of two numbers; the calls' texts travel only when they differ */
  int v[2] = {mine->code, -mine->code};
  MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_INT, MPI_MAX, calls_);
  if (v[0] == -v[1]) return 1;
  out_of_step = calloc((size_t)size_, sizeof *out_of_step);
  if (!out_of_step) comm_abort(1);
  MPI_Allgather(mine, (int)sizeof *mine, MPI_BYTE, out_of_step, (int)sizeof *mine, MPI_BYTE,
                calls_);
  for (int r = 0; r < size_; r++) { /* (terminated, whatever came) */
    out_of_step[r].what[sizeof out_of_step[r].what - 1] = 0;
    out_of_step[r].where[sizeof out_of_step[r].where - 1] = 0;
  }
  *all = out_of_step;
  return 0;
}

int comm_error_exit_should_print(void) {
  if (size_ <= 1) return 1;
  /* Wait up to two seconds for every rank to reach its error exit: they all do when the error
     is one every rank meets (the script runs alike on all), and rank 0 then prints it alone. A
     rank that fails alone prints and stops the others, so that none waits for it forever. */
  MPI_Request req;
  MPI_Ibarrier(MPI_COMM_WORLD, &req);
  int done = 0;
  struct timespec pause = {0, 200000}; /* 0.2 ms */
  for (int i = 0; i < 10000 && !done; i++) {
    MPI_Test(&req, &done, MPI_STATUS_IGNORE);
    if (!done) nanosleep(&pause, NULL);
  }
  if (done) return rank_ == 0;
  return 2; /* alone: print, then stop the others */
}

cairn_status comm_write_at(const char *path, uint64_t off, const void *p, size_t n, cairn_diag *d) {
  MPI_File fh;
  char why[MPI_MAX_ERROR_STRING] = "";
  int len = 0;
  int rc = MPI_File_open(MPI_COMM_WORLD, (char *)path, MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
  int opened = rc == MPI_SUCCESS;
  const char *q = p;
  while (rc == MPI_SUCCESS && n) { /* (in pieces of at most 1 GiB: an int counts them) */
    size_t k = n < ((size_t)1 << 30) ? n : (size_t)1 << 30;
    rc = MPI_File_write_at(fh, (MPI_Offset)off, q, (int)k, MPI_BYTE, MPI_STATUS_IGNORE);
    off += k, q += k, n -= k;
  }
  if (rc == MPI_SUCCESS) rc = MPI_File_sync(fh);
  if (opened) {
    int rc2 = MPI_File_close(&fh);
    if (rc == MPI_SUCCESS) rc = rc2;
  }
  if (rc != MPI_SUCCESS) MPI_Error_string(rc, why, &len);
  cairn_status s = rc == MPI_SUCCESS ? CAIRN_OK : diag_set(d, CAIRN_EIO, "%s", why);
  return comm_agree(s, d);
}

#else /* one rank */

int comm_init(int *argc, char ***argv) {
  (void)argc, (void)argv;
  return 0;
}
void comm_finalize(void) {}
void comm_abort(int code) {
  exit(code);
}
int comm_rank(void) {
  return 0;
}
int comm_size(void) {
  return 1;
}
void comm_max(double *v, int n) {
  (void)v, (void)n;
}
void comm_min(double *v, int n) {
  (void)v, (void)n;
}
void comm_sum_i64(int64_t *v, int n) {
  (void)v, (void)n;
}
void comm_or_u64(uint64_t *v, int n) {
  (void)v, (void)n;
}
void comm_xsum(xsum *s, int n) {
  (void)s, (void)n;
}
cairn_status comm_agree(cairn_status s, cairn_diag *d) {
  (void)d;
  return s;
}
cairn_status comm_exchange(const void *send, const size_t *send_count, void **recv,
                           size_t *recv_cap, size_t *recv_count, cairn_diag *d) {
  CAIRN_TRY(mem_grow(recv, recv_cap, send_count[0] + 1, 1, "comm:exchange", d));
  if (send_count[0]) memcpy(*recv, send, send_count[0]);
  recv_count[0] = send_count[0];
  return CAIRN_OK;
}
cairn_status comm_gather_all(const void *send, size_t n, void **recv, size_t *recv_cap,
                             size_t *recv_count, cairn_diag *d) {
  return comm_exchange(send, &n, recv, recv_cap, recv_count, d);
}
void comm_swap_known(const void *const *send, const size_t *send_count, void *recv,
                     const size_t *recv_count) {
  if (recv_count[0]) memcpy(recv, send[0], recv_count[0]);
  (void)send_count;
}
cairn_status comm_fused_reduce(comm_fused *f, cairn_status s, cairn_diag *d) {
  (void)f, (void)d;
  return s;
}
int comm_same_call(const comm_call *mine, const comm_call **all) {
  (void)mine, (void)all;
  return 1;
}
int comm_error_exit_should_print(void) {
  return 1;
}
cairn_status comm_write_at(const char *path, uint64_t off, const void *p, size_t n, cairn_diag *d) {
  FILE *f = fopen(path, "r+b");
  CAIRN_CHECK(f, d, CAIRN_EIO, "%s", strerror(errno));
  int bad = fseeko(f, (off_t)off, SEEK_SET) != 0 || fwrite(p, 1, n, f) != n;
  bad |= fclose(f) != 0;
  return bad ? diag_set(d, CAIRN_EIO, "%s", strerror(errno)) : CAIRN_OK;
}

#endif

/* Filling a fused reduction (comm.h), the same with MPI or without. */
void comm_fused_init(comm_fused *f) {
  memset(f, 0, sizeof *f);
}
int comm_fused_max(comm_fused *f, double v) {
  if (f->n_max == COMM_FUSED_MAX) comm_abort(3); /* (a caller's bug: more than it may push) */
  f->max[f->n_max] = v;
  return f->n_max++;
}
int comm_fused_sum(comm_fused *f, int64_t v) {
  if (f->n_sum == COMM_FUSED_MAX) comm_abort(3);
  f->sum[f->n_sum] = v;
  return f->n_sum++;
}
void comm_fused_xsums(comm_fused *f, xsum *s, int n, comm_window *win) {
  if (f->n_arrays == 4) comm_abort(3);
  f->xs[f->n_arrays] = s, f->n_xs[f->n_arrays] = n, f->win[f->n_arrays++] = win;
}
