/* Plots through gnuplot: columns of a CSV file (as written by history.export) drawn against one
   of them, to PNG or SVG. gnuplot writes to a temporary file that is renamed into place, so a
   failed plot leaves no partial image. */
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
static const char *series_style(const char *word, const char *name, int i, long rows, char *buf,
                                size_t n) {
  static const int symbols[] = {6, 4, 8, 12, 10, 14}; /* circle, square, triangles, diamond */
  int pt = symbols[i % (int)(sizeof symbols / sizeof symbols[0])];
  if (!word) {
    int ref = strstr(name, "exact") || strstr(name, "ref") || strstr(name, "analytic") ||
              strstr(name, "closed");
    word = ref ? "dashed" : "linespoints";
  }
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

static int column_of(char names[][CAIRN_MAX_NAME], int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (strcmp(names[i], name) == 0) return i;
  return -1;
}

static cairn_status plot_csv(const plot_spec *p, cairn_diag *d);

cairn_status io_plot_csv(const plot_spec *p, cairn_diag *d) {
  /* under MPI rank 0 draws (the file is the same for every rank), and every rank shares its
     outcome */
  cairn_status s = comm_rank() == 0 ? plot_csv(p, d) : CAIRN_OK;
  return comm_agree(s, d);
}

/* The gnuplot script that draws the chosen columns of the CSV (yc: ny on the first axis, then
   ny2 on the second) against column xc (named xname) into tmp_img. */
static void write_plot_script(FILE *f, const plot_spec *p, const char *tmp_img, int svg,
                              char names[][CAIRN_MAX_NAME], const char *xname, int xc,
                              const int *yc, int ny, int ny2, long rows) {
  char style[128];
  fprintf(f, "set terminal %s size 900,600 %s\n", svg ? "svg" : "pngcairo",
          svg ? "dynamic" : "noenhanced");
  fprintf(f, "set output ");
  put_quoted(f, tmp_img);
  fprintf(f, "\nset datafile separator ','\nset key below noenhanced\n"
             "set grid\nset termoption noenhanced\n");
  fprintf(f, "set xlabel ");
  put_quoted(f, p->xlabel ? p->xlabel : xname);
  fprintf(f, "\nset ylabel ");
  put_quoted(f, p->ylabel ? p->ylabel : "");
  if (p->title) {
    fprintf(f, "\nset title ");
    put_quoted(f, p->title);
  }
  if (ny2) {
    fprintf(f, "\nset ytics nomirror\nset y2tics\nset y2label ");
    put_quoted(f, p->y2label ? p->y2label : "");
  }
  /* %g on a logarithmic axis: 0.001 and 1e-05, not 0.001000 and 0.000010; a logarithmic x axis
     spans just the data (not out to whole decades, which can leave most of the width empty) */
  if (p->logx) fprintf(f, "\nset logscale x\nset format x '%%g'\nset autoscale xfix");
  if (p->logy) fprintf(f, "\nset logscale y\nset format y '%%g'");
  if (p->logy2 && ny2) fprintf(f, "\nset logscale y2\nset format y2 '%%g'");
  fprintf(f, "\nplot ");
  for (int i = 0; i < ny + ny2; i++) {
    fprintf(f, "%s", i ? ", \\\n     " : "");
    put_quoted(f, p->csv);
    /* skip 1: the header (every ::1 would also drop the first row after each blank line) */
    const char *nm = names[yc[i]];
    fprintf(f, " skip 1 using %d:%d %swith %s title ", xc + 1, yc[i] + 1,
            i >= ny ? "axes x1y2 " : "",
            series_style(p->styles ? p->styles[i] : NULL, nm, i, rows, style, sizeof style));
    put_quoted(f, p->labels && p->labels[i] ? p->labels[i] : nm);
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
static const char *column_list(char names[][CAIRN_MAX_NAME], int n, char *buf, size_t size) {
  buf[0] = '\0';
  for (int i = 0; i < n; i++) {
    size_t used = strlen(buf), need = strlen(names[i]) + (i ? 2 : 0);
    if (used + need + 4 >= size) {
      strcat(buf, ", ...");
      break;
    }
    if (i) strcat(buf, ", ");
    strcat(buf, names[i]);
  }
  return buf;
}

/* The index of column 'name', or an error naming the file's columns ('what': "" or a note on the
   option that named it). */
static cairn_status need_column(const plot_spec *p, char names[][CAIRN_MAX_NAME], int n,
                                const char *name, const char *what, int *col, cairn_diag *d) {
  char list[400];
  *col = column_of(names, n, name);
  CAIRN_CHECK(*col >= 0, d, CAIRN_EINVAL, "plot: '%s' has no column '%s'%s; its columns are: %s",
              p->csv, name, what, column_list(names, n, list, sizeof list));
  return CAIRN_OK;
}

static cairn_status plot_csv(const plot_spec *p, cairn_diag *d) {
  char names[256][CAIRN_MAX_NAME];
  int n;
  CAIRN_TRY(read_header(p->csv, names, 256, &n, d));
  const char *xname = p->x ? p->x : "time";
  int xc;
  CAIRN_TRY(need_column(p, names, n, xname, "", &xc, d));
  int yc[128], ny = 0, ny2 = 0;
  if (p->n_y == 0) { /* every column but step, x and those on the second axis */
    for (int i = 0; i < n && ny < 64; i++) {
      int on_y2 = 0;
      for (int k = 0; k < p->n_y2; k++) on_y2 |= strcmp(names[i], p->y2[k]) == 0;
      if (i != xc && strcmp(names[i], "step") != 0 && !on_y2) yc[ny++] = i;
    }
  } else {
    for (int i = 0; i < p->n_y && ny < 64; i++) {
      int c;
      CAIRN_TRY(need_column(p, names, n, p->y[i], "", &c, d));
      yc[ny++] = c;
    }
  }
  for (int i = 0; i < p->n_y2 && ny2 < 64; i++) {
    int c;
    CAIRN_TRY(need_column(p, names, n, p->y2[i], " (for the second axis)", &c, d));
    yc[ny + ny2++] = c;
  }
  CAIRN_CHECK(ny + ny2 > 0, d, CAIRN_EINVAL, "plot: nothing to plot in '%s'", p->csv);
  long rows = count_rows(p->csv);
  char style[128];
  for (int i = 0; p->styles && i < ny + ny2; i++)
    CAIRN_CHECK(series_style(p->styles[i], "", i, rows, style, sizeof style), d, CAIRN_EINVAL,
                "plot: unknown style '%s'; give \"line\", \"dashed\", \"points\" or "
                "\"linespoints\"",
                p->styles[i]);
  const char *dot = strrchr(p->out, '.');
  int svg = dot && strcmp(dot, ".svg") == 0;
  CAIRN_CHECK(svg || (dot && strcmp(dot, ".png") == 0), d, CAIRN_EINVAL,
              "plot: output '%s' must end in .png or .svg", p->out);

  /* The gnuplot script and the image go to temporary names beside the output. */
  char script[4200], tmp_img[4200];
  snprintf(script, sizeof script, "%s.gp-%ld", p->out, (long)getpid());
  snprintf(tmp_img, sizeof tmp_img, "%s.tmp-%ld%s", p->out, (long)getpid(), svg ? ".svg" : ".png");
  FILE *f = fopen(script, "w");
  CAIRN_CHECK(f, d, CAIRN_EIO,
              "cannot write '%s': %s; check that the folder exists and is "
              "writable",
              script, strerror(errno));
  write_plot_script(f, p, tmp_img, svg, names, xname, xc, yc, ny, ny2, rows);
  int bad = ferror(f);
  bad |= fclose(f) != 0;
  if (bad) {
    remove(script);
    return diag_set(d, CAIRN_EIO, "cannot write '%s'; check free space", script);
  }
  return draw_with_gnuplot(p, script, tmp_img, d);
}
