/* Tests of src/contact/registry.c: the checks a model's tables pass at registration (with their
   messages), the slot layout, and the generic property writer (type, range, access, and
   properties that take their default from another one). Uses a small model defined here. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "contact/contact.h"

static void tm_force(const cairn_cm_input *in, const double *props, const double *derived,
                     double *state, cairn_cm_output *out) {
  (void)in, (void)props, (void)derived, (void)state, (void)out;
}

static void tm_stiffness(const double *props, double *k_tran, double *k_rot) {
  *k_tran = props[0];
  *k_rot = 0;
}

/* clang-format off */
static const cairn_prop_desc tm_props[] = {
  /* name       type             unit  def  min        max       access    doc  default_from */
  {"tm_a",     CAIRN_PROP_FLT,  "-",  1.0, 0.0,       10.0,     CAIRN_RW, "a",  NULL},
  {"tm_v",     CAIRN_PROP_VEC,  "m",  0.5, -INFINITY, INFINITY, CAIRN_RW, "v",  NULL},
  {"tm_b",     CAIRN_PROP_FLT,  "-",  2.0, 0.0,       10.0,     CAIRN_RW, "b",  "tm_a"},
  {"tm_n",     CAIRN_PROP_INT,  "-",  3.0, 0.0,       100.0,    CAIRN_RW, "n",  NULL},
  {"tm_flag",  CAIRN_PROP_BOOL, "-",  0.0, 0.0,       1.0,      CAIRN_RW, "f",  NULL},
  {"tm_ro",    CAIRN_PROP_FLT,  "-",  5.0, 0.0,       10.0,     CAIRN_RO, "ro", NULL},
  {"tm_c",     CAIRN_PROP_FLT,  "-",  3.0, 0.0,       10.0,     CAIRN_RW, "c",  "tm_b"},
  {"tm_w",     CAIRN_PROP_VEC,  "-",  0.0, -1.0,      1.0,      CAIRN_RW, "w",  NULL},
};
/* clang-format on */
enum { A, V, B, N, FLAG, RO, C, W, N_PROPS }; /* rows */

static const cairn_state_desc tm_state[] = {
    {"tm_s", CAIRN_PROP_FLT, 0, "N", "a state scalar"},
    {"tm_sv", CAIRN_PROP_VEC, CAIRN_STATE_PLANE_XYZ, "N", "a state vector"},
};

static const cairn_contact_model tm_model = {
    .abi_version = CAIRN_CM_ABI_VERSION,
    .name = "tm",
    .version = 1,
    .doc = "test model",
    .props = tm_props,
    .n_props = N_PROPS,
    .state = tm_state,
    .n_state = 2,
    .n_derived = 2,
    .force = tm_force,
    .stiffness = tm_stiffness,
};

/* A writable copy of the model and its property table, to break one thing at a time. */
typedef struct bad_model {
  cairn_contact_model m;
  cairn_prop_desc props[N_PROPS];
  cairn_state_desc state[2];
} bad_model;

static void bad_model_init(bad_model *b) {
  b->m = tm_model;
  memcpy(b->props, tm_props, sizeof tm_props);
  memcpy(b->state, tm_state, sizeof tm_state);
  b->m.props = b->props;
  b->m.state = b->state;
}

/* Expect registry_add to refuse m with 'status' and a message containing 'text', adding
   nothing. */
static void assert_refused(const cairn_contact_model *m, cairn_status status, const char *text) {
  registry r = {0};
  cairn_diag d = {{0}};
  assert_int_equal(registry_add(&r, m, "test", &d), status);
  if (!strstr(d.msg, text)) fail_msg("message '%s' lacks '%s'", d.msg, text);
  assert_int_equal(r.n, 0);
  registry_free(&r);
}

static void test_registry_add_accepts_the_test_model(void **state) {
  (void)state;
  registry r = {0};
  cairn_diag d = {{0}};
  assert_int_equal(registry_add(&r, &tm_model, "test", &d), CAIRN_OK);
  assert_int_equal(r.n, 1);
  assert_int_equal(registry_find(&r, "tm"), 0);
  assert_int_equal(registry_find(&r, "nope"), -1);
  assert_string_equal(r.e[0].source, "test");
  registry_free(&r);
}

static void test_registry_add_lays_out_slots_in_table_order(void **state) {
  (void)state;
  registry r = {0};
  cairn_diag d = {{0}};
  assert_int_equal(registry_add(&r, &tm_model, "test", &d), CAIRN_OK);
  const model_entry *e = &r.e[0];
  /* tm_a 1 slot, tm_v 3, then one each, tm_w 3. */
  int expect[N_PROPS] = {0, 1, 4, 5, 6, 7, 8, 9};
  for (int i = 0; i < N_PROPS; i++) assert_int_equal(e->prop_off[i], expect[i]);
  assert_int_equal(e->n_prop_slots, 12);
  assert_int_equal(e->state_off[0], 0);
  assert_int_equal(e->state_off[1], 1);
  /* a contact-plane VEC keeps its normal component and a global in-plane vector: 4 slots */
  assert_int_equal(e->n_state_slots, 5);
  assert_int_equal(e->pool.stride, 5);       /* a state block per contact */
  assert_int_equal(e->ppool.stride, 12 + 2); /* a shared property block: props | derived */
  registry_free(&r);
}

static void test_registry_add_refuses_another_abi_version(void **state) {
  (void)state;
  bad_model b;
  bad_model_init(&b);
  b.m.abi_version = CAIRN_CM_ABI_VERSION + 1;
  char text[128];
  snprintf(text, sizeof text,
           "contact model 'tm': built for contact-model ABI %d, this cairn "
           "needs ABI %d; rebuild it",
           CAIRN_CM_ABI_VERSION + 1, CAIRN_CM_ABI_VERSION);
  assert_refused(&b.m, CAIRN_EABI, text);
}

static void test_registry_add_refuses_a_model_without_force_function(void **state) {
  (void)state;
  bad_model b;
  bad_model_init(&b);
  b.m.force = NULL;
  b.m.force_slice = NULL;
  assert_refused(&b.m, CAIRN_EABI, "a force law ('force' or 'force_slice') and the stiffness");
  bad_model_init(&b);
  b.m.stiffness = NULL;
  assert_refused(&b.m, CAIRN_EABI, "a force law ('force' or 'force_slice') and the stiffness");
}

static void test_registry_add_refuses_a_model_without_name(void **state) {
  (void)state;
  bad_model b;
  bad_model_init(&b);
  b.m.name = "";
  assert_refused(&b.m, CAIRN_EABI, "a contact model has no name");
  b.m.name = NULL;
  assert_refused(&b.m, CAIRN_EABI, "a contact model has no name");
}

static void test_registry_add_refuses_a_repeated_property_name(void **state) {
  (void)state;
  bad_model b;
  bad_model_init(&b);
  b.props[N].name = "tm_a";
  assert_refused(&b.m, CAIRN_EABI, "contact model 'tm': property/state name 'tm_a' is repeated");
  /* A state field may not share a property's name either: both are read by name. */
  bad_model_init(&b);
  b.state[1].name = "tm_b";
  assert_refused(&b.m, CAIRN_EABI, "name 'tm_b' is repeated");
}

static void test_registry_add_refuses_an_empty_range(void **state) {
  (void)state;
  bad_model b;
  bad_model_init(&b);
  b.props[A].min = 2.0;
  b.props[A].max = 1.0;
  b.props[A].def = 1.5;
  assert_refused(&b.m, CAIRN_EABI, "property 'tm_a' has an empty range [2, 1]");
}

static void test_registry_add_refuses_a_default_outside_the_range(void **state) {
  (void)state;
  bad_model b;
  bad_model_init(&b);
  b.props[N].def = 101;
  assert_refused(&b.m, CAIRN_EABI, "property 'tm_n' default 101 lies outside its range [0, 100]");
  bad_model_init(&b);
  b.props[A].def = -0.5;
  assert_refused(&b.m, CAIRN_EABI, "property 'tm_a' default -0.5 lies outside its range");
}

static void test_registry_add_refuses_default_from_a_missing_property(void **state) {
  (void)state;
  bad_model b;
  bad_model_init(&b);
  b.props[B].default_from = "tm_nope";
  assert_refused(&b.m, CAIRN_EABI,
                 "property 'tm_b' takes its default from 'tm_nope', which the table does not "
                 "have");
  /* Not from itself, nor from a state field. */
  bad_model_init(&b);
  b.props[B].default_from = "tm_b";
  assert_refused(&b.m, CAIRN_EABI, "takes its default from 'tm_b'");
  bad_model_init(&b);
  b.props[B].default_from = "tm_s";
  assert_refused(&b.m, CAIRN_EABI, "takes its default from 'tm_s'");
}

/* Names go as they are into scripts, CSV headers and VTK files (XML attributes): a letter,
   then letters, digits and '_', for the model and every row. */
static void test_registry_add_refuses_names_that_are_not_plain(void **state) {
  (void)state;
  const char *bad[] = {"tm a", "tm\"x", "1tm", "tm<b>", "tm&", "_tm", "t\xc3\xa9"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    bad_model b;
    bad_model_init(&b);
    b.props[A].name = bad[i];
    b.props[B].default_from = bad[i];
    assert_refused(&b.m, CAIRN_EABI, "is not a plain name; use a letter, then letters");
    bad_model_init(&b);
    b.state[0].name = bad[i];
    assert_refused(&b.m, CAIRN_EABI, "is not a plain name");
    bad_model_init(&b);
    b.m.name = bad[i];
    assert_refused(&b.m, CAIRN_EABI, "the name is not a plain name");
  }
}

/* A range bound that is NaN, a default of the wrong type, a state flag on the wrong type or an
   unknown one, and a default taken from a property of wider range: each refused by name. */
static void test_registry_add_refuses_bad_ranges_types_and_flags(void **state) {
  (void)state;
  bad_model b;
  bad_model_init(&b);
  b.props[A].max = NAN;
  assert_refused(&b.m, CAIRN_EABI, "property 'tm_a' has a range bound that is not a number");
  bad_model_init(&b);
  b.props[N].def = 2.5;
  assert_refused(&b.m, CAIRN_EABI, "property 'tm_n' default 2.5 is not of its type (an integer)");
  bad_model_init(&b);
  b.props[FLAG].max = 5;
  b.props[FLAG].def = 3;
  assert_refused(&b.m, CAIRN_EABI, "property 'tm_flag' default 3 is not of its type (a boolean");
  bad_model_init(&b);
  b.state[0].flags = CAIRN_STATE_PLANE_XYZ;
  assert_refused(&b.m, CAIRN_EABI,
                 "state field 'tm_s' is flagged CAIRN_STATE_PLANE_XYZ but is not");
  bad_model_init(&b);
  b.state[1].flags = 8;
  assert_refused(&b.m, CAIRN_EABI, "state field 'tm_sv' has unknown flags 0x8");
  /* arrays: of scalars only, of 2 to CAIRN_STATE_ARRAY_MAX items */
  bad_model_init(&b);
  b.state[1].flags = CAIRN_STATE_ARRAY(4);
  assert_refused(&b.m, CAIRN_EABI, "state field 'tm_sv' is an array of 4 but not of scalars");
  bad_model_init(&b);
  b.state[0].flags = CAIRN_STATE_ARRAY(1);
  assert_refused(&b.m, CAIRN_EABI, "state field 'tm_s' has unknown flags 0x100");
  bad_model_init(&b);
  b.state[0].flags = CAIRN_STATE_ARRAY(CAIRN_STATE_ARRAY_MAX + 1);
  assert_refused(&b.m, CAIRN_EABI, "state field 'tm_s' has unknown flags 0x40100");
  /* counts of broken pieces: on a plain INT row, one flag alone, one row of each */
  bad_model_init(&b);
  b.state[0].flags = CAIRN_STATE_BROKE_TENSION; /* tm_s is a FLT */
  assert_refused(&b.m, CAIRN_EABI,
                 "state field 'tm_s' counts broken pieces but is not a plain INT field");
  bad_model_init(&b);
  b.state[0].type = CAIRN_PROP_INT;
  b.state[0].flags = CAIRN_STATE_BROKE_TENSION | CAIRN_STATE_BROKE_SHEAR;
  assert_refused(&b.m, CAIRN_EABI, "'tm_s' counts broken pieces but is not a plain INT");
  bad_model_init(&b);
  b.state[0].type = b.state[1].type = CAIRN_PROP_INT;
  b.state[0].flags = b.state[1].flags = CAIRN_STATE_BROKE_SHEAR;
  assert_refused(&b.m, CAIRN_EABI,
                 "state fields 'tm_s' and 'tm_sv' both count pieces broken in shear");
  bad_model_init(&b);
  b.props[A].max = 20; /* tm_b (range [0, 10]) takes its default from tm_a */
  assert_refused(&b.m, CAIRN_EABI,
                 "property 'tm_b' takes its default from 'tm_a', whose range is wider than its "
                 "own");
}

/* An array row of n scalars takes n slots, the rows after it move on by n. */
static void test_registry_add_lays_out_an_array_row(void **state) {
  (void)state;
  bad_model b;
  bad_model_init(&b);
  b.state[0].flags = CAIRN_STATE_ARRAY(5);
  registry r = {0};
  cairn_diag d = {{0}};
  assert_int_equal(registry_add(&r, &b.m, "test", &d), CAIRN_OK);
  assert_int_equal(cairn_state_items(&b.state[0]), 5);
  assert_int_equal(r.e[0].state_off[1], 5);
  assert_int_equal(r.e[0].n_state_slots, 9);
  registry_free(&r);
}

static void test_registry_add_refuses_a_name_already_registered(void **state) {
  (void)state;
  registry r = {0};
  cairn_diag d = {{0}};
  assert_int_equal(registry_add(&r, &tm_model, "libfirst.so", &d), CAIRN_OK);
  bad_model b;
  bad_model_init(&b); /* another table, same name */
  assert_int_equal(registry_add(&r, &b.m, "libsecond.so", &d), CAIRN_EINVAL);
  assert_non_null(strstr(d.msg, "contact model 'tm' is already registered (by libfirst.so)"));
  assert_int_equal(r.n, 1);
  registry_free(&r);
}

/* ---- model_prop_write ---- */

typedef struct fixture {
  registry r;
  const model_entry *e;
  double props[16];
  uint64_t setmask;
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  cairn_diag d = {{0}};
  if (!f || registry_add(&f->r, &tm_model, "test", &d) != CAIRN_OK) return -1;
  f->e = &f->r.e[0];
  model_props_default(f->e, f->props);
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  registry_free(&f->r);
  free(f);
  return 0;
}

static double prop(const fixture *f, int row) {
  return f->props[f->e->prop_off[row]];
}

/* Expect a write to fail with 'status' and 'text', leaving the block and the set mask as they
   were. */
static void assert_write_refused(fixture *f, const char *name, const double *v, int n,
                                 cairn_status status, const char *text) {
  double before[16];
  memcpy(before, f->props, sizeof before);
  uint64_t mask = f->setmask;
  cairn_diag d = {{0}};
  assert_int_equal(
      model_prop_write(f->e, f->props, &f->setmask, name, v, n, "contact ball-ball 1-2", &d),
      status);
  if (!strstr(d.msg, text)) fail_msg("message '%s' lacks '%s'", d.msg, text);
  assert_memory_equal(f->props, before, sizeof before);
  assert_int_equal(f->setmask, mask);
}

static void test_registry_defaults_fill_the_block(void **state) {
  fixture *f = *state;
  /* Exact: defaults are copied. */
  assert_true(prop(f, A) == 1.0);
  for (int k = 0; k < 3; k++) assert_true(f->props[f->e->prop_off[V] + k] == 0.5);
  assert_true(prop(f, N) == 3.0);
  assert_true(prop(f, RO) == 5.0);
}

static void test_registry_prop_write_rejects_an_unknown_property(void **state) {
  double v = 1;
  assert_write_refused(*state, "tm_zz", &v, 1, CAIRN_ENOTFOUND,
                       "contact ball-ball 1-2: contact model 'tm' has no property 'tm_zz'; run "
                       "`cairn models tm`");
}

static void test_registry_prop_write_rejects_a_state_field(void **state) {
  double v = 1;
  assert_write_refused(*state, "tm_s", &v, 1, CAIRN_EINVAL,
                       "property 'tm_s' of contact model 'tm' is read-only");
}

static void test_registry_prop_write_rejects_a_read_only_property(void **state) {
  double v = 1;
  assert_write_refused(*state, "tm_ro", &v, 1, CAIRN_EINVAL,
                       "property 'tm_ro' of contact model 'tm' is read-only");
}

static void test_registry_prop_write_rejects_values_out_of_range(void **state) {
  double v = 10.5;
  assert_write_refused(*state, "tm_a", &v, 1, CAIRN_EINVAL,
                       "property 'tm_a' = 10.5 is out of range [0, 10]");
  v = -1e-300;
  assert_write_refused(*state, "tm_a", &v, 1, CAIRN_EINVAL, "out of range");
  v = INFINITY;
  assert_write_refused(*state, "tm_n", &v, 1, CAIRN_EINVAL, "out of range");
  v = NAN;
  assert_write_refused(*state, "tm_a", &v, 1, CAIRN_EINVAL, "must be a number (got NaN)");
  /* The ends of the range are allowed. */
  fixture *f = *state;
  cairn_diag d = {{0}};
  v = 10.0;
  assert_int_equal(model_prop_write(f->e, f->props, &f->setmask, "tm_a", &v, 1, "x", &d), CAIRN_OK);
  assert_true(prop(f, A) == 10.0);
  v = 0.0;
  assert_int_equal(model_prop_write(f->e, f->props, &f->setmask, "tm_a", &v, 1, "x", &d), CAIRN_OK);
  assert_true(prop(f, A) == 0.0);
}

static void test_registry_prop_write_rejects_a_non_integer_for_int_and_bool(void **state) {
  double v = 2.5;
  assert_write_refused(*state, "tm_n", &v, 1, CAIRN_EINVAL,
                       "property 'tm_n' takes an integer (got 2.5)");
  v = 2.0;
  assert_write_refused(*state, "tm_flag", &v, 1, CAIRN_EINVAL, "takes a boolean");
  v = 0.5;
  assert_write_refused(*state, "tm_flag", &v, 1, CAIRN_EINVAL, "takes a boolean");
  fixture *f = *state;
  cairn_diag d = {{0}};
  v = 42;
  assert_int_equal(model_prop_write(f->e, f->props, &f->setmask, "tm_n", &v, 1, "x", &d), CAIRN_OK);
  assert_true(prop(f, N) == 42.0);
}

static void test_registry_prop_write_rejects_a_wrong_value_count(void **state) {
  double v[3] = {1, 2, 3};
  assert_write_refused(*state, "tm_v", v, 1, CAIRN_EINVAL,
                       "property 'tm_v' takes a vector of 3 numbers (got 1 value)");
  assert_write_refused(*state, "tm_v", v, 2, CAIRN_EINVAL, "(got 2 values)");
  assert_write_refused(*state, "tm_a", v, 3, CAIRN_EINVAL,
                       "property 'tm_a' takes a number (got 3 values)");
  fixture *f = *state;
  cairn_diag d = {{0}};
  assert_int_equal(model_prop_write(f->e, f->props, &f->setmask, "tm_v", v, 3, "x", &d), CAIRN_OK);
  for (int k = 0; k < 3; k++) assert_true(f->props[f->e->prop_off[V] + k] == v[k]);
  assert_int_equal(f->setmask, 1ull << V);
}

static void test_registry_prop_write_checks_the_range_of_each_vector_component(void **state) {
  /* contact_model.h: min and max are an "inclusive range, checked on every write"; for a VEC the
     default applies to each component, so does the range. */
  double v[3] = {0.5, 2.0, 0.0};
  assert_write_refused(*state, "tm_w", v, 3, CAIRN_EINVAL, "out of range [-1, 1]");
  v[1] = NAN;
  assert_write_refused(*state, "tm_w", v, 3, CAIRN_EINVAL, "must be a number (got NaN)");
}

static void test_registry_default_from_starts_at_the_source_default(void **state) {
  fixture *f = *state;
  /* tm_b takes tm_a's value until tm_b is set (contact_model.h, cairn_prop_desc.default_from),
     so a fresh block holds tm_a's default in tm_b, not tm_b's own 'def'. */
  assert_true(prop(f, B) == prop(f, A));
}

static void test_registry_default_from_follows_the_source_until_set(void **state) {
  fixture *f = *state;
  cairn_diag d = {{0}};
  double v = 4.0;
  assert_int_equal(model_prop_write(f->e, f->props, &f->setmask, "tm_a", &v, 1, "x", &d), CAIRN_OK);
  assert_true(prop(f, A) == 4.0);
  assert_true(prop(f, B) == 4.0); /* follows */
  assert_int_equal(f->setmask, 1ull << A);
  v = 7.0;
  assert_int_equal(model_prop_write(f->e, f->props, &f->setmask, "tm_b", &v, 1, "x", &d), CAIRN_OK);
  assert_int_equal(f->setmask, 1ull << A | 1ull << B);
  v = 5.0;
  assert_int_equal(model_prop_write(f->e, f->props, &f->setmask, "tm_a", &v, 1, "x", &d), CAIRN_OK);
  assert_true(prop(f, A) == 5.0);
  assert_true(prop(f, B) == 7.0); /* set: no longer follows */
  /* A refused write to the source changes nothing downstream. */
  v = 50.0;
  assert_int_equal(model_prop_write(f->e, f->props, &f->setmask, "tm_a", &v, 1, "x", &d),
                   CAIRN_EINVAL);
  assert_true(prop(f, B) == 7.0);
}

static void test_registry_default_from_follows_a_chain_of_sources(void **state) {
  fixture *f = *state;
  cairn_diag d = {{0}};
  /* tm_c follows tm_b, which follows tm_a: while neither is set, writing tm_a moves both. */
  double v = 6.0;
  assert_int_equal(model_prop_write(f->e, f->props, &f->setmask, "tm_a", &v, 1, "x", &d), CAIRN_OK);
  assert_true(prop(f, B) == 6.0);
  assert_true(prop(f, C) == 6.0);
}

/* An alias is another name for a property: no storage of its own, reads and writes go to the
   target, and the registry refuses an alias without a proper target. */
static const cairn_prop_desc alias_props[] = {
    {"al_mode", CAIRN_PROP_INT, "-", 0.0, 0.0, 1.0, CAIRN_RW, "mode", NULL},
    {"al_notension", CAIRN_PROP_INT, "-", 0.0, 0.0, 1.0, CAIRN_ALIAS, "old name", "al_mode"},
    {"al_k", CAIRN_PROP_FLT, "-", 2.0, 0.0, 10.0, CAIRN_RW, "k", NULL},
};

static void test_registry_alias_writes_its_target(void **state) {
  (void)state;
  cairn_contact_model m = tm_model;
  m.name = "al";
  m.props = alias_props;
  m.n_props = 3;
  registry r = {0};
  cairn_diag d = {{0}};
  assert_int_equal(registry_add(&r, &m, "test", &d), CAIRN_OK);
  const model_entry *e = &r.e[0];
  assert_int_equal(e->n_prop_slots, 2); /* the alias takes no slot */
  double props[2];
  model_props_default(e, props);
  assert_true(props[0] == 0.0 && props[1] == 2.0);
  uint64_t mask = 0;
  double v = 1;
  assert_int_equal(model_prop_write(e, props, &mask, "al_notension", &v, 1, "x", &d), CAIRN_OK);
  assert_true(props[0] == 1.0 && props[1] == 2.0);
  assert_int_equal(mask, 1ull << 0); /* recorded as a write of the target */
  v = 2;
  assert_int_equal(model_prop_write(e, props, &mask, "al_notension", &v, 1, "x", &d), CAIRN_EINVAL);
  assert_non_null(strstr(d.msg, "'al_mode' = 2 is out of range [0, 1]"));
  registry_free(&r);
}

static void test_registry_refuses_an_alias_without_target(void **state) {
  (void)state;
  cairn_prop_desc props[3];
  memcpy(props, alias_props, sizeof props);
  props[1].default_from = "al_nothing";
  cairn_contact_model m = tm_model;
  m.name = "al";
  m.props = props;
  m.n_props = 3;
  assert_refused(&m, CAIRN_EABI, "alias 'al_notension' must name, in default_from, another");
  props[1].default_from = "al_k"; /* of another type */
  assert_refused(&m, CAIRN_EABI, "alias 'al_notension' must name");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_registry_add_accepts_the_test_model),
      cmocka_unit_test(test_registry_add_lays_out_slots_in_table_order),
      cmocka_unit_test(test_registry_add_refuses_another_abi_version),
      cmocka_unit_test(test_registry_add_refuses_a_model_without_force_function),
      cmocka_unit_test(test_registry_add_refuses_a_model_without_name),
      cmocka_unit_test(test_registry_add_refuses_a_repeated_property_name),
      cmocka_unit_test(test_registry_add_refuses_an_empty_range),
      cmocka_unit_test(test_registry_add_refuses_a_default_outside_the_range),
      cmocka_unit_test(test_registry_add_refuses_default_from_a_missing_property),
      cmocka_unit_test(test_registry_add_refuses_names_that_are_not_plain),
      cmocka_unit_test(test_registry_add_refuses_bad_ranges_types_and_flags),
      cmocka_unit_test(test_registry_add_refuses_a_name_already_registered),
      cmocka_unit_test_setup_teardown(test_registry_defaults_fill_the_block, setup, teardown),
      cmocka_unit_test_setup_teardown(test_registry_prop_write_rejects_an_unknown_property, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_registry_prop_write_rejects_a_state_field, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_registry_prop_write_rejects_a_read_only_property, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_registry_prop_write_rejects_values_out_of_range, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(
          test_registry_prop_write_rejects_a_non_integer_for_int_and_bool, setup, teardown),
      cmocka_unit_test_setup_teardown(test_registry_prop_write_rejects_a_wrong_value_count, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(
          test_registry_prop_write_checks_the_range_of_each_vector_component, setup, teardown),
      cmocka_unit_test(test_registry_add_lays_out_an_array_row),
      cmocka_unit_test(test_registry_alias_writes_its_target),
      cmocka_unit_test(test_registry_refuses_an_alias_without_target),
      cmocka_unit_test_setup_teardown(test_registry_default_from_starts_at_the_source_default,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(test_registry_default_from_follows_the_source_until_set,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(test_registry_default_from_follows_a_chain_of_sources, setup,
                                      teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
