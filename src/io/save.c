/* Save and restore: everything needed to continue a run bit for bit, in a file that is
   versioned, checksummed and written atomically, and read into a new world that replaces the
   current one only when the whole file was good. This file holds the file's frame and its list
   of sections; save_write.c and save_read.c hold one writer and one reader per store.

   Layout: "CAIRNSAV", u32 format version, u32 byte-order mark, u64 payload size, the payload,
   u64 FNV-1a checksum of the payload. Numbers are stored in the machine's byte order (the mark
   refuses a file from a machine of the other order). From format 8 the payload is a sequence of
   sections, each a 4-byte tag, a u64 byte length and that many bytes; formats 1 to 7 kept the
   stores one after the other in one payload (read_payload_old). */
#include <errno.h>
#include <sys/stat.h>

#include "cycle/history.h"
#include "io/save_format.h"

#define SAVE_MAGIC "CAIRNSAV"
#define SAVE_BOM 0x01020304u

/* The sections of format 8, in the order they are written and read: a store's reader may use
   the stores read before it (contacts need the balls, walls and models; the pair list needs the
   contacts). A new store adds a row here, its writer and its reader. */
typedef struct section {
  char tag[5];
  section_put put;
  section_get get;
  /* NULL: always written and required. Else the section is written only when this says the
     world holds something for it, and a file without it has nothing of it (so that a model
     without clumps saves as before, readable by a cairn that knows no clumps). */
  int (*present)(const cairn_world *w);
} section;

static int has_clumps(const cairn_world *w) {
  return w->clumps.n > 0 || w->clumps.n_tmpl > 0;
}

static int has_extras(const cairn_world *w) {
  return w->balls.extras.n > 0;
}

static int has_cumdisp(const cairn_world *w) {
  return w->balls.cum.on;
}

static int has_meshes(const cairn_world *w) {
  for (size_t i = 0; i < w->walls.n; i++)
    if (w->walls.w[i].mesh) return 1;
  return 0;
}

static int has_history_units(const cairn_world *w) {
  for (size_t i = 0; i < w->hist->n; i++)
    if (w->hist->h[i].unit[0]) return 1;
  return 0;
}

static int has_motions(const cairn_world *w) {
  for (size_t i = 0; i < w->walls.n; i++)
    if (w->walls.w[i].motion.n_points) return 1;
  return 0;
}

/* (balls keyed at a neighbour rebuild: the order of each ball's sums, ball_store.skey) */
static int has_skeys(const cairn_world *w) {
  for (size_t i = 0; i < w->balls.n; i++)
    if (w->balls.skey[i] != UINT64_MAX) return 1;
  return 0;
}

static int has_joints(const cairn_world *w) {
  return w->cmat->n_joints > 0;
}

static const section sections[] = {
    {"WRLD", put_world_sec, read_world_sec, NULL},
    {"ENRG", put_energy_sec, read_energy_sec, NULL},
    {"GRUP", put_groups_sec, read_groups_sec, NULL},
    {"MODL", put_models_sec, read_models_sec, NULL},
    {"CMAT", put_cmat_sec, read_cmat_sec, NULL},
    {"BALL", put_balls_sec, read_balls_sec, NULL},
    {"WALL", put_walls_sec, read_walls_sec, NULL},
    {"CONT", put_contacts_sec, read_contacts_sec, NULL},
    {"PAIR", put_pairs_sec, read_pairs_sec, NULL},
    {"HIST", put_hist_sec, read_hist_sec, NULL},
    {"CALL", put_calls_sec, read_calls_sec, NULL},
    {"LOAD", put_loads_sec, read_loads_sec, NULL},
    {"CRAK", put_cracks_sec, read_cracks_sec, NULL},
    {"CELL", put_cell_sec, read_cell_sec, NULL},
    {"CLMP", put_clumps_sec, read_clumps_sec, has_clumps},
    {"XTRA", put_extras_sec, read_extras_sec, has_extras},
    {"CDSP", put_cumdisp_sec, read_cumdisp_sec, has_cumdisp},
    {"MESH", put_meshes_sec, read_meshes_sec, has_meshes},
    {"WMOT", put_motions_sec, read_motions_sec, has_motions},
    {"HUNT", put_hist_units_sec, read_hist_units_sec, has_history_units},
    {"SKEY", put_skeys_sec, read_skeys_sec, has_skeys},
    {"JNTS", put_joints_sec, read_joints_sec, has_joints},
};
#define N_SECTIONS (sizeof sections / sizeof *sections)

static long fail_after_bytes = -1; /* test hook: fail a save after this many bytes */

void cairn_io_fail_after(long bytes) {
  fail_after_bytes = bytes;
}

static uint64_t fnv1a(const unsigned char *p, size_t n) {
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ULL;
  return h;
}

/* ---- writing ---------------------------------------------------------------------------- */

/* Every section: its tag, its length (filled in once its writer is done), its bytes. */
static void put_sections(wbuf *b, const cairn_world *w, const save_ctx *x) {
  for (size_t i = 0; i < N_SECTIONS; i++) {
    if (sections[i].present && !sections[i].present(w)) continue;
    put(b, sections[i].tag, 4);
    size_t at = b->n;
    put_u64(b, 0);
    sections[i].put(b, w, x);
    if (b->oom) return;
    uint64_t len = b->n - at - 8;
    memcpy(b->p + at, &len, 8);
  }
}

/* Write the parts of the file in order; the test hook cuts it short as a full disk would. */
static int write_parts(FILE *f, const wbuf *pay) {
  uint32_t version = SAVE_VERSION, bom = SAVE_BOM;
  uint64_t size = pay->n, sum = fnv1a(pay->p, pay->n);
  const struct {
    const void *p;
    size_t n;
  } parts[] = {{SAVE_MAGIC, 8}, {&version, 4}, {&bom, 4}, {&size, 8}, {pay->p, pay->n}, {&sum, 8}};
  size_t written = 0;
  for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
    size_t n = parts[i].n;
    if (fail_after_bytes >= 0 && written + n > (size_t)fail_after_bytes) { /* simulated failure */
      fwrite(parts[i].p, 1, (size_t)fail_after_bytes - written, f);
      errno = ENOSPC;
      return 1;
    }
    if (fwrite(parts[i].p, 1, n, f) != n) return 1;
    written += n;
  }
  return 0;
}

cairn_status io_save(const cairn_world *w, const char *path, const char *const *cb, int n_cb,
                     cairn_diag *d) {
  wbuf pay = {0};
  save_ctx x = {cb, n_cb};
  put_sections(&pay, w, &x);
  if (pay.oom) {
    mem_free(pay.p, pay.cap);
    return diag_set(d, CAIRN_ENOMEM, "out of memory saving to '%s'", path);
  }
  atomic_file af;
  cairn_status s = io_atomic_open(&af, path, d);
  if (s != CAIRN_OK) {
    mem_free(pay.p, pay.cap);
    return s;
  }
  int failed = write_parts(af.f, &pay);
  mem_free(pay.p, pay.cap);
  if (failed) {
    int err = errno;
    io_atomic_abort(&af);
    return diag_set(d, CAIRN_EIO,
                    "cannot save to '%s': %s; an earlier file of that name is "
                    "unchanged",
                    path, strerror(err));
  }
  return io_atomic_commit(&af, d);
}

/* ---- reading the sections of format 8 ----------------------------------------------------- */

/* Where each known section lies in the payload (len: its bytes; found: 0 when absent). */
typedef struct section_at {
  size_t off, len;
  int found;
} section_at;

/* The refusal of a damaged file: naming the impossible value a reader found ('why', from
   bad_value), or, where the structure itself broke, saying just that. */
static cairn_status damaged(const char *path, const char *why, cairn_diag *d) {
  if (why && why[0])
    return diag_set(d, CAIRN_EINVAL, "'%s' is damaged: %s; restore an earlier save", path, why);
  return diag_set(d, CAIRN_EINVAL,
                  "'%s' is damaged (its contents do not hold together); restore an earlier save",
                  path);
}

/* A tag as text for a message, its unprintable bytes as '?'. */
static void tag_text(const unsigned char *p, char out[5]) {
  for (int i = 0; i < 4; i++) out[i] = p[i] >= 32 && p[i] < 127 ? (char)p[i] : '?';
  out[4] = 0;
}

/* Find every section of the payload: a section cut short, an unknown, repeated or missing one
   refuses the file. */
static cairn_status index_sections(const unsigned char *pay, size_t size, section_at *at,
                                   const char *path, cairn_diag *d) {
  memset(at, 0, N_SECTIONS * sizeof *at);
  for (size_t pos = 0; pos < size;) {
    uint64_t len;
    if (size - pos < 12) return damaged(path, NULL, d);
    memcpy(&len, pay + pos + 4, 8);
    if (len > size - pos - 12) return damaged(path, NULL, d);
    char tag[5];
    tag_text(pay + pos, tag);
    size_t i = 0;
    while (i < N_SECTIONS && memcmp(sections[i].tag, pay + pos, 4) != 0) i++;
    CAIRN_CHECK(i < N_SECTIONS, d, CAIRN_EINVAL,
                "'%s' holds a section '%s' that this cairn does not know; restore it with the "
                "cairn that wrote it",
                path, tag);
    CAIRN_CHECK(!at[i].found, d, CAIRN_EINVAL,
                "'%s' is damaged (it holds its section '%s' twice); restore an earlier save", path,
                tag);
    at[i] = (section_at){pos + 12, (size_t)len, 1};
    pos += 12 + (size_t)len;
  }
  for (size_t i = 0; i < N_SECTIONS; i++)
    CAIRN_CHECK(at[i].found || sections[i].present, d, CAIRN_EINVAL,
                "'%s' is damaged (it lacks its section '%s'); restore an earlier save", path,
                sections[i].tag);
  return CAIRN_OK;
}

/* Each section by its reader, in the table's order; a reader must use exactly its bytes. */
static cairn_status read_sections(const unsigned char *pay, const section_at *at, cairn_world *w,
                                  restore_ctx *x, const char *path, cairn_diag *d) {
  for (size_t i = 0; i < N_SECTIONS; i++) {
    if (!at[i].found) continue; /* (an optional one, absent: nothing of it) */
    rbuf b = {pay + at[i].off, at[i].len, 0, 0, SAVE_VERSION, ""};
    CAIRN_TRY(sections[i].get(&b, w, x, d));
    if (b.bad) return damaged(path, b.why, d);
    CAIRN_CHECK(b.pos == b.n, d, CAIRN_EINVAL,
                "'%s' is damaged (its section '%s' holds %zu bytes, of which %zu were read); "
                "restore an earlier save",
                path, sections[i].tag, b.n, b.pos);
  }
  return CAIRN_OK;
}

/* ---- reading the file ------------------------------------------------------------------- */

/* Open a save and check its header; on success *f is positioned after it. */
static cairn_status open_save(const char *path, FILE **out, uint32_t *version, uint64_t *size,
                              cairn_diag *d) {
  struct stat st;
  CAIRN_CHECK(!(stat(path, &st) == 0 && S_ISDIR(st.st_mode)), d, CAIRN_EINVAL,
              "'%s' is a folder, not a save file; give the path of a file written by model.save",
              path);
  FILE *f = fopen(path, "rb");
  CAIRN_CHECK(f, d, CAIRN_EIO, "cannot read '%s': %s; check the path", path, strerror(errno));
  unsigned char head[24] = {0};
  size_t got = fread(head, 1, sizeof head, f);
  uint32_t bom;
  memcpy(version, head + 8, 4), memcpy(&bom, head + 12, 4), memcpy(size, head + 16, 8);
  cairn_status s = CAIRN_OK;
  if (got < 8 || memcmp(head, SAVE_MAGIC, 8) != 0)
    s = diag_set(d, CAIRN_EINVAL,
                 "'%s' is not a cairn save file; give a file written by model.save", path);
  else if (got < sizeof head)
    s = diag_set(d, CAIRN_EINVAL, "'%s' is truncated; restore an earlier save", path);
  else if (bom != SAVE_BOM)
    s = diag_set(d, CAIRN_EINVAL,
                 "'%s' was written on a machine of another byte order; restore it on such a "
                 "machine",
                 path);
  else if (*version < SAVE_VERSION_OLDEST || *version > SAVE_VERSION)
    s = diag_set(d, CAIRN_EINVAL,
                 "'%s' has save format version %u, this cairn reads versions %u to %u; use the "
                 "cairn that wrote it",
                 path, *version, SAVE_VERSION_OLDEST, SAVE_VERSION);
  if (s != CAIRN_OK) {
    fclose(f);
    return s;
  }
  *out = f;
  return CAIRN_OK;
}

/* The declared size against the file's own, before anything is allocated for it: a damaged
   count must not ask for gigabytes. */
static cairn_status check_size(FILE *f, const char *path, uint64_t size, cairn_diag *d) {
  const long head = 24;
  long file_len = -1;
  if (fseek(f, 0, SEEK_END) == 0) file_len = ftell(f);
  if (file_len < 0 || fseek(f, head, SEEK_SET) != 0)
    return diag_set(d, CAIRN_EIO, "'%s' cannot be read (seek failed); check the file", path);
  uint64_t have = (uint64_t)file_len - (uint64_t)head;
  if (size > have || have - size < 8)
    return diag_set(d, CAIRN_EINVAL,
                    "'%s' is truncated (%ld bytes, its header declares %llu); restore an earlier "
                    "save",
                    path, file_len, (unsigned long long)(size + 8 + (uint64_t)head));
  if (size >= ((uint64_t)1 << 40))
    return diag_set(d, CAIRN_EINVAL,
                    "'%s' is damaged (it declares %llu bytes); restore an earlier save", path,
                    (unsigned long long)size);
  return CAIRN_OK;
}

/* Read the payload and its checksum (closes f); *pay is the caller's to free. */
static cairn_status read_checked(FILE *f, const char *path, uint64_t size, unsigned char **pay,
                                 cairn_diag *d) {
  cairn_status s = check_size(f, path, size, d);
  unsigned char *p = s == CAIRN_OK ? mem_realloc(NULL, 0, size + 8, "restore") : NULL;
  if (s == CAIRN_OK && !p) /* the file holds that much: the memory is what is missing */
    s = diag_set(d, CAIRN_ENOMEM,
                 "out of memory reading '%s' (%llu bytes); free some memory and restore it again",
                 path, (unsigned long long)size);
  size_t got = s == CAIRN_OK ? fread(p, 1, size + 8, f) : 0;
  int extra = s == CAIRN_OK && fgetc(f) != EOF;
  fclose(f);
  uint64_t sum = 0;
  if (s == CAIRN_OK && got != size + 8)
    s = diag_set(d, CAIRN_EINVAL, "'%s' is truncated (%zu of %llu bytes); restore an earlier save",
                 path, got + 24, (unsigned long long)(size + 8 + 24));
  if (s == CAIRN_OK) memcpy(&sum, p + size, 8);
  if (s == CAIRN_OK && (extra || sum != fnv1a(p, size)))
    s = diag_set(d, CAIRN_EINVAL,
                 "'%s' is corrupted (its checksum does not match); restore an earlier save", path);
  if (s != CAIRN_OK) {
    mem_free(p, 0);
    return s;
  }
  *pay = p;
  return CAIRN_OK;
}

/* The saved dimension: the payload's first number in formats 1 to 7, the world section's from
   format 8 on. */
static cairn_status saved_dim(const unsigned char *pay, size_t size, uint32_t version,
                              const section_at *at, int want_dim, const char *path, int *dim,
                              cairn_diag *d) {
  const unsigned char *p = version >= SAVE_SECTIONS ? pay + at[0].off : pay;
  size_t n = version >= SAVE_SECTIONS ? at[0].len : size;
  uint32_t v = 0;
  if (n >= 4) memcpy(&v, p, 4);
  *dim = (int)v;
  CAIRN_CHECK(*dim == 2 || *dim == 3, d, CAIRN_EINVAL,
              "'%s' is damaged (dimension %d); restore an earlier save", path, *dim);
  CAIRN_CHECK(!want_dim || *dim == want_dim, d, CAIRN_EINVAL,
              "'%s' holds a %dD model but this model is %dD; call model.new{dim = %d} (or "
              "restore before model.new)",
              path, *dim, want_dim, *dim);
  return CAIRN_OK;
}

/* Read a checked payload into a new world made by mk. */
static cairn_status restore_payload(const unsigned char *pay, size_t size, uint32_t version,
                                    const char *path, int want_dim, world_maker mk, void *ud,
                                    cairn_world **out, restore_info *info, cairn_diag *d) {
  section_at at[N_SECTIONS];
  if (version >= SAVE_SECTIONS) CAIRN_TRY(index_sections(pay, size, at, path, d));
  int dim;
  CAIRN_TRY(saved_dim(pay, size, version, at, want_dim, path, &dim, d));
  cairn_world *w = NULL;
  cairn_status s = mk(ud, dim, &w, d);
  restore_ctx x = {NULL, 0, 0, 0, info};
  if (s == CAIRN_OK)
    x.maps = mem_realloc(NULL, 0, SAVE_MAX_MODELS * sizeof *x.maps, "restore:maps");
  if (s == CAIRN_OK && !x.maps) s = diag_set(d, CAIRN_ENOMEM, "out of memory restoring '%s'", path);
  if (s == CAIRN_OK && version >= SAVE_SECTIONS) s = read_sections(pay, at, w, &x, path, d);
  if (s == CAIRN_OK && version >= SAVE_SECTIONS) { /* every pebble ball has its clump */
    char why[200] = "";
    s = clumps_whole(w, why, sizeof why, d);
    if (s == CAIRN_OK && !why[0]) s = meshes_whole(w, why, sizeof why);
    if (s == CAIRN_OK && why[0]) s = damaged(path, why, d);
  }
  if (s == CAIRN_OK && version < SAVE_SECTIONS) {
    rbuf b = {pay, size, 4, 0, version, ""}; /* (after the dimension) */
    s = read_payload_old(&b, w, &x, d);
    if (s == CAIRN_OK && b.bad) s = damaged(path, b.why, d);
  }
  mem_free(x.maps, 0);
  if (s != CAIRN_OK) {
    cairn_world_destroy(&w);
    return s;
  }
  *out = w;
  return CAIRN_OK;
}

cairn_status io_restore(const char *path, int want_dim, world_maker mk, void *ud, cairn_world **out,
                        restore_info *info, cairn_diag *d) {
  *out = NULL;
  memset(info, 0, sizeof *info);
  FILE *f = NULL;
  uint32_t version = 0;
  uint64_t size = 0;
  CAIRN_TRY(open_save(path, &f, &version, &size, d));
  unsigned char *pay = NULL;
  CAIRN_TRY(read_checked(f, path, size, &pay, d));
  cairn_status s = restore_payload(pay, size, version, path, want_dim, mk, ud, out, info, d);
  mem_free(pay, 0);
  return s;
}
