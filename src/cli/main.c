/* The cairn command: run a script, run the verification cases. Exit status 0 ok, 1 a script or
   input error (one message naming file:line), 2 a usage error (design.md, Command line), 3 a
   plugin crashed. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "contact/contact.h"
#include "contact/plugin_call.h"
#include "core/comm.h"
#include "cycle/cycle.h"
#include "io/io.h"

#include "lua/lua_api.h"
#include "view/view.h"

#ifndef CAIRN_VERIFICATION_DIR
#define CAIRN_VERIFICATION_DIR "verification"
#endif

static const char USAGE[] =
    "usage: cairn run SCRIPT.lua [--plugin PATH]... [--quiet]   run a script\n"
    "                  [--view[=PORT]]                   and watch it in a browser\n"
    "       cairn verify [CASE...] [--plugin PATH]...           run verification cases\n"
    "       cairn models [NAME] [--plugin PATH]...              list models, or one's table\n"
    "       cairn plot HISTORY.csv [--out FILE.png|.svg|.pdf]   plot histories with gnuplot\n"
    "                  [--x COL] [--y A,B...] [--y2 C,...] [--labels T,...] [--styles S,...]\n"
    "                  [--title T] [--xlabel T] [--ylabel T] [--y2label T]\n"
    "                  [--logx] [--logy] [--logy2] [--together]\n"
    "       cairn render SERIES.pvd OUT.png [--view V] [--walls W] [--color F]...\n"
    "                                                   pictures of a VTK series (--help)\n"
    "       cairn view FOLDER [--port N]                the live view of a run's save files\n"
    "       cairn --version | --help\n"
    "\n"
    "--plugin may stand before or after the command; PATH is a .so file, or a name looked up\n"
    "in $CAIRN_PLUGIN_PATH and " CAIRN_PLUGIN_DIR ".\n"
    "\n"
    "Verification cases are the .lua files in $CAIRN_VERIFICATION_DIR, else in\n"
    "  " CAIRN_VERIFICATION_DIR "\n"
    "Exit status: 0 ok, 1 a script or input error, 2 a usage error, 3 a plugin crashed.\n";

/* A failure's message on stderr, once however many MPI ranks run (core/comm.h): when every rank
   fails alike rank 0 prints it; a rank that fails alone prints it and stops the others. */
static FILE *alone_err; /* ranks other than 0: their own stderr, for a failure of theirs alone */
/* Where a plugin's crash is reported: stderr, which on ranks other than 0 is the same stderr
   kept aside (alone_err's descriptor), since their fd 2 goes to /dev/null. */
static int crash_fd = 2;
static int crash_waits; /* a rank other than 0 waits before reporting (report_start) */

static int failed(int code, const char *fmt, const char *a, const char *b) {
  int print = comm_error_exit_should_print();
  FILE *f = print == 2 && alone_err ? alone_err : stderr;
  if (print) {
    fprintf(f, fmt, a, b);
    fflush(f);
  }
  if (print == 2) comm_abort(code);
  return code;
}

static int usage_error(const char *fmt, const char *arg) {
  char msg[1024];
  snprintf(msg, sizeof msg, fmt, arg);
  return failed(2, "cairn: %s\n%s", msg, USAGE);
}

static const char *plugins[64];
static int n_plugins;

/* The note at the start of a run on several threads: how many, and how to change it; for a
   person at a terminal, as the progress line is (not in logs). */
static void note_threads(void) {
  int n = cycle_threads(0);
  if (n < 2 || !isatty(2)) return;
  const char *policy = getenv("OMP_WAIT_POLICY");
  int spins = policy && (strcasecmp(policy, "active") == 0);
  fprintf(stderr,
          "cairn: %d threads, which %s while they wait (OMP_NUM_THREADS=1 for one; "
          "OMP_WAIT_POLICY=%s to %s; --quiet hides this note)\n",
          n, spins ? "spin" : "sleep", spins ? "passive" : "active",
          spins ? "sleep, on a machine shared with other work" : "spin, on a machine of your own");
}

static int cmd_run(int argc, char **argv) {
  const char *script = NULL;
  int quiet = 0;
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--quiet") == 0)
      quiet = 1;
    else if (strcmp(argv[i], "--view") == 0)
      script_request_view(0);
    else if (strncmp(argv[i], "--view=", 7) == 0) { /* a port of one's choice */
      char *end;
      long port = strtol(argv[i] + 7, &end, 10);
      if (*end || port < 1 || port > 65535)
        return usage_error("--view=PORT needs a port from 1 to 65535 (got '%s')", argv[i] + 7);
      script_request_view((int)port);
    } else if (argv[i][0] == '-' && argv[i][1])
      return usage_error("unknown option '%s' for run", argv[i]);
    else if (!script)
      script = argv[i];
    else
      return usage_error("run takes one script (got a second: '%s')", argv[i]);
  }
  if (!script) return usage_error("%s", "run needs a script: cairn run SCRIPT.lua");
  if (!quiet) note_threads();
  cairn_diag d;
  if (script_run_file(script, NULL, quiet, plugins, n_plugins, NULL, &d) != CAIRN_OK)
    return failed(1, "%s%s\n", d.msg, "");
  return 0;
}

static const char *verification_dir(void) {
  const char *env = getenv("CAIRN_VERIFICATION_DIR");
  return env && env[0] ? env : CAIRN_VERIFICATION_DIR;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Names of the cases (file names without .lua), sorted. Caller frees. */
static int list_cases(const char *dir, char ***out, int *n) {
  DIR *dp = opendir(dir);
  if (!dp) return -1;
  char **names = NULL;
  int cnt = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir(dp))) {
    size_t len = strlen(e->d_name);
    if (len < 5 || strcmp(e->d_name + len - 4, ".lua") != 0 || e->d_name[0] == '_') continue;
    if (cnt == cap) {
      cap = cap ? cap * 2 : 32;
      char **nn = realloc(names, (size_t)cap * sizeof *names);
      if (!nn) break;
      names = nn;
    }
    names[cnt] = strndup(e->d_name, len - 4);
    if (names[cnt]) cnt++;
  }
  closedir(dp);
  qsort(names, (size_t)cnt, sizeof *names, cmp_str);
  *out = names;
  *n = cnt;
  return 0;
}

/* The cases' costs in seconds, measured on one machine (verification/costs.tsv, "case<TAB>seconds"
   rows: the CPU time of each case on one thread, written by `OMP_NUM_THREADS=1
   CAIRN_VERIFY_TIMES=FILE cairn verify`): what the estimate at the start and the time left at a
   terminal come from. A case missing from the table costs the table's mean. */
static void case_costs(const char *dir, char **names, int n, double *cost) {
  char path[4096], line[512];
  snprintf(path, sizeof path, "%s/costs.tsv", dir);
  for (int k = 0; k < n; k++) cost[k] = -1;
  FILE *f = fopen(path, "r");
  double sum = 0;
  int known = 0;
  while (f && fgets(line, sizeof line, f)) {
    char *tab = strchr(line, '\t');
    if (!tab) continue;
    *tab = 0;
    double t = strtod(tab + 1, NULL);
    if (!(t >= 0 && t < 1e6)) continue;
    sum += t, known++;
    for (int k = 0; k < n; k++)
      if (strcmp(names[k], line) == 0) cost[k] = t;
  }
  if (f) fclose(f);
  for (int k = 0; k < n; k++)
    if (cost[k] < 0) cost[k] = known ? sum / known : 1.0;
}

static double seconds_since(clockid_t clock, const struct timespec *t0) {
  struct timespec t;
  clock_gettime(clock, &t);
  return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

/* "40 s" or "3 min", for an estimate. */
static const char *duration(double s, char *buf, size_t n) {
  if (s < 90)
    snprintf(buf, n, "%.0f s", s < 1 ? 1 : s);
  else
    snprintf(buf, n, "%.0f min", s / 60);
  return buf;
}

static int cmd_verify(int argc, char **argv) {
  const char *dir = verification_dir();
  char **all = NULL;
  int n_all = 0;
  for (int i = 0; i < argc; i++)
    if (argv[i][0] == '-') return usage_error("unknown option '%s' for verify", argv[i]);
  if (list_cases(dir, &all, &n_all) != 0) {
    fprintf(stderr,
            "cairn verify: cannot read the verification folder '%s'; set "
            "CAIRN_VERIFICATION_DIR to the project's verification/ folder\n",
            dir);
    return 1;
  }
  for (int i = 0; i < argc; i++) {
    int found = 0;
    for (int k = 0; k < n_all; k++) found |= strcmp(all[k], argv[i]) == 0;
    if (!found) {
      fprintf(stderr, "cairn verify: no case '%s' in %s; run `cairn verify` to run them all\n",
              argv[i], dir);
      for (int k = 0; k < n_all; k++) free(all[k]);
      free(all);
      return 2;
    }
  }
  int pass = 0, fail = 0, errors = 0, n_run = 0, done = 0;
  double *cost = calloc((size_t)n_all + 1, sizeof *cost), total = 0, cost_done = 0;
  char *wanted = calloc((size_t)n_all + 1, 1), buf[32];
  if (!cost || !wanted) {
    fprintf(stderr, "cairn verify: out of memory\n");
    free(cost), free(wanted);
    for (int k = 0; k < n_all; k++) free(all[k]);
    free(all);
    return 1;
  }
  case_costs(dir, all, n_all, cost);
  for (int k = 0; k < n_all; k++) {
    wanted[k] = argc == 0;
    for (int i = 0; i < argc; i++) wanted[k] |= strcmp(all[k], argv[i]) == 0;
    if (wanted[k]) n_run++, total += cost[k];
  }
  /* The estimate, always (one line on stderr, for logs too); the case being run and the time
     left, at a terminal only, on a short line that ends in '\r' (a case's own note, written
     from the line's start, overwrites it). */
  int tty = isatty(2);
  if (n_run > 1)
    fprintf(stderr, "verify: %d cases, about %s on an unloaded machine (more on a busy one)\n",
            n_run, duration(total, buf, sizeof buf));
  const char *times_out = getenv("CAIRN_VERIFY_TIMES");
  FILE *times = times_out && times_out[0] ? fopen(times_out, "w") : NULL;
  struct timespec t_start;
  clock_gettime(CLOCK_MONOTONIC, &t_start);
  printf("result\tcase\tquantity\tsimulated\treference\terror\ttolerance\tkind\n");
  for (int k = 0; k < n_all; k++) {
    if (!wanted[k]) continue;
    if (tty && n_run > 1) {
      /* the time left: the table's, scaled by how this machine has kept to it so far */
      double pace = cost_done > 0 ? seconds_since(CLOCK_MONOTONIC, &t_start) / cost_done : 1.0;
      fflush(stdout);
      fprintf(stderr, "\033[Kverify: case %d of %d, about %s left\r", done + 1, n_run,
              duration(pace * (total - cost_done), buf, sizeof buf));
      fflush(stderr);
    }
    struct timespec t_case; /* CPU time: what the case costs, however busy the machine */
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t_case);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.lua", dir, all[k]);
    script_result r = {0, 0};
    cairn_diag d;
    if (script_run_file(path, all[k], 1, plugins, n_plugins, &r, &d) != CAIRN_OK) {
      printf("FAIL\t%s\terror\t-\t-\t-\t-\t-\n", all[k]);
      fprintf(stderr, "%s\n", d.msg);
      errors++;
    } else if (r.n_pass + r.n_fail == 0) {
      printf("FAIL\t%s\tno-checks\t-\t-\t-\t-\t-\n", all[k]);
      fprintf(stderr, "cairn verify: case '%s' made no checks; call verify.check in it\n", all[k]);
      errors++;
    }
    pass += r.n_pass;
    fail += r.n_fail;
    done++, cost_done += cost[k];
    if (times)
      fprintf(times, "%s\t%.2f\n", all[k], seconds_since(CLOCK_PROCESS_CPUTIME_ID, &t_case));
  }
  if (tty && n_run > 1) fprintf(stderr, "\033[K");
  if (times) fclose(times);
  free(cost);
  free(wanted);
  for (int k = 0; k < n_all; k++) free(all[k]);
  free(all);
  fflush(stdout);
  fprintf(stderr, "verify: %d passed, %d failed, %d case error%s\n", pass, fail, errors,
          errors == 1 ? "" : "s");
  return fail || errors ? 1 : 0;
}

static const char *type_str(cairn_prop_type t) {
  static const char *const names[] = {"FLT", "INT", "BOOL", "VEC"};
  return t <= CAIRN_PROP_VEC ? names[t] : "?";
}

static void fmt_num(double v, char *buf, size_t n) {
  if (isinf(v))
    snprintf(buf, n, "%s", v > 0 ? "+inf" : "-inf");
  else
    snprintf(buf, n, "%g", v);
}

/* One model's property table in the form of the seeds' Table 1, then its state fields. */
static void print_model(const model_entry *e) {
  const cairn_contact_model *m = e->m;
  printf("%s: %s\n(version %d, %s)\n\n", m->name, m->doc ? m->doc : "", m->version, e->source);
  printf("%-14s %-5s %-22s %-14s %-10s %s\n", "keyword", "type", "range", "default", "modifiable",
         "description [unit]");
  for (int i = 0; i < m->n_props; i++) {
    const cairn_prop_desc *p = &m->props[i];
    char range[96], def[80];
    if (p->type == CAIRN_PROP_BOOL)
      snprintf(range, sizeof range, "{0, 1}");
    else
      range_text(p, range, sizeof range); /* per component, for VEC */
    if (p->access == CAIRN_ALIAS) {
      printf("%-14s %-5s %-22s %-14s %-10s another name for %s\n", p->name, type_str(p->type), "-",
             "-", "yes", p->default_from);
      continue;
    }
    if (p->default_from)
      snprintf(def, sizeof def, "= %s", p->default_from);
    else
      fmt_num(p->def, def, sizeof def);
    printf("%-14s %-5s %-22s %-14s %-10s %s [%s]\n", p->name, type_str(p->type), range, def,
           p->access == CAIRN_RW ? "yes" : "no", p->doc ? p->doc : "", p->unit ? p->unit : "-");
  }
  for (int i = 0; i < m->n_state; i++) {
    const cairn_state_desc *st = &m->state[i];
    char items[32] = "-"; /* an array field: how many values it holds */
    if (cairn_state_items(st) > 1)
      snprintf(items, sizeof items, "list of %d", cairn_state_items(st));
    printf("%-14s %-5s %-22s %-14s %-10s %s [%s]\n", st->name, type_str(st->type), items, "-", "no",
           st->doc ? st->doc : "", st->unit ? st->unit : "-");
  }
}

static int cmd_models(int argc, char **argv) {
  if (argc > 1) return usage_error("models takes at most one name (got '%s' too)", argv[1]);
  if (argc == 1 && argv[0][0] == '-') return usage_error("unknown option '%s' for models", argv[0]);
  script_ctx c;
  memset(&c, 0, sizeof c);
  cairn_diag d;
  cairn_world *w = NULL;
  cairn_status s = CAIRN_OK;
  for (int i = 0; i < n_plugins && s == CAIRN_OK; i++) s = ctx_load_plugin(&c, plugins[i], &d);
  if (s == CAIRN_OK) s = ctx_new_world(&c, 3, &w, &d);
  int rc = 0;
  if (s != CAIRN_OK) {
    fprintf(stderr, "%s\n", d.msg);
    rc = 1;
  } else if (argc == 0) {
    printf("%-12s %-8s %s\n", "model", "version", "source: description");
    for (size_t i = 0; i < w->reg->n; i++) {
      const model_entry *e = &w->reg->e[i];
      printf("%-12s %-8d %s: %s\n", e->m->name, e->m->version, e->source,
             e->m->doc ? e->m->doc : "");
    }
  } else {
    int k = registry_find(w->reg, argv[0]);
    if (k < 0) {
      fprintf(stderr,
              "cairn models: no contact model '%s'; run `cairn models` to list them "
              "(with --plugin PATH for a plugin's models)\n",
              argv[0]);
      rc = 1;
    } else {
      print_model(&w->reg->e[k]);
    }
  }
  cairn_world_destroy(&w);
  ctx_free_plugins(&c);
  return rc;
}

/* cairn view FOLDER [--port N]: the live view's page on what a finished run wrote in a folder
   (save files, VTK series, history CSVs), until the page's stop or Ctrl-C. */
static volatile int view_quit;
static void on_view_signal(int sig) {
  (void)sig;
  view_quit = 1;
}

static cairn_status view_make_world(void *ud, int dim, cairn_world **out, cairn_diag *d) {
  return ctx_new_world(ud, dim, out, d);
}

static int cmd_view(int argc, char **argv) {
  const char *folder = NULL;
  int port = 0;
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--port") == 0 && i + 1 < argc) {
      char *end;
      long p = strtol(argv[++i], &end, 10);
      if (*end || p < 0 || p > 65535)
        return usage_error("--port needs a port from 1 to 65535, or 0 for a free one (got '%s')",
                           argv[i]);
      port = (int)p;
    } else if (argv[i][0] == '-') {
      return usage_error("unknown option '%s' for view (or an option without its value)", argv[i]);
    } else if (!folder) {
      folder = argv[i];
    } else {
      return usage_error("view takes one folder (got a second: '%s')", argv[i]);
    }
  }
  if (!folder) return usage_error("%s", "view needs a folder: cairn view FOLDER");
  script_ctx c;
  memset(&c, 0, sizeof c);
  cairn_diag d;
  cairn_status s = CAIRN_OK;
  for (int i = 0; i < n_plugins && s == CAIRN_OK; i++) s = ctx_load_plugin(&c, plugins[i], &d);
  signal(SIGINT, on_view_signal);
  signal(SIGTERM, on_view_signal);
  if (s == CAIRN_OK) s = view_saved_run(folder, port, view_make_world, &c, &view_quit, &d);
  ctx_free_plugins(&c);
  if (s != CAIRN_OK) return failed(1, "%s%s\n", d.msg, "");
  return 0;
}

/* cairn render ARGS: pictures of a VTK series (io_render); its messages go to stderr, and its
   exit status is the command's. */
static int cmd_render(int argc, char **argv) {
  char err[4096];
  int rc = io_render((const char *const *)argv, argc, err, sizeof err);
  if (err[0]) fprintf(stderr, "%s\n", err);
  return rc;
}

/* cairn plot FILE.csv [--out FILE.png|.svg|.pdf] [--x COL] [--y A,B] [--y2 C] [--labels T,U]
   [--styles S,T] [--title T] [--xlabel T] [--ylabel T] [--y2label T] [--logx] [--logy]
   [--logy2] [--together]: columns against time (or COL), a panel per quantity unless one axis is
   asked for. */
/* Split a comma-separated list in place into out (at most max); its length. */
static int split_list(char *s, const char **out, int max) {
  int n = 0;
  for (char *tok = strtok(s, ","); tok && n < max; tok = strtok(NULL, ",")) out[n++] = tok;
  return n;
}

static int cmd_plot(int argc, char **argv) {
  const char *csv = NULL, *out = NULL;
  const char *ys[64], *y2s[64], *labels[128], *styles[128];
  int n_labels = 0, n_styles = 0;
  plot_spec p;
  memset(&p, 0, sizeof p);
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    int more = i + 1 < argc;
    if (strcmp(a, "--out") == 0 && more)
      out = argv[++i];
    else if (strcmp(a, "--x") == 0 && more)
      p.x = argv[++i];
    else if (strcmp(a, "--y") == 0 && more)
      p.n_y = split_list(argv[++i], ys, 64), p.y = ys;
    else if (strcmp(a, "--y2") == 0 && more)
      p.n_y2 = split_list(argv[++i], y2s, 64), p.y2 = y2s;
    else if (strcmp(a, "--labels") == 0 && more)
      n_labels = split_list(argv[++i], labels, 128), p.labels = labels;
    else if (strcmp(a, "--styles") == 0 && more)
      n_styles = split_list(argv[++i], styles, 128), p.styles = styles;
    else if (strcmp(a, "--title") == 0 && more)
      p.title = argv[++i];
    else if (strcmp(a, "--xlabel") == 0 && more)
      p.xlabel = argv[++i];
    else if (strcmp(a, "--ylabel") == 0 && more)
      p.ylabel = argv[++i];
    else if (strcmp(a, "--y2label") == 0 && more)
      p.y2label = argv[++i];
    else if (strcmp(a, "--logx") == 0)
      p.logx = 1;
    else if (strcmp(a, "--logy") == 0)
      p.logy = 1;
    else if (strcmp(a, "--logy2") == 0)
      p.logy2 = 1;
    else if (strcmp(a, "--together") == 0)
      p.together = 1;
    else if (a[0] == '-')
      return usage_error("unknown option '%s' for plot (or an option without its value)", a);
    else if (!csv)
      csv = a;
    else
      return usage_error("plot takes one CSV file (got a second: '%s')", a);
  }
  if (!csv) return usage_error("%s", "plot needs a CSV file: cairn plot HISTORY.csv");
  /* one legend and one style per series of --y then --y2, as plot.history takes them */
  char why[160];
  if (n_labels && (p.n_y == 0 || n_labels != p.n_y + p.n_y2)) {
    snprintf(why, sizeof why, "%d columns, %d labels", p.n_y + p.n_y2, n_labels);
    return usage_error("--labels needs one legend per column of --y and --y2, in order (%s)", why);
  }
  if (n_styles && (p.n_y == 0 || n_styles != p.n_y + p.n_y2)) {
    snprintf(why, sizeof why, "%d columns, %d styles", p.n_y + p.n_y2, n_styles);
    return usage_error("--styles needs one style per column of --y and --y2, in order (%s)", why);
  }
  char def[4096];
  if (!out) { /* history.csv -> history.png */
    snprintf(def, sizeof def, "%s", csv);
    char *dot = strrchr(def, '.');
    if (dot && strcmp(dot, ".csv") == 0) *dot = 0;
    strncat(def, ".png", sizeof def - strlen(def) - 1);
    out = def;
  }
  p.csv = csv, p.out = out;
  cairn_diag d;
  if (io_plot_csv(&p, &d) != CAIRN_OK) {
    fprintf(stderr, "cairn plot: %s\n", d.msg);
    return 1;
  }
  printf("%s\n", out);
  return 0;
}

/* A fault inside a plugin's code: one message naming the plugin, its model and the function,
   then exit status 3 (the process cannot go on: its memory may be damaged). Only
   async-signal-safe calls here. A fault elsewhere is cairn's own bug: the default action
   (a core dump) keeps it debuggable. Save files are written to a temporary name and renamed,
   so the last complete one is never damaged by the crash. */
static void put(const char *s) {
  size_t n = strlen(s);
  while (n > 0) {
    ssize_t k = write(crash_fd, s, n);
    if (k <= 0) return;
    s += k, n -= (size_t)k;
  }
}

static struct sigaction before[NSIG]; /* the handlers there were (a sanitizer's, or none) */
/* Set by the first thread to report: threads running the same broken law fault together, and
   one message is wanted. A lock-free atomic_flag is async-signal-safe. */
static atomic_flag reporting = ATOMIC_FLAG_INIT;

/* The report's head, "cairn: the plugin LIB " (the caller goes on from there), once: a second
   thread to get here waits for the first one's _exit. */
static void report_start(const plugin_call *pc) {
  if (atomic_flag_test_and_set(&reporting))
    for (;;) pause();
  /* Under MPI a crash cannot be agreed on (no MPI in a signal handler). A rank other than 0
     waits two seconds, then reports: when every rank crashes alike (a model that runs whole on
     every rank), rank 0 reports at once and mpirun stops the others on its exit, so the message
     appears once; when this rank crashes alone (its brick of a decomposed model), its message
     appears, and its exit status 3 ends the job. */
  if (crash_waits) {
    struct timespec two = {2, 0};
    while (nanosleep(&two, &two) != 0 && errno == EINTR) continue;
  }
  put("cairn: the plugin ");
  put(pc->source);
  put(" ");
}

static void on_fault(int sig) {
  const plugin_call *pc = cairn_plugin_call_now();
  if (!pc->function) { /* not a plugin: the handler from before, on the faulting instruction */
    sigaction(sig, &before[sig], NULL);
    /* a raised signal (SIGFPE of raise(), SIGABRT of abort()) is not raised again by returning */
    if (sig == SIGFPE || sig == SIGABRT || before[sig].sa_handler == SIG_DFL) raise(sig);
    return;
  }
  const char *what = sig == SIGSEGV  ? "a segmentation fault (SIGSEGV)"
                     : sig == SIGBUS ? "a bus error (SIGBUS)"
                     : sig == SIGFPE ? "an arithmetic fault (SIGFPE)"
                     : sig == SIGILL ? "an illegal instruction (SIGILL)"
                                     : "an abort (SIGABRT; a failed assert is one)";
  report_start(pc);
  put("crashed with ");
  put(what);
  put(" in contact model '");
  put(pc->model);
  put("', function ");
  put(pc->function);
  put("; a plugin runs inside cairn's process, so the run ends here (save files written before "
      "are intact). Fix the plugin: run the script under gdb or valgrind to find the line\n");
  _exit(3);
}

/* exit() called inside a plugin (the atexit handler of run_command): the plugin ended the process
   in the middle of a step, which would look like a finished run (status 0, no message). It runs
   on the thread that called exit, so the mark says whether that was a plugin. cairn's own exits
   (the end of main, os.exit) happen outside any plugin call and go on as usual. */
static void on_exit_in_plugin(void) {
  const plugin_call *pc = cairn_plugin_call_now();
  if (!pc->function) return;
  fflush(stdout); /* what the script printed before; not in a signal handler here */
  report_start(pc);
  put("called exit() in contact model '");
  put(pc->model);
  put("', function ");
  put(pc->function);
  put("; a plugin runs inside cairn's process and must not end it, so the run ends here with "
      "status 3 (save files written before are intact). Fix the plugin: report bad properties "
      "from validate instead\n");
  _exit(3);
}

static void catch_plugin_faults(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_fault;
  sigemptyset(&sa.sa_mask);
  /* SA_ONSTACK: a plugin that overflows its stack faults where no handler can run but on the
     alternate stack that each thread gets at its first plugin call (plugin_call_thread_init) */
  sa.sa_flags = SA_NODEFER | SA_ONSTACK;
  const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
  for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) sigaction(sigs[i], &sa, &before[sigs[i]]);
  atexit(on_exit_in_plugin);
}

static int run_command(int argc_in, char **argv_in);

/* OpenMP threads waiting for work spin, and on a machine busy with other work two spinning
   threads slow a run down several times over (docs/scripting.md, model.threads: 67 s against
   16 s on one thread, where passive waiting takes 16 s). libgomp reads its settings once, as it
   is loaded, before main runs; so cairn starts itself again, once, with OMP_WAIT_POLICY=passive,
   unless the user chose a wait policy or a spin count, it runs one thread anyway, or it runs
   under valgrind (which an exec would leave). Without /proc it goes on as it is. */
static void wait_passively(char **argv) {
#ifdef _OPENMP
  if (getenv("OMP_WAIT_POLICY") || getenv("GOMP_SPINCOUNT") || getenv("VALGRIND_LAUNCHER")) return;
  if (cycle_threads(0) < 2 || setenv("OMP_WAIT_POLICY", "passive", 1) != 0) return;
  execv("/proc/self/exe", argv);
  unsetenv("OMP_WAIT_POLICY");
#else
  (void)argv;
#endif
}

int main(int argc_in, char **argv_in) {
  wait_passively(argv_in);
  if (comm_init(&argc_in, &argv_in) != 0) {
    fprintf(stderr, "cairn: MPI could not start; run cairn directly or under mpirun\n");
    return 1;
  }
  /* Every rank runs the script alike: rank 0 alone prints (and writes files, io/atomic.c). */
  if (comm_rank() != 0) {
    int fd = dup(2);
    alone_err = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (fd >= 0) crash_fd = fd, crash_waits = 1;
    if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) return 1;
  }
  int rc = run_command(argc_in, argv_in);
  fflush(stdout);
  comm_finalize();
  return rc;
}

static int run_command(int argc_in, char **argv_in) {
  catch_plugin_faults();
  /* Take --plugin PATH (or --plugin=PATH) out of the arguments, wherever it stands. */
  char *args[256];
  int argc = 0;
  for (int i = 0; i < argc_in && argc < 256; i++) {
    const char *a = argv_in[i];
    if (i > 0 && (strcmp(a, "--plugin") == 0 || strncmp(a, "--plugin=", 9) == 0)) {
      const char *p = a[8] == '=' ? a + 9 : (i + 1 < argc_in ? argv_in[++i] : NULL);
      if (!p || !p[0]) return usage_error("%s", "--plugin needs a path");
      if (n_plugins == (int)(sizeof plugins / sizeof *plugins))
        return usage_error("%s", "too many --plugin options");
      plugins[n_plugins++] = p;
      continue;
    }
    args[argc++] = argv_in[i];
  }
  char **argv = args;
  if (argc < 2) return usage_error("%s", "no command given");
  const char *cmd = argv[1];
  if (strcmp(cmd, "--version") == 0) {
    printf("cairn %s (contact-model ABI %d, %s)\n", CAIRN_VERSION_STRING, CAIRN_CM_ABI_VERSION,
           LUA_RELEASE);
    return 0;
  }
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
    fputs(USAGE, stdout);
    return 0;
  }
  if (strcmp(cmd, "run") == 0) return cmd_run(argc - 2, argv + 2);
  if (strcmp(cmd, "verify") == 0) return cmd_verify(argc - 2, argv + 2);
  if (strcmp(cmd, "models") == 0) return cmd_models(argc - 2, argv + 2);
  if (strcmp(cmd, "plot") == 0) return cmd_plot(argc - 2, argv + 2);
  if (strcmp(cmd, "render") == 0) return cmd_render(argc - 2, argv + 2);
  if (strcmp(cmd, "view") == 0) return cmd_view(argc - 2, argv + 2);
  return usage_error("unknown command '%s'", cmd);
}
