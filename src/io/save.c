/* Save and restore: everything needed to continue a run bit for bit, in a file that is
   versioned, checksummed and written atomically, and read into a new world that replaces the
   current one only when the whole file was good. This file holds the file's frame and its list
   of sections; save_write.c and save_read.c hold one writer and one reader per store.

   Layout: "CAIRNSAV", u32 format version, u32 byte-order mark, u64 payload size, the payload,
   u64 FNV-1a checksum of the payload. Numbers are stored in the machine's byte order (the mark
   refuses a file from a machine of the other order). From format 8 the payload is a sequence of
   sections, each a 4-byte tag, a u64 byte length and that many bytes; formats 1 to 7 kept the
   stores one after the other in one payload (read_payload_old).

   From format 9, a model divided over MPI ranks is saved without gathering it (save_parts): the
   ranks write the file together, rank 0 the sections that every rank holds alike, each rank its
   own balls, contacts, pairs and cracks as its part of the last section, PRTS (u32 P, then each
   part's length and checksum, then the parts). The file's checksum covers the bytes besides the
   parts; each part has its own. It restores on any number of ranks (read_parts_sec). */
#include <errno.h>
#include <sys/stat.h>

#include "core/comm.h"
#include "cycle/history.h"
#include "detect/detect.h"
#include "io/save_format.h"
#include "par/par.h"

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
  int whole_only; /* (not written when the model is saved in parts: the parts hold it) */
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

static int written_apart(const cairn_world *w) { /* (PRTS: save_parts writes it) */
  (void)w;
  return 0;
}

static const section sections[] = {
    {"WRLD", put_world_sec, read_world_sec, NULL, 0},
    {"ENRG", put_energy_sec, read_energy_sec, NULL, 0},
    {"GRUP", put_groups_sec, read_groups_sec, NULL, 0},
    {"MODL", put_models_sec, read_models_sec, NULL, 0},
    {"CMAT", put_cmat_sec, read_cmat_sec, NULL, 0},
    {"BALL", put_balls_sec, read_balls_sec, NULL, 0},
    {"WALL", put_walls_sec, read_walls_sec, NULL, 0},
    {"CONT", put_contacts_sec, read_contacts_sec, NULL, 0},
    {"PAIR", put_pairs_sec, read_pairs_sec, NULL, 0},
    {"PRTS", NULL, read_parts_sec, written_apart, 0},
    {"HIST", put_hist_sec, read_hist_sec, NULL, 0},
    {"CALL", put_calls_sec, read_calls_sec, NULL, 0},
    {"LOAD", put_loads_sec, read_loads_sec, NULL, 0},
    {"CRAK", put_cracks_sec, read_cracks_sec, NULL, 0},
    {"CELL", put_cell_sec, read_cell_sec, NULL, 0},
    {"CLMP", put_clumps_sec, read_clumps_sec, has_clumps, 0},
    {"XTRA", put_extras_sec, read_extras_sec, has_extras, 0},
    {"CDSP", put_cumdisp_sec, read_cumdisp_sec, has_cumdisp, 0},
    {"MESH", put_meshes_sec, read_meshes_sec, has_meshes, 0},
    {"WMOT", put_motions_sec, read_motions_sec, has_motions, 0},
    {"HUNT", put_hist_units_sec, read_hist_units_sec, has_history_units, 0},
    {"SKEY", put_skeys_sec, read_skeys_sec, has_skeys, 1},
    {"JNTS", put_joints_sec, read_joints_sec, has_joints, 0},
};
#define N_SECTIONS (sizeof sections / sizeof *sections)

static long fail_after_bytes = -1; /* test hook: fail a save after this many bytes */

void cairn_io_fail_after(long bytes) {
  fail_after_bytes = bytes;
}

/* FNV-1a of n bytes, going on from h (the start: fnv1a) */
static uint64_t fnv1a_more(uint64_t h, const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ULL;
  return h;
}

static uint64_t fnv1a(const unsigned char *p, size_t n) {
  return fnv1a_more(1469598103934665603ULL, p, n);
}

/* ---- writing ---------------------------------------------------------------------------- */

/* Every section: its tag, its length (filled in once its writer is done), its bytes. */
static void put_sections(wbuf *b, const cairn_world *w, const save_ctx *x) {
  for (size_t i = 0; i < N_SECTIONS; i++) {
    if (sections[i].present && !sections[i].present(w)) continue;
    if (sections[i].whole_only && x->parts) continue;
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

/* ---- writing a divided model: every rank its part ----------------------------------------- */

/* Where the file's parts go: rank 0's header and sections first, then the ranks' parts in rank
   order (off: this rank's part's offset), then the checksum (at 'end'). */
typedef struct parts_plan {
  uint64_t off, end, payload;
} parts_plan;

/* The table of the parts (P rows of length and checksum) and this rank's offset, from every
   rank's length and checksum and rank 0's sections' length (rows of 3 words, gathered). */
static cairn_status plan_parts(const uint64_t mine[3], wbuf *table, parts_plan *pl, cairn_diag *d) {
  int P = comm_size(), me = comm_rank();
  uint64_t *all = NULL;
  size_t cap = 0, *counts = mem_realloc(NULL, 0, (size_t)P * sizeof *counts, "save:parts");
  CAIRN_CHECK(counts, d, CAIRN_ENOMEM, "out of memory saving the ranks' parts");
  cairn_status s = comm_gather_all(mine, 3 * sizeof *mine, (void **)&all, &cap, counts, d);
  mem_free(counts, 0);
  if (s != CAIRN_OK) return s;
  uint64_t head = all[2], parts = 0; /* (rank 0's sections, tag of PRTS and table included) */
  put_u32(table, (uint32_t)P);
  for (int r = 0; r < P; r++) {
    if (r == me) pl->off = 24 + head + parts;
    parts += all[3 * r];
    put_u64(table, all[3 * r]), put_u64(table, all[3 * r + 1]);
  }
  pl->payload = head + parts;
  pl->end = 24 + pl->payload;
  mem_free(all, 0);
  return table->oom ? diag_set(d, CAIRN_ENOMEM, "out of memory saving the ranks' parts") : CAIRN_OK;
}

/* Save a divided model without gathering it: rank 0's sections (the walls, models, histories,
   ... that every rank holds alike), with the figures the ranks hold apart summed, and each
   rank's part (put_part), written by the ranks together with MPI-IO into the temporary file
   that rank 0 then renames; collective. */
static cairn_status save_parts(const cairn_world *w, const char *path, save_ctx *x, cairn_diag *d) {
  double stale = pairs_stale(w);
  comm_max(&stale, 1);
  x->parts = 1, x->stale = stale > 0, x->destroyed = par_destroyed(w);
  int me = comm_rank(), P = comm_size();
  wbuf part = {0}, head = {0}, table = {0};
  /* the applied loads, each on its ball's rank: every rank's, for rank 0's LOAD section */
  uint8_t *own = NULL, *loads = NULL;
  size_t n_own = 0, cap = 0, *counts = mem_realloc(NULL, 0, (size_t)P * sizeof *counts, "save");
  cairn_status s = counts ? loads_rows_sorted(w, &own, &n_own, d)
                          : diag_set(d, CAIRN_ENOMEM, "out of memory saving to '%s'", path);
  s = comm_agree(s, d);
  if (s == CAIRN_OK) s = comm_gather_all(own, n_own * LOAD_ROW, (void **)&loads, &cap, counts, d);
  mem_free(own, 0);
  if (s != CAIRN_OK) {
    mem_free(counts, 0);
    return s;
  }
  for (int r = 0; r < P; r++) x->n_loads += counts[r] / LOAD_ROW;
  mem_free(counts, 0);
  loads_rows_sort(loads, x->n_loads);
  x->loads = loads;
  put_part(&part, w);
  if (me == 0) put_sections(&head, w, x);
  x->loads = NULL;
  mem_free(loads, 0);
  s = part.oom || head.oom ? diag_set(d, CAIRN_ENOMEM, "out of memory saving to '%s'", path)
                           : CAIRN_OK;
  s = comm_agree(s, d);
  uint64_t mine[3] = {part.n, fnv1a(part.p, part.n), 0};
  /* rank 0's sections' length with the PRTS section's tag, length and table */
  if (me == 0) mine[2] = head.n + 12 + 4 + 16 * (uint64_t)P;
  parts_plan pl = {0, 0, 0};
  if (s == CAIRN_OK) s = plan_parts(mine, &table, &pl, d);
  atomic_file af;
  if (s != CAIRN_OK) goto done;
  s = io_atomic_open(&af, path, d); /* (rank 0 makes the file; the others' checks are alike) */
  int opened = s == CAIRN_OK;
  s = comm_agree(s, d);
  if (s != CAIRN_OK) {
    if (opened) io_atomic_abort(&af);
    goto done;
  }
  io_atomic_share_tmp(&af); /* (the file every rank writes its part of) */
  wbuf first = {0}; /* rank 0: the header, its sections, the PRTS head and table, its part */
  const wbuf *mine_out = &part;
  uint64_t at = pl.off, sum = fnv1a(head.p, head.n);
  if (me == 0) {
    uint32_t version = SAVE_VERSION, bom = SAVE_BOM;
    uint64_t len = table.n + (pl.payload - mine[2]);
    put(&first, SAVE_MAGIC, 8), put_u32(&first, version), put_u32(&first, bom);
    put_u64(&first, pl.payload);
    put(&first, head.p, head.n), put(&first, "PRTS", 4), put_u64(&first, len);
    put(&first, table.p, table.n);
    sum = fnv1a_more(sum, first.p + 24 + head.n, first.n - 24 - head.n);
    if (part.n) put(&first, part.p, part.n);
    mine_out = &first, at = 0;
    if (first.oom) s = diag_set(d, CAIRN_ENOMEM, "out of memory saving to '%s'", path);
  }
  s = comm_agree(s, d);
  if (s == CAIRN_OK) s = comm_write_at(af.tmp, at, mine_out->p, mine_out->n, d);
  if (s == CAIRN_OK) s = comm_write_at(af.tmp, pl.end, &sum, me == 0 ? sizeof sum : 0, d);
  mem_free(first.p, first.cap);
  if (s != CAIRN_OK) {
    io_atomic_abort(&af);
    char why[sizeof d->msg];
    snprintf(why, sizeof why, "%s", d->msg);
    s = diag_set(d, s, "cannot save to '%s': %s; an earlier file of that name is unchanged", path,
                 why);
    goto done;
  }
  s = io_atomic_commit(&af, d);
done:
  mem_free(part.p, part.cap), mem_free(head.p, head.cap), mem_free(table.p, table.cap);
  return s;
}

cairn_status io_save(const cairn_world *w, const char *path, const char *const *cb, int n_cb,
                     cairn_diag *d) {
  wbuf pay = {0};
  save_ctx x = {cb, n_cb, 0, 0, 0, NULL, 0};
  if (w->par) return save_parts(w, path, &x, d);
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

/* Whether the payload's checksum is 'sum': from format 9 the ranks' parts (PRTS) are left out of
   it and each part is checked against its row of the parts' table instead. A table that does not
   fit its section fails the check. */
static int sum_matches(const unsigned char *p, size_t size, uint32_t version, uint64_t sum) {
  size_t from = size, to = size; /* (the parts' bytes) */
  for (size_t pos = 0; version >= SAVE_PARTS && pos + 12 <= size;) {
    uint64_t len;
    memcpy(&len, p + pos + 4, 8);
    if (len > size - pos - 12) break; /* (the sections' own check names it) */
    if (memcmp(p + pos, "PRTS", 4) == 0) {
      uint32_t P = 0;
      if (len >= 4) memcpy(&P, p + pos + 12, 4);
      if (len < 4 || (len - 4) / 16 < P) return 0;
      from = pos + 12 + 4 + 16 * (size_t)P, to = pos + 12 + (size_t)len;
      size_t at = from;
      for (uint32_t r = 0; r < P; r++) {
        uint64_t row[2];
        memcpy(row, p + pos + 16 + 16 * (size_t)r, 16);
        if (row[0] > to - at || fnv1a(p + at, (size_t)row[0]) != row[1]) return 0;
        at += (size_t)row[0];
      }
      if (at != to) return 0;
      break;
    }
    pos += 12 + (size_t)len;
  }
  return fnv1a_more(fnv1a(p, from), p + to, size - to) == sum;
}

/* Read the payload and its checksum (closes f); *pay is the caller's to free. */
static cairn_status read_checked(FILE *f, const char *path, uint64_t size, uint32_t version,
                                 unsigned char **pay, cairn_diag *d) {
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
  if (s == CAIRN_OK && (extra || !sum_matches(p, size, version, sum)))
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
  CAIRN_TRY(read_checked(f, path, size, version, &pay, d));
  cairn_status s = restore_payload(pay, size, version, path, want_dim, mk, ud, out, info, d);
  mem_free(pay, 0);
  return s;
}
