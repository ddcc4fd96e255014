/* The plain vertex/face text format of 3D mesh walls (docs/meshes.md, "Loading"): "v x y z" a
   vertex, "f i j k" a triangle by its vertices' numbers from 1 in the order they came ("f" with
   more than three numbers: a convex polygon, cut into a fan of triangles from its first corner),
   '#' starting a comment. It is a subset of Wavefront OBJ: an OBJ file's texture and normal
   numbers ("f 1/4/2 ...") are read past, and its other lines (vn, vt, o, g, s, usemtl, mtllib)
   are skipped. Read whole into triangles (each vertex scaled), or refused with the line named. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/io.h"

/* Lines of an OBJ file that say nothing of the surface's shape. */
static int skipped(const char *w) {
  static const char *const names[] = {"vn", "vt",     "vp",     "o", "g",
                                      "s",  "usemtl", "mtllib", "l", NULL};
  for (int i = 0; names[i]; i++)
    if (strcmp(w, names[i]) == 0) return 1;
  return 0;
}

int io_is_vertex_face(FILE *f) {
  char line[256];
  int yes = 0;
  rewind(f);
  while (fgets(line, sizeof line, f)) {
    char *hash = strchr(line, '#');
    if (hash) *hash = 0;
    char *save = NULL, *w = strtok_r(line, " \t\r\n", &save);
    if (!w) continue;
    yes = strcmp(w, "v") == 0 || strcmp(w, "f") == 0 || skipped(w);
    break;
  }
  rewind(f);
  return yes;
}

cairn_status io_read_vertex_face(FILE *f, const char *path, double scale, stl_mesh *m,
                                 cairn_diag *d) {
  double(*v)[3] = NULL;
  size_t nv = 0, cap_v = 0, cap_t = 0;
  char line[4096];
  long ln = 0;
  cairn_status s = CAIRN_OK;
  while (s == CAIRN_OK && fgets(line, sizeof line, f)) {
    ln++;
    if (!strchr(line, '\n') && !feof(f)) {
      s = diag_set(d, CAIRN_EINVAL, "'%s' line %ld is longer than %zu characters", path, ln,
                   sizeof line - 1);
      break;
    }
    char *hash = strchr(line, '#');
    if (hash) *hash = 0;
    char *save = NULL, *w = strtok_r(line, " \t\r\n", &save);
    if (!w || skipped(w)) continue;
    if (strcmp(w, "v") == 0) {
      double x[3];
      int k = 0;
      for (char *t; k < 3 && (t = strtok_r(NULL, " \t\r\n", &save)); k++) {
        char *end;
        x[k] = strtod(t, &end) * scale;
        if (*end) k = -9; /* (not a number) */
      }
      if (k != 3 || !isfinite(x[0]) || !isfinite(x[1]) || !isfinite(x[2])) {
        s = diag_set(d, CAIRN_EINVAL,
                     "'%s' line %ld: a vertex is \"v x y z\", three finite numbers", path, ln);
        break;
      }
      s = mem_grow((void **)&v, &cap_v, nv + 1, sizeof *v, "mesh file", d);
      if (s == CAIRN_OK) memcpy(v[nv++], x, sizeof x);
    } else if (strcmp(w, "f") == 0) {
      long idx[64];
      int k = 0;
      for (char *t; (t = strtok_r(NULL, " \t\r\n", &save));) {
        char *end;
        long i = strtol(t, &end, 10);
        if (k == 64 || end == t || (*end && *end != '/') || i < 1 || (size_t)i > nv) {
          k = -1;
          break;
        }
        idx[k++] = i - 1;
      }
      if (k < 3) {
        s = diag_set(d, CAIRN_EINVAL,
                     "'%s' line %ld: a face is \"f i j k\", three to 64 numbers of vertices "
                     "given above it (from 1; %zu so far)",
                     path, ln, nv);
        break;
      }
      for (int j = 1; j + 1 < k && s == CAIRN_OK; j++) { /* (a fan from the first corner) */
        s = mem_grow((void **)&m->tri, &cap_t, m->n + 1, sizeof *m->tri, "mesh file", d);
        if (s != CAIRN_OK) break;
        memcpy(m->tri[m->n][0], v[idx[0]], sizeof v[0]);
        memcpy(m->tri[m->n][1], v[idx[j]], sizeof v[0]);
        memcpy(m->tri[m->n][2], v[idx[j + 1]], sizeof v[0]);
        m->n++;
      }
    } else {
      s = diag_set(d, CAIRN_EINVAL,
                   "'%s' line %ld starts with '%s': a vertex/face file holds \"v x y z\" and "
                   "\"f i j k\" lines",
                   path, ln, w);
    }
  }
  if (s == CAIRN_OK && m->n == 0)
    s = diag_set(d, CAIRN_EINVAL, "'%s' holds no triangles (no \"f i j k\" line)", path);
  mem_free(v, 0);
  return s;
}
