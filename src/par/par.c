/* MPI domain decomposition (par.h). */
#include "par/par.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"
#include "contact/cracks.h"
#include "contact/energy.h"
#include "contact/events.h"
#include "core/comm.h"
#include "detect/detect.h"
#include "world/periodic.h"

#define PAR_MAX_RANKS 4096

struct par_domain {
  int P, me, grid[3];
  /* the bricks: along axis k, grid[k] slabs parted by the grid[k] - 1 cuts cut[k][], rising (a
     point on a cut lies in the slab above it; the outer slabs reach on to infinity, so every
     point has a brick). In a periodic cell they are cut in the cell's fractional coordinates
     (brick_coord), so that they deform with it, and along its periodic edges the last slab
     meets the first. */
  double cut[3][PAR_MAX_RANKS];
  const periodic_cell *cell; /* the world's cell when it has one, else NULL */
  /* forward lists: this rank sends its owned slots send[send_off[r] .. send_off[r + 1]) to rank
     r each step; ghosts arrive in rank order, recv_n[r] from rank r */
  uint32_t *send;
  size_t n_send, cap_send, *send_off, *recv_n;
  /* per-rank packing buffers, and the exchange's buffers */
  uint8_t **pb;
  size_t *plen, *pcap;
  uint8_t *sbuf, *rbuf;
  size_t cap_sbuf, cap_rbuf, *scount, *rcount;
  int64_t moved, exchanges, gathers; /* this rank's balls sent away; rebuilds; gatherings */
  int64_t recuts;                    /* rebuilds that moved the cuts (recut_if_unbalanced) */
  int64_t spread; /* rebuilds whose exchange reached beyond the neighbouring bricks' ranks */
  int went_far;   /* (this rebuild's exchanges: some did) */
  int need_next;  /* the next step's rebuild decision, agreed at this step's end; -1: unknown */
  int in_call;    /* inside a cycle or solve call (par_begin to par_end) */
  size_t cracks0; /* cracks before the call: later ones are gathered at the end */
  uint64_t destroyed0; /* balls destroyed before the call (each rank counts its own since) */
};

/* ---- bricks ---------------------------------------------------------------------------- */

static int brick_index(const par_domain *pd, int k, double x) {
  if (!(x == x)) return 0;          /* (not a number) */
  int lo = 0, hi = pd->grid[k] - 1; /* the slab: the count of cuts at or below x */
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (pd->cut[k][mid] <= x)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* Where the bricks are cut: the point itself, or in a periodic cell its fractional coordinates
   (x - origin = H u), in [0, 1) along the periodic edges (the point's image inside the cell). */
static void brick_coord(const par_domain *pd, const double x[3], double u[3]) {
  const periodic_cell *pc = pd->cell;
  if (!pc) {
    u[0] = x[0], u[1] = x[1], u[2] = x[2];
    return;
  }
  double e[3] = {x[0] - pc->origin[0], x[1] - pc->origin[1], x[2] - pc->origin[2]};
  for (int k = 0; k < 3; k++) {
    u[k] = pc->Hinv[k][0] * e[0] + pc->Hinv[k][1] * e[1] + pc->Hinv[k][2] * e[2];
    if (pc->periodic[k]) u[k] -= floor(u[k]);
  }
}

/* Whether axis k of the bricks wraps around (a periodic edge of the cell). */
static int axis_wraps(const par_domain *pd, int k) {
  return pd->cell && pd->cell->periodic[k];
}

static int owner_of(const par_domain *pd, const double x[3]) {
  int i[3];
  double u[3];
  brick_coord(pd, x, u);
  for (int k = 0; k < 3; k++) i[k] = brick_index(pd, k, u[k]);
  return (i[2] * pd->grid[1] + i[1]) * pd->grid[0] + i[0];
}

static int double_cmp(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

/* The cuts that give each slab of an axis the same number of balls (the quantiles of the balls'
   brick coordinates along it; pos: the whole model, the same on every rank, so the same cuts).
   The bricks then hold as many balls each as the grid's slabs allow: exactly so where the balls'
   spread along one axis does not depend on the others (a settled layer, a box of grains). */
static cairn_status cuts_at_quantiles(par_domain *pd, const double (*pos)[3], size_t n,
                                      cairn_diag *d) {
  double *v = mem_realloc(NULL, 0, (n + 1) * sizeof *v, "par:cuts");
  CAIRN_CHECK(v, d, CAIRN_ENOMEM, "out of memory dividing %zu balls among the ranks", n);
  for (int k = 0; k < 3; k++) {
    int g = pd->grid[k];
    if (g == 1) continue;
    for (size_t i = 0; i < n; i++) {
      double u[3];
      brick_coord(pd, pos[i], u);
      v[i] = u[k];
    }
    qsort(v, n, sizeof *v, double_cmp);
    for (int j = 1; j < g; j++) pd->cut[k][j - 1] = v[n * (size_t)j / (size_t)g];
  }
  mem_free(v, 0);
  return CAIRN_OK;
}

/* The grid CAIRN_MPI_GRID="px,py,pz" asks for (g[0] = 0: not set). A setting that cannot
   divide the model is an error, not ignored: the run would not be cut as the user believes. */
static cairn_status grid_from_env(int P, int dim, int g[3], cairn_diag *d) {
  const char *env = getenv("CAIRN_MPI_GRID");
  g[0] = g[1] = g[2] = 0;
  if (!env || !env[0]) return CAIRN_OK;
  int a = 0, b = 0, c = 0;
  char extra;
  int ok = sscanf(env, "%d,%d,%d%c", &a, &b, &c, &extra) == 3 && a > 0 && b > 0 && c > 0 &&
           (long long)a * b * c == P && (dim == 3 || c == 1);
  CAIRN_CHECK(ok, d, CAIRN_EINVAL,
              "CAIRN_MPI_GRID='%.40s' cannot divide the model over %d ranks: give three whole "
              "numbers > 0 whose product is %d%s (such as %d,1,1), or unset it",
              env, P, P, dim == 2 ? ", the third 1 in 2D" : "", P);
  g[0] = a, g[1] = b, g[2] = c;
  return CAIRN_OK;
}

/* The processor grid for P ranks over extents L: the one asked for (env, from grid_from_env),
   else the one that cuts the least (the area, in 2D the length, of the faces between bricks). */
static void choose_grid(int P, int dim, const double L[3], const int env[3], int g[3]) {
  if (env[0]) {
    g[0] = env[0], g[1] = env[1], g[2] = env[2];
    return;
  }
  double best = INFINITY;
  g[0] = P, g[1] = g[2] = 1;
  for (int px = 1; px <= P; px++) {
    if (P % px) continue;
    for (int py = 1; py <= P / px; py++) {
      if ((P / px) % py) continue;
      int pz = P / px / py;
      if (dim == 2 && pz != 1) continue;
      double cut = dim == 2
                       ? (px - 1) * L[1] + (py - 1) * L[0]
                       : (px - 1) * L[1] * L[2] + (py - 1) * L[0] * L[2] + (pz - 1) * L[0] * L[1];
      if (cut < best) best = cut, g[0] = px, g[1] = py, g[2] = pz;
    }
  }
}

/* ---- buffers ----------------------------------------------------------------------------- */

static cairn_status put(par_domain *pd, int r, const void *data, size_t n, cairn_diag *d) {
  CAIRN_TRY(mem_grow((void **)&pd->pb[r], &pd->pcap[r], pd->plen[r] + n, 1, "par:pack", d));
  memcpy(pd->pb[r] + pd->plen[r], data, n);
  pd->plen[r] += n;
  return CAIRN_OK;
}

/* Whether rank r's brick touches this rank's (a face, an edge or a corner, also across a
   periodic cell's faces), or is it. */
static int brick_next(const par_domain *pd, int r) {
  int g0 = pd->grid[0], g1 = pd->grid[1];
  int a[3] = {r % g0, r / g0 % g1, r / (g0 * g1)};
  int b[3] = {pd->me % g0, pd->me / g0 % g1, pd->me / (g0 * g1)};
  for (int k = 0; k < 3; k++) {
    int gap = a[k] > b[k] ? a[k] - b[k] : b[k] - a[k];
    if (gap > 1 && !(axis_wraps(pd, k) && gap == pd->grid[k] - 1)) return 0;
  }
  return 1;
}

/* exchange's bytes (pd->sbuf, pd->scount) between the ranks of neighbouring bricks alone: first
   the counts, then the bytes, point to point (comm_swap_known); the others' counts are 0. */
static cairn_status exchange_near(par_domain *pd, cairn_diag *d) {
  int P = pd->P;
  const void **sp = malloc((size_t)P * sizeof *sp);
  size_t *sn = malloc(2 * (size_t)P * sizeof *sn), *rn = sn ? sn + P : NULL;
  uint64_t *cnt = malloc(2 * (size_t)P * sizeof *cnt), *got = cnt ? cnt + P : NULL;
  cairn_status s =
      sp && sn && cnt ? CAIRN_OK : diag_set(d, CAIRN_ENOMEM, "out of memory for an MPI exchange");
  s = comm_agree(s, d);
  if (s == CAIRN_OK) {
    for (int r = 0; r < P; r++) {
      int near = r != pd->me && brick_next(pd, r);
      cnt[r] = pd->scount[r];
      sp[r] = &cnt[r], sn[r] = rn[r] = near ? sizeof *cnt : 0;
    }
    comm_swap_known(sp, sn, got, rn);
    size_t total = 0, k = 0, soff = 0;
    for (int r = 0; r < P; r++) {
      pd->rcount[r] = rn[r] ? (size_t)got[k++] : 0;
      total += pd->rcount[r];
      sp[r] = pd->sbuf + soff, soff += pd->scount[r];
    }
    s = comm_agree(mem_grow((void **)&pd->rbuf, &pd->cap_rbuf, total + 1, 1, "par:recv", d), d);
    if (s == CAIRN_OK) comm_swap_known(sp, pd->scount, pd->rbuf, pd->rcount);
  }
  free(sp), free(sn), free(cnt);
  return s;
}

/* Send every rank its packed bytes; the bytes from rank r are then at rbuf + off[r]. When every
   rank sends only to the ranks of the bricks next to its own (the faces', edges' and corners',
   26 at most), they exchange with those alone; when one sends farther (a ball that crossed more
   than a brick, new cuts), every rank exchanges with every rank. One reduction decides. */
static cairn_status exchange(par_domain *pd, size_t *off, cairn_diag *d) {
  size_t total = 0;
  double far = 0;
  for (int r = 0; r < pd->P; r++) {
    total += pd->plen[r];
    if (pd->plen[r] && (r == pd->me || !brick_next(pd, r))) far = 1;
  }
  CAIRN_TRY(mem_grow((void **)&pd->sbuf, &pd->cap_sbuf, total + 1, 1, "par:send", d));
  total = 0;
  for (int r = 0; r < pd->P; r++) {
    if (pd->plen[r]) memcpy(pd->sbuf + total, pd->pb[r], pd->plen[r]);
    total += pd->plen[r];
    pd->scount[r] = pd->plen[r];
    pd->plen[r] = 0;
  }
  comm_max(&far, 1);
  if (far > 0) {
    pd->went_far = 1;
    CAIRN_TRY(
        comm_exchange(pd->sbuf, pd->scount, (void **)&pd->rbuf, &pd->cap_rbuf, pd->rcount, d));
  } else
    CAIRN_TRY(exchange_near(pd, d));
  off[0] = 0;
  for (int r = 0; r < pd->P; r++) off[r + 1] = off[r] + pd->rcount[r];
  return CAIRN_OK;
}

static void domain_free(par_domain *pd) {
  if (!pd) return;
  for (int r = 0; r < pd->P; r++) mem_free(pd->pb[r], 0);
  free(pd->pb);
  free(pd->plen);
  mem_free(pd->send, 0);
  mem_free(pd->sbuf, 0);
  mem_free(pd->rbuf, 0);
  free(pd);
}

static par_domain *domain_new(int P) {
  par_domain *pd = calloc(1, sizeof *pd);
  if (!pd) return NULL;
  pd->P = P;
  pd->me = comm_rank();
  pd->pb = calloc((size_t)P, sizeof *pd->pb);
  /* plen, pcap, scount, rcount, recv_n (P each), send_off (P + 1) */
  pd->plen = calloc(6 * (size_t)P + 1, sizeof *pd->plen);
  if (!pd->pb || !pd->plen) {
    domain_free(pd);
    return NULL;
  }
  pd->pcap = pd->plen + P;
  pd->scount = pd->pcap + P;
  pd->rcount = pd->scount + P;
  pd->recv_n = pd->rcount + P;
  pd->send_off = pd->recv_n + P;
  return pd;
}

/* A ghost's row each step: position, velocity, spin and the two stiffness sums. */
enum { GHOST_ROW = 11 * sizeof(double) };

/* The buffers of the steps' ghost updates, sized when the ghosts are chosen (the division, a
   rebuild: both agreed on by every rank), so that a step allocates nothing and cannot fail on
   one rank alone while the others wait for its messages. */
static cairn_status forward_reserve(const cairn_world *w, par_domain *pd, cairn_diag *d) {
  size_t in = 0, ghosts = 0;
  for (int r = 0; r < pd->P; r++) {
    size_t n = pd->send_off[r + 1] - pd->send_off[r];
    CAIRN_TRY(mem_grow((void **)&pd->pb[r], &pd->pcap[r], n * GHOST_ROW + 1, 1, "par:pack", d));
    pd->scount[r] = n * GHOST_ROW;
    pd->rcount[r] = pd->recv_n[r] * GHOST_ROW;
    in += pd->rcount[r];
    ghosts += pd->recv_n[r];
  }
  CAIRN_CHECK(ghosts == w->balls.n - w->balls.n_owned, d, CAIRN_ESTATE,
              "this rank expects %zu ghost updates each step for %zu ghosts (an MPI bookkeeping "
              "error; please report it)",
              ghosts, w->balls.n - w->balls.n_owned);
  return mem_grow((void **)&pd->rbuf, &pd->cap_rbuf, in + 1, 1, "par:ghosts", d);
}

/* ---- the whole model to pieces ----------------------------------------------------------- */

typedef struct rank_slot {
  uint32_t rank, slot;
} rank_slot;
static int rank_slot_cmp(const void *x, const void *y) {
  const rank_slot *a = x, *b = y;
  if (a->rank != b->rank) return (a->rank > b->rank) - (a->rank < b->rank);
  return (a->slot > b->slot) - (a->slot < b->slot);
}

/* Note that ball 'slot', owned here, is a ghost on rank r (owner[] of the whole model). */
static cairn_status note_ghost(rank_slot **list, size_t *n, size_t *cap, uint32_t r, uint32_t slot,
                               cairn_diag *d) {
  CAIRN_TRY(mem_grow((void **)list, cap, *n + 1, sizeof **list, "par:ghosts", d));
  (*list)[(*n)++] = (rank_slot){r, slot};
  return CAIRN_OK;
}

/* The forward lists from a list of (rank, slot) sorted by rank, then slot: each ball owned here
   that is a ghost on a rank, once, named by remap[slot] (or slot itself without remap). */
static cairn_status send_lists(par_domain *pd, const rank_slot *l, size_t n, const uint32_t *remap,
                               cairn_diag *d) {
  CAIRN_TRY(mem_grow((void **)&pd->send, &pd->cap_send, n + 1, sizeof *pd->send, "par:send", d));
  pd->n_send = 0;
  for (int r = 0; r <= pd->P; r++) pd->send_off[r] = 0;
  for (size_t q = 0; q < n; q++) {
    if (q && l[q].rank == l[q - 1].rank && l[q].slot == l[q - 1].slot) continue;
    pd->send[pd->n_send++] = remap ? remap[l[q].slot] : l[q].slot;
    pd->send_off[l[q].rank + 1]++;
  }
  for (int r = 0; r < pd->P; r++) pd->send_off[r + 1] += pd->send_off[r];
  return CAIRN_OK;
}

/* The whole model, the same on every rank, divided along pd's bricks; 'mid_step': in the middle
   of a step (a callback had it gathered), whose end is still to come. */
static cairn_status par_scatter(cairn_world *w, par_domain *pd, int mid_step, cairn_diag *d) {
  ball_store *b = &w->balls;
  contact_store *cs = w->contacts;
  pair_list *p = w->pairs;
  size_t n = b->n, me = (size_t)pd->me;
  /* Losses booked while the model was whole (a ball or wall deleted between calls, a history
     function's changes) were booked alike on every rank: fold them in here, on each rank alone,
     before the decomposed steps' folds sum every rank's (energy_fold). In the middle of a step
     they wait for its end, as on one process: one rank keeps them, to be summed once. */
  if (!mid_step)
    energy_fold(w);
  else if (me != 0)
    energy_pending_drop(w);
  pd->need_next = -1;
  uint32_t *owner = mem_realloc(NULL, 0, (n + 1) * sizeof *owner, "par:owner");
  uint32_t *remap = mem_realloc(NULL, 0, (n + 1) * sizeof *remap, "par:remap");
  uint32_t *order = mem_realloc(NULL, 0, (n + 1) * sizeof *order, "par:order");
  rank_slot *mine = NULL, *theirs = NULL; /* ghosts of mine elsewhere; ghosts here */
  size_t n_mine = 0, cap_mine = 0, n_theirs = 0, cap_theirs = 0;
  cairn_status s = CAIRN_OK;
  if (!owner || !remap || !order) {
    s = diag_set(d, CAIRN_ENOMEM, "out of memory dividing %zu balls among the ranks", n);
    goto done;
  }
  for (size_t i = 0; i < n; i++) owner[i] = (uint32_t)owner_of(pd, b->pos[i]);
  /* With a valid pair list, the ghosts are the partners of the owned balls in it (every contact
     has its pair). Without one (a change between calls made it stale), they are the partners in
     the contacts: a contact that joins two ranks must find its other ball here, or it would be
     forgotten and made anew, without its history, by the first step's rebuild, and the run would
     part from one process's. That rebuild's exchange brings the other ghosts. */
  int stale = pairs_stale(w);
  size_t n_sides = stale ? cs->n : p->n;
  for (size_t q = 0; q < n_sides && s == CAIRN_OK; q++) {
    int kind = stale ? cs->kind[q] : p->kind[q];
    if (kind != CAIRN_KIND_BALL_BALL) continue;
    uint32_t x = stale ? cs->a[q] : p->a[q], y = stale ? cs->b[q] : p->b[q];
    if (owner[x] == owner[y]) continue;
    for (int t = 0; t < 2 && s == CAIRN_OK; t++) {
      uint32_t u = t ? y : x, v = t ? x : y; /* u a ghost on owner[v] */
      if (owner[u] == me) s = note_ghost(&mine, &n_mine, &cap_mine, owner[v], u, d);
      if (owner[v] == me) s = note_ghost(&theirs, &n_theirs, &cap_theirs, owner[u], u, d);
    }
  }
  if (s != CAIRN_OK) goto done;
  qsort(mine, n_mine, sizeof *mine, rank_slot_cmp);
  qsort(theirs, n_theirs, sizeof *theirs, rank_slot_cmp);
  /* the balls here: the owned in their order, then the ghosts by owner, then slot */
  size_t k = 0;
  for (size_t i = 0; i < n; i++) remap[i] = UINT32_MAX;
  for (size_t i = 0; i < n; i++)
    if (owner[i] == me) remap[i] = (uint32_t)k, order[k++] = (uint32_t)i;
  size_t n_owned = k;
  memset(pd->recv_n, 0, (size_t)pd->P * sizeof *pd->recv_n);
  for (size_t q = 0; q < n_theirs; q++) {
    if (q && theirs[q].rank == theirs[q - 1].rank && theirs[q].slot == theirs[q - 1].slot) continue;
    remap[theirs[q].slot] = (uint32_t)k, order[k++] = theirs[q].slot;
    pd->recv_n[theirs[q].rank]++;
  }
  s = send_lists(pd, mine, n_mine, remap, d); /* (in the new slots) */
  if (s != CAIRN_OK) goto done;
  /* contacts: those with an owned side stay (their partner is here: a ghost from its pair) */
  for (size_t c = cs->n; c-- > 0;) {
    int bb = cs->kind[c] == CAIRN_KIND_BALL_BALL;
    int own = owner[cs->b[c]] == me || (bb && owner[cs->a[c]] == me);
    int here = remap[cs->b[c]] != UINT32_MAX && (!bb || remap[cs->a[c]] != UINT32_MAX);
    if (!own || !here) contact_forget(w, (uint32_t)c);
  }
  for (size_t c = 0; c < cs->n; c++) {
    cs->b[c] = remap[cs->b[c]];
    if (cs->kind[c] == CAIRN_KIND_BALL_BALL) cs->a[c] = remap[cs->a[c]];
  }
  /* pairs: those with an owned side; the step's look-ahead pairs among them stay so (a step
     divided again before its force pass: a callback's) */
  size_t m = 0;
  uint32_t *place = NULL; /* (pair q's new place, for the look-ahead's) */
  if (p->n_ahead) {
    place = mem_realloc(NULL, 0, (p->n + 1) * sizeof *place, "par:ahead");
    if (!place) {
      s = diag_set(d, CAIRN_ENOMEM, "out of memory dividing %zu balls among the ranks", n);
      goto done;
    }
    for (size_t q = 0; q < p->n; q++) place[q] = UINT32_MAX;
  }
  for (size_t q = 0; q < p->n; q++) {
    int bb = p->kind[q] == CAIRN_KIND_BALL_BALL;
    uint32_t x = p->a[q], y = p->b[q];
    int own = owner[y] == me || (bb && owner[x] == me);
    if (!own || remap[y] == UINT32_MAX || (bb && remap[x] == UINT32_MAX)) {
      if (p->contact[q] != IDMAP_NONE) cs->pair[p->contact[q]] = IDMAP_NONE;
      continue;
    }
    p->kind[m] = p->kind[q];
    p->sub[m] = p->sub[q];
    p->a[m] = bb ? remap[x] : x;
    p->b[m] = remap[y];
    p->contact[m] = p->contact[q];
    if (p->contact[m] != IDMAP_NONE) cs->pair[p->contact[m]] = (uint32_t)m;
    if (place) place[q] = (uint32_t)m;
    m++;
  }
  p->n = m;
  size_t na = 0;
  for (size_t j = 0; place && j < p->n_ahead; j++)
    if (place[p->ahead[j]] != UINT32_MAX) p->ahead[na++] = place[p->ahead[j]];
  p->n_ahead = na;
  mem_free(place, 0);
  p->gen++; /* (the mesh pairs are found again: detect_mesh_picks) */
  s = balls_keep(w, order, k, d);
  b->n_owned = n_owned;
  loads_keep_owned(w, n_owned); /* (each load on its ball's rank) */
  if (s == CAIRN_OK) { /* (the memory of the balls that went: the rank holds its brick's) */
    balls_fit(b);
    mem_trim();
  }
  if (s == CAIRN_OK) s = forward_reserve(w, pd, d);
  cs->slices_ok = 0;
  cs->links.ok = 0;
  w->par = pd;
done:
  mem_free(owner, 0);
  mem_free(remap, 0);
  mem_free(order, 0);
  mem_free(mine, 0);
  mem_free(theirs, 0);
  return comm_agree(s, d); /* (a failure here on one rank is every rank's) */
}

/* ---- the pieces to the whole model ------------------------------------------------------- */

typedef struct gathered_head {
  uint64_t balls, contacts, pairs, cracks, destroyed, dirty;
  uint64_t ahead; /* pairs of this step's look-ahead (a gathering before the force pass) */
  uint64_t loads; /* the applied loads of this rank's balls */
} gathered_head;

typedef struct pair_ids {
  uint64_t key; /* contact_key of the pair */
} pair_ids;

static int u64_cmp(const void *x, const void *y) {
  uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
  return (a > b) - (a < b);
}

typedef struct row_ref {
  uint64_t key, id;
  const uint8_t *row;
} row_ref;
static int row_ref_cmp(const void *x, const void *y) {
  const row_ref *a = x, *b = y;
  return ball_order_cmp(a->key, (int64_t)a->id, b->key, (int64_t)b->id);
}

/* The key of a pair or contact from its kind and its sides as a row gives them (ball-wall: the
   wall's slot). */
static uint64_t key_of(const cairn_world *w, int kind, int64_t id1, int64_t id2) {
  if (kind != CAIRN_KIND_BALL_BALL) id1 = w->walls.w[id1].id;
  return contact_key(kind, id1, id2);
}

/* This rank's part of the gathering, packed in pd->pb[0]: a head, its balls, the contacts it
   books, its pairs' keys and its new cracks. */
static cairn_status pack_own_part(cairn_world *w, par_domain *pd, cairn_diag *d) {
  ball_store *b = &w->balls;
  contact_store *cs = w->contacts;
  pair_list *p = w->pairs;
  size_t brow = ball_row_size(), nown = b->n_owned;
  cairn_status s = CAIRN_OK;
  gathered_head h = {0};
  pd->gathers++;
  h.balls = nown;
  h.destroyed = w->n_destroyed - pd->destroyed0;
  h.dirty = (uint64_t)pairs_stale(w);
  h.cracks = w->cracks->n - pd->cracks0;
  h.loads = w->loads.n;
  pd->plen[0] = 0;
  size_t nc_here = 0;
  for (size_t c = 0; c < cs->n; c++)
    if (rank_books_contact(w, cs->kind[c], cs->a[c], cs->b[c])) nc_here++;
  h.contacts = nc_here;
  for (size_t q = 0; q < p->n; q++) h.pairs += (uint64_t)pair_has_side_below(p, (uint32_t)q, nown);
  for (size_t k = 0; k < p->n_ahead; k++)
    h.ahead += (uint64_t)pair_has_side_below(p, p->ahead[k], nown);
  s = put(pd, 0, &h, sizeof h, d);
  uint8_t row[4096];
  for (size_t i = 0; i < nown && s == CAIRN_OK; i++) {
    ball_row_pack(b, (uint32_t)i, row);
    s = put(pd, 0, row, brow, d);
  }
  for (size_t c = 0; c < cs->n && s == CAIRN_OK; c++) {
    if (!rank_books_contact(w, cs->kind[c], cs->a[c], cs->b[c])) continue;
    size_t len = contact_row_size(w, (uint32_t)c);
    s = mem_grow((void **)&pd->pb[0], &pd->pcap[0], pd->plen[0] + len, 1, "par:pack", d);
    if (s == CAIRN_OK) contact_row_pack(w, (uint32_t)c, pd->pb[0] + pd->plen[0]);
    pd->plen[0] += len;
  }
  for (size_t q = 0; q < p->n && s == CAIRN_OK; q++) {
    if (!pair_has_side_below(p, (uint32_t)q, nown)) continue;
    uint64_t key = pair_key(w, (uint32_t)q);
    s = put(pd, 0, &key, sizeof key, d);
  }
  if (s == CAIRN_OK && h.cracks)
    s = put(pd, 0, w->cracks->c + pd->cracks0, h.cracks * sizeof(crack), d);
  for (size_t k = 0; k < p->n_ahead && s == CAIRN_OK; k++) {
    if (!pair_has_side_below(p, p->ahead[k], nown)) continue;
    uint64_t key = pair_key(w, p->ahead[k]);
    s = put(pd, 0, &key, sizeof key, d);
  }
  for (size_t k = 0; k < w->loads.n && s == CAIRN_OK; k++) {
    uint8_t lrow[LOAD_ROW];
    loads_row(w, k, lrow);
    s = put(pd, 0, lrow, LOAD_ROW, d);
  }
  return s;
}

/* The gathered balls appended in the order of their keys (the serial order: Morton cells, then
   ids); part[r] is set to where rank r's part starts. */
static cairn_status gather_balls(cairn_world *w, par_domain *pd, const uint8_t **part,
                                 row_ref *refs, cairn_diag *d) {
  size_t brow = ball_row_size();
  cairn_status s = CAIRN_OK;
  size_t total = 0, k = 0;
  size_t skey_off = brow - sizeof(uint64_t) - 0; /* (skey is the last field of a row) */
  for (size_t r = 0; r < (size_t)pd->P; r++) {
    part[r] = pd->rbuf + total;
    total += pd->rcount[r];
    gathered_head g;
    memcpy(&g, part[r], sizeof g);
    const uint8_t *q = part[r] + sizeof g;
    for (uint64_t i = 0; i < g.balls; i++, q += brow) {
      uint64_t key;
      int64_t id;
      memcpy(&key, q + skey_off, sizeof key);
      memcpy(&id, q, sizeof id); /* (id is the first field) */
      refs[k++] = (row_ref){key, (uint64_t)id, q};
    }
  }
  qsort(refs, k, sizeof *refs, row_ref_cmp);
  for (size_t i = 0; i < k && s == CAIRN_OK; i++) s = ball_row_append(w, refs[i].row, d);
  return s;
}

/* The gathered contacts inserted in the order of their keys; the parts' pair keys and cracks
   are copied out to pkeys (*kp of them) and cr (*kc). */
static cairn_status gather_contacts(cairn_world *w, par_domain *pd, const uint8_t **part,
                                    row_ref *refs, uint64_t *pkeys, size_t *kp, crack *cr,
                                    size_t *kc, uint64_t *akeys, size_t *ka, cairn_diag *d) {
  ball_store *b = &w->balls;
  size_t brow = ball_row_size();
  cairn_status s = CAIRN_OK;
  size_t k = 0;
  *kp = 0, *kc = 0, *ka = 0;
  for (size_t r = 0; r < (size_t)pd->P; r++) {
    gathered_head g;
    memcpy(&g, part[r], sizeof g);
    const uint8_t *q = part[r] + sizeof g + g.balls * brow;
    for (uint64_t c = 0; c < g.contacts; c++) {
      contact_row_info ci;
      contact_row_read(q, &ci);
      refs[k++] = (row_ref){key_of(w, ci.kind + ci.sub, ci.id1, ci.id2), 0, q};
      q += ci.size;
    }
    memcpy(pkeys + *kp, q, g.pairs * sizeof *pkeys);
    *kp += g.pairs;
    q += g.pairs * sizeof *pkeys;
    memcpy(cr + *kc, q, g.cracks * sizeof *cr);
    *kc += g.cracks;
    q += g.cracks * sizeof *cr;
    memcpy(akeys + *ka, q, g.ahead * sizeof *akeys);
    *ka += g.ahead;
    q += g.ahead * sizeof *akeys;
    for (uint64_t l = 0; l < g.loads && s == CAIRN_OK; l++, q += LOAD_ROW)
      s = loads_row_set(w, q, d);
  }
  qsort(refs, k, sizeof *refs, row_ref_cmp);
  contact_row_cache rc = {0};
  for (size_t i = 0; i < k && s == CAIRN_OK; i++) {
    contact_row_info ci;
    contact_row_read(refs[i].row, &ci);
    uint32_t sa =
        ci.kind == CAIRN_KIND_BALL_BALL ? idmap_get(&b->map, (uint64_t)ci.id1) : (uint32_t)ci.id1;
    uint32_t sb = idmap_get(&b->map, (uint64_t)ci.id2);
    if (sa == IDMAP_NONE || sb == IDMAP_NONE) {
      s = diag_set(d, CAIRN_ESTATE, "a contact gathered from the ranks names a ball no rank has");
      break;
    }
    s = contact_row_insert(w, refs[i].row, sa, sb, &rc, d);
  }
  contact_row_cache_free(w, &rc);
  return s;
}

/* The gathered pairs, once each (a pair across two ranks came from both), with their contacts;
   contacts without a pair (none, in the cases known) get their own, as a rebuild gives them. */
static cairn_status gather_pairs(cairn_world *w, uint64_t *pkeys, size_t kp, uint64_t *akeys,
                                 size_t ka, cairn_diag *d) {
  ball_store *b = &w->balls;
  contact_store *cs = w->contacts;
  pair_list *p = w->pairs;
  cairn_status s = CAIRN_OK;
  qsort(pkeys, kp, sizeof *pkeys, u64_cmp);
  qsort(akeys, ka, sizeof *akeys, u64_cmp);
  for (size_t i = 0; i < kp && s == CAIRN_OK; i++) {
    if (i && pkeys[i] == pkeys[i - 1]) continue;
    int kind, sub;
    int64_t i1, i2;
    contact_key_split(pkeys[i], &kind, &sub, &i1, &i2);
    uint32_t sb = idmap_get(&b->map, (uint64_t)i2);
    uint32_t sa = idmap_get(kind == CAIRN_KIND_BALL_BALL ? &b->map : &w->walls.map, (uint64_t)i1);
    if (sa == IDMAP_NONE || sb == IDMAP_NONE) continue;
    s = pairs_push_sub(p, kind, sa, sb, sub, d);
    if (s != CAIRN_OK) break;
    uint32_t c = idmap_get(&cs->map, pkeys[i]);
    p->contact[p->n - 1] = c;
    if (c != IDMAP_NONE) cs->pair[c] = (uint32_t)(p->n - 1);
    /* (a pair of the step's look-ahead stays one: the timestep reads them after the force
       pass's callbacks) */
    if (ka && bsearch(&pkeys[i], akeys, ka, sizeof *akeys, u64_cmp)) {
      s = mem_grow((void **)&p->ahead, &p->cap_ahead, p->n_ahead + 1, sizeof *p->ahead,
                   "pairs:ahead", d);
      if (s == CAIRN_OK) p->ahead[p->n_ahead++] = (uint32_t)(p->n - 1);
    }
  }
  for (size_t c = 0; c < cs->n && s == CAIRN_OK; c++)
    if (cs->pair[c] == IDMAP_NONE) {
      s = pairs_push_sub(p, cs->kind[c], cs->a[c], cs->b[c], cs->sub[c], d);
      if (s == CAIRN_OK) p->contact[p->n - 1] = (uint32_t)c, cs->pair[c] = (uint32_t)(p->n - 1);
    }
  return s;
}

static par_domain *par_gather(cairn_world *w, cairn_status *st, cairn_diag *d) {
  par_domain *pd = w->par;
  ball_store *b = &w->balls;
  contact_store *cs = w->contacts;
  pair_list *p = w->pairs;
  row_ref *refs = NULL;
  uint64_t *pkeys = NULL, *akeys = NULL;
  crack *cr = NULL;
  /* (in the middle of a step, every rank's losses not yet folded go to every rank: the whole
     model's steps book alike on every rank) */
  if (pd->in_call) energy_pending_share(w);
  cairn_status s = comm_agree(pack_own_part(w, pd, d), d);
  size_t total = 0;
  if (s == CAIRN_OK)
    s = comm_gather_all(pd->pb[0], pd->plen[0], (void **)&pd->rbuf, &pd->cap_rbuf, pd->rcount, d);
  pd->plen[0] = 0;
  if (s != CAIRN_OK) goto done;
  /* the whole model from the parts: first this rank's own pieces go */
  for (size_t c = cs->n; c-- > 0;) contact_forget(w, (uint32_t)c);
  loads_clear(&w->loads); /* (every rank's come back with the parts) */
  s = balls_keep(w, NULL, 0, d);
  w->contacts->links.ok = 0; /* (balls_keep leaves the contacts to its caller) */
  p->n = 0;
  p->n_ahead = 0;
  p->gen++; /* (the mesh pairs are found again: detect_mesh_picks) */
  w->cracks->n = pd->cracks0;
  uint64_t nb = 0, nc = 0, np = 0, ncr = 0, na = 0, destroyed = 0, dirty = 0;
  for (int r = 0; r < pd->P; r++) {
    gathered_head g;
    memcpy(&g, pd->rbuf + total, sizeof g);
    total += pd->rcount[r];
    nb += g.balls, nc += g.contacts, np += g.pairs, ncr += g.cracks, na += g.ahead;
    destroyed += g.destroyed, dirty |= g.dirty;
  }
  size_t nref = nb > nc ? nb : nc;
  refs = mem_realloc(NULL, 0, (nref + 1) * sizeof *refs, "par:gather");
  pkeys = mem_realloc(NULL, 0, (np + 1) * sizeof *pkeys, "par:gather");
  cr = mem_realloc(NULL, 0, (ncr + 1) * sizeof *cr, "par:gather");
  akeys = mem_realloc(NULL, 0, (na + 1) * sizeof *akeys, "par:gather");
  if (!refs || !pkeys || !cr || !akeys) {
    s = diag_set(d, CAIRN_ENOMEM, "out of memory gathering the model from the ranks");
    goto done;
  }
  const uint8_t *part[PAR_MAX_RANKS];
  if (s == CAIRN_OK) s = gather_balls(w, pd, part, refs, d);
  if (s != CAIRN_OK) goto done;
  b->n_owned = b->n;
  size_t kp, kc, ka;
  s = gather_contacts(w, pd, part, refs, pkeys, &kp, cr, &kc, akeys, &ka, d);
  if (s != CAIRN_OK) goto done;
  cs->key_sorted = 1;
  s = gather_pairs(w, pkeys, kp, akeys, ka, d);
  p->dirty = (int)dirty;
  /* cracks: by step, then ids (the serial order) */
  qsort(cr, kc, sizeof *cr, crack_order);
  for (size_t i = 0; i < kc && s == CAIRN_OK; i++) {
    crack_set *cs2 = w->cracks;
    s = mem_grow((void **)&cs2->c, &cs2->cap, cs2->n + 1, sizeof *cs2->c, "cracks", d);
    if (s == CAIRN_OK) cs2->c[cs2->n++] = cr[i];
  }
  pd->cracks0 = w->cracks->n;
  w->n_destroyed = pd->destroyed0 + destroyed;
  pd->destroyed0 = w->n_destroyed;
  cs->slices_ok = 0;
  cs->links.ok = 0;
done:
  mem_free(refs, 0);
  mem_free(pkeys, 0);
  mem_free(akeys, 0);
  mem_free(cr, 0);
  w->par = NULL;
  *st = s;
  return pd;
}

/* ---- each step ----------------------------------------------------------------------------- */

/* Each step, the ghosts' positions, velocities, spins and stiffness sums from their owners (the
   lists of the last exchange): point to point with the neighbouring bricks' ranks only, the
   counts known on both sides since the rebuild. */
static void forward(cairn_world *w, par_domain *pd) {
  ball_store *b = &w->balls;
  for (int r = 0; r < pd->P; r++) {
    double *o = (double *)pd->pb[r];
    for (size_t q = pd->send_off[r]; q < pd->send_off[r + 1]; q++) {
      uint32_t i = pd->send[q];
      memcpy(o, b->pos[i], 24), memcpy(o + 3, b->vel[i], 24), memcpy(o + 6, b->spin[i], 24);
      o[9] = b->k_tran[i], o[10] = b->k_rot[i];
      o += GHOST_ROW / sizeof(double);
    }
  }
  comm_swap_known((const void *const *)pd->pb, pd->scount, pd->rbuf, pd->rcount);
  const uint8_t *q = pd->rbuf;
  for (size_t g = b->n_owned; g < b->n; g++, q += GHOST_ROW) { /* (ghosts: in rank order) */
    double o[GHOST_ROW / sizeof(double)];
    memcpy(o, q, sizeof o);
    memcpy(b->pos[g], o, 24), memcpy(b->vel[g], o + 3, 24), memcpy(b->spin[g], o + 6, 24);
    b->k_tran[g] = o[9], b->k_rot[g] = o[10];
  }
}

/* The bricks within 'reach' of x: along each axis one or two runs of slabs, lo[k][j] to
   hi[k][j] (two where the reach wraps around a periodic edge). In a periodic cell the slabs are
   in fractional coordinates, whose planes u_k = const lie 1 / |row k of H^-1| apart: a point
   within 'reach' of another is within reach |row k of H^-1| of it in u_k, through the nearest
   image along a periodic edge. */
typedef struct near_bricks {
  int runs[3], lo[3][2], hi[3][2];
} near_bricks;
static void bricks_near(const par_domain *pd, const double x[3], double reach, near_bricks *nb) {
  const periodic_cell *pc = pd->cell;
  double u[3];
  brick_coord(pd, x, u);
  for (int k = 0; k < 3; k++) {
    int g = pd->grid[k];
    double c = pc ? reach / periodic_height(pc, k) : reach;
    double a = u[k] - c, z = u[k] + c;
    nb->runs[k] = 1;
    nb->lo[k][0] = brick_index(pd, k, a);
    nb->hi[k][0] = brick_index(pd, k, z);
    if (!axis_wraps(pd, k)) continue;
    if (g == 1 || !(2 * c < 1)) { /* (around the whole edge) */
      nb->lo[k][0] = 0, nb->hi[k][0] = g - 1;
    } else if (a < 0 || z >= 1) { /* over the cell's face: on from the other face */
      nb->runs[k] = 2;
      nb->lo[k][0] = brick_index(pd, k, a < 0 ? a + 1 : a), nb->hi[k][0] = g - 1;
      nb->lo[k][1] = 0, nb->hi[k][1] = brick_index(pd, k, z >= 1 ? z - 1 : z);
    }
  }
}

/* The scratch of one rebuild exchange, shared by its stages. */
typedef struct rebuild_scratch {
  uint32_t *dest, *keep; /* each ball's rank after the move (UINT32_MAX: a ghost); who stays */
  int64_t *ids;          /* the ids of the sides of the contacts that stayed */
  uint8_t *mig;          /* the contacts that came with balls (the next exchange reuses rbuf) */
  size_t n_mig, n_ghosts, cap_ghosts;
  rank_slot *ghosts; /* (rank, slot): ball slot is a ghost on that rank */
  size_t off[PAR_MAX_RANKS + 1];
  uint8_t row[4096];
} rebuild_scratch;

/* The rank load k goes to with its ball (dest: each ball's rank after the move), or UINT32_MAX
   when it stays here. */
static uint32_t load_dest(const cairn_world *w, size_t k, const uint32_t *dest, int me) {
  uint32_t i = idmap_get(&w->balls.map, (uint64_t)w->loads.id[k]);
  if (i == IDMAP_NONE || i >= w->balls.n_owned || dest[i] == (uint32_t)me) return UINT32_MAX;
  return dest[i];
}

/* Stage 1 of a rebuild: the owned balls that left this brick, with their contacts and loads, sent
   to the ranks of their new bricks. */
static cairn_status send_leaving_balls(cairn_world *w, par_domain *pd, rebuild_scratch *sc,
                                       cairn_diag *d) {
  ball_store *b = &w->balls;
  contact_store *cs = w->contacts;
  size_t brow = ball_row_size(), nown = b->n_owned;
  uint32_t *dest = sc->dest;
  cairn_status s = CAIRN_OK;
  for (int r = 0; r < pd->P; r++) pd->plen[r] = 0;
  /* (per rank: the balls and the loads that go to it) */
  uint64_t *nmove = calloc(2 * (size_t)pd->P, sizeof *nmove), *nload = nmove + pd->P;
  if (!nmove) return diag_set(d, CAIRN_ENOMEM, "out of memory moving balls between ranks");
  for (size_t i = 0; i < b->n; i++) {
    dest[i] = i < nown ? (uint32_t)owner_of(pd, b->pos[i]) : UINT32_MAX;
    if (i < nown && dest[i] != (uint32_t)pd->me) nmove[dest[i]]++;
  }
  for (size_t k = 0; k < w->loads.n; k++) {
    uint32_t r = load_dest(w, k, dest, pd->me);
    if (r != UINT32_MAX) nload[r]++;
  }
  /* a part for each rank that gets balls (none for the others: an exchange among neighbours
     stays so): their count and their loads' count, their rows, their loads, their contacts */
  for (int r = 0; r < pd->P && s == CAIRN_OK; r++)
    if (nmove[r]) {
      uint64_t counts[2] = {nmove[r], nload[r]};
      s = put(pd, r, counts, sizeof counts, d);
    }
  pd->exchanges++;
  for (size_t i = 0; i < nown && s == CAIRN_OK; i++) {
    if (dest[i] == (uint32_t)pd->me) continue;
    pd->moved++;
    ball_row_pack(b, (uint32_t)i, sc->row);
    s = put(pd, (int)dest[i], sc->row, brow, d);
  }
  for (size_t k = 0; k < w->loads.n && s == CAIRN_OK; k++) {
    uint32_t r = load_dest(w, k, dest, pd->me);
    if (r == UINT32_MAX) continue;
    uint8_t row[LOAD_ROW];
    loads_row(w, k, row);
    s = put(pd, (int)r, row, LOAD_ROW, d);
  }
  /* each contact of a leaving ball goes with it (to both ranks if both its balls leave) */
  for (size_t c = 0; c < cs->n && s == CAIRN_OK; c++) {
    uint32_t sb = cs->b[c], sa = cs->kind[c] == CAIRN_KIND_BALL_BALL ? cs->a[c] : UINT32_MAX;
    uint32_t rb = sb < nown ? dest[sb] : UINT32_MAX, ra = sa < nown ? dest[sa] : UINT32_MAX;
    for (int t = 0; t < 2 && s == CAIRN_OK; t++) {
      uint32_t r = t ? ra : rb;
      if (r == UINT32_MAX || r == (uint32_t)pd->me || (t && r == rb)) continue;
      size_t len = contact_row_size(w, (uint32_t)c);
      s = mem_grow((void **)&pd->pb[r], &pd->pcap[r], pd->plen[r] + len, 1, "par:pack", d);
      if (s == CAIRN_OK) contact_row_pack(w, (uint32_t)c, pd->pb[r] + pd->plen[r]);
      pd->plen[r] += len;
    }
  }
  free(nmove);
  s = comm_agree(s, d);
  if (s == CAIRN_OK) s = exchange(pd, sc->off, d);
  return comm_agree(s, d);
}

/* Stage 2 of a rebuild: the owned balls that stay and those that came become the owned balls;
   contacts with none of them go (silently: they live on where their balls went), and the rest
   remember their sides by id until the slots are settled. */
static cairn_status keep_staying_balls(cairn_world *w, par_domain *pd, rebuild_scratch *sc,
                                       cairn_diag *d) {
  ball_store *b = &w->balls;
  contact_store *cs = w->contacts;
  size_t brow = ball_row_size(), nown = b->n_owned;
  const uint32_t *dest = sc->dest;
  cairn_status s = CAIRN_OK;
  size_t nkeep = 0;
  for (size_t i = 0; i < nown; i++)
    if (dest[i] == (uint32_t)pd->me) sc->keep[nkeep++] = (uint32_t)i;
  for (size_t c = cs->n; c-- > 0;) {
    uint32_t sb = cs->b[c], sa = cs->a[c];
    int bb = cs->kind[c] == CAIRN_KIND_BALL_BALL;
    int stays = (sb < nown && dest[sb] == (uint32_t)pd->me) ||
                (bb && sa < nown && dest[sa] == (uint32_t)pd->me);
    if (!stays) contact_forget(w, (uint32_t)c);
  }
  int64_t *ids = sc->ids = mem_realloc(NULL, 0, (2 * cs->n + 1) * sizeof *ids, "par:exchange");
  if (!ids) return diag_set(d, CAIRN_ENOMEM, "out of memory moving balls between ranks");
  for (size_t c = 0; c < cs->n; c++) {
    ids[2 * c] = cs->kind[c] == CAIRN_KIND_BALL_BALL ? b->id[cs->a[c]] : (int64_t)cs->a[c];
    ids[2 * c + 1] = b->id[cs->b[c]];
  }
  s = balls_keep(w, sc->keep, nkeep, d);
  w->contacts->links.ok = 0; /* (balls_keep leaves the contacts to its caller) */
  size_t mig_bytes = 0;
  for (int r = 0; r < pd->P; r++) mig_bytes += pd->rcount[r];
  sc->mig = mem_realloc(NULL, 0, mig_bytes + 1, "par:exchange");
  if (!sc->mig) s = diag_set(d, CAIRN_ENOMEM, "out of memory moving balls between ranks");
  for (int r = 0; r < pd->P && s == CAIRN_OK; r++) {
    const uint8_t *q = pd->rbuf + sc->off[r];
    if (pd->rcount[r] == 0) continue;
    uint64_t n[2]; /* balls, loads */
    memcpy(n, q, sizeof n);
    q += sizeof n;
    for (uint64_t i = 0; i < n[0] && s == CAIRN_OK; i++, q += brow) s = ball_row_append(w, q, d);
    for (uint64_t i = 0; i < n[1] && s == CAIRN_OK; i++, q += LOAD_ROW) s = loads_row_set(w, q, d);
    size_t rest = (size_t)(pd->rbuf + sc->off[r + 1] - q);
    memcpy(sc->mig + sc->n_mig, q, rest);
    sc->n_mig += rest;
  }
  if (s != CAIRN_OK) return s;
  b->n_owned = b->n;
  loads_keep_owned(w, b->n_owned); /* (those of the balls that went) */
  return CAIRN_OK;
}

/* Stage 3 of a rebuild: the owned balls in their order (global grid: the serial order), and the
   new ghosts: each owned ball to every other rank whose brick lies within reach of it, as the
   scatter lists them (by rank, then slot). */
static cairn_status exchange_new_ghosts(cairn_world *w, par_domain *pd, rebuild_scratch *sc,
                                        cairn_diag *d) {
  ball_store *b = &w->balls;
  size_t brow = ball_row_size();
  cairn_status s = comm_agree(detect_sort_owned(w, d), d);
  if (s != CAIRN_OK) return s;
  double cut = detect_ghost_reach(w);
  for (size_t i = 0; i < b->n_owned && s == CAIRN_OK; i++) {
    near_bricks nb;
    bricks_near(pd, b->pos[i], cut, &nb);
    /* (a brick met twice, by both runs of a narrow periodic grid, is listed twice: send_lists
       lists it once) */
    for (int rz = 0; rz < nb.runs[2]; rz++)
      for (int z = nb.lo[2][rz]; z <= nb.hi[2][rz] && s == CAIRN_OK; z++)
        for (int ry = 0; ry < nb.runs[1]; ry++)
          for (int y = nb.lo[1][ry]; y <= nb.hi[1][ry] && s == CAIRN_OK; y++)
            for (int rx = 0; rx < nb.runs[0]; rx++)
              for (int x = nb.lo[0][rx]; x <= nb.hi[0][rx] && s == CAIRN_OK; x++) {
                int r = (z * pd->grid[1] + y) * pd->grid[0] + x;
                if (r != pd->me)
                  s = note_ghost(&sc->ghosts, &sc->n_ghosts, &sc->cap_ghosts, (uint32_t)r,
                                 (uint32_t)i, d);
              }
  }
  if (s == CAIRN_OK) {
    qsort(sc->ghosts, sc->n_ghosts, sizeof *sc->ghosts, rank_slot_cmp);
    s = send_lists(pd, sc->ghosts, sc->n_ghosts, NULL, d);
  }
  for (int r = 0; r < pd->P && s == CAIRN_OK; r++) {
    pd->plen[r] = 0;
    for (size_t q = pd->send_off[r]; q < pd->send_off[r + 1] && s == CAIRN_OK; q++) {
      ball_row_pack(b, pd->send[q], sc->row);
      s = put(pd, r, sc->row, brow, d);
    }
  }
  s = comm_agree(s, d);
  if (s == CAIRN_OK) s = exchange(pd, sc->off, d);
  s = comm_agree(s, d);
  if (s != CAIRN_OK) return s;
  for (int r = 0; r < pd->P && s == CAIRN_OK; r++) {
    size_t n = pd->rcount[r] / brow;
    pd->recv_n[r] = n;
    for (size_t i = 0; i < n && s == CAIRN_OK; i++)
      s = ball_row_append(w, pd->rbuf + sc->off[r] + i * brow, d);
  }
  return s;
}

/* Stage 4 of a rebuild: the contacts that stayed name their sides anew; those that came with
   balls are added. */
static cairn_status settle_contacts(cairn_world *w, rebuild_scratch *sc, cairn_diag *d) {
  ball_store *b = &w->balls;
  contact_store *cs = w->contacts;
  const int64_t *ids = sc->ids;
  cairn_status s = CAIRN_OK;
  for (size_t c = 0; c < cs->n && s == CAIRN_OK; c++) {
    uint32_t sb = idmap_get(&b->map, (uint64_t)ids[2 * c + 1]);
    uint32_t sa = cs->kind[c] == CAIRN_KIND_BALL_BALL ? idmap_get(&b->map, (uint64_t)ids[2 * c])
                                                      : (uint32_t)ids[2 * c];
    if (sa == IDMAP_NONE || sb == IDMAP_NONE) {
      s = diag_set(d, CAIRN_ESTATE,
                   "the contact of balls %lld and %lld reaches farther than the ranks share "
                   "balls (a bond stretched beyond the neighbour skin); run it on one rank",
                   (long long)ids[2 * c], (long long)ids[2 * c + 1]);
      break;
    }
    cs->a[c] = sa, cs->b[c] = sb, cs->pair[c] = IDMAP_NONE;
  }
  contact_row_cache rc = {0};
  for (size_t o = 0; o < sc->n_mig && s == CAIRN_OK;) {
    contact_row_info ci;
    contact_row_read(sc->mig + o, &ci);
    uint64_t key = key_of(w, ci.kind + ci.sub, ci.id1, ci.id2);
    if (idmap_get(&cs->map, key) == IDMAP_NONE) { /* (not here yet: one of its balls came) */
      uint32_t sa =
          ci.kind == CAIRN_KIND_BALL_BALL ? idmap_get(&b->map, (uint64_t)ci.id1) : (uint32_t)ci.id1;
      uint32_t sb = idmap_get(&b->map, (uint64_t)ci.id2);
      if (sa == IDMAP_NONE || sb == IDMAP_NONE)
        s = diag_set(d, CAIRN_ESTATE,
                     "the contact of balls %lld and %lld reaches farther than the ranks share "
                     "balls (a bond stretched beyond the neighbour skin); run it on one rank",
                     (long long)ci.id1, (long long)ci.id2);
      else
        s = contact_row_insert(w, sc->mig + o, sa, sb, &rc, d);
    }
    o += ci.size;
  }
  contact_row_cache_free(w, &rc);
  cs->links.ok = 0;
  cs->slices_ok = 0;
  w->pairs->dirty = 1;
  return s;
}

/* The bricks' balance kept up as the balls move (a pour that settles): at a rebuild where some
   rank owns more than PAR_REBALANCE times the mean, the cuts move to the quantiles of the balls'
   coordinates, found from histograms summed over the ranks (exact integer sums, so every rank
   gets the same cuts), and the exchange that follows moves the balls to their new bricks. The
   run's results do not depend on the bricks; only its speed does. */
#define PAR_REBALANCE 1.05
static cairn_status recut_if_unbalanced(cairn_world *w, par_domain *pd, cairn_diag *d) {
  const ball_store *b = &w->balls;
  size_t nown = b->n_owned;
  double most = (double)nown;
  int64_t total = (int64_t)nown;
  comm_max(&most, 1);
  comm_sum_i64(&total, 1);
  if (!(most > PAR_REBALANCE * (double)total / pd->P)) return CAIRN_OK;
  double lo[3], hi[3];
  for (int k = 0; k < 3; k++) lo[k] = INFINITY, hi[k] = -INFINITY;
  for (size_t i = 0; i < nown; i++) {
    double u[3];
    brick_coord(pd, b->pos[i], u);
    for (int k = 0; k < 3; k++) {
      if (u[k] < lo[k]) lo[k] = u[k];
      if (u[k] > hi[k]) hi[k] = u[k];
    }
  }
  comm_min(lo, 3);
  comm_max(hi, 3);
  /* bins per axis: 256 per slab (a cut within a 256th of a slab's balls), 65 536 at most */
  size_t nb[3], at[4] = {0};
  for (int k = 0; k < 3; k++) {
    nb[k] = pd->grid[k] > 1 ? (size_t)pd->grid[k] * 256 : 0;
    if (nb[k] > 65536) nb[k] = 65536;
    if (!(hi[k] > lo[k]) || !isfinite(hi[k] - lo[k])) nb[k] = 0; /* (a flat or bad spread) */
    at[k + 1] = at[k] + nb[k];
  }
  if (!at[3]) return CAIRN_OK;
  int64_t *h = mem_realloc(NULL, 0, at[3] * sizeof *h, "par:balance");
  cairn_status s = comm_agree(
      h ? CAIRN_OK : diag_set(d, CAIRN_ENOMEM, "out of memory balancing the ranks' bricks"), d);
  if (s != CAIRN_OK) {
    mem_free(h, 0);
    return s;
  }
  memset(h, 0, at[3] * sizeof *h);
  for (size_t i = 0; i < nown; i++) {
    double u[3];
    brick_coord(pd, b->pos[i], u);
    for (int k = 0; k < 3; k++) {
      if (!nb[k]) continue;
      double q = (u[k] - lo[k]) / (hi[k] - lo[k]) * (double)nb[k];
      size_t j = q >= 0 ? (q < (double)nb[k] ? (size_t)q : nb[k] - 1) : 0;
      h[at[k] + j]++;
    }
  }
  comm_sum_i64(h, (int)at[3]);
  for (int k = 0; k < 3; k++) {
    if (!nb[k]) continue;
    double width = (hi[k] - lo[k]) / (double)nb[k];
    int64_t below = 0;
    size_t j = 0;
    for (int c = 1; c < pd->grid[k]; c++) {
      double want = (double)total * c / pd->grid[k];
      while (j < nb[k] && (double)(below + h[at[k] + j]) < want) below += h[at[k] + j++];
      /* within bin j, as if its balls were spread evenly over it */
      double f = j < nb[k] && h[at[k] + j] ? (want - (double)below) / (double)h[at[k] + j] : 0;
      pd->cut[k][c - 1] = lo[k] + ((double)j + f) * width;
    }
  }
  mem_free(h, 0);
  pd->recuts++;
  return CAIRN_OK;
}

/* The exchange of a rebuild: balls to the rank of their brick with their contacts, then new
   ghosts within 'cut' of each brick, and the contacts' sides named anew. */
static cairn_status rebuild_exchange(cairn_world *w, par_domain *pd, cairn_diag *d) {
  ball_store *b = &w->balls;
  rebuild_scratch sc = {0};
  cairn_status s = CAIRN_OK;
  sc.dest = mem_realloc(NULL, 0, (b->n + 1) * sizeof *sc.dest, "par:exchange");
  sc.keep = mem_realloc(NULL, 0, (b->n + 1) * sizeof *sc.keep, "par:exchange");
  if (!sc.dest || !sc.keep)
    s = diag_set(d, CAIRN_ENOMEM, "out of memory moving balls between ranks");
  pd->went_far = 0;
  if (s == CAIRN_OK) s = recut_if_unbalanced(w, pd, d);
  if (s == CAIRN_OK) s = send_leaving_balls(w, pd, &sc, d);
  if (s == CAIRN_OK) s = keep_staying_balls(w, pd, &sc, d);
  if (s == CAIRN_OK) s = exchange_new_ghosts(w, pd, &sc, d);
  if (s == CAIRN_OK) s = settle_contacts(w, &sc, d);
  pd->spread += pd->went_far;
  mem_free(sc.dest, 0);
  mem_free(sc.keep, 0);
  mem_free(sc.ids, 0);
  mem_free(sc.mig, 0);
  mem_free(sc.ghosts, 0);
  return s;
}

cairn_status par_step_start(cairn_world *w, cairn_diag *d) {
  par_domain *pd = w->par;
  /* rebuild when any rank must (the same decision on every rank, as one rank would make it):
     known from the last step's end reduction, unless something came between */
  double need = pd->need_next;
  pd->need_next = -1;
  if (need < 0) {
    need = detect_needs_rebuild(w) ? 1.0 : 0.0;
    comm_max(&need, 1);
  }
  cairn_status s;
  if (need > 0) {
    w->pairs->dirty = 1;
    s = rebuild_exchange(w, pd, d);
    if (s == CAIRN_OK) s = forward_reserve(w, pd, d);
    return comm_agree(s, d);
  }
  forward(w, pd);
  return CAIRN_OK;
}

void par_note_rebuild(cairn_world *w, int need) {
  w->par->need_next = need ? 1 : 0;
}

cairn_status par_after_motion(cairn_world *w, int64_t total, cairn_diag *d) {
  par_domain *pd = w->par;
  ball_store *b = &w->balls;
  /* the balls motion marked for deletion ("destroy" domain): their ids to every rank */
  int64_t n = (int64_t)w->n_leaving;
  pd->need_next = -1; /* (their absence calls for a rebuild: found at the next step's start) */
  if (total == 0) return CAIRN_OK;
  pd->plen[0] = 0;
  cairn_status s = CAIRN_OK;
  for (size_t i = 0; n && i < b->n_owned && s == CAIRN_OK; i++) /* (marks only if any) */
    if (w->del_mark[i]) s = put(pd, 0, &b->id[i], sizeof b->id[i], d);
  s = comm_agree(s, d);
  if (s == CAIRN_OK)
    s = comm_gather_all(pd->pb[0], pd->plen[0], (void **)&pd->rbuf, &pd->cap_rbuf, pd->rcount, d);
  pd->plen[0] = 0;
  if (s == CAIRN_OK) s = balls_mark_reserve(w, d);
  if (s != CAIRN_OK) return s;
  size_t all = 0, owned_gone = 0;
  for (int r = 0; r < pd->P; r++) all += pd->rcount[r];
  for (size_t k = 0; k < all / sizeof(int64_t); k++) {
    int64_t id;
    memcpy(&id, pd->rbuf + k * sizeof id, sizeof id);
    loads_remove(w, id);                     /* (the owner's, where the ball was owned) */
    if (b->extras.n) ball_extra_drop(b, id); /* (and every ball's extra variables) */
    uint32_t i = idmap_get(&b->map, (uint64_t)id);
    if (i == IDMAP_NONE) continue;
    w->del_mark[i] = 1;
    if (i < b->n_owned) owned_gone++;
  }
  s = contact_delete_marked_balls(w, d);
  b->n_owned -= owned_gone;
  w->n_destroyed += (uint64_t)n;
  w->n_leaving = 0;
  return s;
}

/* The whole model on every rank again, the decomposition freed. */
static cairn_status end_division(cairn_world *w, cairn_diag *d) {
  cairn_status s;
  domain_free(par_gather(w, &s, d));
  return s;
}

cairn_status par_begin(cairn_world *w, cairn_diag *d) {
  int P = comm_size();
  if (P <= 1) return CAIRN_OK;
  /* Runs that need the whole model every step stay whole on every rank (the same bits, without
     the speed): clumps (a clump's pebbles may lie
     on several ranks: docs/clumps.md), tracked displacements (kept by ball on the rank that
     folds them). (Applied loads divide: each travels with its ball.) */
  int whole = w->clumps.n || w->balls.cum.on;
  if (w->par && whole) { /* (clumps or tracking set since the last call, which left it divided) */
    memset(&w->par_last, 0, sizeof w->par_last);
    return end_division(w, d);
  }
  if (w->par) { /* the last call's division, untouched since: this call goes on from it */
    par_domain *pd = w->par;
    pd->in_call = 1;
    pd->moved = pd->exchanges = pd->gathers = pd->recuts = pd->spread = 0;
    pd->need_next = -1; /* (a wall moved since may call for a rebuild: the first step asks) */
    w->par_last.resumed = 1;
    return CAIRN_OK;
  }
  int env_grid[3];
  CAIRN_TRY(comm_agree(grid_from_env(P, w->dim, env_grid, d), d));
  memset(&w->par_last, 0, sizeof w->par_last);
  /* (so does a model with fewer balls than ranks) */
  if (whole || w->balls.n < (size_t)P || P > PAR_MAX_RANKS) return CAIRN_OK;
  par_domain *pd = domain_new(P);
  CAIRN_CHECK(pd, d, CAIRN_ENOMEM, "out of memory setting up the MPI decomposition");
  pd->cell = w->cell.on ? &w->cell : NULL;
  /* the box: the balls' extent now (the same on every rank); balls that leave it later belong
     to the outer bricks, which reach on to infinity. (In a periodic cell, in its fractional
     coordinates, each axis's extent as a length: times the cell's height across it.) */
  double lo[3], hi[3], L[3];
  const ball_store *b = &w->balls;
  for (int k = 0; k < 3; k++) lo[k] = INFINITY, hi[k] = -INFINITY;
  for (size_t i = 0; i < b->n; i++) {
    double u[3];
    brick_coord(pd, b->pos[i], u);
    for (int k = 0; k < 3; k++) {
      if (u[k] < lo[k]) lo[k] = u[k];
      if (u[k] > hi[k]) hi[k] = u[k];
    }
  }
  for (int k = 0; k < 3; k++) {
    if (k >= w->dim || !(hi[k] > lo[k])) lo[k] = 0, hi[k] = 1;
    L[k] = (hi[k] - lo[k]) * (pd->cell ? periodic_height(pd->cell, k) : 1.0);
  }
  choose_grid(P, w->dim, L, env_grid, pd->grid);
  cairn_status s = cuts_at_quantiles(pd, b->pos, b->n, d);
  if (s != CAIRN_OK) {
    domain_free(pd);
    return s;
  }
  pd->cracks0 = w->cracks->n;
  pd->destroyed0 = w->n_destroyed;
  s = par_scatter(w, pd, 0, d);
  if (s != CAIRN_OK && w->par != pd) domain_free(pd); /* (once attached, par_finish frees it) */
  pd->in_call = 1;
  w->par_last.decomposed = s == CAIRN_OK;
  for (int k = 0; k < 3; k++) w->par_last.grid[k] = pd->grid[k];
  return s;
}

cairn_status par_end(cairn_world *w, cairn_status failed, cairn_diag *d) {
  par_domain *pd = w->par;
  if (!pd) return CAIRN_OK;
  pd->in_call = 0;
  /* the ghosts as their owners left them, for what reads contacts between calls (measure) */
  if (failed == CAIRN_OK) forward(w, pd);
  mem_trim(); /* (the memory freed in the call, back to the system: a division at rest holds its
                 brick's share) */
  int64_t sums[3] = {pd->moved, (int64_t)(w->balls.n - w->balls.n_owned),
                     (int64_t)w->balls.n_owned};
  double most = (double)w->balls.n_owned;
  comm_max(&most, 1);
  comm_sum_i64(sums, 3);
  w->par_last.moved = sums[0];
  w->par_last.ghosts = sums[1];
  w->par_last.balance = sums[2] ? most * pd->P / (double)sums[2] : 1.0;
  w->par_last.exchanges = pd->exchanges;
  w->par_last.recuts = pd->recuts;
  w->par_last.spread = pd->spread;
  w->par_last.gathers = pd->gathers;
  /* (every rank shares a failure: the steps it completed stay, on the whole model) */
  return failed != CAIRN_OK ? end_division(w, d) : CAIRN_OK;
}

cairn_status par_whole(cairn_world *w, cairn_diag *d) {
  par_domain *pd = w->par;
  if (!pd) return CAIRN_OK;
  if (!pd->in_call) return end_division(w, d);
  cairn_status s;
  w->par_parked = par_gather(w, &s, d);
  return s;
}

cairn_status par_resume(cairn_world *w, int mid_step, cairn_diag *d) {
  par_domain *pd = w->par_parked;
  if (!pd) return CAIRN_OK;
  w->par_parked = NULL;
  return par_scatter(w, pd, mid_step, d);
}

void par_release(cairn_world *w) {
  domain_free(w->par);
  domain_free(w->par_parked);
  w->par = w->par_parked = NULL;
}

void par_sync_ghosts(cairn_world *w) {
  if (w->par) forward(w, w->par);
}

size_t par_cracks_from(const cairn_world *w) {
  return w->par && comm_rank() != 0 ? w->par->cracks0 : 0;
}

int par_owns_point(const cairn_world *w, const double x[3]) {
  return !w->par || owner_of(w->par, x) == w->par->me;
}

cairn_status par_adopt_last(cairn_world *w, cairn_diag *d) {
  ball_store *b = &w->balls;
  contact_store *cs = w->contacts;
  pair_list *p = w->pairs;
  size_t n = b->n, own = b->n_owned;
  uint32_t *order = mem_realloc(NULL, 0, (n + 1) * sizeof *order, "par:adopt");
  CAIRN_CHECK(order, d, CAIRN_ENOMEM, "out of memory making a ball on its rank");
  for (size_t i = 0; i < own; i++) order[i] = (uint32_t)i;
  order[own] = (uint32_t)(n - 1);
  for (size_t i = own; i + 1 < n; i++) order[i + 1] = (uint32_t)i;
  cairn_status s = balls_keep(w, order, n, d);
  mem_free(order, 0);
  if (s != CAIRN_OK) return s;
  for (size_t c = 0; c < cs->n; c++) { /* (the new ball has none yet) */
    if (cs->b[c] >= own) cs->b[c]++;
    if (cs->kind[c] == CAIRN_KIND_BALL_BALL && cs->a[c] >= own) cs->a[c]++;
  }
  for (size_t q = 0; q < p->n; q++) {
    if (p->b[q] >= own) p->b[q]++;
    if (p->kind[q] == CAIRN_KIND_BALL_BALL && p->a[q] >= own) p->a[q]++;
  }
  b->n_owned = own + 1;
  cs->links.ok = 0;
  cs->slices_ok = 0;
  return CAIRN_OK;
}

void par_note_change(cairn_world *w) {
  if (w->par) w->par->need_next = -1;
}

uint64_t par_destroyed(const cairn_world *w) {
  if (!w->par) return w->n_destroyed;
  int64_t mine = (int64_t)(w->n_destroyed - w->par->destroyed0);
  comm_sum_i64(&mine, 1);
  return w->par->destroyed0 + (uint64_t)mine;
}

void par_grid(const cairn_world *w, int grid[3]) {
  for (int k = 0; k < 3; k++) grid[k] = w->par ? w->par->grid[k] : 1;
}
