/* Every built-in model's batch entry gives bit for bit what its per-contact force function gives
   (contact_model.h: force_batch "must give exactly what n calls of 'force' would"). Each model
   runs a set of contacts through a sequence of steps with varied inputs (touching and open,
   loading and unloading, sliding and sticking) twice, once contact by contact and once a whole
   set per call, and every output block and state block must match to the bit. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "models/builtin.h"

enum { N_CONTACTS = 24, N_STEPS = 200, MAX_SLOTS = 256 };

/* A small deterministic generator (xorshift64), so the test sees the same inputs every run. */
static double uniform(uint64_t *s) {
  *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
  return (double)(*s >> 11) / 9007199254740992.0;
}

/* Property values inside each row's range: a bounded row anywhere in it, an unbounded one a
   few times its default (or of 1e3 where the default is 0, a stiffness-like scale). */
static void fill_props(const cairn_contact_model *m, double *props, uint64_t *rng) {
  int off = 0;
  for (int i = 0; i < m->n_props; i++) {
    const cairn_prop_desc *p = &m->props[i];
    if (p->access == CAIRN_ALIAS) continue;
    int k = cairn_prop_slots(p->type);
    for (int j = 0; j < k; j++) {
      double v;
      if (p->type == CAIRN_PROP_INT || p->type == CAIRN_PROP_BOOL) {
        double hi = isfinite(p->max) ? p->max : p->min + 3;
        v = floor(p->min + uniform(rng) * (hi - p->min + 1));
        if (v > hi) v = hi;
      } else if (isfinite(p->max) && isfinite(p->min)) {
        v = p->min + uniform(rng) * (p->max - p->min);
      } else {
        double base = p->def != 0 ? fabs(p->def) : 1e3;
        v = (isfinite(p->min) ? p->min : 0) + base * (0.5 + 2 * uniform(rng));
      }
      props[off + j] = v;
    }
    off += k;
  }
}

static void fill_input(cairn_cm_input *in, int first, uint64_t *rng) {
  in->dim = 3;
  in->kind = uniform(rng) < 0.8 ? CAIRN_KIND_BALL_BALL : CAIRN_KIND_BALL_WALL;
  in->first = first;
  in->dt = 1e-3;
  in->gap = (uniform(rng) - 0.8) * 1e-2; /* mostly touching */
  for (int k = 0; k < 3; k++) {
    in->vel[k] = (uniform(rng) - 0.5) * (k == 0 ? 1.0 : 20.0);
    in->angvel[k] = (uniform(rng) - 0.5) * 10.0;
  }
  in->m_eff = 0.5 + uniform(rng);
  in->r1 = in->kind == CAIRN_KIND_BALL_BALL ? 0.1 : 0.0;
  in->r2 = 0.1;
  in->r_eff = in->kind == CAIRN_KIND_BALL_BALL ? 0.05 : 0.1;
  in->energy = uniform(rng) < 0.5;
}

static void output_init(cairn_cm_output *out) {
  memset(out, 0, sizeof *out);
  out->may_delete = 1;
}

static void check_model(const cairn_contact_model *m) {
  assert_non_null(m->force_batch);
  int n_props = 0, n_state = 0;
  for (int i = 0; i < m->n_props; i++)
    if (m->props[i].access != CAIRN_ALIAS) n_props += cairn_prop_slots(m->props[i].type);
  for (int i = 0; i < m->n_state; i++) n_state += cairn_prop_slots(m->state[i].type);
  assert_true(n_props <= MAX_SLOTS && n_state <= MAX_SLOTS && m->n_derived <= MAX_SLOTS);
  static double props[N_CONTACTS][MAX_SLOTS], derived[N_CONTACTS][MAX_SLOTS];
  static double st1[N_CONTACTS][MAX_SLOTS], st2[N_CONTACTS][MAX_SLOTS];
  uint64_t rng = 0x9e3779b97f4a7c15ull;
  memset(props, 0, sizeof props), memset(derived, 0, sizeof derived);
  memset(st1, 0, sizeof st1), memset(st2, 0, sizeof st2);
  for (int c = 0; c < N_CONTACTS; c++) {
    fill_props(m, props[c], &rng);
    if (m->prepare) m->prepare(props[c], derived[c]);
  }
  int n_active = 0;
  for (int step = 0; step < N_STEPS; step++) {
    cairn_cm_input in[N_CONTACTS];
    cairn_cm_output o1[N_CONTACTS], o2[N_CONTACTS];
    cairn_cm_blocks blk[N_CONTACTS];
    for (int c = 0; c < N_CONTACTS; c++) {
      memset(&in[c], 0, sizeof in[c]);
      fill_input(&in[c], step == 0, &rng);
      output_init(&o1[c]), output_init(&o2[c]);
      m->force(&in[c], props[c], derived[c], st1[c], &o1[c]);
      blk[c] = (cairn_cm_blocks){props[c], derived[c], st2[c]};
    }
    m->force_batch(N_CONTACTS, in, blk, o2);
    for (int c = 0; c < N_CONTACTS; c++) {
      if (memcmp(&o1[c], &o2[c], sizeof o1[c]) != 0)
        fail_msg("%s: step %d contact %d: the batch output differs from force's", m->name, step, c);
      if (memcmp(st1[c], st2[c], (size_t)n_state * sizeof(double)) != 0)
        fail_msg("%s: step %d contact %d: the batch state differs from force's", m->name, step, c);
      n_active += o1[c].active;
    }
  }
  /* The inputs must have exercised the model, not only its open branch. */
  if (strcmp(m->name, "null") != 0) assert_true(n_active > N_CONTACTS * N_STEPS / 4);
}

static void test_batch_linear(void **s) {
  (void)s, check_model(&cairn_model_linear);
}
static void test_batch_burger(void **s) {
  (void)s, check_model(&cairn_model_burger);
}
static void test_batch_viscous(void **s) {
  (void)s, check_model(&cairn_model_viscous);
}
static void test_batch_ductile(void **s) {
  (void)s, check_model(&cairn_model_ductile);
}
static void test_batch_softening(void **s) {
  (void)s, check_model(&cairn_model_softening);
}
static void test_batch_hysdamp(void **s) {
  (void)s, check_model(&cairn_model_hysdamp);
}
static void test_batch_null(void **s) {
  (void)s, check_model(&cairn_model_null);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_batch_linear),    cmocka_unit_test(test_batch_burger),
      cmocka_unit_test(test_batch_viscous),   cmocka_unit_test(test_batch_ductile),
      cmocka_unit_test(test_batch_softening), cmocka_unit_test(test_batch_hysdamp),
      cmocka_unit_test(test_batch_null),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
