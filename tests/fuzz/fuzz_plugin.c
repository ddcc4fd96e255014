/* libFuzzer target: a plugin's property and state tables, as cairn checks them when a plugin is
   loaded (registry_add). Each input describes a model: its name and up to 70 property rows and
   70 state rows (names, types, units, defaults, ranges with NaN and infinities, access, aliases
   and defaults taken from other rows, state flags). Any input must be accepted or refused with
   one message and nothing registered, never a crash, a sanitizer report or a leak. An accepted
   model must hold what the checks promise (plain names; every default, inherited ones included,
   a valid value of its row) and then work through a whole world: assigned to contacts,
   properties written with fuzzed values (each accepted or refused with a message), a contact
   made and cycled, written to VTK, saved and restored. Seeds: tests/fuzz/corpus_plugin/. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "contact/contact.h"
#include "cycle/cycle.h"
#include "io/io.h"

/* The input, read front to back; past its end every read gives zeros. */
typedef struct reader {
  const uint8_t *p;
  size_t n;
} reader;

static unsigned take_u8(reader *r) {
  if (!r->n) return 0;
  r->n--;
  return *r->p++;
}

/* A double: one of the values tables are made of (byte < 200), or the next 8 bytes as they are
   (NaN and every other bit pattern included). */
static double take_f64(reader *r) {
  static const double common[] = {0,   1,   -1,   0.5,   2,      3,        10,
                                  100, 1e6, -1e6, 1e300, -1e300, INFINITY, -INFINITY,
                                  NAN, 1.5, 0.25, 64,    1e-9,   -0.5};
  unsigned b = take_u8(r);
  if (b < 200) return common[b % (sizeof common / sizeof *common)];
  double x = 0;
  size_t k = r->n < 8 ? r->n : 8;
  memcpy(&x, r->p, k);
  r->p += k, r->n -= k;
  return x;
}

#define MAX_ROWS 70
#define NAME_LEN 48

/* Strings of this input (names, units, docs, default_from): each a NUL-ended piece of arena. */
static char arena[(3 * MAX_ROWS + 8) * 4][NAME_LEN];
static int n_strings;

/* A name: one of a few plain names (so rows can name each other), or raw bytes (any character
   but NUL, up to NAME_LEN - 1; some longer than cairn's limit). */
static const char *take_name(reader *r) {
  static const char *const plain[] = {"fz_a", "fz_b", "fz_c",   "fz_k", "fz_v",
                                      "fz_s", "fz_t", "linear", "kn",   "fz"};
  unsigned b = take_u8(r);
  if (b < 160) return plain[b % (sizeof plain / sizeof *plain)];
  char *s = arena[n_strings++];
  size_t len = take_u8(r) % NAME_LEN, k = 0;
  for (; k < len; k++) {
    unsigned c = take_u8(r);
    s[k] = (char)(c ? c : 'x');
  }
  s[k] = 0;
  return s;
}

/* A unit or doc: NULL, or a name. */
static const char *take_text(reader *r) {
  return take_u8(r) % 4 == 0 ? NULL : take_name(r);
}

static void fz_force(const cairn_cm_input *in, const double *p, const double *derived, double *st,
                     cairn_cm_output *out) {
  (void)p, (void)derived, (void)st;
  double fn = in->gap < 0 ? -1e3 * in->gap : 0.0;
  for (int k = 0; k < 3; k++) out->force_xyz[k] = fn * in->n[k];
  out->active = in->gap < 0;
  out->kn_est = 1e3;
}

static void fz_stiffness(const double *p, double *kt, double *kr) {
  (void)p;
  *kt = 1e3, *kr = 0;
}

static cairn_prop_desc props[MAX_ROWS];
static cairn_state_desc state[MAX_ROWS];
static cairn_contact_model model;

static cairn_status make_world(void *ud, int dim, cairn_world **out, cairn_diag *d) {
  (void)ud;
  cairn_world_opts o = {.dim = dim};
  CAIRN_TRY(cairn_world_create(&o, out, d));
  cairn_status s = registry_add((*out)->reg, &model, "fuzz", d);
  if (s != CAIRN_OK) cairn_world_destroy(out);
  return s;
}

/* An accepted model through a world: assignment, property writes, a contact cycled, VTK, save
   and restore. Refusals are fine; a crash, a report or a leak is not. */
static void exercise(cairn_world *w, int m, reader *r, const char *tmp) {
  cairn_diag d;
  const model_entry *e = &w->reg->e[m];
  int kind = CAIRN_KIND_BALL_BALL;
  if (cmat_set_default(w, kind, model.name, 0, &d) != CAIRN_OK) abort();
  for (int i = 0; i < model.n_props; i++) {
    double v[3] = {take_f64(r), take_f64(r), take_f64(r)};
    int n = take_u8(r) % 4;
    cairn_status s = cmat_set_prop(w, kind, model.props[i].name, v, n ? n : 1, &d);
    if (s != CAIRN_OK && !d.msg[0]) abort(); /* a refusal says why */
  }
  /* whatever was accepted is a valid value of its row */
  const double *blk = w->cmat->def[kind].props;
  for (int i = 0; i < model.n_props; i++)
    if (model.props[i].access != CAIRN_ALIAS &&
        !model_prop_valid(&model.props[i], blk + e->prop_off[i]))
      abort();
  for (int b = 0; b < 2; b++) {
    ball_spec bs = {.rad = 0.1, .density = 1000, .pos = {0.19 * b, 0, 0}};
    int64_t id;
    if (ball_create(w, &bs, &id, &d) != CAIRN_OK) abort();
  }
  w->ts_mode = TS_FIXED, w->dt = 1e-4;
  if (cycle_run(w, 2, &d) != CAIRN_OK && !d.msg[0]) abort();
  char path[96];
  snprintf(path, sizeof path, "%s_vtk", tmp);
  if (io_vtk_write(w, NULL, path, &d) != CAIRN_OK && !d.msg[0]) abort();
  snprintf(path, sizeof path, "%s.sav", tmp);
  if (io_save(w, path, NULL, 0, &d) != CAIRN_OK) abort();
  cairn_world *back = NULL;
  restore_info info;
  if (io_restore(path, 0, make_world, NULL, &back, &info, &d) != CAIRN_OK) abort();
  cairn_world_destroy(&back);
  unlink(path);
  /* (vtk.c's parts, every one of them: a part left out stays in /tmp after the run) */
  static const char *const parts[] = {"balls", "walls", "contacts", "cracks", "clumps"};
  for (int k = 0; k < 5; k++) {
    snprintf(path, sizeof path, "%s_vtk_%s.vtp", tmp, parts[k]);
    unlink(path);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static char tmp[64];
  if (!tmp[0]) snprintf(tmp, sizeof tmp, "/tmp/cairn-fuzz-plugin-%d", (int)getpid());
  reader r = {data, size};
  n_strings = 0;
  memset(&model, 0, sizeof model);
  model.abi_version = CAIRN_CM_ABI_VERSION;
  model.name = take_name(&r);
  model.version = 1;
  model.doc = take_text(&r);
  model.force = fz_force;
  model.stiffness = fz_stiffness;
  model.n_props = (int)(take_u8(&r) % (MAX_ROWS + 1));
  model.n_state = (int)(take_u8(&r) % (MAX_ROWS + 1));
  model.n_derived = (int)(take_u8(&r) % 4);
  model.props = props;
  model.state = state;
  for (int i = 0; i < model.n_props; i++) {
    cairn_prop_desc *p = &props[i];
    p->name = take_name(&r);
    p->type = (cairn_prop_type)(take_u8(&r) % 5); /* 4: no such type */
    p->unit = take_text(&r);
    p->def = take_f64(&r), p->min = take_f64(&r), p->max = take_f64(&r);
    p->access = (int)(take_u8(&r) % 4); /* 3: no such access */
    p->doc = take_text(&r);
    unsigned f = take_u8(&r);
    p->default_from = f % 3 == 0 ? NULL : take_name(&r);
  }
  for (int i = 0; i < model.n_state; i++) {
    cairn_state_desc *st = &state[i];
    st->name = take_name(&r);
    st->type = (cairn_prop_type)(take_u8(&r) % 5);
    unsigned fl = take_u8(&r);
    st->flags = fl % 8;
    if (fl & 0x80) st->flags |= CAIRN_STATE_ARRAY(take_u8(&r) * 5u); /* 0 to 1275 items */
    st->unit = take_text(&r);
    st->doc = take_text(&r);
  }
  cairn_world_opts o = {.dim = take_u8(&r) % 2 ? 2 : 3};
  cairn_world *w = NULL;
  cairn_diag d;
  if (cairn_world_create(&o, &w, &d) != CAIRN_OK) abort();
  size_t before = w->reg->n;
  cairn_status s = registry_add(w->reg, &model, "fuzz", &d);
  if (getenv("CAIRN_FUZZ_SHOW")) fprintf(stderr, "%s\n", s == CAIRN_OK ? "accepted" : d.msg);
  if (s != CAIRN_OK) {
    if (w->reg->n != before || !d.msg[0]) abort(); /* a refusal says why and adds nothing */
  } else {
    exercise(w, (int)before, &r, tmp);
  }
  cairn_world_destroy(&w);
  return 0;
}
