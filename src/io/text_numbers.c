/* One line of a text table of numbers (io_text_numbers in io.h). */
#include <stdlib.h>
#include <string.h>

#include "io/io.h"

int io_text_numbers(char *line, double *v, int max) {
  char *hash = strchr(line, '#');
  if (hash) *hash = 0;
  for (char *c = line; *c; c++)
    if (*c == ',') *c = ' ';
  int k = 0;
  char *p = line, *end;
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    if (!*p) return k;
    if (k == max) return IO_TEXT_TOO_MANY;
    v[k] = strtod(p, &end);
    if (end == p) return IO_TEXT_NOT_A_NUMBER;
    k++, p = end;
  }
}
