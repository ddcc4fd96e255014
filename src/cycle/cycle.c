/* One cycle: detect -> contact forces -> motion (design.md, Numerics). Velocities live at half
   steps: v(t+dt/2) = v(t-dt/2) + (F/m + g) dt, x(t+dt) = x(t) + v(t+dt/2) dt, and the same for
   spin with the moment of inertia. Contact forces are computed from x(t) and v(t-dt/2). */
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* Starting threads costs a few microseconds per loop: below this many items a loop runs on one
   thread. The results are the same either way (each item is independent, sums are per ball in
   a fixed order). */
#define PARALLEL_WORTH(n) ((n) >= 2048)

#include "contact/contact.h"
#include "cycle/cycle.h"
#include "detect/detect.h"

/* Velocity of a ball's material point at p. */
static void point_velocity(const ball_store *b, uint32_t i, const double p[3], double out[3]) {
  double r[3], wr[3];
  v3_sub(p, b->pos[i], r);
  v3_cross(b->spin[i], r, wr);
  v3_add(b->vel[i], wr, out);
}

static void to_frame(const double f[9], const double v[3], double out[3]) {
  out[0] = f[0] * v[0] + f[1] * v[1] + f[2] * v[2];
  out[1] = f[3] * v[0] + f[4] * v[1] + f[5] * v[2];
  out[2] = f[6] * v[0] + f[7] * v[1] + f[8] * v[2];
}

static void from_frame(const double f[9], const double v[3], double out[3]) {
  for (int k = 0; k < 3; k++) out[k] = v[0] * f[k] + v[1] * f[3 + k] + v[2] * f[6 + k];
}

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

/* The model's validation hook, run once, at the first update where the surfaces touch (a contact
   created early by a positive proximity is not refused before it is used): one sentence naming
   the contact and what is wrong, or CAIRN_OK. */
static cairn_status validate_contact(const cairn_world *w, uint32_t c, cairn_diag *d) {
  const model_entry *e = &w->reg.e[w->contacts.model[c]];
  if (!e->m->validate) return CAIRN_OK;
  char msg[512] = "", who[128];
  const char *bad = e->m->validate(pool_block(e, w->contacts.blk[c]), w->dim, msg, sizeof msg);
  if (!bad) return CAIRN_OK;
  contact_describe(w, c, who, sizeof who);
  return diag_set(d, CAIRN_EINVAL, "%s: contact model '%s': %s", who, e->m->name, bad);
}

/* Size the force-pass scratch for the current numbers of contacts and balls (grows only). */
static cairn_status scratch_reserve(cairn_world *w, cairn_diag *d) {
  force_scratch *fs = &w->fs;
  size_t nc = w->contacts.n, nb = w->balls.n;
  if (nc > fs->cap_c) {
    size_t old = fs->cap_c, cap = mem_next_cap(old, nc);
#define G(f, k)                                                                                    \
  CAIRN_TRY(mem_resize_raw((void **)&fs->f, old *(k), cap *(k), sizeof *fs->f, "forces:" #f, d))
    G(ctb, 1);
    G(evs, 1);
    G(ent, 2);
#undef G
    fs->cap_c = cap;
  }
  if (nb + 1 > fs->cap_b) {
    size_t old = fs->cap_b, cap = mem_next_cap(old, nb + 1);
    CAIRN_TRY(mem_resize((void **)&fs->off, old, cap, sizeof *fs->off, "forces:off", d));
    CAIRN_TRY(mem_resize((void **)&fs->fill, old, cap, sizeof *fs->fill, "forces:fill", d));
    CAIRN_TRY(mem_resize((void **)&fs->ework, old, cap, sizeof *fs->ework, "forces:ework", d));
    fs->cap_b = cap;
  }
  return CAIRN_OK;
}

int cycle_threads(int n) {
#ifdef _OPENMP
  if (n > 0) omp_set_num_threads(n);
  return omp_get_max_threads();
#else
  (void)n;
  return 1;
#endif
}

void force_scratch_free(force_scratch *fs) {
  void *arrs[] = {fs->ctb, fs->evs, fs->off, fs->fill, fs->ent, fs->ework};
  for (size_t i = 0; i < sizeof arrs / sizeof *arrs; i++) mem_free(arrs[i], 0);
  memset(fs, 0, sizeof *fs);
}

/* Contact c's input block from the current state. */
static inline void model_input(const cairn_world *w, size_t c, double dt, cairn_cm_input *in,
                               double pt[3]) {
  const ball_store *b = &w->balls;
  const contact_store *cs = &w->contacts;
  int kind = cs->kind[c];
  uint32_t a = cs->a[c], bb = cs->b[c];
  const double *fr = cs->frame[c];
  double va[3], vb[3], dv[3], dw[3];
  contact_point(w, (uint32_t)c, pt);
  point_velocity(b, bb, pt, vb);
  if (kind == CAIRN_KIND_BALL_BALL) {
    point_velocity(b, a, pt, va);
    v3_sub(b->spin[bb], b->spin[a], dw);
  } else {
    v3_copy(w->walls.w[a].vel, va);
    v3_copy(b->spin[bb], dw);
  }
  v3_sub(vb, va, dv);
  double r2 = b->rad[bb], r1 = kind == CAIRN_KIND_BALL_BALL ? b->rad[a] : 0.0;
  /* Every field is assigned one by one: zero-initialising the block as a whole makes the
     compiler emit a slow string store on every call. */
  in->dim = w->dim;
  in->kind = kind;
  in->first = cs->first[c];
  in->dt = dt;
  in->gap = cs->gap[c];
  in->m_eff = effective_mass(w, kind, a, bb);
  in->r_eff = kind == CAIRN_KIND_BALL_BALL ? r1 * r2 / (r1 + r2) : r2;
  in->r1 = r1;
  in->r2 = r2;
  in->energy = w->energy.on;
  to_frame(fr, dv, in->vel);
  to_frame(fr, dw, in->angvel);
}

/* An output block as the ABI promises it to the model: zero, but may_delete 1. */
static inline void model_output_init(cairn_cm_output *out) {
  for (int k = 0; k < 3; k++) out->force[k] = out->moment[k] = 0.0;
  out->kn_est = out->ks_est = out->kr_est = 0.0;
  out->active = 0;
  out->may_delete = 1;
  out->events = 0;
  out->slip_mode = out->bond_mode = 0;
}

static inline cairn_cm_blocks model_blocks(const cairn_world *w, size_t c) {
  const model_entry *e = &w->reg.e[w->contacts.model[c]];
  uint32_t blk = w->contacts.blk[c];
  return (cairn_cm_blocks){pool_block(e, blk), pool_derived(e, blk), pool_state(e, blk)};
}

void cycle_contact_farewell(cairn_world *w, uint32_t c) {
  cairn_cm_input in;
  cairn_cm_output out;
  double pt[3];
  model_input(w, c, w->dt, &in, pt);
  model_output_init(&out);
  cairn_cm_blocks bl = model_blocks(w, c);
  w->reg.e[w->contacts.model[c]].m->force(&in, bl.props, bl.derived, bl.state, &out);
}

/* Contact c's model output taken into the contact and turned into its contributions to the two
   sides (no shared writes: safe to run for many contacts at once). */
static inline void contact_output(cairn_world *w, size_t c, const cairn_cm_output *out,
                                  const double pt[3]) {
  const ball_store *b = &w->balls;
  contact_store *cs = &w->contacts;
  force_scratch *fs = &w->fs;
  int kind = cs->kind[c];
  uint32_t a = cs->a[c], bb = cs->b[c];
  const double *fr = cs->frame[c];
  cs->first[c] = 0;
  uint8_t ev = 0;
  if (out->active && (!cs->active[c] || (out->events & CAIRN_EV_ACTIVATED))) ev |= 1;
  if (out->events & CAIRN_EV_SLIP_CHANGE) ev |= 2;
  if (out->events & CAIRN_EV_BOND_BREAK) ev |= 4;
  fs->evs[c] = (struct contact_events){ev, (int8_t)out->slip_mode, (int8_t)out->bond_mode};
  cs->active[c] = (uint8_t)(out->active != 0);
  cs->deletable[c] = (uint8_t)(out->may_delete != 0);
  v3_copy(out->force, cs->force[c]);
  v3_copy(out->moment, cs->moment[c]);

  /* Formed in locals and stored once: the compiler cannot tell the scratch arrays from the
     inputs, and would reload after every store. */
  double fr_[9], f[3], m[3] = {0, 0, 0}, r[3], rxf[3];
  memcpy(fr_, fr, sizeof fr_);
  from_frame(fr_, out->force, f);
  if (out->moment[0] != 0 || out->moment[1] != 0 || out->moment[2] != 0)
    from_frame(fr_, out->moment, m);
  if (w->dim == 2) f[2] = 0, m[0] = m[1] = 0;
  double ks = out->ks_est, kr = out->kr_est;
  struct contact_contrib *t = &fs->ctb[c];
  v3_copy(f, t->f);
  v3_sub(pt, b->pos[bb], r);
  v3_cross(r, f, rxf);
  v3_add(rxf, m, t->m2);
  t->kt = out->kn_est + ks;
  t->kr2 = kr + ks * v3_dot(r, r);
  if (kind == CAIRN_KIND_BALL_BALL) { /* side 1 gets -f at the same point and -m */
    v3_sub(pt, b->pos[a], r);
    v3_cross(r, f, rxf);
    v3_add(rxf, m, rxf);
    v3_scale(rxf, -1.0, t->m1);
    t->kr1 = kr + ks * v3_dot(r, r);
  }
}

/* Contacts are updated a chunk at a time: the chunk's input blocks are formed, each run of
   neighbouring contacts with the same model goes to that model in one call (its batch entry, if
   it has one), and the outputs are taken back. A chunk's blocks stay in the first-level cache. */
#define CHUNK 32

static void contact_chunk(cairn_world *w, size_t c0, size_t n, double dt) {
  const contact_store *cs = &w->contacts;
  cairn_cm_input in[CHUNK];
  cairn_cm_blocks bl[CHUNK];
  cairn_cm_output out[CHUNK];
  double pt[CHUNK][3]; /* contact points, formed once for input and output */
  for (size_t i = 0; i < n; i++) {
    model_input(w, c0 + i, dt, &in[i], pt[i]);
    bl[i] = model_blocks(w, c0 + i);
    model_output_init(&out[i]);
  }
  for (size_t i = 0, j; i < n; i = j) {
    int32_t model = cs->model[c0 + i];
    for (j = i + 1; j < n && cs->model[c0 + j] == model; j++) continue;
    const cairn_contact_model *m = w->reg.e[model].m;
    if (m->force_batch)
      m->force_batch(j - i, in + i, bl + i, out + i);
    else
      for (size_t k = i; k < j; k++)
        m->force(&in[k], bl[k].props, bl[k].derived, bl[k].state, &out[k]);
  }
  for (size_t i = 0; i < n; i++) contact_output(w, c0 + i, &out[i], pt[i]);
}

/* Each ball's contact list (CSR), in increasing contact order: the fixed summation order. */
static void build_ball_lists(cairn_world *w) {
  force_scratch *fs = &w->fs;
  const contact_store *cs = &w->contacts;
  size_t nb = w->balls.n;
  memset(fs->off, 0, (nb + 1) * sizeof *fs->off);
  for (size_t c = 0; c < cs->n; c++) {
    fs->off[cs->b[c] + 1]++;
    if (cs->kind[c] == CAIRN_KIND_BALL_BALL) fs->off[cs->a[c] + 1]++;
  }
  for (size_t i = 0; i < nb; i++) fs->off[i + 1] += fs->off[i];
  memcpy(fs->fill, fs->off, nb * sizeof *fs->fill);
  for (size_t c = 0; c < cs->n; c++) {
    if (cs->kind[c] == CAIRN_KIND_BALL_BALL) fs->ent[fs->fill[cs->a[c]]++] = (uint32_t)(2 * c);
    fs->ent[fs->fill[cs->b[c]]++] = (uint32_t)(2 * c + 1);
  }
}

/* One force pass: every contact's model update (in parallel), then each ball sums its contacts'
   contributions in its list's order (in parallel), then walls and events (in order). */
static cairn_status compute_forces(cairn_world *w, double dt, cairn_diag *d) {
  ball_store *b = &w->balls;
  contact_store *cs = &w->contacts;
  force_scratch *fs = &w->fs;
  CAIRN_TRY(scratch_reserve(w, d));
  for (size_t c = 0; c < cs->n; c++)
    if (cs->unchecked[c] && cs->gap[c] <= 0) {
      CAIRN_TRY(validate_contact(w, (uint32_t)c, d));
      cs->unchecked[c] = 0;
    }
  long nc = (long)cs->n, nb = (long)b->n, nchunk = (nc + CHUNK - 1) / CHUNK;
#pragma omp parallel for schedule(static) if (PARALLEL_WORTH(nc))
  for (long k = 0; k < nchunk; k++) {
    size_t c0 = (size_t)k * CHUNK, n = (size_t)nc - c0 < CHUNK ? (size_t)nc - c0 : CHUNK;
    contact_chunk(w, c0, n, dt);
  }
  /* The lists change only when contacts or balls come and go. */
  if (!fs->lists_ok) build_ball_lists(w), fs->lists_ok = 1;
#pragma omp parallel for schedule(static) if (PARALLEL_WORTH(nb))
  for (long i = 0; i < nb; i++) {
    double f[3] = {0, 0, 0}, m[3] = {0, 0, 0}, kt = 0, kr = 0;
    for (uint32_t q = fs->off[i]; q < fs->off[i + 1]; q++) {
      const struct contact_contrib *t = &fs->ctb[fs->ent[q] >> 1];
      if (fs->ent[q] & 1) {
        v3_add(f, t->f, f);
        v3_add(m, t->m2, m);
        kr += t->kr2;
      } else {
        v3_sub(f, t->f, f);
        v3_add(m, t->m1, m);
        kr += t->kr1;
      }
      kt += t->kt;
    }
    v3_copy(f, b->force[i]);
    v3_copy(m, b->moment[i]);
    b->k_tran[i] = kt;
    b->k_rot[i] = kr;
  }
  for (size_t k = 0; k < w->walls.n; k++) v3_zero(w->walls.w[k].force);
  for (size_t c = 0; c < cs->n; c++) {
    if (cs->kind[c] == CAIRN_KIND_BALL_WALL)
      v3_sub(w->walls.w[cs->a[c]].force, fs->ctb[c].f, w->walls.w[cs->a[c]].force);
    struct contact_events e = fs->evs[c];
    if (!e.ev) continue;
    if (e.ev & 1) world_event(w, EV_CONTACT_ACTIVATED, (uint32_t)c, 0);
    if (e.ev & 2) world_event(w, EV_SLIP_CHANGE, (uint32_t)c, e.slip_mode);
    if (e.ev & 4) world_event(w, EV_BOND_BREAK, (uint32_t)c, e.bond_mode);
  }
  return CAIRN_OK;
}

/* PFC's local damping: each component of the force is reduced by alpha |F_k| in the direction
   opposing the velocity component. */
static inline double damped(double f, double v, double alpha) {
  if (alpha == 0 || v == 0) return f;
  return f - alpha * fabs(f) * (v > 0 ? 1.0 : -1.0);
}

/* Energy of one ball's step, while tracking: the work of gravity (m g . dx) and the loss to local
   damping. The damping force changes the velocity from v0 to v1 over the step, so its work on
   the ball is f_damp . (v0 + v1) / 2 dt, the same midpoint that makes the kinetic energy at half
   steps change by exactly the total force's work. */
static inline void step_energy(double *eg, double *ed, double m, double g, double f, double fd,
                               double v0, double v1, double dt) {
  *eg += m * g * v1 * dt;
  *ed -= (fd - f) * 0.5 * (v0 + v1) * dt;
}

#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

/* One ball's step of motion; with energy tracking, its gravity work and damping loss go to
   eg and ed. Always inlined, so that the call for the common ball (3D, free, undamped, not
   tracked) is compiled with those constants and loses its branches. The ball's state is
   worked on in locals and stored once: the compiler cannot tell the arrays apart, and would
   reload everything after each store. */
static ALWAYS_INLINE void advance_ball(ball_store *b, long i, int dim, unsigned fix, double a,
                                       int track, const double g[3], double dt, double *eg,
                                       double *ed) {
  double m = b->mass[i], I = b->inertia[i], v[3], s[3];
  v3_copy(b->vel[i], v);
  v3_copy(b->spin[i], s);
  for (int k = 0; k < dim; k++) {
    if (fix & (1u << k)) continue;
    double f0 = b->force[i][k] + m * g[k], v0 = v[k];
    double f = damped(f0, v0, a);
    v[k] += f / m * dt;
    if (track) step_energy(eg, ed, m, g[k], f0, f, v0, v[k], dt);
  }
  if (!(fix & FIX_SPIN)) {
    for (int k = dim == 2 ? 2 : 0; k < 3; k++) {
      double m0 = b->moment[i][k], s0 = s[k];
      double mo = damped(m0, s0, a);
      s[k] += mo / I * dt;
      if (track) step_energy(eg, ed, 0.0, 0.0, m0, mo, s0, s[k], dt);
    }
  }
  v3_copy(v, b->vel[i]);
  v3_copy(s, b->spin[i]);
  for (int k = 0; k < dim; k++) {
    double dx = v[k] * dt;
    b->pos[i][k] += dx;
    b->disp[i][k] += dx;
  }
}

static cairn_status motion(cairn_world *w, double dt, cairn_diag *d) {
  ball_store *b = &w->balls;
  int dim = w->dim, track = w->energy.on;
  const double g[3] = {w->gravity[0], w->gravity[1], w->gravity[2]};
  long nb = (long)b->n;
#pragma omp parallel for schedule(static) if (PARALLEL_WORTH(nb))
  for (long i = 0; i < nb; i++) {
    double eg = 0, ed = 0, a = b->damp[i];
    unsigned fix = b->fix[i];
    if (dim == 3 && !fix && a == 0 && !track)
      advance_ball(b, i, 3, 0, 0.0, 0, g, dt, &eg, &ed);
    else
      advance_ball(b, i, dim, fix, a, track, g, dt, &eg, &ed);
    if (track) w->fs.ework[i][0] = eg, w->fs.ework[i][1] = ed;
  }
  if (track) /* summed in ball order: the same total for any thread count */
    for (long i = 0; i < nb; i++) {
      w->energy.gravity += w->fs.ework[i][0];
      w->energy.damping += w->fs.ework[i][1];
    }
  for (size_t k = 0; k < w->walls.n; k++) {
    wall *wl = &w->walls.w[k];
    double dx[3];
    v3_scale(wl->vel, dt, dx);
    /* wl->force is what the balls push the wall with; the wall pushes them with its opposite.
       Its work is paired with the wall's motion from the middle of the last step to the middle
       of this one, as a ball's force is with its mid-step velocities. */
    if (track)
      for (int i = 0; i < 3; i++) w->energy.walls -= wl->force[i] * 0.5 * (wl->last_dx[i] + dx[i]);
    v3_copy(dx, wl->last_dx);
    if (dx[0] == 0 && dx[1] == 0 && dx[2] == 0) continue;
    for (int n = 0; n < wl->n_nodes; n++) v3_add(wl->nodes[n], dx, wl->nodes[n]);
    v3_add(wl->point, dx, wl->point);
    v3_add(wl->disp, dx, wl->disp);
  }
  if (!w->has_domain) return CAIRN_OK;
  /* Balls whose centre left the domain: stop with an error, or delete them. */
  for (size_t i = b->n; i-- > 0;) {
    int out = 0;
    for (int k = 0; k < dim; k++)
      if (b->pos[i][k] < w->dom_min[k] || b->pos[i][k] > w->dom_max[k]) out = 1;
    if (!out) continue;
    if (w->dom_cond == DOMAIN_STOP) {
      char where[96];
      if (dim == 2)
        snprintf(where, sizeof where, "(%g, %g)", b->pos[i][0], b->pos[i][1]);
      else
        snprintf(where, sizeof where, "(%g, %g, %g)", b->pos[i][0], b->pos[i][1], b->pos[i][2]);
      return diag_set(d, CAIRN_ESTATE,
                      "ball %lld left the model domain at step %llu (position %s); enlarge "
                      "model.domain or set its condition to \"destroy\"",
                      (long long)b->id[i], (unsigned long long)w->step + 1, where);
    }
    CAIRN_TRY(ball_delete(w, b->id[i], d));
    w->n_destroyed++;
  }
  return CAIRN_OK;
}

/* Critical timestep estimate of one ball with translational stiffness kt and rotational kr. */
static double ball_dt(double m, double I, double kt, double kr) {
  double dt = INFINITY;
  if (kt > 0) dt = sqrt(m / kt);
  if (kr > 0 && sqrt(I / kr) < dt) dt = sqrt(I / kr);
  return dt;
}

/* The stiffest assignment of each contact kind, from the models' property-only estimates. */
static double assigned_stiffness(const cairn_world *w) {
  double kmax[2] = {0, 0};
  for (size_t r = 0; r <= w->cmat.n_rules; r++)
    for (int k = 0; k < 2; k++) {
      const cmat_rule *rule = r < w->cmat.n_rules ? &w->cmat.rules[r] : NULL;
      if (rule && rule->kind >= 0 && rule->kind != k) continue;
      const cmat_entry *ce = rule ? &rule->e : &w->cmat.def[k];
      double t, rot;
      w->reg.e[ce->model].m->stiffness(ce->props, &t, &rot);
      if (t > kmax[k]) kmax[k] = t;
    }
  return kmax[0] + kmax[1];
}

/* Smallest critical timestep over the balls; with 'free_only', balls fixed in translation and
   spin are left out (they are not integrated). */
static double min_ball_dt(const cairn_world *w, int free_only) {
  const ball_store *b = &w->balls;
  double dt = INFINITY;
  for (size_t i = 0; i < b->n; i++) {
    if (free_only && ball_translation_fixed(w, (uint32_t)i) && (b->fix[i] & FIX_SPIN)) continue;
    double e = ball_dt(b->mass[i], b->inertia[i], b->k_tran[i], b->k_rot[i]);
    if (e < dt) dt = e;
  }
  if (isfinite(dt)) return dt;
  /* No active contact yet: estimate from the assigned models' properties, as if each ball had
     one contact of each kind with the stiffest assignment of that kind. For rotation the whole
     translational stiffness acts at the ball's radius: an upper bound of the shear spring's
     k_s r^2, so the estimate errs on the safe side. */
  double kt = assigned_stiffness(w);
  for (size_t i = 0; i < b->n && kt > 0; i++) {
    if (free_only && ball_translation_fixed(w, (uint32_t)i) && (b->fix[i] & FIX_SPIN)) continue;
    double e = ball_dt(b->mass[i], b->inertia[i], kt, kt * b->rad[i] * b->rad[i]);
    if (e < dt) dt = e;
  }
  return dt;
}

cairn_status cycle_timestep(cairn_world *w, double *dt_out, cairn_diag *d) {
  if (w->ts_mode == TS_FIXED) {
    *dt_out = w->dt;
    return CAIRN_OK;
  }
  double dt = min_ball_dt(w, 1);
  /* Every ball fixed: nothing is integrated, but time still advances at the pace of the
     contacts, so take the estimate over all balls. */
  if (!isfinite(dt)) dt = min_ball_dt(w, 0);
  if (!isfinite(dt)) {
    CAIRN_CHECK(w->dt > 0, d, CAIRN_ESTATE,
                "the automatic timestep has no stiffness to work from (no active contact and "
                "no assigned contact model with stiffness); set model.timestep{fix = DT}");
    *dt_out = w->dt;
    return CAIRN_OK;
  }
  *dt_out = w->dt_safety * dt;
  return CAIRN_OK;
}

static cairn_status one_step(cairn_world *w, cairn_diag *d) {
  CAIRN_TRY(detect_update(w, d));
  CAIRN_TRY(world_call_hook(w, HOOK_BEFORE_FORCE, d));
  double dt = 0;
  CAIRN_TRY(cycle_timestep(w, &dt, d));
  w->dt = dt;
  CAIRN_TRY(compute_forces(w, dt, d));
  CAIRN_TRY(world_call_hook(w, HOOK_AFTER_FORCE, d));
  CAIRN_TRY(motion(w, dt, d));
  w->time += dt;
  w->step++;
  if (w->hist.interval && w->step % w->hist.interval == 0) CAIRN_TRY(history_sample(w, d));
  if (w->after_step) CAIRN_TRY(w->after_step(w->after_step_ud, w, d));
  return CAIRN_OK;
}

/* Report progress every 256 steps (the reporter decides whether to show anything). */
static inline void report(cairn_world *w, double fraction, uint64_t steps, int done) {
  if (w->progress && (done || (steps & 255) == 0))
    w->progress(w->progress_ud, fraction, steps, done);
}

cairn_status cycle_run(cairn_world *w, uint64_t n, cairn_diag *d) {
  cairn_status s = CAIRN_OK;
  for (uint64_t i = 0; i < n && s == CAIRN_OK; i++) {
    s = one_step(w, d);
    report(w, (double)(i + 1) / (double)n, i + 1, 0);
  }
  report(w, 1.0, n, 1);
  return s;
}

cairn_status cycle_solve_time(cairn_world *w, double t_end, cairn_diag *d) {
  CAIRN_CHECK(isfinite(t_end), d, CAIRN_EINVAL, "solve time must be finite (got %g)", t_end);
  if (w->ts_mode == TS_FIXED) {
    /* Whole steps to reach t_end; a remainder below 1e-9 of a step is round-off. */
    double steps = (t_end - w->time) / w->dt;
    if (steps <= 1e-9) return CAIRN_OK;
    return cycle_run(w, (uint64_t)ceil(steps - 1e-9), d);
  }
  double t0 = w->time;
  uint64_t steps = 0;
  cairn_status s = CAIRN_OK;
  while (w->time < t_end && s == CAIRN_OK) {
    s = one_step(w, d);
    report(w, (w->time - t0) / (t_end - t0), ++steps, 0);
  }
  report(w, 1.0, steps, 1);
  return s;
}

cairn_status cycle_detect_only(cairn_world *w, cairn_diag *d) {
  CAIRN_TRY(detect_update(w, d));
  return world_call_hook(w, HOOK_EVENTS, d);
}
