/* Triangle surfaces from STL files, ASCII or binary (the checks of a surface are the mesh's:
   world/mesh.h). A binary file is an 80-byte header, a 32-bit triangle count and 50 bytes per
   triangle (normal, three vertices as 32-bit floats, 2 attribute bytes); an ASCII file is "solid
   ..." with "facet normal ... outer loop vertex x y z (three times) endloop endfacet" blocks. The
   stored normals are not used: a triangle's orientation is its vertices' order. A file that is
   neither but starts with "v" or "f" lines is read as the plain vertex/face text
   (vertex_face.c). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/io.h"

void stl_free(stl_mesh *m) {
  mem_free(m->tri, 0);
  memset(m, 0, sizeof *m);
}

static cairn_status grow_tris(stl_mesh *m, size_t need, size_t *cap, cairn_diag *d) {
  return mem_grow((void **)&m->tri, cap, need, sizeof *m->tri, "stl:triangles", d);
}

/* One triangle's vertices finite (after scaling); its area and the surface's shape are the
   mesh's checks (world/mesh.h: mesh_build). */
static cairn_status check_tri(const stl_mesh *m, size_t t, const char *path, cairn_diag *d) {
  const double(*v)[3] = m->tri[t];
  for (int i = 0; i < 3; i++)
    for (int k = 0; k < 3; k++)
      CAIRN_CHECK(isfinite(v[i][k]) && fabs(v[i][k]) < 1e150, d, CAIRN_EINVAL,
                  "'%s': triangle %zu has a vertex that is not a finite number (%g); the file is "
                  "damaged or was written wrong",
                  path, t + 1, v[i][k]);
  return CAIRN_OK;
}

static cairn_status read_binary(FILE *f, const char *path, size_t n, double scale, stl_mesh *m,
                                cairn_diag *d) {
  size_t cap = 0;
  CAIRN_TRY(grow_tris(m, n ? n : 1, &cap, d));
  unsigned char rec[50];
  for (size_t t = 0; t < n; t++) {
    CAIRN_CHECK(fread(rec, 1, 50, f) == 50, d, CAIRN_EINVAL,
                "'%s' is cut short: it ends in triangle %zu of the %zu its header counts", path,
                t + 1, n);
    for (int i = 0; i < 3; i++)
      for (int k = 0; k < 3; k++) {
        float x;
        memcpy(&x, rec + 12 + 12 * i + 4 * k, 4);
        m->tri[t][i][k] = (double)x * scale;
      }
    m->n = t + 1;
    CAIRN_TRY(check_tri(m, t, path, d));
  }
  return CAIRN_OK;
}

/* The next word of an ASCII file (lowercased), or "" at its end; line counts lines. */
static int next_word(FILE *f, char *w, size_t cap, long *line) {
  int c;
  do {
    c = fgetc(f);
    if (c == '\n') (*line)++;
  } while (c != EOF && isspace(c));
  size_t n = 0;
  while (c != EOF && !isspace(c)) {
    if (n + 1 < cap) w[n++] = (char)tolower(c);
    c = fgetc(f);
  }
  if (c == '\n') (*line)++;
  w[n] = 0;
  return n > 0;
}

static cairn_status expect(FILE *f, const char *want, const char *path, long *line, cairn_diag *d) {
  char w[64];
  next_word(f, w, sizeof w, line);
  CAIRN_CHECK(strcmp(w, want) == 0, d, CAIRN_EINVAL,
              "'%s' line %ld: expected '%s' but found '%s'; it is not a valid ASCII STL file", path,
              *line, want, w[0] ? w : "the end of the file");
  return CAIRN_OK;
}

static cairn_status read_ascii(FILE *f, const char *path, double scale, stl_mesh *m,
                               cairn_diag *d) {
  size_t cap = 0;
  long line = 1;
  char w[256];
  next_word(f, w, sizeof w, &line); /* "solid" */
  /* the solid's name runs to the end of its line */
  int c;
  while ((c = fgetc(f)) != EOF && c != '\n') {
  }
  line++;
  for (;;) {
    CAIRN_CHECK(next_word(f, w, sizeof w, &line), d, CAIRN_EINVAL,
                "'%s' is cut short: it ends without 'endsolid' after %zu triangles", path, m->n);
    if (strcmp(w, "endsolid") == 0) break;
    CAIRN_CHECK(strcmp(w, "facet") == 0, d, CAIRN_EINVAL,
                "'%s' line %ld: expected 'facet' or 'endsolid' but found '%s'; it is not a valid "
                "ASCII STL file",
                path, line, w);
    CAIRN_TRY(expect(f, "normal", path, &line, d));
    for (int k = 0; k < 3; k++) next_word(f, w, sizeof w, &line);
    CAIRN_TRY(expect(f, "outer", path, &line, d));
    CAIRN_TRY(expect(f, "loop", path, &line, d));
    CAIRN_TRY(grow_tris(m, m->n + 1, &cap, d));
    for (int i = 0; i < 3; i++) {
      CAIRN_TRY(expect(f, "vertex", path, &line, d));
      for (int k = 0; k < 3; k++) {
        next_word(f, w, sizeof w, &line);
        char *end;
        errno = 0;
        double x = strtod(w, &end);
        CAIRN_CHECK(w[0] && *end == 0, d, CAIRN_EINVAL,
                    "'%s' line %ld: vertex coordinate '%s' of triangle %zu is not a number", path,
                    line, w, m->n + 1);
        m->tri[m->n][i][k] = x * scale;
      }
    }
    CAIRN_TRY(expect(f, "endloop", path, &line, d));
    CAIRN_TRY(expect(f, "endfacet", path, &line, d));
    m->n++;
    CAIRN_TRY(check_tri(m, m->n - 1, path, d));
  }
  return CAIRN_OK;
}

cairn_status io_read_stl(const char *path, double scale, stl_mesh *m, cairn_diag *d) {
  memset(m, 0, sizeof *m);
  CAIRN_CHECK(isfinite(scale) && scale > 0, d, CAIRN_EINVAL,
              "the scale of a surface must be a positive number (got %g)", scale);
  struct stat st;
  CAIRN_CHECK(stat(path, &st) == 0, d, CAIRN_EINVAL, "cannot read the surface file '%s': %s", path,
              strerror(errno));
  CAIRN_CHECK(!S_ISDIR(st.st_mode), d, CAIRN_EINVAL,
              "'%s' is a folder, not an STL file; give the path of a surface file", path);
  FILE *f = fopen(path, "rb");
  CAIRN_CHECK(f, d, CAIRN_EINVAL, "cannot read the surface file '%s': %s", path, strerror(errno));
  unsigned char head[84];
  size_t got = fread(head, 1, 84, f);
  uint32_t n = 0;
  if (got == 84) memcpy(&n, head + 80, 4);
  cairn_status s;
  /* binary when the size fits the count; ASCII files start with "solid" (binary ones may too) */
  if (got == 84 && (uint64_t)st.st_size == 84 + 50 * (uint64_t)n) {
    s = n ? read_binary(f, path, n, scale, m, d)
          : diag_set(d, CAIRN_EINVAL, "'%s' holds no triangles", path);
  } else if (got >= 5 && strncmp((const char *)head, "solid", 5) == 0) {
    rewind(f);
    s = read_ascii(f, path, scale, m, d);
    if (s == CAIRN_OK && !m->n) s = diag_set(d, CAIRN_EINVAL, "'%s' holds no triangles", path);
  } else if (io_is_vertex_face(f)) {
    s = io_read_vertex_face(f, path, scale, m, d);
  } else if (got == 84 && (uint64_t)st.st_size < 84 + 50 * (uint64_t)n) {
    s = diag_set(d, CAIRN_EINVAL,
                 "'%s' is cut short: its header counts %u triangles (%llu bytes) but it has "
                 "%lld bytes",
                 path, n, (unsigned long long)(84 + 50 * (uint64_t)n), (long long)st.st_size);
  } else {
    s = diag_set(d, CAIRN_EINVAL,
                 "'%s' is not an STL file (neither binary, whose size follows from its triangle "
                 "count, nor ASCII, which starts with 'solid') nor a vertex/face text file "
                 "(\"v x y z\" and \"f i j k\" lines); export the surface as STL or OBJ",
                 path);
  }
  fclose(f);
  if (s != CAIRN_OK) stl_free(m);
  return s;
}
