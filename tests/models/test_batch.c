/* Every built-in model's slice entry gives bit for bit what its per-contact force function gives
   (contact_model.h: force_slice "must give exactly what 'force' gives contact by contact").
   Each model runs groups of contacts through a sequence of steps with varied inputs (touching and
   open, loading and unloading, sliding and sticking, normals that turn a little between steps,
   global velocities, 2D and 3D, ball-ball and ball-wall, energy tracked or not, contacts deleted
   and created again) twice: once calling 'force' contact by contact, once calling 'force_slice'
   on slices cut anew each step from the group's arrays, with each contact's state in a block of
   its own. Every output (force, moment, kn/ks/kr, the status byte that cairn_cm_status gives of
   the per-contact output) and every state block must match to the bit.
   Half the groups keep the rows that choose a model's vectorised loop at their defaults
   (VECTOR_OFF), so both of a model's slice loops are compared; the test is built a second time
   with the models' baseline kernels only (models.batch_baseline), so both instruction sets are.
   A third, per-contact run feeds the inputs a model does not declare in 'needs' (angular
   velocity, radii) with noise instead of the engine's zeros: its results must not change. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <float.h>
#include <math.h>
#include <cmocka.h>

#include "models/builtin.h"

enum {
  N_GROUPS = 16,    /* dim 2/3 x ball-ball/ball-wall x two property sets x vector rows kept */
  GROUP_SIZE = 150, /* contacts of a group: more than two full slices */
  N_STEPS = 200,
  MAX_SLOTS = 512, /* flatjoint keeps 332 state slots (5 per element, 64 elements) */
  GUARD = 4        /* slots after each state block that no model may write */
};

static const double GUARD_VALUE = -123456.789;
static const double TWO_PI = 6.283185307179586;

/* A small deterministic generator (xorshift64), so the test sees the same inputs every run. */
static double uniform(uint64_t *s) {
  *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
  return (double)(*s >> 11) / 9007199254740992.0;
}
static double between(uint64_t *s, double lo, double hi) {
  return lo + (hi - lo) * uniform(s);
}
static double log_between(uint64_t *s, double lo, double hi) {
  return exp(between(s, log(lo), log(hi)));
}

static int same(const double *a, const double *b, size_t n) {
  return memcmp(a, b, n * sizeof *a) == 0;
}

/* --- Properties ------------------------------------------------------------------------------ */

/* A value for an unbounded row, on the scale the inputs below make meaningful: overlaps of about
   1e-3 m, stiffnesses of about 1e4 N/m, so forces of about 10 N. */
static double unbounded_value(const cairn_prop_desc *p, uint64_t *rng) {
  double lo = isfinite(p->min) ? p->min : 0.0;
  const char *u = p->unit ? p->unit : "";
  if (!strcmp(u, "N/m")) return lo + log_between(rng, 2e3, 5e4);
  if (!strcmp(u, "N s/m") || !strcmp(u, "N.s/m")) return lo + log_between(rng, 5.0, 500.0);
  if (!strcmp(u, "N")) return lo + log_between(rng, 0.5, 30.0);
  if (!strcmp(u, "m")) return lo + log_between(rng, 1e-4, 1e-2);
  if (!strcmp(u, "-")) return lo + between(rng, 0.0, 1.0);
  double base = p->def != 0 ? fabs(p->def) : 1.0;
  return lo + base * between(rng, 0.5, 2.5);
}

/* A property block with every row inside its range; with 'sparse', a row whose range holds 0 is
   0 a third of the time (no dashpot, no strength, ...), to reach those branches too; any FLT row
   takes its default a quarter of the time. With
   'keep_switches' the INT and BOOL rows (modes, switches) keep their values. */
/* An upper end that bounds the range: CAIRN_FINITE_MAX (every finite value) and INFINITY do not. */
static int bounded(double x) {
  return isfinite(x) && x < DBL_MAX;
}

static void fill_props(const cairn_contact_model *m, double *props, int sparse, int keep_switches,
                       uint64_t *rng) {
  int off = 0;
  for (int i = 0; i < m->n_props; i++) {
    const cairn_prop_desc *p = &m->props[i];
    if (p->access == CAIRN_ALIAS) continue;
    int k = cairn_prop_slots(p->type);
    for (int j = 0; j < k; j++) {
      double v;
      if ((p->type == CAIRN_PROP_INT || p->type == CAIRN_PROP_BOOL) && keep_switches) {
        continue;
      } else if (p->type == CAIRN_PROP_INT || p->type == CAIRN_PROP_BOOL) {
        double lo = isfinite(p->min) ? ceil(p->min) : 0, hi = bounded(p->max) ? p->max : lo + 3;
        v = floor(lo + uniform(rng) * (hi - lo + 1));
        if (v > hi) v = hi;
      } else if (bounded(p->max) && isfinite(p->min)) {
        v = between(rng, p->min, p->max);
      } else {
        v = unbounded_value(p, rng);
      }
      if (sparse && p->type == CAIRN_PROP_FLT && p->min <= 0 && p->max >= 0 &&
          uniform(rng) < 1.0 / 3)
        v = 0.0;
      /* a quarter of the time the default, which branches may single out (hertz's alpha 1.5) */
      if (p->type == CAIRN_PROP_FLT && !p->default_from && uniform(rng) < 0.25) v = p->def;
      props[off + j] = v;
    }
    off += k;
  }
}

/* Rows whose values send a slice past a model's vectorised loop to its general one (model_hertz.c:
   an exponent other than Hertz's, the rolling and twisting add-on on). Half the groups keep them at
   their defaults, so that the vectorised loops are compared too; the other half draws them. */
static const char *const VECTOR_OFF[] = {"hz_alpha", "rr_fric", "tw_fric", NULL};

static void keep_vector_rows(const cairn_contact_model *m, double *props) {
  int off = 0;
  for (int i = 0; i < m->n_props; i++) {
    const cairn_prop_desc *p = &m->props[i];
    if (p->access == CAIRN_ALIAS) continue;
    for (int j = 0; VECTOR_OFF[j]; j++)
      if (!strcmp(p->name, VECTOR_OFF[j])) props[off] = p->def;
    off += cairn_prop_slots(p->type);
  }
}

/* --- Contacts -------------------------------------------------------------------------------- */

/* How one contact moves: its normal turns about a fixed axis (or not at all), its gap follows a
   sine (loading, unloading, opening), its shear velocity turns in the contact plane with an
   amplitude from creeping to fast (sticking to sliding). */
typedef struct path {
  double n[3], axis[3], turn;             /* normal, its rotation axis (3D), angle per step */
  double gap_amp, gap_off, gap_w, gap_ph; /* gap = amp (off - sin(ph + w step)) */
  double sh_amp, sh_w, sh_ph;             /* shear velocity amplitude, turn rate, phase */
  double m_eff, r1, r2;
} path;

static void normalize(double v[3]) {
  double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  v[0] /= l, v[1] /= l, v[2] /= l;
}
static void cross(const double a[3], const double b[3], double c[3]) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

static void path_init(path *p, int dim, int kind, uint64_t *rng) {
  if (dim == 2) {
    double a = between(rng, 0, TWO_PI);
    p->n[0] = cos(a), p->n[1] = sin(a), p->n[2] = 0;
    p->axis[0] = p->axis[1] = 0, p->axis[2] = 1;
  } else {
    for (int k = 0; k < 3; k++) p->n[k] = between(rng, -1, 1), p->axis[k] = between(rng, -1, 1);
    normalize(p->n), normalize(p->axis);
  }
  /* a quarter keeps its normal bit for bit (cairn_cm_turn's early return) */
  p->turn = uniform(rng) < 0.25 ? 0.0 : log_between(rng, 1e-5, 2e-2) * (uniform(rng) < .5 ? -1 : 1);
  p->gap_amp = log_between(rng, 2e-4, 2e-3);
  p->gap_off = between(rng, -1.3, 0.5);
  p->gap_w = between(rng, 0.01, 0.1);
  p->gap_ph = between(rng, 0, TWO_PI);
  p->sh_amp = log_between(rng, 1e-4, 1.0);
  p->sh_w = between(rng, -0.1, 0.1);
  p->sh_ph = between(rng, 0, TWO_PI);
  p->m_eff = between(rng, 0.2, 2.0);
  p->r1 = kind == CAIRN_KIND_BALL_BALL ? between(rng, 0.02, 0.1) : 0.0;
  p->r2 = between(rng, 0.02, 0.1);
}

/* The group's inputs and outputs as arrays (structure of arrays), as the engine keeps them. */
typedef struct group {
  int dim, kind;
  double dt;
  double *props, *derived;
  path paths[GROUP_SIZE];
  unsigned char first[GROUP_SIZE];
  double gap[GROUP_SIZE], nx[GROUP_SIZE], ny[GROUP_SIZE], nz[GROUP_SIZE];
  double vx[GROUP_SIZE], vy[GROUP_SIZE], vz[GROUP_SIZE];
  double wx[GROUP_SIZE], wy[GROUP_SIZE], wz[GROUP_SIZE];
  double m_eff[GROUP_SIZE], r1[GROUP_SIZE], r2[GROUP_SIZE];
  /* the slice run's outputs */
  double fx[GROUP_SIZE], fy[GROUP_SIZE], fz[GROUP_SIZE];
  double mx[GROUP_SIZE], my[GROUP_SIZE], mz[GROUP_SIZE];
  double kn[GROUP_SIZE], ks[GROUP_SIZE], kr[GROUP_SIZE];
  unsigned char status[GROUP_SIZE];
  /* state: per-contact run, slice run (blocks in a shuffled pool), noise run */
  double *st1[GROUP_SIZE], *st2[GROUP_SIZE], *st3[GROUP_SIZE];
} group;

/* This step's inputs of contact c. */
static void group_move(group *g, int c, int step, uint64_t *rng) {
  path *p = &g->paths[c];
  if (step > 0 && p->turn != 0) { /* turn the normal about the axis (Rodrigues) */
    double an[3], ca = cos(p->turn), sa = sin(p->turn);
    double d = p->axis[0] * p->n[0] + p->axis[1] * p->n[1] + p->axis[2] * p->n[2];
    cross(p->axis, p->n, an);
    for (int k = 0; k < 3; k++) p->n[k] = p->n[k] * ca + an[k] * sa + p->axis[k] * d * (1 - ca);
    normalize(p->n);
    if (g->dim == 2) p->n[2] = 0;
  }
  double ph = p->gap_ph + p->gap_w * step;
  double gap = p->gap_amp * (p->gap_off - sin(ph));
  double vn = -p->gap_amp * p->gap_w * cos(ph) / g->dt; /* > 0 while separating */
  /* an in-plane basis e1, e2 (2D: e1 only) */
  double e1[3], e2[3];
  if (g->dim == 2) {
    e1[0] = -p->n[1], e1[1] = p->n[0], e1[2] = 0, e2[0] = e2[1] = e2[2] = 0;
  } else {
    cross(p->axis, p->n, e1);
    if (e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2] < 1e-12) {
      const double x[3] = {1, 0, 0};
      cross(x, p->n, e1);
    }
    normalize(e1);
    cross(p->n, e1, e2);
  }
  double a = p->sh_ph + p->sh_w * step, c1 = p->sh_amp * cos(a), c2 = p->sh_amp * sin(a);
  double v[3], w[3];
  for (int k = 0; k < 3; k++) {
    v[k] = vn * p->n[k] + c1 * e1[k] + c2 * e2[k] + 1e-2 * p->sh_amp * between(rng, -1, 1);
    w[k] = between(rng, -5, 5);
  }
  double u = uniform(rng);
  if (u < 0.02)
    gap = 0.0; /* exactly touching: open for most laws */
  else if (u < 0.04)
    v[0] = v[1] = v[2] = 0.0; /* at rest */
  else if (u < 0.05)
    v[0] = p->n[0] * vn, v[1] = p->n[1] * vn, v[2] = p->n[2] * vn; /* no shear */
  if (g->dim == 2) v[2] = 0, w[0] = w[1] = 0;
  g->gap[c] = gap;
  g->nx[c] = p->n[0], g->ny[c] = p->n[1], g->nz[c] = p->n[2];
  g->vx[c] = v[0], g->vy[c] = v[1], g->vz[c] = v[2];
  g->wx[c] = w[0], g->wy[c] = w[1], g->wz[c] = w[2];
  g->m_eff[c] = p->m_eff, g->r1[c] = p->r1, g->r2[c] = p->r2;
}

/* The per-contact input of contact c, as the engine gives it: what the model does not declare
   it needs is 0, or noise with 'noise'. r_eff as CAIRN_CM_SLICE computes it. */
static void group_input(const group *g, int c, int energy, unsigned needs, int noise, uint64_t *rng,
                        cairn_cm_input *in) {
  memset(in, 0, sizeof *in);
  in->dim = g->dim, in->kind = g->kind, in->first = g->first[c], in->dt = g->dt;
  in->gap = g->gap[c], in->m_eff = g->m_eff[c], in->energy = energy;
  in->n[0] = g->nx[c], in->n[1] = g->ny[c], in->n[2] = g->nz[c];
  in->vel_xyz[0] = g->vx[c], in->vel_xyz[1] = g->vy[c], in->vel_xyz[2] = g->vz[c];
  if (needs & CAIRN_CM_USES_ANGVEL)
    in->angvel_xyz[0] = g->wx[c], in->angvel_xyz[1] = g->wy[c], in->angvel_xyz[2] = g->wz[c];
  else if (noise)
    for (int k = 0; k < 3; k++) in->angvel_xyz[k] = between(rng, -100, 100);
  if (needs & CAIRN_CM_USES_RADII) {
    in->r1 = g->r1[c], in->r2 = g->r2[c];
    in->r_eff = in->r1 > 0 ? in->r1 * in->r2 / (in->r1 + in->r2) : in->r2;
  } else if (noise) {
    in->r1 = between(rng, 0.01, 1), in->r2 = between(rng, 0.01, 1), in->r_eff = uniform(rng);
  }
}

static void output_init(cairn_cm_output *out) {
  memset(out, 0, sizeof *out);
  out->may_delete = 1;
}

/* Two per-contact outputs are the same, field by field and bit for bit. */
static int same_output(const cairn_cm_output *a, const cairn_cm_output *b) {
  const double ka[3] = {a->kn_est, a->ks_est, a->kr_est}, kb[3] = {b->kn_est, b->ks_est, b->kr_est};
  return same(a->force_xyz, b->force_xyz, 3) && same(a->moment_xyz, b->moment_xyz, 3) &&
         same(ka, kb, 3) && a->active == b->active && a->may_delete == b->may_delete &&
         a->events == b->events && a->slip_mode == b->slip_mode && a->bond_mode == b->bond_mode;
}

/* A copy of n elements at 'at' in a block of exactly n (so a sanitizer sees a read past it). */
static void *dup_n(const void *at, size_t n, size_t size) {
  void *p = malloc(n * size);
  assert_non_null(p);
  memcpy(p, at, n * size);
  return p;
}
static const double *in_n(const double *at, size_t n) {
  return dup_n(at, n, sizeof *at);
}
/* An output array of n elements, filled with a NaN no model computes (so an element a model
   leaves unwritten shows). */
static double *out_n(size_t n) {
  double *p = malloc(n * sizeof *p);
  assert_non_null(p);
  const uint64_t junk = 0x7ff4dead0000beefull;
  for (size_t i = 0; i < n; i++) memcpy(&p[i], &junk, sizeof junk);
  return p;
}

/* The slice of contacts [c0, c0 + n) of g through force_slice, with the arrays the engine would
   give (NULL where the model does not declare the need); the outputs land in g's arrays. */
static void run_slice(const cairn_contact_model *m, group *g, size_t c0, size_t n, int energy) {
  const unsigned needs = m->needs;
  const int angvel = (needs & CAIRN_CM_USES_ANGVEL) != 0,
            radii = (needs & CAIRN_CM_USES_RADII) != 0;
  const int moment = (needs & CAIRN_CM_WRITES_MOMENT) != 0;
  cairn_cm_slice s;
  memset(&s, 0, sizeof s);
  s.n = n, s.dim = g->dim, s.kind = g->kind, s.energy = energy, s.dt = g->dt;
  s.props = g->props, s.derived = g->derived;
  s.state = dup_n(&g->st2[c0], n, sizeof(double *));
  s.first = dup_n(&g->first[c0], n, 1);
  s.gap = in_n(&g->gap[c0], n), s.m_eff = in_n(&g->m_eff[c0], n);
  s.nx = in_n(&g->nx[c0], n), s.ny = in_n(&g->ny[c0], n), s.nz = in_n(&g->nz[c0], n);
  s.vx = in_n(&g->vx[c0], n), s.vy = in_n(&g->vy[c0], n), s.vz = in_n(&g->vz[c0], n);
  if (angvel) s.wx = in_n(&g->wx[c0], n), s.wy = in_n(&g->wy[c0], n), s.wz = in_n(&g->wz[c0], n);
  if (radii) s.r1 = in_n(&g->r1[c0], n), s.r2 = in_n(&g->r2[c0], n);
  s.fx = out_n(n), s.fy = out_n(n), s.fz = out_n(n);
  if (moment) s.mx = out_n(n), s.my = out_n(n), s.mz = out_n(n);
  s.kn = out_n(n), s.ks = out_n(n), s.kr = out_n(n);
  s.status = malloc(n);
  assert_non_null(s.status);
  memset(s.status, 0xAA, n); /* not a status cairn_cm_status gives */

  m->force_slice(&s);

  double *const from[9] = {s.fx, s.fy, s.fz, s.mx, s.my, s.mz, s.kn, s.ks, s.kr};
  double *const to[9] = {g->fx, g->fy, g->fz, g->mx, g->my, g->mz, g->kn, g->ks, g->kr};
  for (int i = 0; i < 9; i++)
    if (from[i]) memcpy(&to[i][c0], from[i], n * sizeof(double)), free(from[i]);
  memcpy(&g->status[c0], s.status, n);
  const void *const in[14] = {s.state, s.first, s.gap, s.m_eff, s.nx, s.ny, s.nz,
                              s.vx,    s.vy,    s.vz,  s.wx,    s.wy, s.wz, s.r1};
  for (int i = 0; i < 14; i++) free((void *)in[i]);
  free((void *)s.r2), free(s.status);
}

static int state_slots(const cairn_contact_model *m) {
  int n = 0;
  for (int i = 0; i < m->n_state; i++) n += cairn_state_slots(&m->state[i]);
  return n;
}

static void check_model(const cairn_contact_model *m) {
  if (!m->force || !m->force_slice) {
    print_message("%s: no %s: nothing to compare\n", m->name, m->force ? "force_slice" : "force");
    skip();
  }
  int n_props = 0;
  for (int i = 0; i < m->n_props; i++)
    if (m->props[i].access != CAIRN_ALIAS) n_props += cairn_prop_slots(m->props[i].type);
  const int n_state = state_slots(m), stride = n_state + GUARD;
  assert_true(n_props <= MAX_SLOTS && n_state <= MAX_SLOTS && m->n_derived <= MAX_SLOTS);
  const unsigned needs = m->needs;

  uint64_t rng = 0x9e3779b97f4a7c15ull, noise_rng = 0x2545f4914f6cdd1dull;
  static group groups[N_GROUPS];
  static double props[N_GROUPS][MAX_SLOTS], derived[N_GROUPS][MAX_SLOTS];
  double *pool1 = malloc(sizeof(double) * stride * N_GROUPS * GROUP_SIZE);
  double *pool2 = malloc(sizeof(double) * stride * N_GROUPS * GROUP_SIZE);
  double *pool3 = malloc(sizeof(double) * stride * N_GROUPS * GROUP_SIZE);
  assert_true(pool1 && pool2 && pool3);
  for (size_t i = 0; i < (size_t)stride * N_GROUPS * GROUP_SIZE; i++)
    pool1[i] = pool2[i] = pool3[i] = (i % stride) < (size_t)n_state ? 0.0 : GUARD_VALUE;

  /* The slice run's blocks in a shuffled order, so no model can rely on neighbouring contacts'
     blocks being neighbours in memory. */
  int perm[N_GROUPS * GROUP_SIZE];
  for (int i = 0; i < N_GROUPS * GROUP_SIZE; i++) perm[i] = i;
  for (int i = N_GROUPS * GROUP_SIZE - 1; i > 0; i--) { /* Fisher-Yates */
    int j = (int)(uniform(&rng) * i), t = perm[i];
    perm[i] = perm[j], perm[j] = t;
  }

  memset(props, 0, sizeof props), memset(derived, 0, sizeof derived);
  for (int gi = 0; gi < N_GROUPS; gi++) {
    group *g = &groups[gi];
    memset(g, 0, sizeof *g);
    g->dim = gi & 1 ? 3 : 2;
    g->kind = gi & 2 ? CAIRN_KIND_BALL_WALL : CAIRN_KIND_BALL_BALL;
    g->dt = gi & 4 ? 5e-4 : 1e-3;
    g->props = props[gi], g->derived = derived[gi];
    /* Properties the model's validation accepts (the engine stops a run on any other): the
       switches are drawn first and kept for a while, so that switches that need other values
       to be valid (a bond, say) are not drawn away. */
    char msg[256];
    const char *why = NULL;
    for (int tries = 0; tries < 1000; tries++) {
      /* (switches redrawn every 10th try: flatjoint's element counts, each drawn from 1 to 64,
         fit its 64 elements in 3D one time in 14) */
      fill_props(m, g->props, gi & 4, tries % 10 != 0, &rng);
      if (gi & 8) keep_vector_rows(m, g->props);
      why = m->validate ? m->validate(g->props, g->dim, msg, sizeof msg) : NULL;
      if (!why) break;
    }
    if (why) fail_msg("%s: no valid property set found: %s", m->name, why);
    if (m->prepare) m->prepare(g->props, g->derived);
    for (int c = 0; c < GROUP_SIZE; c++) {
      size_t b = (size_t)gi * GROUP_SIZE + (size_t)c;
      g->st1[c] = pool1 + b * stride;
      g->st2[c] = pool2 + (size_t)perm[b] * stride;
      g->st3[c] = pool3 + b * stride;
      path_init(&g->paths[c], g->dim, g->kind, &rng);
      g->first[c] = 1;
    }
  }

  long n_updates = 0, n_active = 0, n_slip_ev = 0, n_bond_ev = 0, n_keep = 0, n_slices = 0;
  for (int step = 0; step < N_STEPS; step++) {
    for (int gi = 0; gi < N_GROUPS; gi++) {
      group *g = &groups[gi];
      const int energy = ((step / 16) + gi) % 3 != 0; /* the same for a whole slice */
      for (int c = 0; c < GROUP_SIZE; c++) group_move(g, c, step, &rng);

      /* 1: contact by contact; 3: the same with noise in what the model does not need */
      cairn_cm_output o1[GROUP_SIZE];
      for (int c = 0; c < GROUP_SIZE; c++) {
        cairn_cm_input in;
        cairn_cm_output o3;
        group_input(g, c, energy, needs, 0, NULL, &in);
        output_init(&o1[c]);
        m->force(&in, g->props, g->derived, g->st1[c], &o1[c]);
        group_input(g, c, energy, needs, 1, &noise_rng, &in);
        output_init(&o3);
        m->force(&in, g->props, g->derived, g->st3[c], &o3);
        if (!same_output(&o1[c], &o3) || !same(g->st1[c], g->st3[c], n_state))
          fail_msg("%s: step %d group %d contact %d: the result depends on an input the model "
                   "does not declare in 'needs' (0x%x)",
                   m->name, step, gi, c, needs);
      }

      /* 2: slices of 1 to CAIRN_CM_SLICE_MAX contacts, cut anew each step */
      for (size_t c0 = 0; c0 < GROUP_SIZE;) {
        double u = uniform(&rng);
        size_t n = u < 0.3   ? CAIRN_CM_SLICE_MAX
                   : u < 0.4 ? 1
                             : 1 + (size_t)(uniform(&rng) * CAIRN_CM_SLICE_MAX);
        if (n > CAIRN_CM_SLICE_MAX) n = CAIRN_CM_SLICE_MAX;
        if (n > GROUP_SIZE - c0) n = GROUP_SIZE - c0;
        run_slice(m, g, c0, n, energy);
        c0 += n, n_slices++;
      }

      for (int c = 0; c < GROUP_SIZE; c++) {
        const cairn_cm_output *o = &o1[c];
        const double f2[3] = {g->fx[c], g->fy[c], g->fz[c]};
        const double k2[3] = {g->kn[c], g->ks[c], g->kr[c]};
        const double k1[3] = {o->kn_est, o->ks_est, o->kr_est};
        if (!same(o->force_xyz, f2, 3))
          fail_msg("%s: step %d group %d contact %d: slice force (%.17g %.17g %.17g) differs from "
                   "force's (%.17g %.17g %.17g)",
                   m->name, step, gi, c, f2[0], f2[1], f2[2], o->force_xyz[0], o->force_xyz[1],
                   o->force_xyz[2]);
        if (needs & CAIRN_CM_WRITES_MOMENT) {
          const double m2[3] = {g->mx[c], g->my[c], g->mz[c]};
          if (!same(o->moment_xyz, m2, 3))
            fail_msg("%s: step %d group %d contact %d: slice moment differs from force's", m->name,
                     step, gi, c);
        } else {
          const double zero[3] = {0.0, 0.0, 0.0};
          if (!same(o->moment_xyz, zero, 3))
            fail_msg("%s: step %d group %d contact %d: force writes a moment without declaring "
                     "CAIRN_CM_WRITES_MOMENT",
                     m->name, step, gi, c);
        }
        if (!same(k1, k2, 3))
          fail_msg("%s: step %d group %d contact %d: slice kn/ks/kr (%.17g %.17g %.17g) differ "
                   "from force's (%.17g %.17g %.17g)",
                   m->name, step, gi, c, k2[0], k2[1], k2[2], k1[0], k1[1], k1[2]);
        if (g->status[c] != cairn_cm_status(o))
          fail_msg("%s: step %d group %d contact %d: slice status 0x%02x, force's 0x%02x", m->name,
                   step, gi, c, g->status[c], cairn_cm_status(o));
        if (!same(g->st1[c], g->st2[c], n_state))
          for (int i = 0; i < n_state; i++)
            if (memcmp(&g->st1[c][i], &g->st2[c][i], sizeof(double)) != 0)
              fail_msg("%s: step %d group %d contact %d: slice state slot %d %.17g, force's %.17g",
                       m->name, step, gi, c, i, g->st2[c][i], g->st1[c][i]);
        for (int i = n_state; i < stride; i++)
          if (g->st1[c][i] != GUARD_VALUE || g->st2[c][i] != GUARD_VALUE ||
              g->st3[c][i] != GUARD_VALUE)
            fail_msg("%s: step %d group %d contact %d: state written past its %d slots", m->name,
                     step, gi, c, n_state);
        if (g->dim == 2 && (o->force_xyz[2] != 0 || o->moment_xyz[0] != 0 || o->moment_xyz[1] != 0))
          fail_msg("%s: step %d group %d contact %d: a 2D contact got a force along z (%.17g) or "
                   "a moment about x or y (%.17g %.17g)",
                   m->name, step, gi, c, o->force_xyz[2], o->moment_xyz[0], o->moment_xyz[1]);
        n_updates++;
        n_active += o->active;
        n_keep += !o->may_delete;
        n_slip_ev += (o->events & CAIRN_EV_SLIP_CHANGE) != 0;
        n_bond_ev += (o->events & CAIRN_EV_BOND_BREAK) != 0;
        /* Next step: an open contact is sometimes deleted (if the model allows) and created
           again, with zeroed state and 'first' set. */
        g->first[c] = 0;
        if (g->gap[c] > 0 && o->may_delete && uniform(&rng) < 0.05) {
          memset(g->st1[c], 0, (size_t)n_state * sizeof(double));
          memset(g->st2[c], 0, (size_t)n_state * sizeof(double));
          memset(g->st3[c], 0, (size_t)n_state * sizeof(double));
          g->first[c] = 1;
        }
      }
    }
  }
  print_message("%-10s %ld updates in %ld slices: %.0f%% active, %ld slip changes, %ld bond "
                "events, %.0f%% kept\n",
                m->name, n_updates, n_slices, 100.0 * n_active / n_updates, n_slip_ev, n_bond_ev,
                100.0 * n_keep / n_updates);
  free(pool1), free(pool2), free(pool3);
  /* The inputs must have exercised the model, not only its open branch. A smooth joint starts
     stress-free at whatever gap its contact has, so the paths' oscillating gaps open it about
     half the time where other models stay closed (16 % active here): an eighth for it. */
  if (strcmp(m->name, "null") != 0)
    assert_true(n_active > n_updates / (strcmp(m->name, "smoothjoint") == 0 ? 8 : 4));
}

/* One test per built-in model, from the one list (src/models/builtin.h). */
static void test_slice_model(void **s) {
  check_model(*s);
}

int main(void) {
  struct CMUnitTest tests[64];
  size_t n = 0;
  for (size_t i = 0; i < cairn_builtin_count && n < sizeof tests / sizeof *tests; i++, n++) {
    tests[n] = (struct CMUnitTest)cmocka_unit_test_prestate(test_slice_model,
                                                            (void *)cairn_builtin_models[i]);
    tests[n].name = cairn_builtin_models[i]->name;
  }
  return _cmocka_run_group_tests("models.batch", tests, n, NULL, NULL);
}
