/* The polyline text format of 2D mesh walls (docs/meshes.md, "2D: polylines"): one vertex "x y"
   a line, numbers separated by blanks or commas, '#' starting a comment; a blank line ends one
   polyline and starts the next. Read whole into segments (each vertex scaled) or refused with
   the line named. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "io/io.h"

/* Whether the file starts as an STL file does: "solid" (ASCII), or bytes that are not text in
   its first 84 (binary: a header and a count). */
static int looks_stl(FILE *f) {
  unsigned char b[84];
  size_t n = fread(b, 1, sizeof b, f);
  rewind(f);
  size_t i = 0;
  while (i < n && isspace(b[i])) i++;
  if (n - i >= 5 && memcmp(b + i, "solid", 5) == 0) return 1;
  for (i = 0; i < n; i++)
    if (b[i] == 0) return 1;
  return 0;
}

static int blank(const char *s) {
  for (; *s; s++)
    if (!isspace((unsigned char)*s)) return 0;
  return 1;
}

cairn_status io_read_polyline(const char *path, double scale, polyline_segments *out,
                              cairn_diag *d) {
  FILE *f = fopen(path, "r");
  CAIRN_CHECK(f, d, CAIRN_EIO, "cannot read the polyline file '%s'; check the path", path);
  if (looks_stl(f)) {
    fclose(f);
    return diag_set(d, CAIRN_EINVAL,
                    "'%s' is an STL file (triangles, for a 3D model); a 2D mesh wall is read from "
                    "a polyline file: one vertex \"x y\" a line",
                    path);
  }
  char line[4096];
  long ln = 0, first_line = 0;
  polyline_segments got = {0};
  size_t cap = 0, in_line = 0; /* vertices of the polyline being read */
  double last[2] = {0, 0};
  cairn_status s = CAIRN_OK;
  while (s == CAIRN_OK && fgets(line, sizeof line, f)) {
    ln++;
    if (!strchr(line, '\n') && !feof(f)) {
      s = diag_set(d, CAIRN_EINVAL,
                   "'%s' line %ld is longer than %zu characters; one vertex "
                   "\"x y\" a line",
                   path, ln, sizeof line - 1);
      break;
    }
    if (blank(line)) { /* the end of a polyline */
      if (in_line == 1)
        s = diag_set(d, CAIRN_EINVAL,
                     "'%s' line %ld: a polyline of one vertex has no "
                     "segment; give it two vertices or more",
                     path, first_line);
      in_line = 0;
      continue;
    }
    double v[2];
    int k = io_text_numbers(line, v, 2);
    if (k == 0) continue; /* (a comment) */
    if (k == IO_TEXT_NOT_A_NUMBER || k != 2) {
      s = diag_set(d, CAIRN_EINVAL,
                   "'%s' line %ld is not a vertex: give two numbers, x and y "
                   "(blanks or commas between; a blank line between polylines)",
                   path, ln);
      break;
    }
    v[0] *= scale, v[1] *= scale;
    if (!isfinite(v[0]) || !isfinite(v[1])) {
      s = diag_set(d, CAIRN_EINVAL, "'%s' line %ld holds a coordinate that is not finite", path,
                   ln);
      break;
    }
    if (in_line && v[0] == last[0] && v[1] == last[1]) {
      s = diag_set(d, CAIRN_EINVAL,
                   "'%s' line %ld repeats the vertex before it (%g, %g): a "
                   "segment needs two different ends; remove the repeated line",
                   path, ln, v[0], v[1]);
      break;
    }
    if (in_line) {
      s = mem_grow((void **)&got.seg, &cap, got.n + 1, sizeof *got.seg, "polyline", d);
      if (s) break;
      double(*g)[3] = got.seg[got.n++];
      g[0][0] = last[0], g[0][1] = last[1], g[0][2] = 0;
      g[1][0] = v[0], g[1][1] = v[1], g[1][2] = 0;
    } else
      first_line = ln;
    last[0] = v[0], last[1] = v[1];
    in_line++;
  }
  if (s == CAIRN_OK && in_line == 1)
    s = diag_set(d, CAIRN_EINVAL,
                 "'%s' line %ld: a polyline of one vertex has no segment; give "
                 "it two vertices or more",
                 path, first_line);
  if (s == CAIRN_OK && ferror(f))
    s = diag_set(d, CAIRN_EIO, "reading the polyline file '%s' failed", path);
  if (s == CAIRN_OK && got.n == 0)
    s = diag_set(d, CAIRN_EINVAL,
                 "'%s' holds no segment: give each polyline's vertices, \"x "
                 "y\" a line",
                 path);
  fclose(f);
  if (s != CAIRN_OK) {
    polyline_free(&got);
    return s;
  }
  *out = got;
  return CAIRN_OK;
}

void polyline_free(polyline_segments *p) {
  mem_free(p->seg, 0);
  p->seg = NULL, p->n = 0;
}
