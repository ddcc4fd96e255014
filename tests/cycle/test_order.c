/* The order of the arrays does not change a run (design.md, Scale): two copies of the same model
   are run side by side, one of them with its balls, contacts and neighbour pairs put in a new
   random order (cycle_shuffle) every few steps, and after every few steps every ball's position,
   velocity, spin, force and moment, every contact's geometry, force and model state, every wall's
   force, the time, the timestep and the energy books must be the same, bit for bit. This is what
   lets any thread count, and any number of MPI ranks (which hold the balls and contacts in other
   orders), give the same run: each ball sums its contacts in the order of its partners' keys
   (rebuild cells, then ids) and every sum over many balls or contacts is exact. No tolerance: a
   single bit of difference is a sum that depends on the order. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "contact/contact.h"
#include "contact/energy.h"
#include "cycle/cycle.h"
#include "detect/detect.h"
#include "world/world.h"

#define OK(expr)                                                                                   \
  do {                                                                                             \
    cairn_diag d_ = {{0}};                                                                         \
    cairn_status s_ = (expr);                                                                      \
    if (s_ != CAIRN_OK) fail_msg("%s: %s", #expr, d_.msg);                                         \
  } while (0)

typedef struct setup_opts {
  int dim, auto_dt, energy;
} setup_opts;

static void prop(cairn_world *w, int kind, const char *name, double v) {
  cairn_diag d = {{0}};
  if (cmat_set_prop(w, kind, name, &v, 1, &d) != CAIRN_OK) fail_msg("%s: %s", name, d.msg);
}

/* A box of balls thrown about under gravity: linear contacts with dashpots and friction between
   the balls, Burger's contacts with the walls; many contacts are made and broken. */
static cairn_world *build(const setup_opts *o) {
  cairn_world *w = NULL;
  cairn_world_opts wo = {.dim = o->dim};
  cairn_diag d = {{0}};
  if (cairn_world_create(&wo, &w, &d) != CAIRN_OK) fail_msg("%s", d.msg);
  w->gravity[o->dim - 1] = -9.81;
  if (cmat_set_default(w, CAIRN_KIND_BALL_BALL, "linear", 0.0, &d) != CAIRN_OK)
    fail_msg("%s", d.msg);
  prop(w, CAIRN_KIND_BALL_BALL, "kn", 1e6);
  prop(w, CAIRN_KIND_BALL_BALL, "ks", 5e5);
  prop(w, CAIRN_KIND_BALL_BALL, "fric", 0.4);
  prop(w, CAIRN_KIND_BALL_BALL, "dp_nratio", 0.2);
  prop(w, CAIRN_KIND_BALL_BALL, "dp_sratio", 0.1);
  if (cmat_set_default(w, CAIRN_KIND_BALL_WALL, "burger", 0.0, &d) != CAIRN_OK)
    fail_msg("%s", d.msg);
  prop(w, CAIRN_KIND_BALL_WALL, "bur_knk", 2e6);
  prop(w, CAIRN_KIND_BALL_WALL, "bur_cnk", 2e3);
  prop(w, CAIRN_KIND_BALL_WALL, "bur_knm", 2e6);
  prop(w, CAIRN_KIND_BALL_WALL, "bur_cnm", 1e5);
  prop(w, CAIRN_KIND_BALL_WALL, "bur_ksk", 1e6);
  prop(w, CAIRN_KIND_BALL_WALL, "bur_csk", 1e3);
  prop(w, CAIRN_KIND_BALL_WALL, "bur_ksm", 1e6);
  prop(w, CAIRN_KIND_BALL_WALL, "bur_csm", 1e5);
  prop(w, CAIRN_KIND_BALL_WALL, "bur_fric", 0.3);
  /* walls: the floor and the sides of a box 0.8 wide (3D: planes; 2D: segments) */
  const double L = 0.8;
  int64_t id;
  if (o->dim == 3) {
    const double pts[5][3] = {{0, 0, 0}, {0, 0, 0}, {L, 0, 0}, {0, 0, 0}, {0, L, 0}};
    const double nrm[5][3] = {{0, 0, 1}, {1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}};
    for (int k = 0; k < 5; k++) {
      wall_spec s = {.kind = WALL_PLANE};
      memcpy(s.point, pts[k], sizeof s.point);
      memcpy(s.normal, nrm[k], sizeof s.normal);
      OK(wall_create(w, &s, &id, &d_));
    }
  } else {
    const double seg[3][2][3] = {
        {{-0.01, 0, 0}, {L + 0.01, 0, 0}}, {{0, 2, 0}, {0, -0.01, 0}}, {{L, -0.01, 0}, {L, 2, 0}}};
    for (int k = 0; k < 3; k++) {
      wall_spec s = {.kind = WALL_SEGMENT, .n_nodes = 2};
      memcpy(s.nodes, seg[k], sizeof seg[k]);
      OK(wall_create(w, &s, &id, &d_));
    }
  }
  /* balls on a jittered lattice with random velocities (a fixed stream: both copies alike);
     ids given out of lattice order, so that id order and space order differ */
  uint64_t x = 12345;
  int n = o->dim == 3 ? 6 : 12, nz = o->dim == 3 ? 6 : 14, count = 0;
  for (int k = 0; k < nz; k++)
    for (int j = 0; j < (o->dim == 3 ? n : 1); j++)
      for (int i = 0; i < n; i++) {
        double r[7];
        for (int q = 0; q < 7; q++) {
          x ^= x << 13, x ^= x >> 7, x ^= x << 17;
          r[q] = (double)(x >> 11) / 9007199254740992.0;
        }
        ball_spec b = {.rad = 0.04 + 0.01 * r[0], .density = 2000};
        b.id = 1 + (count * 37) % (n * n * nz);
        count++;
        double h = 0.11;
        b.pos[0] = 0.07 + h * i + 0.004 * (r[1] - 0.5);
        if (o->dim == 3) {
          b.pos[1] = 0.07 + h * j + 0.004 * (r[2] - 0.5);
          b.pos[2] = 0.07 + h * k + 0.004 * (r[3] - 0.5);
        } else {
          b.pos[1] = 0.07 + h * k + 0.004 * (r[3] - 0.5);
        }
        for (int q = 0; q < o->dim; q++) b.vel[q] = 1.0 * (r[4 + q] - 0.5);
        OK(ball_create(w, &b, &id, &d_));
      }
  if (o->auto_dt) {
    w->ts_mode = TS_AUTO;
    w->dt_safety = 0.8;
    w->dt_impact = 8;
  } else {
    w->ts_mode = TS_FIXED;
    w->dt = 2.5e-4;
  }
  if (o->energy) energy_set_tracking(w, 1);
  return w;
}

#define SAME(a, b, n, what, who)                                                                   \
  do {                                                                                             \
    if (memcmp((a), (b), (n)) != 0) fail_msg("step %llu: %s of %s differs", step, what, who);      \
  } while (0)

static void assert_same(cairn_world *a, cairn_world *b) {
  unsigned long long step = (unsigned long long)a->step;
  assert_int_equal(a->step, b->step);
  SAME(&a->time, &b->time, sizeof a->time, "time", "the model");
  SAME(&a->dt, &b->dt, sizeof a->dt, "timestep", "the model");
  assert_int_equal(a->balls.n, b->balls.n);
  for (size_t i = 0; i < a->balls.n; i++) {
    uint32_t j = 0;
    OK(ball_slot(b, a->balls.id[i], &j, &d_));
    char who[32];
    snprintf(who, sizeof who, "ball %lld", (long long)a->balls.id[i]);
    SAME(a->balls.pos[i], b->balls.pos[j], 24, "position", who);
    SAME(a->balls.vel[i], b->balls.vel[j], 24, "velocity", who);
    SAME(a->balls.spin[i], b->balls.spin[j], 24, "spin", who);
    SAME(a->balls.force[i], b->balls.force[j], 24, "force", who);
    SAME(a->balls.moment[i], b->balls.moment[j], 24, "moment", who);
    SAME(&a->balls.k_tran[i], &b->balls.k_tran[j], 8, "stiffness sum", who);
  }
  const contact_store *ca = a->contacts, *cb = b->contacts;
  assert_int_equal(ca->n, cb->n);
  for (size_t c = 0; c < ca->n; c++) {
    int64_t i1, i2;
    uint32_t k = 0;
    contact_ids(a, (uint32_t)c, &i1, &i2);
    OK(contact_find(b, ca->kind[c], i1, i2, &k, &d_));
    char who[64];
    snprintf(who, sizeof who, "contact %lld-%lld", (long long)i1, (long long)i2);
    SAME(ca->force[c], cb->force[k], 24, "force", who);
    SAME(ca->normal[c], cb->normal[k], 24, "normal", who);
    SAME(&ca->gap[c], &cb->gap[k], 8, "gap", who);
    assert_int_equal(ca->model[c], cb->model[k]);
    const model_entry *e = &a->reg->e[ca->model[c]];
    SAME(pool_state(e, ca->blk[c]), pool_state(&b->reg->e[cb->model[k]], cb->blk[k]),
         (size_t)e->n_state_slots * sizeof(double), "model state", who);
  }
  for (size_t k = 0; k < a->walls.n; k++) {
    SAME(a->walls.w[k].force, b->walls.w[k].force, 24, "force", "a wall");
    SAME(&a->walls.w[k].k_normal, &b->walls.w[k].k_normal, 8, "stiffness", "a wall");
  }
  energy_report ea, eb;
  energy_report_get(a, &ea);
  energy_report_get(b, &eb);
  SAME(&ea, &eb, sizeof ea, "energy books", "the model");
}

/* A change between calls, made to both copies alike (k: the chunk), as a script makes them: a
   new default property (the neighbour list goes stale: the next call rebuilds it) and a deleted
   ball (its contacts go, their energy booked). The order of the pairs rebuilt then must not
   matter either. */
static void change_between_calls(cairn_world *w, int k) {
  if (k % 8 == 3) prop(w, CAIRN_KIND_BALL_BALL, "fric", k % 16 == 3 ? 0.3 : 0.4);
  if (k % 8 == 6) {
    int64_t id = 0; /* the least id of those with id % 7 == k % 7: by ids, whatever the order */
    for (size_t i = 0; i < w->balls.n; i++)
      if (w->balls.id[i] % 7 == (int64_t)(k % 7) && (id == 0 || w->balls.id[i] < id))
        id = w->balls.id[i];
    if (id) OK(contact_delete_ball(w, id, &d_));
  }
}

static void run_pair(const setup_opts *o, int chunks, int steps) {
  cairn_world *a = build(o), *b = build(o);
  size_t made = 0;
  for (int k = 0; k < chunks; k++) {
    change_between_calls(a, k);
    change_between_calls(b, k);
    OK(cycle_shuffle(b, (uint64_t)k + 1, &d_));
    OK(cycle_run(a, (uint64_t)steps, &d_));
    OK(cycle_run(b, (uint64_t)steps, &d_));
    assert_same(a, b);
    if (a->contacts->n > made) made = a->contacts->n;
  }
  print_message("balls %zu, most contacts %zu, rebuilds %llu, time %g\n", a->balls.n, made,
                (unsigned long long)a->pairs->rebuilds, a->time);
  /* the run did what it is for: contacts of both kinds, made and broken */
  assert_true(made > a->balls.n / 2);
  assert_true(a->pairs->rebuilds > 3);
  cairn_world_destroy(&a);
  cairn_world_destroy(&b);
}

static void order_3d_fixed(void **state) {
  (void)state;
  setup_opts o = {.dim = 3};
  run_pair(&o, 40, 50);
}

static void order_3d_auto_energy(void **state) {
  (void)state;
  setup_opts o = {.dim = 3, .auto_dt = 1, .energy = 1};
  run_pair(&o, 40, 50);
}

static void order_2d_energy(void **state) {
  (void)state;
  setup_opts o = {.dim = 2, .energy = 1};
  run_pair(&o, 40, 50);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(order_3d_fixed),
      cmocka_unit_test(order_3d_auto_energy),
      cmocka_unit_test(order_2d_energy),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
