/* Plots through gnuplot: columns of a CSV file (as written by history.export) drawn against one
   of them, to PNG, SVG or PDF, one quantity to a panel unless asked for one axis (io.h). gnuplot
   writes to a temporary file that is renamed into place, so a failed plot leaves no partial
   image. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/comm.h"
#include "io/io.h"

/* Quote a string for a gnuplot single-quoted literal (a quote is doubled). */
static void put_quoted(FILE *f, const char *s) {
  fputc('\'', f);
  for (; *s; s++) {
    if (*s == '\'') fputc('\'', f);
    fputc(*s, f);
  }
  fputc('\'', f);
}

/* Read the header of a CSV file into names (comma-separated, no quoting). */
static cairn_status read_header(const char *csv, char names[][CAIRN_MAX_NAME], int max, int *n,
                                cairn_diag *d) {
  FILE *f = fopen(csv, "r");
  CAIRN_CHECK(f, d, CAIRN_EIO, "cannot read '%s': %s; check the path", csv, strerror(errno));
  char line[8192];
  int ok = fgets(line, sizeof line, f) != NULL;
  fclose(f);
  CAIRN_CHECK(ok, d, CAIRN_EIO, "'%s' is empty; plot a CSV written by history.export", csv);
  line[strcspn(line, "\r\n")] = 0;
  *n = 0;
  for (char *save = NULL, *tok = strtok_r(line, ",", &save); tok && *n < max;
       tok = strtok_r(NULL, ",", &save))
    snprintf(names[(*n)++], CAIRN_MAX_NAME, "%s", tok);
  CAIRN_CHECK(*n >= 2, d, CAIRN_EINVAL,
              "'%s' has fewer than two columns; plot a CSV written by history.export", csv);
  return CAIRN_OK;
}

/* The number of data rows of a CSV file (its lines but the header); 0 if it cannot be read. */
static long count_rows(const char *csv) {
  FILE *f = fopen(csv, "r");
  if (!f) return 0;
  long lines = 0;
  int c, last = '\n';
  while ((c = fgetc(f)) != EOF) {
    if (c == '\n') lines++;
    last = c;
  }
  fclose(f);
  if (last != '\n') lines++;
  return lines > 1 ? lines - 1 : 0;
}

/* The gnuplot style of a series: the script's word, else by the column's name: a reference
   (named "exact", "ref", "closed" or "analytic") dashed, the others a line with markers. Markers
   are open symbols that differ from series to series; on a line they sit on at most about 40 of
   the samples, so a dense series does not bury the curves under it. NULL for an unknown word. */
static const char *const REFERENCE_WORDS[] = {"exact", "ref", "analytic", "closed"};

/* The first reference word in name, or NULL. */
static const char *reference_word(const char *name, const char **word) {
  for (int k = 0; k < 4; k++) {
    const char *at = strstr(name, REFERENCE_WORDS[k]);
    if (at) {
      *word = REFERENCE_WORDS[k];
      return at;
    }
  }
  return NULL;
}

static int is_reference(const char *name) {
  const char *word;
  return reference_word(name, &word) != NULL;
}

static const char *series_style(const char *word, const char *name, int i, long rows, char *buf,
                                size_t n) {
  static const int symbols[] = {6, 4, 8, 12, 10, 14}; /* circle, square, triangles, diamond */
  int pt = symbols[i % (int)(sizeof symbols / sizeof symbols[0])];
  if (!word) word = is_reference(name) ? "dashed" : "linespoints";
  if (strcmp(word, "line") == 0)
    snprintf(buf, n, "lines linewidth 2");
  else if (strcmp(word, "dashed") == 0)
    snprintf(buf, n, "lines dashtype 2 linewidth 2");
  else if (strcmp(word, "points") == 0)
    snprintf(buf, n, "points pointtype %d pointsize 1.2", pt);
  else if (strcmp(word, "linespoints") == 0)
    snprintf(buf, n, "linespoints pointtype %d pointsize 1.2 pointinterval %ld", pt,
             rows > 40 ? (rows + 39) / 40 : 1);
  else
    return NULL;
  return buf;
}

/* A CSV file's columns: each header cell, and its name and unit ("NAME [UNIT]"; unit "" if
   none). */
typedef struct columns {
  int n;
  char cell[256][CAIRN_MAX_NAME];
  char name[256][CAIRN_MAX_NAME];
  char unit[256][CAIRN_MAX_NAME];
} columns;

static void split_units(columns *c) {
  for (int i = 0; i < c->n; i++) {
    snprintf(c->name[i], CAIRN_MAX_NAME, "%s", c->cell[i]);
    c->unit[i][0] = 0;
    size_t len = strlen(c->cell[i]);
    char *open = strstr(c->name[i], " [");
    if (!open || len < 4 || c->cell[i][len - 1] != ']') continue;
    snprintf(c->unit[i], CAIRN_MAX_NAME, "%.*s", (int)(len - 1 - (open + 2 - c->name[i])),
             open + 2);
    *open = 0;
  }
}

/* The column a name asks for: its header cell, or its name without the unit. */
static int column_of(const columns *c, const char *name) {
  for (int i = 0; i < c->n; i++)
    if (strcmp(c->cell[i], name) == 0) return i;
  for (int i = 0; i < c->n; i++)
    if (strcmp(c->name[i], name) == 0) return i;
  return -1;
}

/* The quantity of a column, for panels: its unit if it has one; else its name with a reference
   word ("exact", "ref", "analytic", "closed") and a separator next to it taken out, so that fn
   and fn_exact share a panel. */
static void quantity_of(const columns *c, int i, char *out, size_t n) {
  if (c->unit[i][0]) {
    snprintf(out, n, "[%s]", c->unit[i]);
    return;
  }
  snprintf(out, n, "%s", c->name[i]);
  const char *word;
  char *at = (char *)reference_word(out, &word);
  if (at) {
    char *from = at, *to = at + strlen(word);
    if (from > out && strchr("_- ", from[-1]))
      from--;
    else if (*to && strchr("_- ", *to))
      to++;
    memmove(from, to, strlen(to) + 1);
    if (!out[0]) snprintf(out, n, "%s", c->name[i]); /* the column is all reference word */
    return;
  }
}

static cairn_status plot_csv(const plot_spec *p, cairn_diag *d);

cairn_status io_plot_csv(const plot_spec *p, cairn_diag *d) {
  /* under MPI rank 0 draws (the file is the same for every rank), and every rank shares its
     outcome */
  cairn_status s = comm_rank() == 0 ? plot_csv(p, d) : CAIRN_OK;
  return comm_agree(s, d);
}

/* The image's kind, by the output's extension: 'p' PNG, 's' SVG, 'f' PDF, 0 none of them. */
static int image_kind(const char *out) {
  const char *dot = strrchr(out, '.');
  if (!dot) return 0;
  return strcmp(dot, ".png") == 0   ? 'p'
         : strcmp(dot, ".svg") == 0 ? 's'
         : strcmp(dot, ".pdf") == 0 ? 'f'
                                    : 0;
}

/* One series of the plot command: column c of the CSV against column xc. */
static void put_series(FILE *f, const plot_spec *p, const columns *c, int xc, int c_i, int i,
                       int y2, long rows) {
  char style[128];
  put_quoted(f, p->csv);
  /* skip 1: the header (every ::1 would also drop the first row after each blank line) */
  /* (a colour of its own, the same in whichever panel it is drawn) */
  fprintf(f, " skip 1 using %d:%d %swith %s linecolor %d title ", xc + 1, c_i + 1,
          y2 ? "axes x1y2 " : "",
          series_style(p->styles ? p->styles[i] : NULL, c->name[c_i], i, rows, style, sizeof style),
          i % 8 + 1);
  put_quoted(f, p->labels && p->labels[i] ? p->labels[i] : c->cell[c_i]);
}

/* The panels of the y columns (yc, ny of them): group[i], the panel of series i; returns their
   count. One panel unless several quantities are drawn and nothing asks for one axis. */
static int panels_of(const plot_spec *p, const columns *c, const int *yc, int ny, int *group) {
  char q[64][CAIRN_MAX_NAME + 2];
  int ng = 0;
  for (int i = 0; i < ny; i++) {
    group[i] = 0;
    if (p->n_y2 || p->together || p->ylabel) continue;
    char mine[CAIRN_MAX_NAME + 2];
    quantity_of(c, yc[i], mine, sizeof mine);
    int g = 0;
    while (g < ng && strcmp(q[g], mine) != 0) g++;
    if (g == ng) snprintf(q[ng++], sizeof q[0], "%s", mine);
    group[i] = g;
  }
  return ng > 1 ? ng : 1;
}

/* The y label of panel g: its series' legends (or names) with their unit: "sigma1, sigma3 [kPa]";
   a column and its reference: the column's name. */
static void panel_label(const plot_spec *p, const columns *c, const int *yc, int ny,
                        const int *group, int g, char *out, size_t n) {
  out[0] = 0;
  const char *unit = "";
  int first = -1, count = 0;
  for (int i = 0; i < ny; i++)
    if (group[i] == g) first = first < 0 ? i : first, count++, unit = c->unit[yc[i]];
  if (!unit[0] && count > 1) { /* a column and its reference: the quantity's name */
    quantity_of(c, yc[first], out, n);
    return;
  }
  /* a reference beside what it checks is not named again (y and y_exact in m: "y [m]") */
  int plain = 0;
  for (int i = 0; i < ny; i++) plain += group[i] == g && !is_reference(c->name[yc[i]]);
  for (int i = 0; i < ny; i++) {
    if (group[i] != g || (plain && is_reference(c->name[yc[i]]))) continue;
    const char *word = p->labels && p->labels[i] ? p->labels[i] : c->name[yc[i]];
    size_t used = strlen(out);
    snprintf(out + used, n - used, "%s%s", used ? ", " : "", word);
  }
  if (unit[0]) {
    size_t used = strlen(out);
    snprintf(out + used, n - used, " [%s]", unit);
  }
}

/* The gnuplot script that draws the chosen columns of the CSV (yc: ny on the first axis, then
   ny2 on the second) against column xc into tmp_img: one axis, or a panel per quantity. */
static void write_plot_script(FILE *f, const plot_spec *p, const char *tmp_img, int kind,
                              const columns *c, int xc, const int *yc, int ny, int ny2, long rows) {
  int group[128];
  int ng = panels_of(p, c, yc, ny, group);
  /* a panel a little over a third of a single plot's height */
  int h = ng > 1 ? 80 + 220 * ng : 600;
  if (kind == 'f')
    fprintf(f, "set terminal pdfcairo size 9in,%gin noenhanced\n", h / 100.0);
  else
    fprintf(f, "set terminal %s size 900,%d %s\n", kind == 's' ? "svg" : "pngcairo", h,
            kind == 's' ? "dynamic" : "noenhanced");
  fprintf(f, "set output ");
  put_quoted(f, tmp_img);
  fprintf(f, "\nset datafile separator ','\nset key below noenhanced\n"
             "set grid\nset termoption noenhanced\n");
  /* %g on a logarithmic axis: 0.001 and 1e-05, not 0.001000 and 0.000010; a logarithmic x axis
     spans just the data (not out to whole decades, which can leave most of the width empty) */
  if (p->logx) fprintf(f, "set logscale x\nset format x '%%g'\nset autoscale xfix\n");
  if (p->logy) fprintf(f, "set logscale y\nset format y '%%g'\n");
  if (ng > 1) {
    /* the same left margin in every panel, so that their x axes line up */
    fprintf(f, "set lmargin 12\nset multiplot layout %d,1", ng);
    if (p->title) {
      fprintf(f, " title ");
      put_quoted(f, p->title);
    }
    fprintf(f, "\n");
    for (int g = 0; g < ng; g++) {
      char label[512];
      panel_label(p, c, yc, ny, group, g, label, sizeof label);
      int count = 0;
      for (int i = 0; i < ny; i++) count += group[i] == g;
      fprintf(f, "%s\nset ylabel ", count > 1 ? "set key below noenhanced" : "unset key");
      put_quoted(f, label);
      fprintf(f, "\nset xlabel ");
      put_quoted(f, g == ng - 1 ? (p->xlabel ? p->xlabel : c->cell[xc]) : "");
      fprintf(f, "\nplot ");
      for (int i = 0, k = 0; i < ny; i++) {
        if (group[i] != g) continue;
        fprintf(f, "%s", k++ ? ", \\\n     " : "");
        put_series(f, p, c, xc, yc[i], i, 0, rows);
      }
      fprintf(f, "\n");
    }
    fprintf(f, "unset multiplot\n");
    return;
  }
  fprintf(f, "set xlabel ");
  put_quoted(f, p->xlabel ? p->xlabel : c->cell[xc]);
  char label[512] = "";
  if (!p->ylabel && ny > 0 && !p->together)
    panel_label(p, c, yc, ny, group, 0, label, sizeof label);
  fprintf(f, "\nset ylabel ");
  put_quoted(f, p->ylabel ? p->ylabel : label);
  if (p->title) {
    fprintf(f, "\nset title ");
    put_quoted(f, p->title);
  }
  if (ny2) {
    fprintf(f, "\nset ytics nomirror\nset y2tics\nset y2label ");
    put_quoted(f, p->y2label ? p->y2label : "");
  }
  if (p->logy2 && ny2) fprintf(f, "\nset logscale y2\nset format y2 '%%g'");
  fprintf(f, "\nplot ");
  for (int i = 0; i < ny + ny2; i++) {
    fprintf(f, "%s", i ? ", \\\n     " : "");
    put_series(f, p, c, xc, yc[i], i, i >= ny, rows);
  }
  fprintf(f, "\n");
}

/* Run gnuplot on the script (which goes, whatever happens), and put its image at the output
   name only once it is whole. */
static cairn_status draw_with_gnuplot(const plot_spec *p, const char *script, const char *tmp_img,
                                      cairn_diag *d) {
  char cmd[8600];
  snprintf(cmd, sizeof cmd, "gnuplot '%s' 2>&1", script);
  FILE *pp = popen(cmd, "r");
  char out[1024] = "";
  size_t len = 0;
  if (pp) {
    size_t r;
    while ((r = fread(out + len, 1, sizeof out - 1 - len, pp)) > 0) len += r;
    out[len] = 0;
  }
  int status = pp ? pclose(pp) : -1;
  remove(script);
  if (status != 0 || access(tmp_img, R_OK) != 0) {
    remove(tmp_img);
    int missing = WIFEXITED(status) && WEXITSTATUS(status) == 127;
    if (missing)
      return diag_set(d, CAIRN_EIO,
                      "plot: gnuplot was not found; install it (Debian: apt-get "
                      "install gnuplot-nox, or make deps)");
    out[strcspn(out, "\n")] = 0;
    return diag_set(d, CAIRN_EIO, "plot: gnuplot failed to draw '%s' (%s)", p->out,
                    out[0] ? out : "no message");
  }
  int failed = io_output_fails_now(); /* (the test hook: as if the disk were full) */
  if (failed || rename(tmp_img, p->out) != 0) {
    int err = failed ? ENOSPC : errno;
    remove(tmp_img);
    return diag_set(d, CAIRN_EIO,
                    "plot: cannot write '%s': %s; check the path (a file, not a folder), free "
                    "space and permissions",
                    p->out, strerror(err));
  }
  return CAIRN_OK;
}

/* The file's columns as a list for a message ("step, time, a, ..."), cut short with "..." where
   it would not fit. */
static const char *column_list(const columns *c, char *buf, size_t size) {
  buf[0] = '\0';
  for (int i = 0; i < c->n; i++) {
    size_t used = strlen(buf), need = strlen(c->cell[i]) + (i ? 2 : 0);
    if (used + need + 4 >= size) {
      strcat(buf, ", ...");
      break;
    }
    if (i) strcat(buf, ", ");
    strcat(buf, c->cell[i]);
  }
  return buf;
}

/* The index of column 'name', or an error naming the file's columns ('what': "" or a note on the
   option that named it). */
static cairn_status need_column(const plot_spec *p, const columns *c, const char *name,
                                const char *what, int *col, cairn_diag *d) {
  char list[400];
  *col = column_of(c, name);
  CAIRN_CHECK(*col >= 0, d, CAIRN_EINVAL, "plot: '%s' has no column '%s'%s; its columns are: %s",
              p->csv, name, what, column_list(c, list, sizeof list));
  return CAIRN_OK;
}

/* Plot with the file's columns read into c. */
static cairn_status plot_columns(const plot_spec *p, columns *c, cairn_diag *d) {
  CAIRN_TRY(read_header(p->csv, c->cell, 256, &c->n, d));
  split_units(c);
  const char *xname = p->x ? p->x : "time";
  int xc;
  CAIRN_TRY(need_column(p, c, xname, "", &xc, d));
  int y2c[64], n2 = 0;
  for (int i = 0; i < p->n_y2 && n2 < 64; i++)
    CAIRN_TRY(need_column(p, c, p->y2[i], " (for the second axis)", &y2c[n2++], d));
  int yc[128], ny = 0, ny2 = 0;
  if (p->n_y == 0) { /* every column but step, x and those on the second axis */
    for (int i = 0; i < c->n && ny < 64; i++) {
      int on_y2 = 0;
      for (int k = 0; k < n2; k++) on_y2 |= y2c[k] == i;
      if (i != xc && strcmp(c->name[i], "step") != 0 && !on_y2) yc[ny++] = i;
    }
  } else {
    for (int i = 0; i < p->n_y && ny < 64; i++)
      CAIRN_TRY(need_column(p, c, p->y[i], "", &yc[ny++], d));
  }
  for (int i = 0; i < n2; i++) yc[ny + ny2++] = y2c[i];
  CAIRN_CHECK(ny + ny2 > 0, d, CAIRN_EINVAL, "plot: nothing to plot in '%s'", p->csv);
  long rows = count_rows(p->csv);
  char style[128];
  for (int i = 0; p->styles && i < ny + ny2; i++)
    CAIRN_CHECK(series_style(p->styles[i], "", i, rows, style, sizeof style), d, CAIRN_EINVAL,
                "plot: unknown style '%s'; give \"line\", \"dashed\", \"points\" or "
                "\"linespoints\"",
                p->styles[i]);
  int kind = image_kind(p->out);
  CAIRN_CHECK(kind, d, CAIRN_EINVAL, "plot: output '%s' must end in .png, .svg or .pdf", p->out);

  /* The gnuplot script and the image go to temporary names beside the output. */
  char script[4200], tmp_img[4200];
  snprintf(script, sizeof script, "%s.gp-%ld", p->out, (long)getpid());
  snprintf(tmp_img, sizeof tmp_img, "%s.tmp-%ld%s", p->out, (long)getpid(),
           kind == 's'   ? ".svg"
           : kind == 'f' ? ".pdf"
                         : ".png");
  FILE *f = fopen(script, "w");
  CAIRN_CHECK(f, d, CAIRN_EIO,
              "cannot write '%s': %s; check that the folder exists and is "
              "writable",
              script, strerror(errno));
  write_plot_script(f, p, tmp_img, kind, c, xc, yc, ny, ny2, rows);
  int bad = ferror(f);
  bad |= fclose(f) != 0;
  if (bad) {
    remove(script);
    return diag_set(d, CAIRN_EIO, "cannot write '%s'; check free space", script);
  }
  return draw_with_gnuplot(p, script, tmp_img, d);
}

static cairn_status plot_csv(const plot_spec *p, cairn_diag *d) {
  columns *c = mem_realloc(NULL, 0, sizeof *c, "plot:columns");
  if (!c) return diag_set(d, CAIRN_ENOMEM, "out of memory reading the columns of '%s'", p->csv);
  cairn_status s = plot_columns(p, c, d);
  mem_free(c, sizeof *c);
  return s;
}
