/* The force pass: every contact's geometry, its model's law and the sums on its balls and wall,
   one slice of neighbouring contacts at a time (contact_model.h, cairn_cm_slice). A slice is a run
   of up to CAIRN_CM_SLICE_MAX contacts in store order with the same model, property block and
   kind, so the model runs once per slice over arrays, with no call through a pointer per contact.

   Stages of a slice: (1) gather: from the balls' positions and velocities, each contact's gap,
   normal, relative velocity at the contact point and effective mass, kept in the contact for
   scripts and outputs; (2) the model; (3) the force and the moments about each ball's centre,
   kept in the contact's record (Newton's third law: one contact, two balls). The slices run in
   parallel on several threads. Then each ball sums its records in the order of its partners'
   keys (links.c), through its list of contacts, and each wall sums its own exactly (core/xsum.h),
   when something reads them (walls_settle): a ball's force is the same sum in the same order
   whatever the thread count, the order of the arrays or the MPI rank count (design.md, Scale). */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "contact/contact.h"
#include "contact/cracks.h"
#include "contact/energy.h"
#include "contact/events.h"
#include "contact/model_call.h"
#include "core/comm.h"
#include "core/xsum.h"
#include "cycle/cycle.h"
#include "cycle/forces.h"
#include "cycle/gather.h"
#include "detect/detect.h"
#include "measure/measure.h"

/* Effective mass of a contact (design.md): reduced mass; a wall or a ball whose translation is
   fixed counts as infinitely heavy; two such balls use their actual reduced mass. */
static inline double effective_mass(const cairn_world *w, int kind, uint32_t a, uint32_t b) {
  const ball_store *bs = &w->balls;
  if (kind == CAIRN_KIND_BALL_WALL) return bs->mass[b];
  double ma = bs->mass[a], mb = bs->mass[b];
  int fa = ball_translation_fixed(w, a), fb = ball_translation_fixed(w, b);
  if (fa != fb) return fa ? mb : ma;
  return ma * mb / (ma + mb);
}

/* Size the scratch for the current numbers of contacts and balls (grows only). */
static cairn_status scratch_reserve(cairn_world *w, cairn_diag *d) {
  force_scratch *fs = w->fs;
  size_t nc = w->contacts->n, nb = w->balls.n;
  if (nc > fs->cap_c) {
    size_t cap = mem_next_cap(fs->cap_c, nc);
    CAIRN_TRY(mem_resize_raw((void **)&fs->status, fs->cap_c, cap, sizeof *fs->status,
                             "forces:status", d));
    CAIRN_TRY(
        mem_resize_raw((void **)&fs->ctb, fs->cap_c, cap, sizeof *fs->ctb, "forces:records", d));
    CAIRN_TRY(mem_resize_raw((void **)&fs->turn_work, fs->cap_c, cap, sizeof *fs->turn_work,
                             "forces:records", d));
    fs->cap_c = cap;
  }
  if (nb > fs->cap_b) {
    size_t old = fs->cap_b, cap = mem_next_cap(old, nb);
    CAIRN_TRY(mem_resize((void **)&fs->ework, old, cap, sizeof *fs->ework, "forces:ework", d));
    fs->cap_b = cap;
  }
  size_t nw = 5 * w->walls.n;
  if (nw > fs->cap_wsum)
    CAIRN_TRY(mem_grow((void **)&fs->wsum, &fs->cap_wsum, nw, sizeof *fs->wsum, "forces:walls", d));
  return CAIRN_OK;
}

/* One entry's record added to a ball's sums: its side's share (entry e is contact e >> 1, side 1
   if e is odd: a record is side 2's share, then side 1's, so entry e is share e). */
static inline void add_entry(const force_scratch *fs, uint32_t e, double f[3], double m[3],
                             double *kt, double *kr) {
  const struct contact_share *t = (const struct contact_share *)(const void *)fs->ctb + e;
  v3_add(f, t->f, f);
  v3_add(m, t->m, m);
  *kt += t->kt;
  *kr += t->kr;
}

_Static_assert(sizeof(struct contact_contrib) == 2 * sizeof(struct contact_share) &&
                   offsetof(struct contact_contrib, side1) == sizeof(struct contact_share),
               "a record is two shares, side 2's first");

static inline void store_sums(ball_store *bs, size_t i, const double f[3], const double m[3],
                              double kt, double kr) {
  v3_copy(f, bs->force[i]);
  v3_copy(m, bs->moment[i]);
  bs->k_tran[i] = kt;
  bs->k_rot[i] = kr;
}

/* Ball i's sums from its contacts' records, in its partners' order (its list as built; a ball
   with contacts made since is summed again by extra_sums). */
static inline void ball_sums(cairn_world *w, size_t i) {
  const contact_links *l = &w->contacts->links;
  double f[3] = {0, 0, 0}, m[3] = {0, 0, 0}, kt = 0, kr = 0;
  for (uint32_t q = l->start[i]; q < l->start[i + 1]; q++)
    if (l->entry[q] != LINK_TOMB) add_entry(w->fs, l->entry[q], f, m, &kt, &kr);
  store_sums(&w->balls, i, f, m, kt, kr);
}

/* The balls with contacts made since the lists were built: their sums again, the list and the
   extras merged in partners' order. */
static void extra_sums(cairn_world *w) {
  const contact_links *l = &w->contacts->links;
  size_t own = balls_owned(w);
  for (size_t x = 0; x < l->n_extra;) {
    uint32_t i = l->extra[x].ball, q = l->start[i], end = l->start[i + 1];
    if (i >= own) { /* a ghost's: its own rank sums it */
      x++;
      continue;
    }
    double f[3] = {0, 0, 0}, m[3] = {0, 0, 0}, kt = 0, kr = 0;
    for (;;) {
      while (q < end && l->entry[q] == LINK_TOMB) q++;
      int more_x = x < l->n_extra && l->extra[x].ball == i;
      if (q == end && !more_x) break;
      if (q < end && (!more_x || links_key(w, l->entry[q]) < l->extra[x].key))
        add_entry(w->fs, l->entry[q++], f, m, &kt, &kr);
      else
        add_entry(w->fs, l->extra[x++].entry, f, m, &kt, &kr);
    }
    store_sums(&w->balls, i, f, m, kt, kr);
  }
}

/* The walls' exact sums (in any order the same, core/xsum.h) of the records in the runs of
   ball-wall contacts: accumulated here, made values by wall_values. */
static void wall_sums(cairn_world *w, size_t nw) {
  force_scratch *fs = w->fs;
  for (size_t k = 0; k < 5 * nw; k++) xsum_init(&fs->wsum[k]);
  for (size_t r = 0; r < fs->n_wruns; r++)
    for (uint32_t c = fs->wruns[r][0]; c < fs->wruns[r][1]; c++) {
      const struct contact_contrib *t = &fs->ctb[c];
      xsum *s = &fs->wsum[5 * t->wall.slot];
      for (int i = 0; i < 3; i++) xsum_add(&s[i], t->wall.f[i]);
      xsum_add(&s[3], t->wall.kn);
      xsum_add(&s[4], t->wall.fn);
    }
}

static void wall_values(cairn_world *w, size_t nw) {
  const xsum *s = w->fs->wsum;
  for (size_t k = 0; k < nw; k++, s += 5) {
    wall *wl = &w->walls.w[k];
    for (int i = 0; i < 3; i++) wl->force[i] = xsum_value(&s[i]);
    wl->k_normal = xsum_value(&s[3]);
    wl->fn_sum = xsum_value(&s[4]);
  }
}

/* The last pass's runs of ball-wall contacts, whose records hold the walls' sums. */
static cairn_status note_wall_runs(cairn_world *w, cairn_diag *d) {
  force_scratch *fs = w->fs;
  const contact_store *cs = w->contacts;
  fs->n_wruns = 0;
  fs->nw_pass = w->walls.n;
  if (!fs->nw_pass) return CAIRN_OK;
  CAIRN_TRY(mem_grow((void **)&fs->wruns, &fs->cap_wruns, cs->n_slices, sizeof *fs->wruns,
                     "forces:wall runs", d));
  for (size_t sl = 0; sl < cs->n_slices; sl++) {
    if (cs->kind[cs->slice[sl]] != CAIRN_KIND_BALL_WALL) continue;
    if (fs->n_wruns && fs->wruns[fs->n_wruns - 1][1] == cs->slice[sl])
      fs->wruns[fs->n_wruns - 1][1] = cs->slice[sl + 1];
    else
      fs->wruns[fs->n_wruns][0] = cs->slice[sl], fs->wruns[fs->n_wruns++][1] = cs->slice[sl + 1];
  }
  return CAIRN_OK;
}

/* The walls' sums of the last pass, when first read (walls_settle): the records of its ball-wall
   contacts are kept until the next pass, each naming its wall's slot (a wall removed since
   settled them first). */
static void settle_walls(cairn_world *w) {
  w->walls.pending = 0;
  wall_sums(w, w->fs->nw_pass);
  wall_values(w, w->fs->nw_pass);
}

cairn_status forces_totals(cairn_world *w, cairn_status s, cairn_diag *d) {
  force_scratch *fs = w->fs;
  size_t nw = w->walls.n;
  if (!w->par) { /* one process: the walls' sums wait until something reads them */
    CAIRN_TRY(s);
    w->walls.pending = nw > 0;
    w->walls.settle = settle_walls;
    return CAIRN_OK;
  }
  /* every rank's part (every rank calls this at once, with the same number of walls) */
  if (s == CAIRN_OK) {
    wall_sums(w, nw);
  } else { /* (the same layout as the others', with nothing in it) */
    cairn_diag spare;
    if (mem_grow((void **)&fs->wsum, &fs->cap_wsum, 5 * nw + 1, sizeof *fs->wsum, "forces:walls",
                 &spare) != CAIRN_OK)
      comm_abort(3);
    for (size_t k = 0; k < 5 * nw; k++) xsum_init(&fs->wsum[k]);
  }
  /* a stress-controlled periodic cell's sums travel in the same reduction (cell_control reads
     them), not in one of their own */
  int cell = w->cell.on && periodic_controlled(&w->cell);
  xsum cs[PERIODIC_SUMS];
  int64_t ncon = 0;
  if (cell) {
    periodic_stress_sums(w, 1, cs, &ncon);
    if (s != CAIRN_OK)
      for (int k = 0; k < PERIODIC_SUMS; k++) xsum_init(&cs[k]);
  }
  comm_fused f;
  comm_fused_init(&f);
  int kn = comm_fused_max(&f, w->kn_m_max);
  int nc = cell ? comm_fused_sum(&f, ncon) : 0;
  if (nw) comm_fused_xsums(&f, fs->wsum, (int)(5 * nw), &fs->win_walls);
  if (cell) comm_fused_xsums(&f, cs, PERIODIC_SUMS, &fs->win_cell);
  CAIRN_TRY(comm_fused_reduce(&f, s, d));
  w->kn_m_max = f.max[kn];
  wall_values(w, nw);
  if (cell) periodic_stress_value(w, cs, f.sum[nc], fs->cell_stress, fs->cell_stiff);
  fs->cell_ready = cell;
  return CAIRN_OK;
}

void force_scratch_free(force_scratch *fs) {
  mem_free(fs->wsum, 0);
  mem_free(fs->wruns, 0);
  mem_free(fs->ctb, 0);
  mem_free(fs->turn_work, 0);
  mem_free(fs->tsum, 0);
  mem_free(fs->status, 0);
  mem_free(fs->ework, 0);
  mem_free(fs->busy, 0);
  mem_free(fs->probe, 0);
  memset(fs, 0, sizeof *fs);
}

/* The slices of the current contacts (rebuilt only after contacts come, go or change). */
static cairn_status make_slices(contact_store *cs, cairn_diag *d) {
  if (cs->slices_ok && cs->slices_redo == SIZE_MAX) return CAIRN_OK;
  /* all of them, or those from slices_redo on (the ones before are as this would cut them) */
  size_t n = cs->n, k = cs->slices_ok ? cs->slices_redo : 0, c0 = k ? cs->slice[k] : 0;
  CAIRN_TRY(
      mem_grow((void **)&cs->slice, &cs->cap_slice, n + 2, sizeof *cs->slice, "contact:slices", d));
  for (size_t c = c0; c < n;) {
    cs->slice[k++] = (uint32_t)c;
    size_t end = c + 1;
    while (end < n && end - c < SLICE && cs->model[end] == cs->model[c] &&
           cs->pblk[end] == cs->pblk[c] && cs->kind[end] == cs->kind[c])
      end++;
    c = end;
  }
  cs->slice[k] = (uint32_t)n;
  cs->n_slices = k;
  cs->slices_ok = 1;
  cs->slices_redo = SIZE_MAX;
  return CAIRN_OK;
}

/* An engine bit beside the model's CAIRN_CM_ST_* in the status byte: the contact parted. */
#define ST_PARTING 128u

/* run_slice's result: bit 0, a contact of the slice has an event or parted; this bit, a state of
   the slice is not finite (at this step's check of the states). */
#define SLICE_NONFINITE 2

/* A slice's model states are checked for non-finite values in one step of this many (a power of
   2); its forces and moments when the motion finds a ball gone wild (forces_nonfinite). */
#define STATE_CHECK_EVERY 16

#if defined(__GNUC__)
#define GATHER_INLINE inline __attribute__((always_inline))
#else
#define GATHER_INLINE inline
#endif
/* Stage 1 for ball-ball contacts: side 1 is ball a, side 2 ball b; the contact point lies on the
   normal, r1 + gap/2 from a's centre and r2 + gap/2 from b's (the middle of the overlap). In a
   periodic cell side 2 is the nearest image of ball b, which moves with b's velocity plus the
   cell's deformation over the image's offset, L shift. 'periodic' is a constant in each of the
   two functions below, so the one without a cell is compiled without images. */
static GATHER_INLINE void gather_bb(cairn_world *w, size_t c0, size_t n, slice_buf *restrict s,
                                    int periodic) {
  const ball_store *bs = &w->balls;
  contact_store *cs = w->contacts;
  const model_entry *e = &w->reg->e[cs->model[c0]];
  /* restrict locals: the stores below cannot change the balls (the compiler cannot know) */
  const double(*restrict pos)[3] = (const double(*)[3])bs->pos;
  const double(*restrict vel)[3] = (const double(*)[3])bs->vel;
  const double(*restrict spin)[3] = (const double(*)[3])bs->spin;
  const double *restrict rad = bs->rad;
  double *restrict cgap = cs->gap, (*restrict cnorm)[3] = cs->normal;
  const uint32_t *restrict ca = cs->a, *restrict cb = cs->b, *restrict blk = cs->blk;
  const int no_fixed = w->fs->no_fixed;
  /* four at a time where the kernel applies, the rest (and any group it stops before) here */
  size_t done = !periodic && no_fixed && w->simd_avx2 ? gather_bb_avx2(bs, ca, cb, c0, n, s) : 0;
  for (size_t k = done; k < n; k++) {
    size_t c = c0 + k;
    uint32_t a = ca[c], b = cb[c];
    double gap, nn[3], pt[3]; /* (pt unused: the arms below give the contact point) */
    const double *pb = pos[b], *vb = vel[b];
    double img[3], vimg[3];
    if (periodic) {
      const periodic_cell *pc = &w->cell;
      double sep[3], sh[3];
      v3_sub(pos[b], pos[a], sep);
      periodic_shift(pc, sep, sh);
      v3_add(pos[b], sh, img);
      pb = img;
      if (pc->flow) {
        periodic_flow(pc, sh, vimg);
        v3_add(vel[b], vimg, vimg);
        vb = vimg;
      }
    }
    if (!geom_ball_ball(pos[a], rad[a], pb, rad[b], &gap, nn, pt)) {
      /* No normal this step (coincident centres): the contact keeps its last geometry. */
      gap = cgap[c];
      nn[0] = cnorm[c][0], nn[1] = cnorm[c][1], nn[2] = cnorm[c][2];
    }
    double ra = rad[a], rb = rad[b], a1 = ra + 0.5 * gap, a2 = rb + 0.5 * gap;
    /* velocity of each ball's material point at the contact point: v + w x (arm n) */
    const double *va = vel[a], *wa = spin[a], *wb = spin[b];
    double o[3] = {a2 * wb[0] + a1 * wa[0], a2 * wb[1] + a1 * wa[1], a2 * wb[2] + a1 * wa[2]};
    /* (v_b - a2 w_b x n) - (v_a + a1 w_a x n) = v_b - v_a - (a2 w_b + a1 w_a) x n */
    s->vx[k] = vb[0] - va[0] - (o[1] * nn[2] - o[2] * nn[1]);
    s->vy[k] = vb[1] - va[1] - (o[2] * nn[0] - o[0] * nn[2]);
    s->vz[k] = vb[2] - va[2] - (o[0] * nn[1] - o[1] * nn[0]);
    s->wx[k] = wb[0] - wa[0], s->wy[k] = wb[1] - wa[1], s->wz[k] = wb[2] - wa[2];
    s->gap[k] = gap, s->nx[k] = nn[0], s->ny[k] = nn[1], s->nz[k] = nn[2];
    s->m_eff[k] = no_fixed ? bs->mass[a] * bs->mass[b] / (bs->mass[a] + bs->mass[b])
                           : effective_mass(w, CAIRN_KIND_BALL_BALL, a, b);
    s->r1[k] = ra, s->r2[k] = rb;
    s->arm1[k] = a1, s->arm2[k] = a2;
  }
  /* the geometry kept in the contacts, for scripts and outputs */
  for (size_t k = 0; k < n; k++) {
    size_t c = c0 + k;
    double gap = s->gap[k];
    cgap[c] = gap;
    cnorm[c][0] = s->nx[k], cnorm[c][1] = s->ny[k], cnorm[c][2] = s->nz[k];
    s->parting[k] = gap > cs->prox[c] && cs->deletable[c];
    s->first[k] = cs->first[c];
    s->state[k] = pool_state(e, blk[c]);
  }
}

static void gather_ball_ball(cairn_world *w, size_t c0, size_t n, slice_buf *restrict s) {
  gather_bb(w, c0, n, s, 0);
}
static void gather_ball_ball_cell(cairn_world *w, size_t c0, size_t n, slice_buf *restrict s) {
  gather_bb(w, c0, n, s, 1);
}

/* Stage 1 for ball-wall contacts: side 1 is the wall (moving and turning as it did over the
   last step, dt), side 2 the ball. */
static void gather_ball_wall(cairn_world *w, size_t c0, size_t n, double dt, slice_buf *s) {
  const ball_store *bs = &w->balls;
  contact_store *cs = w->contacts;
  const model_entry *e = &w->reg->e[cs->model[c0]];
  for (size_t k = 0; k < n; k++) {
    size_t c = c0 + k;
    uint32_t b = cs->b[c];
    const wall *wl = &w->walls.w[cs->a[c]];
    double gap, nn[3], pt[3], r[3];
    if (geom_ball_wall(wl, b, cs->sub[c], bs->pos[b], bs->rad[b], &gap, nn, pt)) {
      cs->gap[c] = gap;
      v3_copy(nn, cs->normal[c]);
    } else { /* the centre on the wall: the last geometry */
      gap = cs->gap[c];
      v3_copy(cs->normal[c], nn);
      v3_scale(nn, -(bs->rad[b] + 0.5 * gap), r);
      v3_add(bs->pos[b], r, pt);
    }
    v3_sub(pt, bs->pos[b], r);
    /* The wall's velocity is its motion over the last step, as the ball's velocity is its own
       (both live at the middle of the last step): the contact's increment is then the relative
       motion since the last force pass, and the wall's work (booked from the middle of the last
       step to the middle of this one) balances the energy it puts into the contact to second
       order. Its velocity for the coming step shows in the next pass. */
    const double *vb = bs->vel[b], *wb = bs->spin[b];
    double inv = dt > 0 ? 1.0 / dt : 0.0, vw[3];
    v3_scale(wl->last_dx, inv, vw);
    if (wall_turned_last(wl)) {
      /* a turning wall's point at the contact: vel + spin x (pt - centre) */
      double arm[3], t[3], spin[3];
      v3_scale(wl->last_dtheta, inv, spin);
      v3_sub(pt, wl->centre, arm);
      v3_cross(spin, arm, t);
      v3_add(vw, t, vw);
      if (w->energy->on && c < w->fs->cap_c) { /* (its last force still: turning_work) */
        v3_cross(wl->last_dtheta, arm, t);
        w->fs->turn_work[c] = 0.5 * v3_dot(cs->force[c], t);
      }
    }
    if (wl->last_dr != 0) /* a cylinder growing: its surface moves out, along -n */
      for (int q = 0; q < 3; q++) vw[q] -= wl->last_dr * inv * nn[q];
    s->vx[k] = vb[0] + (wb[1] * r[2] - wb[2] * r[1]) - vw[0];
    s->vy[k] = vb[1] + (wb[2] * r[0] - wb[0] * r[2]) - vw[1];
    s->vz[k] = vb[2] + (wb[0] * r[1] - wb[1] * r[0]) - vw[2];
    s->wx[k] = wb[0], s->wy[k] = wb[1], s->wz[k] = wb[2];
    s->gap[k] = gap, s->nx[k] = nn[0], s->ny[k] = nn[1], s->nz[k] = nn[2];
    s->m_eff[k] = bs->mass[b];
    s->parting[k] = gap > cs->prox[c] && cs->deletable[c];
    s->r1[k] = 0, s->r2[k] = bs->rad[b];
    v3_copy(pt, s->pt[k]);
    s->first[k] = cs->first[c];
    s->state[k] = pool_state(e, cs->blk[c]);
  }
}

/* What run_slice does with the contacts' contributions. */
enum { TO_RECORDS, FAREWELL };

/* Stages 1 and 2 of a slice: its contacts gathered into sb, and the model called on them.
   Returns whether the model writes moments (sb's mx, my, mz). */
static GATHER_INLINE int gather_and_run_model(cairn_world *w, size_t c0, size_t n, double dt,
                                              const model_entry *e, slice_buf *sb) {
  contact_store *cs = w->contacts;
  const cairn_contact_model *m = e->m;
  int kind = cs->kind[c0], dim = w->dim;
  if (kind == CAIRN_KIND_BALL_BALL && w->cell.on)
    gather_ball_ball_cell(w, c0, n, sb);
  else if (kind == CAIRN_KIND_BALL_BALL)
    gather_ball_ball(w, c0, n, sb);
  else
    gather_ball_wall(w, c0, n, dt, sb);
  unsigned needs = m->needs;
  int moments = (needs & CAIRN_CM_WRITES_MOMENT) != 0;
  cairn_cm_slice s = {
      .n = n,
      .dim = dim,
      .kind = kind,
      .energy = w->energy->on,
      .dt = dt,
      .props = pool_props(e, cs->pblk[c0]),
      .derived = pool_derived(e, cs->pblk[c0]),
      .state = sb->state,
      .first = sb->first,
      .gap = sb->gap,
      .nx = sb->nx,
      .ny = sb->ny,
      .nz = sb->nz,
      .vx = sb->vx,
      .vy = sb->vy,
      .vz = sb->vz,
      .wx = needs & CAIRN_CM_USES_ANGVEL ? sb->wx : NULL,
      .wy = needs & CAIRN_CM_USES_ANGVEL ? sb->wy : NULL,
      .wz = needs & CAIRN_CM_USES_ANGVEL ? sb->wz : NULL,
      .m_eff = sb->m_eff,
      .r1 = needs & CAIRN_CM_USES_RADII ? sb->r1 : NULL,
      .r2 = needs & CAIRN_CM_USES_RADII ? sb->r2 : NULL,
      .fx = sb->fx,
      .fy = sb->fy,
      .fz = sb->fz,
      .mx = moments ? sb->mx : NULL,
      .my = moments ? sb->my : NULL,
      .mz = moments ? sb->mz : NULL,
      .kn = sb->kn,
      .ks = sb->ks,
      .kr = sb->kr,
      .status = sb->status,
  };
  model_call_force(e, &s);
  return moments;
}

/* The engine's status bits of contacts c0 + k, k in [0, n), from the model's (sb->status) and
   the partings; returns 1 if one raised an event or parted. Byte operations without branches,
   which the compiler vectorises. */
static GATHER_INLINE int store_statuses(contact_store *cs, force_scratch *fs, size_t c0, size_t n,
                                        const slice_buf *sb) {
  uint8_t *restrict active = cs->active + c0, *restrict deletable = cs->deletable + c0;
  uint8_t *restrict first = cs->first + c0, *restrict status = fs->status + c0;
  unsigned events = 0;
  const unsigned char *restrict parting = sb->parting, *restrict model_st = sb->status;
  for (size_t k = 0; k < n; k++) {
    unsigned gone = parting[k], was = active[k], ms = model_st[k]; /* (plain loads: no branch) */
    unsigned all = 0u - gone;                                      /* (all bits when parted) */
    unsigned st = (ms & ~all) | (ST_PARTING & all);
    /* "activated" raised by the engine on a change to active, and cleared while not active (bit
       arithmetic, each flag a power of two, so the loop has no branch) */
    unsigned on = (st & CAIRN_CM_ST_ACTIVE) / CAIRN_CM_ST_ACTIVE;
    unsigned act = on & ((st & CAIRN_CM_ST_EV_ACT) / CAIRN_CM_ST_EV_ACT | (was ^ 1u));
    st = (st & ~(unsigned)CAIRN_CM_ST_EV_ACT) | act * CAIRN_CM_ST_EV_ACT;
    active[k] = (uint8_t)on;
    deletable[k] = (uint8_t)(((st & CAIRN_CM_ST_KEEP) / CAIRN_CM_ST_KEEP) ^ 1u);
    first[k] = 0;
    status[k] = (uint8_t)st;
    events |= st & (CAIRN_CM_ST_EV_ACT | CAIRN_CM_ST_EV_SLIP | CAIRN_CM_ST_EV_BOND | ST_PARTING);
  }
  return events != 0;
}

/* The records of ball-ball contacts k0 .. n - 1 of a slice, and their forces, from the slice's
   columns, contact by contact (vectorised across contacts, the loop's interleaved stores cost
   more than they save; each record's pairs are stored two at a time). */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-loop-vectorize")))
#endif
static void
bb_records(struct contact_contrib *restrict rec, double (*restrict cforce)[3], size_t k0, size_t n,
           const slice_buf *restrict sb) {
  const double *restrict fx = sb->fx, *restrict fy = sb->fy, *restrict fz = sb->fz;
  const double(*restrict m1)[SLICE] = sb->m1, (*restrict m2)[SLICE] = sb->m2;
  const double *restrict kt = sb->kt, *restrict kr1 = sb->kr1, *restrict kr2 = sb->kr2;
  for (size_t k = k0; k < n; k++) {
    cforce[k][0] = fx[k], cforce[k][1] = fy[k], cforce[k][2] = fz[k];
    struct contact_share *s2 = &rec[k].side2, *s1 = &rec[k].side1;
    s2->f[0] = fx[k], s2->f[1] = fy[k], s2->f[2] = fz[k];
    s2->m[0] = m2[0][k], s2->m[1] = m2[1][k], s2->m[2] = m2[2][k];
    s2->kt = kt[k], s2->kr = kr2[k];
    s1->f[0] = -fx[k], s1->f[1] = -fy[k], s1->f[2] = -fz[k];
    s1->m[0] = m1[0][k], s1->m[1] = m1[1][k], s1->m[2] = m1[2][k];
    s1->kt = kt[k], s1->kr = kr1[k];
  }
}

/* Stage 3 of a slice of ball-ball contacts (as store_slice_bw for ball-wall ones): first, over the
   slice's arrays and without branches (which the compiler vectorises), each contact's force (none
   if it parted), the moments on its two balls, its stiffness estimates (four at a time with AVX2
   in 3D, shares_avx2.c, the rest here, with the same operations in the same order, so the same
   bits); then each record, the contact's force and moment, and the statuses. */
static GATHER_INLINE int store_slice_bb(cairn_world *w, size_t c0, size_t n, int moments,
                                        slice_buf *restrict sb) {
  contact_store *cs = w->contacts;
  force_scratch *fs = w->fs;
  const int two = w->dim == 2;
  double *restrict fx = sb->fx, *restrict fy = sb->fy, *restrict fz = sb->fz;
  double *restrict mx = sb->mx, *restrict my = sb->my, *restrict mz = sb->mz;
  double *restrict kn = sb->kn, *restrict ks = sb->ks, *restrict kr = sb->kr;
  const double *restrict nx = sb->nx, *restrict ny = sb->ny, *restrict nz = sb->nz;
  const double *restrict arm1 = sb->arm1, *restrict arm2 = sb->arm2;
  const unsigned char *restrict parting = sb->parting;
  double *restrict m1x = sb->m1[0], *restrict m1y = sb->m1[1], *restrict m1z = sb->m1[2];
  double *restrict m2x = sb->m2[0], *restrict m2y = sb->m2[1], *restrict m2z = sb->m2[2];
  double *restrict kt = sb->kt, *restrict kr1 = sb->kr1, *restrict kr2 = sb->kr2;
  /* a parted contact has no force, moment or stiffness (the model had its last word, for its
     energy books); a model that writes no moments, none; in 2D, no force out of the plane and
     no moment in it */
  static const double none[SLICE]; /* (the moments of a model that writes none) */
  const double *ox = moments ? mx : none, *oy = moments ? my : none, *oz = moments ? mz : none;
  for (size_t k = 0; k < n; k++)
    if (parting[k]) fx[k] = fy[k] = fz[k] = kn[k] = ks[k] = kr[k] = 0;
  if (moments)
    for (size_t k = 0; k < n; k++)
      if (parting[k] | two) mx[k] = my[k] = 0, mz[k] = parting[k] ? 0 : mz[k];
  if (two)
    for (size_t k = 0; k < n; k++) fz[k] = 0;
  /* four at a time with AVX2 in 3D, the rest here */
  size_t done = !two && w->simd_avx2 ? shares_bb_avx2((double *)(void *)(fs->ctb + c0),
                                                      cs->force + c0, n, sb, ox, oy, oz)
                                     : 0;
  for (size_t k = done; k < n; k++) {
    /* the arms are -a2 n (side 2) and +a1 n (side 1): r x f = -a2 (n x f), and side 1 gets
       (a1 n) x (-f) = -a1 (n x f) */
    double nf0 = ny[k] * fz[k] - nz[k] * fy[k], nf1 = nz[k] * fx[k] - nx[k] * fz[k],
           nf2 = nx[k] * fy[k] - ny[k] * fx[k];
    double a1 = arm1[k], a2 = arm2[k];
    m2x[k] = ox[k] - a2 * nf0, m2y[k] = oy[k] - a2 * nf1, m2z[k] = oz[k] - a2 * nf2;
    m1x[k] = -ox[k] - a1 * nf0, m1y[k] = -oy[k] - a1 * nf1, m1z[k] = -oz[k] - a1 * nf2;
    kt[k] = kn[k] + ks[k];
    kr2[k] = kr[k] + ks[k] * a2 * a2;
    kr1[k] = kr[k] + ks[k] * a1 * a1;
  }
  if (two)
    for (size_t k = 0; k < n; k++) m1x[k] = m1y[k] = m2x[k] = m2y[k] = 0;
  bb_records(fs->ctb + c0, cs->force + c0, done, n, sb);
  double(*restrict cmom)[3] = cs->moment + c0;
  if (moments)
    for (size_t k = 0; k < n; k++) cmom[k][0] = mx[k], cmom[k][1] = my[k], cmom[k][2] = mz[k];
  return store_statuses(cs, fs, c0, n, sb);
}

/* Stage 3 of a slice of ball-wall contacts: each contact's force, moment, record and status
   stored; returns 1 if one raised an event or parted. (A force or moment that is not finite is
   found after the motion's runaway test fires: forces_nonfinite.) */
static GATHER_INLINE int store_slice_bw(cairn_world *w, size_t c0, size_t n, int moments,
                                        slice_buf *sb) {
  contact_store *cs = w->contacts;
  force_scratch *fs = w->fs;
  const int two = w->dim == 2;
  const ball_store *bs = &w->balls;
  for (size_t k = 0; k < n; k++) {
    size_t c = c0 + k;
    struct contact_contrib *rec = &fs->ctb[c];
    double f[3] = {sb->fx[k], sb->fy[k], sb->fz[k]}, mo[3] = {0, 0, 0};
    if (moments) mo[0] = sb->mx[k], mo[1] = sb->my[k], mo[2] = sb->mz[k];
    if (two) f[2] = 0, mo[0] = mo[1] = 0;
    if (sb->parting[k]) { /* the model had its last word (its energy books); no force */
      f[0] = f[1] = f[2] = mo[0] = mo[1] = mo[2] = 0;
      sb->kn[k] = sb->ks[k] = sb->kr[k] = 0;
    }
    v3_copy(f, cs->force[c]);
    if (moments) v3_copy(mo, cs->moment[c]);
    double ks = sb->ks[k], kr = sb->kr[k], r[3], rxf[3];
    v3_copy(f, rec->side2.f);
    rec->side2.kt = sb->kn[k] + ks;
    v3_sub(sb->pt[k], bs->pos[cs->b[c]], r);
    v3_cross(r, f, rxf);
    v3_add(rxf, mo, rec->side2.m);
    rec->side2.kr = kr + ks * v3_dot(r, r);
    if (two) rec->side2.m[0] = rec->side2.m[1] = 0;
    for (int i = 0; i < 3; i++) rec->wall.f[i] = -f[i];
    rec->wall.kn = sb->kn[k]; /* the wall's servo sums it, and the normal force */
    rec->wall.fn = f[0] * sb->nx[k] + f[1] * sb->ny[k] + f[2] * sb->nz[k];
    rec->wall.slot = cs->a[c];
  }
  return store_statuses(cs, fs, c0, n, sb);
}

/* One slice: gather, model, and each contact's record: stored for the sums (TO_RECORDS), or
   dropped (FAREWELL: a contact's last call before deletion, for its energy books). dt is the step
   that brought the balls here. With the automatic timestep's impact bound, *kn_m is raised to the
   slice's largest kn / m_eff. Returns 1 if a contact of the slice raised an event or parted (the
   serial pass after the force pass looks only at such slices), with SLICE_NONFINITE added if a
   state is not finite at this step's check of the states. */
static int run_slice(cairn_world *w, size_t c0, size_t n, double dt, int mode, double *kn_m) {
  const model_entry *e = &w->reg->e[w->contacts->model[c0]];
  slice_buf sb;
  int moments = gather_and_run_model(w, c0, n, dt, e, &sb);
  if (mode == FAREWELL) return 0;
  if (w->ts_mode == TS_AUTO && w->dt_impact > 0) /* the stiffest contact for its mass, for the
                                                    steps-per-impact bound */
    for (size_t k = 0; k < n; k++)
      if (!sb.parting[k] && sb.kn[k] > *kn_m * sb.m_eff[k]) *kn_m = sb.kn[k] / sb.m_eff[k];
  int busy = w->contacts->kind[c0] == CAIRN_KIND_BALL_BALL ? store_slice_bb(w, c0, n, moments, &sb)
                                                           : store_slice_bw(w, c0, n, moments, &sb);
  /* x - x over the states: 0, or NaN if one of them is not finite; in four sums, so that the
     adds do not wait on each other (a model with a long state, as the flat joint's, spent a
     tenth of its run in one chain of adds) */
  double fin[4] = {0, 0, 0, 0};
  /* The states: each slice's in one step of every STATE_CHECK_EVERY (by its place in the
     store), so a state field that turned non-finite is found within that many steps at a
     sixteenth of the cost. */
  if ((((size_t)w->step + c0 / SLICE) & (STATE_CHECK_EVERY - 1)) == 0)
    for (size_t k = 0, ns = (size_t)e->n_state_slots; k < n; k++) {
      const double *st = sb.state[k];
      if (sb.parting[k]) continue;
      size_t j = 0;
      for (; j + 4 <= ns; j += 4)
        for (int l = 0; l < 4; l++) fin[l] += st[j + l] - st[j + l];
      for (; j < ns; j++) fin[0] += st[j] - st[j];
    }
  double finite = (fin[0] + fin[1]) + (fin[2] + fin[3]);
  return busy | (isfinite(finite) ? 0 : SLICE_NONFINITE);
}

/* A number for a message: NaN in words ("NaN"), not as the C library prints it ("-nan"). */
static const char *num_text(double x, char buf[32]) {
  if (isnan(x)) return "NaN";
  snprintf(buf, 32, "%g", x);
  return buf;
}

/* The inputs a model does not declare in 'needs', which it gets as NaN (contact_model.h), in
   words for the message on a NaN it returned; a bare ";" when it declares them all. */
static const char *undeclared_hint(unsigned needs) {
  int radii = !(needs & CAIRN_CM_USES_RADII), angvel = !(needs & CAIRN_CM_USES_ANGVEL);
  if (radii && angvel)
    return "; it declares neither CAIRN_CM_USES_RADII nor CAIRN_CM_USES_ANGVEL, so r_eff, r1, r2 "
           "and angvel_xyz are NaN in its input: if it reads them, add those it reads to its "
           "'needs'; else";
  if (radii)
    return "; it does not declare CAIRN_CM_USES_RADII, so r_eff, r1 and r2 are NaN in its input: "
           "if it reads them, add CAIRN_CM_USES_RADII to its 'needs'; else";
  if (angvel)
    return "; it does not declare CAIRN_CM_USES_ANGVEL, so angvel_xyz is NaN in its input: if it "
           "reads it, add CAIRN_CM_USES_ANGVEL to its 'needs'; else";
  return ";";
}

/* The first of contacts c0 .. c1 - 1 whose force or moment (or, with 'states', state) is not
   finite: stop the run naming it, its model, what was not finite and the step, and, where that
   is NaN, the inputs the model gets as NaN because it does not declare them. Out of line (an
   error path): inlined, it changed the code of the loops around it. */
#if defined(__GNUC__)
#define ERROR_PATH __attribute__((cold, noinline))
#else
#define ERROR_PATH
#endif
static ERROR_PATH cairn_status nonfinite_in(cairn_world *w, size_t c0, size_t c1, int states,
                                            cairn_diag *d) {
  const contact_store *cs = w->contacts;
  for (size_t c = c0; c < c1; c++) {
    const model_entry *e = &w->reg->e[cs->model[c]];
    const double *f = cs->force[c], *st = pool_state(e, cs->blk[c]);
    const double *m = (e->m->needs & CAIRN_CM_WRITES_MOMENT) ? cs->moment[c] : NULL;
    char what[96], value[160], b0[32], b1[32], b2[32];
    int row = -1, nan = 0;
    const double *bad = !isfinite(f[0] + f[1] + f[2])        ? f
                        : m && !isfinite(m[0] + m[1] + m[2]) ? m
                                                             : NULL;
    if (bad) {
      snprintf(value, sizeof value, "%s (%s, %s, %s)", bad == f ? "force" : "moment",
               num_text(bad[0], b0), num_text(bad[1], b1), num_text(bad[2], b2));
      nan = isnan(bad[0]) || isnan(bad[1]) || isnan(bad[2]);
    } else if (states)
      for (int r = 0; r < (int)e->m->n_state && row < 0; r++)
        for (int j = 0; j < cairn_state_slots(&e->m->state[r]); j++)
          if (!isfinite(st[e->state_off[r] + j])) row = r, nan |= isnan(st[e->state_off[r] + j]);
    if (row >= 0)
      snprintf(value, sizeof value, "value in its state field '%s'", e->m->state[row].name);
    else if (!bad)
      continue;
    contact_describe(w, (uint32_t)c, what, sizeof what);
    /* a NaN may come from an input the model reads without declaring it */
    const char *hint = nan ? undeclared_hint(e->m->needs) : ";";
    if (row >= 0) /* found at a check of the states, which come round every 16 steps */
      return diag_set(d, CAIRN_ESTATE,
                      "%s: contact model '%s' (%s) returned a non-finite %s, found at step %llu "
                      "(the states are checked every %d steps)%s check its properties "
                      "(contact.props) and the model's law",
                      what, e->m->name, e->source, value, (unsigned long long)w->step,
                      STATE_CHECK_EVERY, hint);
    return diag_set(d, CAIRN_ESTATE,
                    "%s: contact model '%s' (%s) returned a non-finite %s at step %llu%s check "
                    "its properties (contact.props) and the model's law",
                    what, e->m->name, e->source, value, (unsigned long long)w->step, hint);
  }
  return CAIRN_OK;
}

/* The first contact of the slices flagged SLICE_NONFINITE (at this step's check of the states)
   whose force, moment or state is not finite. */
static ERROR_PATH cairn_status nonfinite_contact(cairn_world *w, const uint8_t *busy,
                                                 cairn_diag *d) {
  const contact_store *cs = w->contacts;
  for (size_t s = 0; s < cs->n_slices; s++)
    if (busy[s] & SLICE_NONFINITE) CAIRN_TRY(nonfinite_in(w, cs->slice[s], cs->slice[s + 1], 1, d));
  return CAIRN_OK;
}

cairn_status forces_nonfinite(cairn_world *w, cairn_diag *d) {
  return nonfinite_in(w, 0, w->contacts->n, 0, d);
}

/* Record the bond of contact c as broken: one crack at its contact point, its mode from the
   contact's normal force after the break (none or tensile: a tensile crack; compressive: shear);
   or, for a model that counts the pieces of its bond broken in this call
   (CAIRN_STATE_BROKE_TENSION, _SHEAR), a crack for each piece with its mode. */
static void record_crack(cairn_world *w, uint32_t c) {
  crack_set *cr = w->cracks;
  const contact_store *cs = w->contacts;
  if (!rank_books_contact(w, cs->kind[c], cs->a[c], cs->b[c])) return;
  crack k;
  memset(&k, 0, sizeof k);
  k.step = w->step, k.time = w->time, k.kind = cs->kind[c];
  contact_point(w, c, k.pos);
  const ball_store *bs = &w->balls;
  if (cs->kind[c] == CAIRN_KIND_BALL_BALL) {
    int64_t i1 = bs->id[cs->a[c]], i2 = bs->id[cs->b[c]];
    k.id1 = i1 < i2 ? i1 : i2, k.id2 = i1 < i2 ? i2 : i1;
  } else {
    k.id1 = bs->id[cs->b[c]], k.id2 = w->walls.w[cs->a[c]].id;
  }
  const model_entry *e = &w->reg->e[cs->model[c]];
  double pieces[2] = {0, 0}; /* in tension, in shear */
  if (e->broke_off[0] >= 0 || e->broke_off[1] >= 0) {
    const double *st = pool_state(e, cs->blk[c]);
    for (int m = 0; m < 2; m++)
      if (e->broke_off[m] >= 0 && st[e->broke_off[m]] > 0) pieces[m] = st[e->broke_off[m]];
  } else {
    pieces[v3_dot(cs->force[c], cs->normal[c]) <= 0 ? 0 : 1] = 1;
  }
  for (int m = 0; m < 2; m++)
    for (double j = 0; j < pieces[m]; j++) {
      if (cr->n == cr->cap &&
          mem_grow((void **)&cr->c, &cr->cap, cr->n + 1, sizeof *cr->c, "cracks", NULL) != CAIRN_OK)
        return; /* out of memory: the crack goes unrecorded rather than stopping the run */
      k.tension = m == 0;
      cr->c[cr->n++] = k;
    }
}

/* Events of the step, in contact order; then the contacts that parted are deleted (backwards:
   deletion fills the hole from later places, all looked at). */
static void events_and_partings(cairn_world *w, const uint8_t *busy) {
  contact_store *cs = w->contacts;
  const uint8_t *status = w->fs->status;
  size_t cracks0 = w->cracks->n;
  for (size_t s = 0; s < cs->n_slices; s++) {
    if (!busy[s]) continue;
    for (size_t c = cs->slice[s]; c < cs->slice[s + 1]; c++) {
      unsigned st = status[c];
      if (st & CAIRN_CM_ST_EV_ACT) world_event(w, EV_CONTACT_ACTIVATED, (uint32_t)c, 0);
      if (st & CAIRN_CM_ST_EV_SLIP)
        world_event(w, EV_SLIP_CHANGE, (uint32_t)c, (st & CAIRN_CM_ST_SLIP_END) ? 1 : 0);
      if (st & CAIRN_CM_ST_EV_BOND) {
        world_event(w, EV_BOND_BREAK, (uint32_t)c, (st & CAIRN_CM_ST_BOND_1) ? 1 : 0);
        if (!(st & CAIRN_CM_ST_BOND_1)) record_crack(w, (uint32_t)c);
      }
    }
  }
  /* the step's cracks in the order of their ids, not of the contacts in the store */
  if (w->cracks->n > cracks0 + 1)
    qsort(w->cracks->c + cracks0, w->cracks->n - cracks0, sizeof *w->cracks->c, crack_order);
  for (size_t s = cs->n_slices; s-- > 0;) {
    if (!busy[s]) continue;
    for (size_t c = cs->slice[s + 1]; c-- > cs->slice[s];) {
      if (c >= cs->n || !(status[c] & ST_PARTING)) continue;
      contact_delete(w, (uint32_t)c); /* (its pair's entry cleared: contact_forget) */
    }
  }
}

/* Whether contact c's surfaces have parted beyond its proximity at the current positions. Most
   contacts are clearly closer than that, which a squared distance shows without a root. */
static GATHER_INLINE int parted(const cairn_world *w, size_t c, int periodic) {
  const contact_store *cs = w->contacts;
  const ball_store *bs = &w->balls;
  uint32_t a = cs->a[c], b = cs->b[c];
  if (cs->kind[c] == CAIRN_KIND_BALL_BALL) {
    double e[3], lim = bs->rad[a] + bs->rad[b] + cs->prox[c], img[3];
    v3_sub(periodic ? detect_image(w, a, b, img) : bs->pos[b], bs->pos[a], e);
    if (v3_dot(e, e) < lim * lim * (1.0 - 1e-9)) return 0;
  }
  double gap, n[3], pt[3];
  return detect_pair_geometry(w, cs->kind[c], a, b, cs->sub[c], &gap, n, pt) && gap > cs->prox[c];
}

/* Whether a ball (ghosts too) has a fixed velocity component, for the gathers that follow: if
   none, the effective mass is the reduced mass without looking at fixity (the value
   effective_mass gives). A byte per ball, every pass: no upkeep to forget in the many ways a
   ball's fixity changes (scripts, restore, ghosts, deletion). */
static void note_fixity(cairn_world *w) {
  const uint8_t *fix = w->balls.fix;
  size_t n = w->balls.n, i = 0;
  uint64_t fixed = 0, word; /* eight balls at a time */
  for (; i + 8 <= n; i += 8) memcpy(&word, fix + i, 8), fixed |= word;
  for (; i < n; i++) fixed |= fix[i];
  w->fs->no_fixed = !(fixed & (FIX_VEL * UINT64_C(0x0101010101010101)));
}

cairn_status forces_part(cairn_world *w, double dt) {
  contact_store *cs = w->contacts;
  const int periodic = w->cell.on;
  if (w->energy->on) note_fixity(w);
  for (size_t c = cs->n; c-- > 0;) { /* backwards: deletion fills c from later places */
    if (!cs->deletable[c] || !(periodic ? parted(w, c, 1) : parted(w, c, 0))) continue;
    /* While energy is tracked, the model sees the contact open once more, so it can book the
       last step's work (its force is not applied: the contact is gone). */
    if (w->energy->on) run_slice(w, c, 1, dt, FAREWELL, NULL);
    contact_delete(w, (uint32_t)c); /* (its pair's entry cleared: contact_forget) */
  }
  return CAIRN_OK;
}

cairn_status forces_probe(cairn_world *w, uint32_t q, double *kt, double kr[2], double *kn_m,
                          cairn_diag *d) {
  const pair_list *p = w->pairs;
  const ball_store *bs = &w->balls;
  int k = p->kind[q];
  uint32_t a = p->a[q], b = p->b[q];
  *kt = kr[0] = kr[1] = *kn_m = 0;
  double gap, nn[3], pt[3], v[3];
  if (!detect_pair_geometry(w, k, a, b, p->sub[q], &gap, nn, pt)) return CAIRN_OK;
  cmat_entry *ce = cmat_lookup(w, k, a, b);
  if (ce->model < 0) return CAIRN_OK;
  model_entry *e = &w->reg->e[ce->model];
  force_scratch *fs = w->fs;
  size_t ns = e->n_state_slots > 0 ? (size_t)e->n_state_slots : 1;
  CAIRN_TRY(
      mem_grow((void **)&fs->probe, &fs->cap_probe, ns, sizeof *fs->probe, "forces:probe", d));
  uint32_t pblk;
  CAIRN_TRY(cmat_entry_block(w, ce, &pblk, d)); /* (made once per assignment, then shared) */
  memset(fs->probe, 0, ns * sizeof *fs->probe);
  detect_pair_velocity(w, k, a, b, v);
  /* touching just now (a pair still apart) or at its overlap (a contact made this step) */
  double touch = -1e-9 * bs->rad[b], g = gap < touch ? gap : touch;
  double m_eff = effective_mass(w, k, a, b), r1 = k == CAIRN_KIND_BALL_BALL ? bs->rad[a] : 0;
  double r2 = bs->rad[b], kn, ks, krr;
  model_call_probe(e, pblk, fs->probe, w->dim, k, w->dt, g, nn, v, m_eff, r1, r2, &kn, &ks, &krr);
  props_block_release(e, pblk);
  if (!(kn >= 0 && ks >= 0 && krr >= 0 && isfinite(kn + ks + krr))) return CAIRN_OK;
  double arm1 = r1 + 0.5 * g, arm2 = r2 + 0.5 * g; /* (a wall has no arm of its own) */
  *kt = kn + ks;
  *kn_m = kn / m_eff;
  kr[0] = krr + ks * arm1 * arm1;
  kr[1] = krr + ks * arm2 * arm2;
  return CAIRN_OK;
}

/* forces.h, forces_turning_work: for each wall that turned over the last step, the work its
   contacts saw that turn do with their last forces (turn_work, from the gathers), less what the
   wall booked for it at the last step (half its torque then, from the lever arms of then, on the
   turn), added to its work. The two differ by half each last force on the turn crossed with how
   far its lever arm moved since (the wall's slide, the ball's motion): nothing for a wall that
   only turns about a still contact, a first-order error in the books of one that slides and
   turns at once. Summed exactly in contact order (the same on any thread count), every rank's
   contacts under MPI. Only after a step that formed the torques with tracking on. */
static cairn_status turning_work(cairn_world *w, cairn_diag *d) {
  const contact_store *cs = w->contacts;
  force_scratch *fs = w->fs;
  size_t nw = w->walls.n;
  int any = 0;
  for (size_t k = 0; k < nw; k++) any |= wall_turned_last(&w->walls.w[k]);
  if (!any || !w->energy->torque_last) return CAIRN_OK;
  CAIRN_TRY(mem_grow((void **)&fs->tsum, &fs->cap_tsum, nw, sizeof *fs->tsum, "forces:walls", d));
  for (size_t k = 0; k < nw; k++) xsum_init(&fs->tsum[k]);
  for (size_t c = 0; c < cs->n; c++) {
    if (cs->kind[c] == CAIRN_KIND_BALL_BALL) continue;
    if (wall_turned_last(&w->walls.w[cs->a[c]])) xsum_add(&fs->tsum[cs->a[c]], fs->turn_work[c]);
  }
  if (w->par) comm_xsum(fs->tsum, (int)nw);
  for (size_t k = 0; k < nw; k++) {
    const wall *wl = &w->walls.w[k];
    if (!wall_turned_last(wl)) continue;
    w->energy->walls += xsum_value(&fs->tsum[k]) + 0.5 * v3_dot(wl->torque, wl->last_dtheta);
  }
  return CAIRN_OK;
}

/* Slice s of the store, as run_slice runs it into the records. */
static inline uint8_t slice_at(cairn_world *w, size_t s, double dt, double *kn_m) {
  const contact_store *cs = w->contacts;
  return (uint8_t)run_slice(w, cs->slice[s], cs->slice[s + 1] - cs->slice[s], dt, TO_RECORDS, kn_m);
}

/* Starting threads costs a few microseconds per loop: below this many slices the pass runs on
   one thread (the result is the same either way). */
#define PARALLEL_SLICES 32

cairn_status forces_compute(cairn_world *w, double dt, cairn_diag *d) {
  ball_store *b = &w->balls;
  contact_store *cs = w->contacts;
  force_scratch *fs = w->fs;
  if (cs->n_unchecked) /* rare: new contacts of a model with a validation hook */
    for (size_t c = 0; c < cs->n; c++) {
      if (!cs->unchecked[c]) continue;
      double gap = 0, nn[3], pt[3];
      int ok = detect_pair_geometry(w, cs->kind[c], cs->a[c], cs->b[c], cs->sub[c], &gap, nn, pt);
      if (!ok || gap > 0) continue;
      /* run once, at the first update where the surfaces touch (a contact created early by a
         positive proximity is not refused before it is used) */
      const model_entry *e = &w->reg->e[cs->model[c]];
      CAIRN_TRY(contact_check_props(w, (uint32_t)c, pool_props(e, cs->pblk[c]), d));
      cs->unchecked[c] = 0;
      cs->n_unchecked--;
    }
  CAIRN_TRY(make_slices(cs, d));
  note_fixity(w);
  size_t ns = cs->n_slices, nb = balls_owned(w); /* (a ghost's sums are its own rank's) */
  int threads = 1; /* (read by the pragmas only: without OpenMP, unused) */
  (void)threads;
#ifdef _OPENMP
  threads = ns >= PARALLEL_SLICES ? omp_get_max_threads() : 1;
#endif
  CAIRN_TRY(scratch_reserve(w, d));
  CAIRN_TRY(mem_grow((void **)&fs->busy, &fs->cap_busy, ns + 1, 1, "forces:busy", d));
  if (!links_current(w, &cs->links) || cs->links.nb != b->n) CAIRN_TRY(links_build(w, d));
  if (cs->links.n_extra) CAIRN_TRY(links_sort_extras(w, d));
  uint8_t *busy = fs->busy;
  double kn_m = 0;
  long nsl = (long)ns, nbl = (long)nb;
  /* (a loop on one thread enters no parallel region: PARALLEL_WORTH) */
  if (threads > 1) {
#pragma omp parallel for schedule(static) reduction(max : kn_m)
    for (long s = 0; s < nsl; s++) busy[s] = slice_at(w, (size_t)s, dt, &kn_m);
  } else {
    for (long s = 0; s < nsl; s++) busy[s] = slice_at(w, (size_t)s, dt, &kn_m);
  }
  if (threads > 1 && PARALLEL_WORTH(nb)) {
#pragma omp parallel for schedule(static)
    for (long i = 0; i < nbl; i++) ball_sums(w, (size_t)i);
  } else {
    for (long i = 0; i < nbl; i++) ball_sums(w, (size_t)i);
  }
  if (cs->links.n_extra) extra_sums(w);
  CAIRN_TRY(note_wall_runs(w, d));
  w->kn_m_max = kn_m; /* (this rank's: forces_totals makes it every rank's) */
  int bad = 0;
  for (size_t s = 0; s < ns; s++) bad |= busy[s];
  /* (a flag with nothing non-finite behind it, finite forces whose sum overflowed, goes on) */
  if (bad & SLICE_NONFINITE) CAIRN_TRY(nonfinite_contact(w, busy, d));
  /* (before the partings: turn_work is by the contacts' places in this pass) */
  if (w->energy->on) CAIRN_TRY(turning_work(w, d));
  events_and_partings(w, busy);
  return CAIRN_OK;
}
