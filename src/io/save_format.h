/* The save file's parts shared by its writer (save_write.c), its readers (save_read.c) and the
   file around them (save.c): the byte buffers both sides use, and one writer and one reader per
   store. A store's section is written and read by its pair; save.c lists the sections. */
#ifndef CAIRN_SAVE_FORMAT_H
#define CAIRN_SAVE_FORMAT_H

#include <string.h>

#include "contact/contact.h"
#include "io/io.h"

/* 1: the first; 2: the energy sums after the domain; 3: contacts in global coordinates (normal,
   force, moment, contact-plane state as a normal component and a global in-plane vector), no
   stored frame; 4: applied loads, walls' turning, cracks; 5: deleted balls' energy, walls'
   translation and servos, cylinders; 6: the periodic cell; 7: the automatic timestep's steps per
   impact; 8: the payload as tagged sections, one per store (save.c); 9: a divided model's balls,
   contacts, pairs and cracks as one part per rank (section PRTS), each with its checksum */
#define SAVE_VERSION 9u
#define SAVE_VERSION_OLDEST 1u
#define SAVE_SECTIONS 8u /* the first version written as sections */
#define SAVE_PARTS 9u    /* the first version that may hold parts */

typedef struct wbuf {
  unsigned char *p;
  size_t n, cap;
  int oom;
} wbuf;

void put(wbuf *b, const void *src, size_t n);
static inline void put_u8(wbuf *b, uint8_t v) {
  put(b, &v, 1);
}
static inline void put_u16(wbuf *b, uint16_t v) {
  put(b, &v, 2);
}
static inline void put_u32(wbuf *b, uint32_t v) {
  put(b, &v, 4);
}
static inline void put_u64(wbuf *b, uint64_t v) {
  put(b, &v, 8);
}
static inline void put_i64(wbuf *b, int64_t v) {
  put(b, &v, 8);
}
static inline void put_f64(wbuf *b, double v) {
  put(b, &v, 8);
}
static inline void put_f64s(wbuf *b, const double *v, size_t n) {
  put(b, v, n * sizeof *v);
}
static inline void put_str(wbuf *b, const char *s) {
  uint32_t n = (uint32_t)strlen(s);
  put_u32(b, n);
  put(b, s, n);
}

/* A reader's view of bytes: the whole payload of an old format, or one section. Any read past
   the end, or any check that fails, sets 'bad'; the file is then refused as damaged. A value
   that no script could have set (bad_value) also says which it was in 'why', so that the refusal
   names the field rather than leaving the user to guess. */
typedef struct rbuf {
  const unsigned char *p;
  size_t n, pos;
  int bad;
  uint32_t version; /* of the file's format */
  char why[200];    /* the first impossible value: "ball 7's radius is -1 (a finite number > 0)" */
} rbuf;

void get(rbuf *b, void *dst, size_t n);
static inline uint8_t get_u8(rbuf *b) {
  uint8_t v;
  get(b, &v, 1);
  return v;
}
static inline uint16_t get_u16(rbuf *b) {
  uint16_t v;
  get(b, &v, 2);
  return v;
}
static inline uint32_t get_u32(rbuf *b) {
  uint32_t v;
  get(b, &v, 4);
  return v;
}
static inline uint64_t get_u64(rbuf *b) {
  uint64_t v;
  get(b, &v, 8);
  return v;
}
static inline int64_t get_i64(rbuf *b) {
  int64_t v;
  get(b, &v, 8);
  return v;
}
static inline double get_f64(rbuf *b) {
  double v;
  get(b, &v, 8);
  return v;
}
static inline void get_f64s(rbuf *b, double *v, size_t n) {
  get(b, v, n * sizeof *v);
}
void get_str(rbuf *b, char *out, size_t cap);
/* A count that must fit in what is left of the buffer at 'elem' bytes each. */
uint64_t get_count(rbuf *b, size_t elem);

/* Marks the buffer bad when cond holds, and leaves a reader when it is bad: what was read so far
   belongs to a world that is destroyed. */
#define BAD_IF(cond)                                                                               \
  do {                                                                                             \
    if (cond) b->bad = 1;                                                                          \
    if (b->bad) return CAIRN_OK;                                                                   \
  } while (0)

/* Marks the buffer bad, and when it was good till now, records in b->why what was wrong (a
   clause of the refusal's sentence, like "its timestep mode is 5 (0 automatic or 1 fixed)"):
   the first damage found is the one named, and damage of the structure (a read past the end)
   leaves 'why' empty, since the values read after it are zeros that mean nothing. */
void bad_value(rbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Marks the buffer bad, naming the value, when cond holds; the reader goes on (a caller's
   BAD_IF(0) leaves it), so a helper that returns nothing can check. */
#define BAD_VALUE(b, cond, ...)                                                                    \
  do {                                                                                             \
    if (cond) bad_value(b, __VA_ARGS__);                                                           \
  } while (0)
/* v[0..n) all finite, else bad: "<who> <field> is not finite (x, y, z)" (who: "ball 7's",
   "its"). */
void bad_unless_finite(rbuf *b, const double *v, int n, const char *who, const char *field);

/* How a saved model maps onto a model of this run. */
typedef struct model_map {
  int model;                     /* registry index in the new world */
  int n_props, n_state;          /* saved rows */
  int prop_slots, state_slots;   /* saved slot totals */
  int prop_to[64], state_to[64]; /* saved row -> current row, or -1 */
  int prop_n[64], state_n[64];   /* saved slots of each row */
  int version;
} model_map;

#define SAVE_MAX_MODELS 4096

/* What the readers share while a file is read. */
typedef struct restore_ctx {
  model_map *maps; /* SAVE_MAX_MODELS of them */
  uint32_t n_maps;
  int64_t next_ball, next_wall; /* formats 1 to 7 keep them before the balls */
  restore_info *info;
} restore_ctx;

/* What a save holds besides the world. */
typedef struct save_ctx {
  const char *const *cb;
  int n_cb;
  /* A divided model saved in parts (save.c, save_parts): the balls, contacts, pairs and cracks
     go in the ranks' parts, not in their own sections; what the ranks hold apart, summed. */
  int parts;
  uint64_t destroyed;   /* the balls destroyed so far, every rank's */
  uint32_t stale;       /* whether some rank's neighbour list is out of date */
  const uint8_t *loads; /* every rank's applied loads (LOAD_ROW each), by ball id */
  size_t n_loads;
} save_ctx;

/* ---- one writer per section (save_write.c) ---- */
typedef void (*section_put)(wbuf *b, const cairn_world *w, const save_ctx *x);
void put_world_sec(wbuf *b, const cairn_world *w, const save_ctx *x);
void put_energy_sec(wbuf *b, const cairn_world *w, const save_ctx *x);
void put_groups_sec(wbuf *b, const cairn_world *w, const save_ctx *x);
void put_models_sec(wbuf *b, const cairn_world *w, const save_ctx *x);
void put_cmat_sec(wbuf *b, const cairn_world *w, const save_ctx *x);
void put_balls_sec(wbuf *b, const cairn_world *w, const save_ctx *x);
void put_walls_sec(wbuf *b, const cairn_world *w, const save_ctx *x);
void put_contacts_sec(wbuf *b, const cairn_world *w, const save_ctx *x);
void put_pairs_sec(wbuf *b, const cairn_world *w, const save_ctx *x);
void put_hist_sec(wbuf *b, const cairn_world *w, const save_ctx *x);
void put_hist_units_sec(wbuf *b, const cairn_world *w, const save_ctx *x);
void put_calls_sec(wbuf *b, const cairn_world *w, const save_ctx *x);
void put_loads_sec(wbuf *b, const cairn_world *w, const save_ctx *x);
void put_cracks_sec(wbuf *b, const cairn_world *w, const save_ctx *x);
void put_cell_sec(wbuf *b, const cairn_world *w, const save_ctx *x);
void put_clumps_sec(wbuf *b, const cairn_world *w, const save_ctx *x);
void put_extras_sec(wbuf *b, const cairn_world *w, const save_ctx *x);
void put_cumdisp_sec(wbuf *b, const cairn_world *w, const save_ctx *x);
void put_meshes_sec(wbuf *b, const cairn_world *w, const save_ctx *x);
void put_motions_sec(wbuf *b, const cairn_world *w, const save_ctx *x);
void put_skeys_sec(wbuf *b, const cairn_world *w, const save_ctx *x);
void put_joints_sec(wbuf *b, const cairn_world *w, const save_ctx *x);
/* This rank's part of a divided model (a part of section PRTS): its own balls (every column, and
   their neighbour keys), the contacts it books (their sides by id), the keys of the neighbour
   pairs of its balls, and its cracks. */
void put_part(wbuf *b, const cairn_world *w);

/* ---- one reader per section (save_read.c); b->version says the layout ---- */
typedef cairn_status (*section_get)(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d);
cairn_status read_clumps_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d);
cairn_status read_extras_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d);
cairn_status read_cumdisp_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d);
cairn_status read_meshes_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d);
cairn_status read_motions_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d);
cairn_status read_skeys_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d);
cairn_status read_joints_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d);
/* After every section: whether each mesh wall got its mesh (else 'why' says which did not). */
cairn_status meshes_whole(const cairn_world *w, char *why, size_t n);
/* After every section: whether the balls marked as pebbles and the clumps' pebbles are the same
   balls, each in one clump (else 'why' gets the clause naming the first that is not). */
cairn_status clumps_whole(cairn_world *w, char *why, size_t n, cairn_diag *d);
cairn_status read_world_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d);
cairn_status read_energy_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d);
cairn_status read_groups_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d);
cairn_status read_models_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d);
cairn_status read_cmat_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d);
cairn_status read_balls_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d);
cairn_status read_walls_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d);
cairn_status read_contacts_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d);
cairn_status read_pairs_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d);
cairn_status read_hist_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d);
cairn_status read_hist_units_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d);
cairn_status read_calls_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d);
cairn_status read_loads_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d);
cairn_status read_cracks_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d);
cairn_status read_cell_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d);
/* PRTS: the ranks' parts (put_part), after the table of their lengths and checksums (checked
   with the file's: save.c), made into the whole model's balls, contacts, pairs and cracks in the
   orders one process keeps (balls by neighbour key, then id; contacts and pairs by key; cracks
   by step, then ids). */
cairn_status read_parts_sec(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d);
/* The whole payload of formats 1 to 7, after the dimension: the same readers in the order those
   formats kept the stores, with the parts they added late read where they were. */
cairn_status read_payload_old(rbuf *b, cairn_world *w, restore_ctx *x, cairn_diag *d);

#endif
