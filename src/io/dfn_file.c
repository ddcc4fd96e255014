/* The DFN text format (docs/joints.md): one joint a line, 3D "x y z nx ny nz radius set", 2D
   "x y nx ny half_length set", numbers separated by blanks or commas, '#' starting a comment.
   Read whole or refused with the line named; written atomically. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "io/io.h"

cairn_status io_dfn_read(const char *path, int dim, dfn_net *net, cairn_diag *d) {
  FILE *f = fopen(path, "r");
  CAIRN_CHECK(f, d, CAIRN_EIO, "cannot read the joint file '%s'; check the path", path);
  const int want = dim == 3 ? 8 : 6;
  const char *fields = dim == 3 ? "x y z nx ny nz radius set" : "x y nx ny half_length set";
  char line[4096];
  long ln = 0;
  dfn_net got = {0};
  cairn_status s = CAIRN_OK;
  while (s == CAIRN_OK && fgets(line, sizeof line, f)) {
    ln++;
    if (!strchr(line, '\n') && !feof(f)) {
      s = diag_set(d, CAIRN_EINVAL,
                   "'%s' line %ld is longer than %zu characters; one joint a "
                   "line (%s)",
                   path, ln, sizeof line - 1, fields);
      break;
    }
    double v[8];
    int k = io_text_numbers(line, v, want);
    if (k == 0) continue;
    if (k == IO_TEXT_NOT_A_NUMBER) {
      s = diag_set(d, CAIRN_EINVAL,
                   "'%s' line %ld holds something that is not a number; a "
                   "joint is %s",
                   path, ln, fields);
      break;
    }
    if (k != want) {
      s = diag_set(d, CAIRN_EINVAL, "'%s' line %ld has %s numbers where a joint has %d (%s)", path,
                   ln, k < 0 ? "more" : (k < want ? "fewer" : "more"), want, fields);
      break;
    }
    dfn_joint j;
    memset(&j, 0, sizeof j);
    int ok = 1;
    for (int i = 0; i < want; i++) ok &= isfinite(v[i]);
    for (int c = 0; c < dim; c++) j.centre[c] = v[c], j.normal[c] = v[dim + c];
    j.radius = v[2 * dim];
    const double set = v[2 * dim + 1];
    if (!ok) {
      s = diag_set(d, CAIRN_EINVAL, "'%s' line %ld holds a number that is not finite", path, ln);
    } else if (!dfn_unit(j.normal)) { /* (made of unit length) */
      s = diag_set(d, CAIRN_EINVAL,
                   "'%s' line %ld: the joint's normal is zero; give its plane's "
                   "normal (any length but 0)",
                   path, ln);
    } else if (!(j.radius > 0)) {
      s = diag_set(d, CAIRN_EINVAL, "'%s' line %ld: the joint's %s is %g; give a length > 0", path,
                   ln, dim == 3 ? "radius" : "half-length", j.radius);
    } else if (!(set >= 0 && set == floor(set) && set < 2147483647.0)) {
      s = diag_set(d, CAIRN_EINVAL, "'%s' line %ld: the set id is %g; give a whole number >= 0",
                   path, ln, set);
    } else {
      j.set = (int)set;
      s = dfn_push(&got, &j, d);
    }
  }
  if (s == CAIRN_OK && ferror(f))
    s = diag_set(d, CAIRN_EIO, "reading the joint file '%s' failed", path);
  fclose(f);
  if (s != CAIRN_OK) {
    dfn_free(&got);
    return s;
  }
  *net = got;
  return CAIRN_OK;
}

cairn_status io_dfn_write(const char *path, int dim, const dfn_net *net, cairn_diag *d) {
  atomic_file af;
  CAIRN_TRY(io_atomic_open(&af, path, d));
  fprintf(af.f, "# cairn joints (docs/joints.md): one joint a line\n# %s\n",
          dim == 3 ? "x y z nx ny nz radius set" : "x y nx ny half_length set");
  for (size_t i = 0; i < net->n; i++) {
    const dfn_joint *j = &net->j[i];
    for (int c = 0; c < dim; c++) fprintf(af.f, "%.17g ", j->centre[c]);
    for (int c = 0; c < dim; c++) fprintf(af.f, "%.17g ", j->normal[c]);
    fprintf(af.f, "%.17g %d\n", j->radius, j->set);
  }
  return io_atomic_commit(&af, d);
}
