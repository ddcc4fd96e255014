/* The broad phase: a uniform cell grid over the balls' bounding box gives the candidate ball-ball
   pairs within the skin, in a fixed order (by slot), so runs are reproducible. The pair list is
   kept until some ball or wall has moved more than half the skin; then it is rebuilt and each
   existing contact is re-attached to its pair. The cost is linear in the number of balls. */
#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"
#include "core/comm.h"
#include "detect/detect.h"

static cairn_status pairs_reserve(pair_list *p, size_t need, cairn_diag *d) {
  if (need <= p->cap) return CAIRN_OK;
  size_t old = p->cap, cap = mem_next_cap(old, need);
#define G(f) CAIRN_TRY(mem_resize_raw((void **)&p->f, old, cap, sizeof *p->f, "pairs:" #f, d))
  G(kind);
  G(sub);
  G(a);
  G(b);
  G(contact);
  G(sgap);
  G(sok);
#undef G
  p->cap = cap;
  return CAIRN_OK;
}

cairn_status pairs_push_sub(pair_list *p, int kind, uint32_t a, uint32_t b, int sub,
                            cairn_diag *d) {
  CAIRN_TRY(pairs_reserve(p, p->n + 1, d));
  p->kind[p->n] = (uint8_t)kind;
  p->sub[p->n] = (uint8_t)sub;
  p->a[p->n] = a;
  p->b[p->n] = b;
  p->contact[p->n] = IDMAP_NONE;
  p->n++;
  return CAIRN_OK;
}

cairn_status pairs_restore(cairn_world *w, size_t np, const uint8_t *kind, const uint8_t *sub,
                           const uint32_t *a, const uint32_t *b, const uint32_t *contact,
                           double skin, int dirty, uint64_t rebuilds, cairn_diag *d) {
  pair_list *p = w->pairs;
  p->skin = skin;
  p->rebuilds = rebuilds;
  p->n = 0;
  p->gen++;
  for (size_t q = 0; q < np; q++) CAIRN_TRY(pairs_push_sub(p, kind[q], a[q], b[q], sub[q], d));
  if (np) memcpy(p->contact, contact, np * sizeof *contact);
  contact_restore_pairs(w, contact, np);
  p->dirty = dirty;
  p->layout = w->layout; /* (the balls just restored made it move on) */
  return CAIRN_OK;
}

/* The skin: how far beyond contact (and proximity) pairs are kept. A tenth of the mean radius
   trades rebuild frequency against pair count; set once per rebuild from the current balls. */
static double choose_skin(const cairn_world *w) {
  const ball_store *b = &w->balls;
  /* (an exact sum: the same skin whatever the order of the balls, and over every rank's own
     balls under MPI) */
  size_t own = balls_owned(w);
  xsum s;
  xsum_init(&s);
  for (size_t i = 0; i < own; i++) xsum_add(&s, b->rad[i]);
  int64_t n = (int64_t)own;
  if (w->par) comm_xsum(&s, 1), comm_sum_i64(&n, 1);
  return n ? 0.1 * xsum_value(&s) / (double)n : 0.0;
}

uint64_t pair_key(const cairn_world *w, uint32_t q) {
  const pair_list *p = w->pairs;
  int64_t id1 = p->kind[q] == CAIRN_KIND_BALL_BALL ? w->balls.id[p->a[q]] : w->walls.w[p->a[q]].id;
  return contact_key(p->kind[q] + p->sub[q], id1, w->balls.id[p->b[q]]);
}

/* A rebuild's skin: choose_skin's, and in a periodic cell no more than the images allow (a ball
   meets only the nearest image of each other), checking that the cell is wide enough. Over
   every rank's own balls under MPI, so every rank gets the one process's skin. */
static cairn_status set_skin(cairn_world *w, cairn_diag *d) {
  pair_list *p = w->pairs;
  p->skin = choose_skin(w);
  if (!w->cell.on) return CAIRN_OK;
  double rmax = 0, most;
  for (size_t i = 0; i < balls_owned(w); i++)
    if (w->balls.rad[i] > rmax) rmax = w->balls.rad[i];
  if (w->par) comm_max(&rmax, 1);
  CAIRN_TRY(periodic_check_size(w, 2 * rmax + cmat_max_proximity(w), &most, d));
  if (p->skin > 0.5 * most) p->skin = 0.5 * most;
  return CAIRN_OK;
}

/* The cell grid of a rebuild: cells of side h from lo, nc cells per axis. */
typedef struct grid {
  double lo[3], h;
  size_t nc[3];
} grid;

/* Cells of side h across a span, as a count the grid can hold: a span that is not finite (a
   run that blew up and was stopped, then cycled again) gets one cell, and a huge one at most
   2^40 (the caller coarsens h until the cells are few). */
static size_t cells_across(double span, double h) {
  double q = span / h;
  if (!(q >= 0 && q < 1e300)) return 1;
  return q < 1099511627776.0 ? (size_t)q + 1 : (size_t)1 << 40;
}

/* The grid over the balls here; with 'global', over every rank's own balls (under MPI: the
   grid one rank would lay over the whole model, for the order of the balls). */
static void grid_setup(const cairn_world *w, double reach, grid *g, int global) {
  const ball_store *b = &w->balls;
  double hi[3] = {-INFINITY, -INFINITY, -INFINITY}, rmax = 0;
  size_t n = global ? balls_owned(w) : b->n;
  for (int k = 0; k < 3; k++) g->lo[k] = INFINITY;
  for (size_t i = 0; i < n; i++) {
    for (int k = 0; k < 3; k++) {
      if (b->pos[i][k] < g->lo[k]) g->lo[k] = b->pos[i][k];
      if (b->pos[i][k] > hi[k]) hi[k] = b->pos[i][k];
    }
    if (b->rad[i] > rmax) rmax = b->rad[i];
  }
  int64_t count = (int64_t)n;
  if (global && w->par) {
    double most[4] = {hi[0], hi[1], hi[2], rmax}, least[3] = {g->lo[0], g->lo[1], g->lo[2]};
    comm_max(most, 4);
    comm_min(least, 3);
    comm_sum_i64(&count, 1);
    for (int k = 0; k < 3; k++) hi[k] = most[k], g->lo[k] = least[k];
    rmax = most[3];
  }
  g->h = 2 * rmax + reach; /* any pair within reach lies in neighbouring cells */
  for (;;) {
    double total = 1;
    for (int k = 0; k < 3; k++) {
      g->nc[k] = k < w->dim ? cells_across(hi[k] - g->lo[k], g->h) : 1;
      total *= (double)g->nc[k];
    }
    /* sparse worlds: coarser cells keep memory linear in n */
    if (total <= 2.0 * (double)count + 8) break;
    g->h *= 1.5;
  }
}

static inline void grid_cell(const grid *g, int dim, const double p[3], size_t ci[3]) {
  for (int k = 0; k < 3; k++) {
    double q = k < dim ? (p[k] - g->lo[k]) / g->h : 0;
    ci[k] = q >= 0 && q < (double)g->nc[k] ? (size_t)q : q >= 0 ? g->nc[k] - 1 : 0;
  }
}

/* The low 10 bits of v spread to every third bit, for a Morton code. */
static inline uint64_t spread3(uint64_t v) {
  v &= 0x3ff;
  v = (v | v << 16) & 0x030000ffull;
  v = (v | v << 8) & 0x0300f00full;
  v = (v | v << 4) & 0x030c30c3ull;
  v = (v | v << 2) & 0x09249249ull;
  return v;
}

static int cmp_u64(const void *x, const void *y) {
  uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
  return (a > b) - (a < b);
}

/* Put the balls in the Morton (Z-) order of their cells, so that balls near in space are mostly
   near in memory and the passes over pairs and contacts stay in cache as the model grows. Balls
   in the same cell go in the order of their ids, so the order depends only on the positions and
   the ids, not on the order the balls were in (each ball keeps its key, ball_store.skey); a
   sorted model is left alone. */
static cairn_status sort_balls(cairn_world *w, const grid *g, cairn_diag *d) {
  ball_store *b = &w->balls;
  pair_list *p = w->pairs;
  size_t n = b->n;
  if (n == 0) return CAIRN_OK; /* (one ball gets its key too: a rank may own just one) */
  CAIRN_TRY(mem_grow((void **)&p->sort_key, &p->cap_key, n, sizeof *p->sort_key, "pairs:sort", d));
  CAIRN_TRY(mem_grow((void **)&p->order, &p->cap_order, n, sizeof *p->order, "pairs:order", d));
  CAIRN_TRY(
      mem_grow((void **)&p->cell_of, &p->cap_cellof, n, sizeof *p->cell_of, "pairs:cell_of", d));
  int shift = 0; /* cells grouped by 2^shift per axis, so each axis fits in 10 bits */
  while ((g->nc[0] >> shift) > 1024 || (g->nc[1] >> shift) > 1024 || (g->nc[2] >> shift) > 1024)
    shift++;
  int sorted = 1, rekeyed = 0;
  for (size_t i = 0; i < n; i++) {
    size_t ci[3];
    grid_cell(g, w->dim, b->pos[i], ci);
    uint64_t m =
        spread3(ci[0] >> shift) | spread3(ci[1] >> shift) << 1 | spread3(ci[2] >> shift) << 2;
    /* (a Morton code of 30 bits, then an id below 2^31) */
    uint64_t key = m << 31 | (uint64_t)b->id[i];
    rekeyed |= b->skey[i] != key;
    b->skey[i] = p->sort_key[i] = key;
    if (i && p->sort_key[i] < p->sort_key[i - 1]) sorted = 0;
  }
  /* each ball's contacts are listed in its partners' keys (links.c): a ball that changed cells
     reorders its partners' lists */
  if (rekeyed) w->contacts->links.ok = 0;
  if (sorted) return CAIRN_OK;
  qsort(p->sort_key, n, sizeof *p->sort_key, cmp_u64);
  for (size_t i = 0; i < n; i++)
    p->order[i] = idmap_get(&b->map, p->sort_key[i] & (((uint64_t)1 << 31) - 1));
  ball_sort(w, p->order, p->cell_of, (uint8_t *)p->sort_key);
  contact_renumber_balls(w, p->cell_of);
  return CAIRN_OK;
}

/* Balls i and j, their centres e apart (or their nearest images), are a candidate pair if their
   surfaces are within reach; side 1 is the ball with the lower id. */
static inline cairn_status candidate(cairn_world *w, uint32_t i, uint32_t j, const double e[3],
                                     double reach, cairn_diag *d) {
  const ball_store *b = &w->balls;
  double lim = b->rad[i] + b->rad[j] + reach;
  if (v3_dot(e, e) > lim * lim) return CAIRN_OK;
  /* two pebbles of one clump never touch (clump_slots made body_of current) */
  if (w->clumps.n && (b->fix[i] & b->fix[j] & FIX_CLUMP) &&
      w->clumps.body_of[i] == w->clumps.body_of[j])
    return CAIRN_OK;
  uint32_t s1 = b->id[i] < b->id[j] ? i : j;
  uint32_t s2 = s1 == i ? j : i;
  return pairs_push(w->pairs, CAIRN_KIND_BALL_BALL, s1, s2, d);
}

/* With cell_of[i] set and cell_start[c + 1] counting the balls of cell c: the balls in 'order'
   by cell (a counting sort, stable in slot order), and cell_start[c] where cell c's begin. */
static void bucket_by_cell(pair_list *p, size_t n, size_t ncell) {
  for (size_t c = 0; c < ncell; c++) p->cell_start[c + 1] += p->cell_start[c];
  for (size_t i = 0; i < n; i++) p->order[p->cell_start[p->cell_of[i]]++] = (uint32_t)i;
  for (size_t c = ncell; c > 0; c--) p->cell_start[c] = p->cell_start[c - 1];
  p->cell_start[0] = 0;
}

static cairn_status ball_ball_candidates(cairn_world *w, const grid *g, double reach,
                                         cairn_diag *d) {
  ball_store *b = &w->balls;
  pair_list *p = w->pairs;
  size_t n = b->n;
  if (n < 2) return CAIRN_OK;
  const size_t *nc = g->nc;
  size_t ncell = nc[0] * nc[1] * nc[2];
  CAIRN_TRY(mem_grow((void **)&p->cell_start, &p->cap_cells, ncell + 1, sizeof *p->cell_start,
                     "pairs:cells", d));
  CAIRN_TRY(mem_grow((void **)&p->order, &p->cap_order, n, sizeof *p->order, "pairs:order", d));
  CAIRN_TRY(
      mem_grow((void **)&p->cell_of, &p->cap_cellof, n, sizeof *p->cell_of, "pairs:cell_of", d));
  memset(p->cell_start, 0, (ncell + 1) * sizeof *p->cell_start);
  size_t own = balls_owned(w);
  for (size_t i = 0; i < n; i++) {
    size_t ci[3];
    grid_cell(g, w->dim, b->pos[i], ci);
    p->cell_of[i] = (uint32_t)((ci[2] * nc[1] + ci[1]) * nc[0] + ci[0]);
    p->cell_start[p->cell_of[i] + 1]++;
  }
  bucket_by_cell(p, n, ncell);

  for (size_t i = 0; i < n; i++) {
    uint32_t c = p->cell_of[i];
    long cx = (long)(c % nc[0]), cy = (long)(c / nc[0] % nc[1]), cz = (long)(c / (nc[0] * nc[1]));
    for (long z = cz - 1; z <= cz + 1; z++) {
      if (z < 0 || z >= (long)nc[2]) continue;
      for (long y = cy - 1; y <= cy + 1; y++) {
        if (y < 0 || y >= (long)nc[1]) continue;
        for (long x = cx - 1; x <= cx + 1; x++) {
          if (x < 0 || x >= (long)nc[0]) continue;
          size_t cell = ((size_t)z * nc[1] + (size_t)y) * nc[0] + (size_t)x;
          for (uint32_t q = p->cell_start[cell]; q < p->cell_start[cell + 1]; q++) {
            uint32_t j = p->order[q];
            if (j <= i || (i >= own && j >= own)) continue; /* (two ghosts: another rank's) */
            double e[3];
            v3_sub(b->pos[j], b->pos[i], e);
            CAIRN_TRY(candidate(w, (uint32_t)i, j, e, reach, d));
          }
        }
      }
    }
  }
  return CAIRN_OK;
}

/* The same in a periodic cell: the grid is laid over the cell's fractional coordinates, whole
   along its periodic edges and wrapping around them (a cell width at least the reach across),
   and a pair is tested through its nearest image. A ball meets each other ball once: the cell
   is more than twice the contact range across (periodic_check_size). */
static cairn_status ball_ball_candidates_cell(cairn_world *w, double hmin, double reach,
                                              cairn_diag *d) {
  ball_store *b = &w->balls;
  pair_list *p = w->pairs;
  const periodic_cell *pc = &w->cell;
  size_t n = b->n, own = balls_owned(w);
  if (n < 2) return CAIRN_OK;
  CAIRN_TRY(mem_grow((void **)&p->order, &p->cap_order, n, sizeof *p->order, "pairs:order", d));
  CAIRN_TRY(
      mem_grow((void **)&p->cell_of, &p->cap_cellof, n, sizeof *p->cell_of, "pairs:cell_of", d));
  /* per axis: the span of fractional coordinates and the cells across it */
  double lo[3], span[3], h = hmin;
  size_t nc[3];
  for (int j = 0; j < 3; j++) {
    lo[j] = 0, span[j] = 1;
    if (j >= w->dim || pc->periodic[j]) continue;
    double a = INFINITY, z = -INFINITY;
    for (size_t i = 0; i < n; i++) {
      double e[3], s;
      v3_sub(b->pos[i], pc->origin, e);
      s = pc->Hinv[j][0] * e[0] + pc->Hinv[j][1] * e[1] + pc->Hinv[j][2] * e[2];
      if (s < a) a = s;
      if (s > z) z = s;
    }
    lo[j] = a, span[j] = z - a > 0 ? z - a : 1e-300;
  }
  for (;;) {
    double total = 1;
    for (int j = 0; j < 3; j++) {
      double across = span[j] * periodic_height(pc, j); /* the span's width in length */
      size_t k = j < w->dim ? cells_across(across, h) - 1 : 1;
      nc[j] = k < 1 ? 1 : k; /* each at least h across, so neighbours are one cell away */
      total *= (double)nc[j];
    }
    if (total <= 2.0 * (double)n + 8) break;
    h *= 1.5;
  }
  size_t ncell = nc[0] * nc[1] * nc[2];
  CAIRN_TRY(mem_grow((void **)&p->cell_start, &p->cap_cells, ncell + 1, sizeof *p->cell_start,
                     "pairs:cells", d));
  memset(p->cell_start, 0, (ncell + 1) * sizeof *p->cell_start);
  for (size_t i = 0; i < n; i++) {
    double e[3];
    size_t ci[3];
    v3_sub(b->pos[i], pc->origin, e);
    for (int j = 0; j < 3; j++) {
      double s = pc->Hinv[j][0] * e[0] + pc->Hinv[j][1] * e[1] + pc->Hinv[j][2] * e[2];
      double u = (s - lo[j]) / span[j];
      if (pc->periodic[j]) u -= floor(u);
      double q = floor(u * (double)nc[j]);
      ci[j] = q >= 0 && q < (double)nc[j] ? (size_t)q : q >= 0 ? nc[j] - 1 : 0;
    }
    p->cell_of[i] = (uint32_t)((ci[2] * nc[1] + ci[1]) * nc[0] + ci[0]);
    p->cell_start[p->cell_of[i] + 1]++;
  }
  bucket_by_cell(p, n, ncell);
  for (size_t i = 0; i < n; i++) {
    uint32_t c = p->cell_of[i];
    long cc[3] = {(long)(c % nc[0]), (long)(c / nc[0] % nc[1]), (long)(c / (nc[0] * nc[1]))};
    /* each axis's neighbouring cells, once each (a periodic axis of 1 or 2 cells wraps onto
       itself) */
    long nb[3][3] = {{0}};
    int nn[3];
    for (int j = 0; j < 3; j++) {
      nn[j] = 0;
      long m = (long)nc[j];
      for (long t = cc[j] - 1; t <= cc[j] + 1; t++) {
        long u = t;
        if (pc->periodic[j] && j < w->dim) u = ((t % m) + m) % m;
        if (u < 0 || u >= m) continue;
        int dup = 0;
        for (int q = 0; q < nn[j]; q++) dup |= nb[j][q] == u;
        if (!dup) nb[j][nn[j]++] = u;
      }
    }
    for (int zz = 0; zz < nn[2]; zz++)
      for (int yy = 0; yy < nn[1]; yy++)
        for (int xx = 0; xx < nn[0]; xx++) {
          size_t cell = ((size_t)nb[2][zz] * nc[1] + (size_t)nb[1][yy]) * nc[0] + (size_t)nb[0][xx];
          for (uint32_t q = p->cell_start[cell]; q < p->cell_start[cell + 1]; q++) {
            uint32_t j = p->order[q];
            if (j <= i || (i >= own && j >= own)) continue; /* (two ghosts: another rank's) */
            double e[3], sh[3];
            v3_sub(b->pos[j], b->pos[i], e);
            periodic_shift(pc, e, sh);
            v3_add(e, sh, e);
            CAIRN_TRY(candidate(w, (uint32_t)i, j, e, reach, d));
          }
        }
  }
  return CAIRN_OK;
}

/* A ball that may touch mesh wall k at several places (its list says so, or it has a second or
   third contact with it already, which keeps its list so until it ends) gets a pair for each
   of its further contacts. */
static cairn_status mesh_more_pairs(cairn_world *w, uint32_t k, uint32_t i, cairn_diag *d) {
  wall *wl = &w->walls.w[k];
  wall_mesh *m = wl->mesh;
  if (i >= m->list_next) return CAIRN_OK;
  uint32_t c;
  for (int j = 1; j < MESH_CONTACTS && !m->list_at[i].multi; j++)
    m->list_at[i].multi =
        contact_find(w, CAIRN_KIND_BALL_WALL + j, w->balls.id[i], wl->id, &c, NULL) == CAIRN_OK;
  if (!m->list_at[i].multi) return CAIRN_OK;
  for (int j = 1; j < MESH_CONTACTS; j++)
    CAIRN_TRY(pairs_push_sub(w->pairs, CAIRN_KIND_BALL_WALL, k, i, j, d));
  return CAIRN_OK;
}

static cairn_status ball_wall_candidates(cairn_world *w, double reach, cairn_diag *d) {
  ball_store *b = &w->balls;
  for (size_t k = 0; k < w->walls.n; k++) {
    wall *wl = &w->walls.w[k];
    /* a mesh looks for triangles this far beyond a ball, until the next rebuild: the reach and
       as much again, for the balls' and the wall's motion meanwhile */
    if (wl->mesh) {
      wl->mesh_reach = 2 * reach;
      CAIRN_TRY(mesh_hints(wl->mesh, w->balls.n, d));
      CAIRN_TRY(mesh_lists_begin(wl->mesh, w->balls.n, d));
    }
    for (size_t i = 0; i < balls_owned(w); i++) { /* (a ghost's wall contacts: its rank's) */
      double gap, n[3], pt[3];
      if (!geom_ball_wall(wl, (uint32_t)i, -1, b->pos[i], b->rad[i], &gap, n, pt) ||
          !(gap <= reach))
        continue;
      CAIRN_TRY(pairs_push(w->pairs, CAIRN_KIND_BALL_WALL, (uint32_t)k, (uint32_t)i, d));
      /* A pair's searches until the next rebuild look only at the triangles within the radius
         and the mesh's reach (the ball and the mesh move less than the skin meanwhile; a
         search that the list cannot answer goes to the grid). */
      if (wl->mesh) {
        CAIRN_TRY(geom_mesh_list(wl, (uint32_t)i, b->pos[i], b->rad[i] + wl->mesh_reach,
                                 wl->mesh_reach, d));
        CAIRN_TRY(mesh_more_pairs(w, (uint32_t)k, (uint32_t)i, d));
      }
    }
  }
  return CAIRN_OK;
}

static cairn_status rebuild(cairn_world *w, cairn_diag *d) {
  pair_list *p = w->pairs;
  contact_store *cs = w->contacts;
  p->n = 0;
  /* (under MPI every rebuild follows the exchange, whose detect_sort_owned set the skin) */
  if (!w->par) CAIRN_TRY(set_skin(w, d));
  if (w->cell.on) memcpy(w->cell.H_rebuild, w->cell.H, sizeof w->cell.H);
  double reach = p->skin + cmat_max_proximity(w);
  if (w->balls.n >= 2) { /* (the grid needs the balls' extent) */
    grid g;
    grid_setup(w, reach, &g, 0);
    /* (under MPI the exchange sorted the owned balls, detect_sort_owned) */
    if (!w->par) CAIRN_TRY(sort_balls(w, &g, d));
    if (w->clumps.n) CAIRN_TRY(clump_slots(w, d));
    if (w->cell.on)
      CAIRN_TRY(ball_ball_candidates_cell(w, g.h, reach, d));
    else
      CAIRN_TRY(ball_ball_candidates(w, &g, reach, d));
  }
  CAIRN_TRY(ball_wall_candidates(w, reach, d));
  for (size_t c = 0; c < cs->n; c++) cs->pair[c] = IDMAP_NONE;
  for (size_t q = 0; q < p->n; q++) {
    uint32_t c = idmap_get(&cs->map, pair_key(w, (uint32_t)q));
    p->contact[q] = c;
    if (c != IDMAP_NONE) cs->pair[c] = (uint32_t)q;
  }
  /* Contacts beyond the reach that their model keeps (bonds) get a pair of their own. */
  for (size_t c = 0; c < cs->n; c++)
    if (cs->pair[c] == IDMAP_NONE) {
      CAIRN_TRY(pairs_push_sub(p, cs->kind[c], cs->a[c], cs->b[c], cs->sub[c], d));
      p->contact[p->n - 1] = (uint32_t)c;
      cs->pair[c] = (uint32_t)(p->n - 1);
    }
  CAIRN_TRY(contact_sort_by_pair(w, p->contact, p->n, d));
  /* (a tracked displacement keeps what 'disp' held: its own balls', under MPI) */
  CAIRN_TRY(balls_fold_disp(&w->balls, balls_owned(w), d));
  for (size_t i = 0; i < w->balls.n; i++) v3_zero(w->balls.disp[i]);
  for (size_t k = 0; k < w->walls.n; k++) {
    v3_zero(w->walls.w[k].disp);
    w->walls.w[k].rot_disp = 0;
  }
  p->dirty = 0;
  p->layout = w->layout;
  p->rebuilds++;
  p->gen++;
  return CAIRN_OK;
}

int detect_needs_rebuild(const cairn_world *w) {
  const pair_list *p = w->pairs;
  if (pairs_stale(w)) return 1;
  double mb = 0, mw = 0;
  for (size_t i = 0; i < w->balls.n; i++) {
    double d2 = v3_dot(w->balls.disp[i], w->balls.disp[i]);
    if (d2 > mb) mb = d2;
  }
  for (size_t k = 0; k < w->walls.n; k++) {
    /* a turning wall's points move by its displacement and by its turning */
    double dw = sqrt(v3_dot(w->walls.w[k].disp, w->walls.w[k].disp)) + w->walls.w[k].rot_disp;
    if (dw > mw) mw = dw;
  }
  mb = sqrt(mb);
  /* Two balls closing on each other, or a ball and a wall, may together close the skin; a
     ball's image also moves with the cell's edges. */
  double mc = w->cell.on ? periodic_moved(&w->cell) : 0.0;
  return mb + (mb > mw ? mb : mw) + mc >= p->skin;
}

#if defined(__GNUC__)
#define PAIR_INLINE inline __attribute__((always_inline))
#else
#define PAIR_INLINE inline
#endif
/* The automatic timestep looks ahead (cycle_timestep): a pair without a contact whose gap closes
   within LOOK_AHEAD of the last timestep at its present closing speed may touch during the
   coming step, before any stiffness of its own reaches the balls' sums; the model is probed for
   the stiffness it will have (the plugin guide: at the impact's predicted peak). Two steps' worth
   covers a timestep grown by 10 % and the pair's acceleration meanwhile. */
#define LOOK_AHEAD 2.0

/* Whether a ball of pair (a, b) of kind k has no stiffness yet (no active contact at the last
   force pass): a ball in free flight, whose timestep nothing bounds until this pair touches.
   Only such pairs are looked ahead at. A ball that already has contacts has its timestep set
   by them, and a contact of the same stiffness adds little to their sum (a dense packing, where
   looking at every near pair cost 7 % of the run); the 10 % growth bound covers the rest. */
static inline int unbraced(const cairn_world *w, int k, uint32_t a, uint32_t b) {
  const double *kt = w->balls.k_tran;
  return kt[b] == 0 || (k == CAIRN_KIND_BALL_BALL && kt[a] == 0);
}

/* How fast pair (a, b) of kind k closes along its normal n (from side 1 to side 2). */
static double closing_speed(const cairn_world *w, int k, uint32_t a, uint32_t b,
                            const double n[3]) {
  double v[3];
  detect_pair_velocity(w, k, a, b, v);
  return -v3_dot(v, n);
}

/* In a periodic cell: whether pair q without a contact has come within reach this step (sok 1,
   its gap in sgap), or has two coincident centres (sok 2), through the nearest image. The test
   without a cell (mark_pair) is the same without images, written apart so that it is compiled
   exactly as it was before cells existed (this function called with a constant flag there cost
   5 instructions more per particle-step, bench/instructions.sh). */
static PAIR_INLINE int mark_pair_cell(cairn_world *w, long q, double max_prox, double reach,
                                      double horizon) {
  pair_list *p = w->pairs;
  p->sok[q] = 0;
  if (p->contact[q] != IDMAP_NONE) return 0;
  uint32_t a = p->a[q], bb = p->b[q];
  double gap = INFINITY, n[3], pt[3];
  int formed;
  if (p->kind[q] == CAIRN_KIND_BALL_BALL) {
    /* Two balls clearly farther apart than contact allows (the common pair): no square root.
       Nearer than that, the exact test below decides. */
    const ball_store *bs = &w->balls;
    double e[3], lim = bs->rad[a] + bs->rad[bb] + reach, img[3];
    const double *pb = detect_image(w, a, bb, img);
    v3_sub(pb, bs->pos[a], e);
    if (lim >= 0 && v3_dot(e, e) > lim * lim * (1.0 + 1e-9)) return 0;
    formed = geom_ball_ball(bs->pos[a], bs->rad[a], pb, bs->rad[bb], &gap, n, pt);
  } else {
    formed = geom_ball_wall(&w->walls.w[a], bb, p->sub[q], w->balls.pos[bb], w->balls.rad[bb], &gap,
                            n, pt);
  }
  if (formed) {
    if (gap < max_prox) {
      p->sok[q] = 1;
      p->sgap[q] = gap;
      return 1;
    }
    if (horizon > 0 && unbraced(w, p->kind[q], a, bb) &&
        gap < horizon * closing_speed(w, p->kind[q], a, bb, n)) {
      p->sok[q] = 3;
      return 1;
    }
  } else if (p->kind[q] == CAIRN_KIND_BALL_BALL) { /* the same centre: no normal; refused in the
                                                      serial pass */
    p->sok[q] = 2;
    return 1;
  }
  return 0;
}

/* Without a cell: whether pair q without a contact has come within reach this step (sok 1, its
   gap in sgap), closes within the look-ahead's horizon (sok 3), or has two coincident centres
   (sok 2). */
static PAIR_INLINE int mark_pair(cairn_world *w, long q, double max_prox, double reach,
                                 double horizon) {
  pair_list *p = w->pairs;
  p->sok[q] = 0;
  if (p->contact[q] != IDMAP_NONE) return 0;
  uint32_t a = p->a[q], bb = p->b[q];
  if (p->kind[q] == CAIRN_KIND_BALL_BALL) {
    /* Two balls clearly farther apart than contact allows (the common pair): no square
       root. Nearer than that, the exact test below decides. */
    const ball_store *bs = &w->balls;
    double e[3], lim = bs->rad[a] + bs->rad[bb] + reach;
    v3_sub(bs->pos[bb], bs->pos[a], e);
    if (lim >= 0 && v3_dot(e, e) > lim * lim * (1.0 + 1e-9)) return 0;
  }
  double gap = INFINITY, n[3], pt[3];
  if (detect_pair_geometry(w, p->kind[q], a, bb, p->sub[q], &gap, n, pt)) {
    if (gap < max_prox) {
      p->sok[q] = 1;
      p->sgap[q] = gap;
      return 1;
    } else if (horizon > 0 && unbraced(w, p->kind[q], a, bb) &&
               gap < horizon * closing_speed(w, p->kind[q], a, bb, n)) {
      p->sok[q] = 3;
      return 1;
    }
  } else if (p->kind[q] == CAIRN_KIND_BALL_BALL) { /* the same centre: refused in the serial
                                                      pass */
    p->sok[q] = 2;
    return 1;
  }
  return 0;
}

/* Pairs per block of the serial pass's marks ('bmark'). */
#define PAIR_BLOCK 64

static cairn_status ahead_push(pair_list *p, size_t q, cairn_diag *d) {
  CAIRN_TRY(mem_grow((void **)&p->ahead, &p->cap_ahead, p->n_ahead + 1, sizeof *p->ahead,
                     "pairs:look-ahead", d));
  p->ahead[p->n_ahead++] = (uint32_t)q;
  return CAIRN_OK;
}

/* A new contact whose ball has its centre behind a one-sided wall (a plane's back, a cylinder's
   outside: only these give a gap below -r) is refused: the wall would push the ball through
   itself at once, faster the stiffer the contact, where the user almost always meant the
   other side (docs/scripting.md, wall.create). */
static cairn_status behind_wall(const cairn_world *w, uint32_t a, uint32_t bb, cairn_diag *d) {
  const wall *wl = &w->walls.w[a];
  const double *x = w->balls.pos[bb];
  long long bid = (long long)w->balls.id[bb], wid = (long long)wl->id;
  if (wl->kind == WALL_CYLINDER)
    return diag_set(d, CAIRN_ESTATE,
                    "ball %lld (centre (%g, %g, %g)) is outside cylinder wall %lld, whose balls "
                    "are inside, so the wall would shoot it away; move the ball inside the "
                    "cylinder or enlarge its radius",
                    bid, x[0], x[1], x[2], wid);
  return diag_set(d, CAIRN_ESTATE,
                  "ball %lld (centre (%g, %g, %g)) is behind plane wall %lld, whose normal (%g, "
                  "%g, %g) points away from it, so the wall would shoot it away; flip the wall's "
                  "normal or move the ball to the side the normal points to",
                  bid, x[0], x[1], x[2], wid, wl->normal[0], wl->normal[1], wl->normal[2]);
}

cairn_status detect_update(cairn_world *w, cairn_diag *d) {
  /* (under MPI every rank rebuilds when any must: the exchange has set 'dirty' for all) */
  if (w->par ? pairs_stale(w) : detect_needs_rebuild(w)) CAIRN_TRY(rebuild(w, d));
  CAIRN_TRY(detect_mesh_picks(w, d));
  pair_list *p = w->pairs;
  contact_store *cs = w->contacts;
  double max_prox = cmat_max_proximity(w);
  /* The look-ahead (automatic timestep only): pairs reach as far as two balls at the top speed
     close in its horizon. */
  double horizon = 0, reach = max_prox;
  p->n_ahead = 0;
  if (w->ts_mode == TS_AUTO && w->dt > 0) {
    horizon = LOOK_AHEAD * w->dt;
    double r = 2 * horizon * sqrt(w->v2max); /* (the top speed, from the last step's motion) */
    if (r > reach) reach = r;
  }
  /* Which pairs without a contact have come within reach: independent per pair, so in parallel
     (the same arithmetic whatever the thread count); 'sok' marks them for the serial pass, and
     'bmark' their blocks of PAIR_BLOCK pairs (each block one thread's: schedule(static,
     PAIR_BLOCK)), so that it looks only into those. */
  long np = (long)p->n, nblk = (np + PAIR_BLOCK - 1) / PAIR_BLOCK, marked = 0;
  CAIRN_TRY(mem_grow((void **)&p->bmark, &p->cap_bmark, (size_t)nblk + 1, sizeof *p->bmark,
                     "pairs:blocks", d));
  uint8_t *bmark = p->bmark;
  memset(bmark, 0, (size_t)nblk);
  /* two loops: the one without a cell pays nothing for images (a loop on one thread enters no
     parallel region: PARALLEL_WORTH, cycle/forces.h) */
  const int par = np >= 4096;
  if (w->cell.on && par) {
#pragma omp parallel for schedule(static, PAIR_BLOCK) reduction(+ : marked)
    for (long q = 0; q < np; q++)
      if (mark_pair_cell(w, q, max_prox, reach, horizon)) bmark[q / PAIR_BLOCK] = 1, marked++;
  } else if (w->cell.on) {
    for (long q = 0; q < np; q++)
      if (mark_pair_cell(w, q, max_prox, reach, horizon)) bmark[q / PAIR_BLOCK] = 1, marked++;
  } else if (par) {
#pragma omp parallel for schedule(static, PAIR_BLOCK) reduction(+ : marked)
    for (long q = 0; q < np; q++)
      if (mark_pair(w, q, max_prox, reach, horizon)) bmark[q / PAIR_BLOCK] = 1, marked++;
  } else {
    for (long q = 0; q < np; q++)
      if (mark_pair(w, q, max_prox, reach, horizon)) bmark[q / PAIR_BLOCK] = 1, marked++;
  }
  /* Creation changes the contact arrays: in pair order, on one thread (most steps make none). */
  for (long k = 0; k < nblk && marked; k++) {
    if (!bmark[k]) continue;
    size_t q1 = (size_t)((k + 1) * PAIR_BLOCK < np ? (k + 1) * PAIR_BLOCK : np);
    for (size_t q = (size_t)k * PAIR_BLOCK; q < q1; q++) {
      if (!p->sok[q]) continue;
      int kd = p->kind[q];
      uint32_t a = p->a[q], bb = p->b[q], c;
      if (p->sok[q] == 2) {
        const double *x = w->balls.pos[a];
        return diag_set(d, CAIRN_ESTATE,
                        "balls %lld and %lld have the same centre (%g, %g, %g), so no contact "
                        "normal can be formed between them; move one of them (ball.pos) or "
                        "delete it",
                        (long long)w->balls.id[a], (long long)w->balls.id[bb], x[0], x[1], x[2]);
      }
      if (p->sok[q] == 3) { /* closing in: the timestep probes its model */
        CAIRN_TRY(ahead_push(p, q, d));
        continue;
      }
      double gap = p->sgap[q], n[3], pt[3];
      if (gap >= cmat_lookup(w, kd, a, bb)->proximity) continue;
      if (kd == CAIRN_KIND_BALL_WALL && gap < -w->balls.rad[bb])
        CAIRN_TRY(behind_wall(w, a, bb, d));
      CAIRN_TRY(contact_create_sub(w, kd, a, bb, p->sub[q], &c, d));
      p->contact[q] = c;
      cs->pair[c] = (uint32_t)q;
      detect_pair_geometry(w, kd, a, bb, p->sub[q], &gap, n, pt);
      v3_copy(n, cs->normal[c]);
      cs->gap[c] = gap;
      /* a new contact's stiffness reaches the balls' sums only at its first force pass (listed
         once the contact is whole: a failure here leaves nothing half-made) */
      if (w->ts_mode == TS_AUTO && unbraced(w, kd, a, bb)) CAIRN_TRY(ahead_push(p, q, d));
    }
  }
  return CAIRN_OK;
}

void detect_refresh(cairn_world *w) {
  contact_store *cs = w->contacts;
  /* (the picks at these positions first: each contact then finds its own place) */
  if (detect_mesh_picks(w, NULL) != CAIRN_OK) return;
  for (size_t c = 0; c < cs->n; c++) {
    double gap, n[3], pt[3];
    if (!detect_pair_geometry(w, cs->kind[c], cs->a[c], cs->b[c], cs->sub[c], &gap, n, pt))
      continue;
    cs->gap[c] = gap;
    v3_copy(n, cs->normal[c]);
  }
}

cairn_status detect_sort_owned(cairn_world *w, cairn_diag *d) {
  pair_list *p = w->pairs;
  CAIRN_TRY(set_skin(w, d)); /* (the rebuild that follows keeps it) */
  grid g;
  grid_setup(w, p->skin + cmat_max_proximity(w), &g, 1);
  return sort_balls(w, &g, d);
}

double detect_ghost_reach(const cairn_world *w) {
  const ball_store *b = &w->balls;
  double rmax = 0;
  for (size_t i = 0; i < balls_owned(w); i++)
    if (b->rad[i] > rmax) rmax = b->rad[i];
  if (w->par) comm_max(&rmax, 1);
  return 2 * rmax + w->pairs->skin + cmat_max_proximity(w);
}

void pairs_free(pair_list *p) {
  mem_free(p->kind, 0), mem_free(p->a, 0), mem_free(p->b, 0), mem_free(p->contact, 0);
  mem_free(p->sgap, 0), mem_free(p->sok, 0), mem_free(p->bmark, 0), mem_free(p->sub, 0);
  mem_free(p->mesh_q, 0);
  mem_free(p->cell_start, 0), mem_free(p->order, 0), mem_free(p->cell_of, 0);
  mem_free(p->sort_key, 0), mem_free(p->ahead, 0);
  memset(p, 0, sizeof *p);
}
