/* The live view's HTTP server (view.h): libmicrohttpd on a thread of its own, bound to
   127.0.0.1, every request checked against the token. The engine's snapshots wait in three
   buffers behind one lock, which the engine only tries: when the server holds it, that snapshot
   is skipped, so the cycle never waits for a browser. */
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "view/view.h"

extern const int view_n_chunks;
extern const char *const view_chunk_name[];
extern const char *const view_chunk_text[];
extern const size_t view_chunk_len[];

#ifdef CAIRN_VIEW

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <sys/random.h>

#define QUEUE 16

struct view_server {
  struct MHD_Daemon *daemon;
  char token[33];
  char address[96];
  double refresh, last;
  pthread_mutex_t lock;
  char *status, *geometry, *histories; /* the last snapshot */
  size_t n_status, n_geometry, n_histories, cap_status, cap_geometry, cap_histories;
  int queue[QUEUE], q_arg[QUEUE], q_head, q_n; /* the page's commands, oldest first */
  char note[256];
  char folder[1024]; /* cairn view's folder ("" none): its files served as /file/NAME */
  char page[512];    /* the page's last report of how it draws (POST /report), JSON; "" none */
};

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The token compared in time that does not depend on where it differs. */
static int token_ok(const view_server *v, const char *t) {
  if (!t || strlen(t) != 32) return 0;
  unsigned diff = 0;
  for (int i = 0; i < 32; i++) diff |= (unsigned char)(t[i] ^ v->token[i]);
  return diff == 0;
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned code, const char *type,
                             const void *data, size_t n) {
  struct MHD_Response *r = MHD_create_response_from_buffer(n, (void *)data, MHD_RESPMEM_MUST_COPY);
  if (!r) return MHD_NO;
  MHD_add_response_header(r, "Content-Type", type);
  MHD_add_response_header(r, "Cache-Control", "no-store");
  enum MHD_Result ok = MHD_queue_response(c, code, r);
  MHD_destroy_response(r);
  return ok;
}

static enum MHD_Result reply_text(struct MHD_Connection *c, unsigned code, const char *text) {
  return reply(c, code, "text/plain; charset=utf-8", text, strlen(text));
}

/* A whole file as the answer (type 'type'), or a 404 saying 'missing' where it cannot be
   opened, a 500 saying 'unreadable' where it cannot be read. */
static enum MHD_Result reply_whole_file(struct MHD_Connection *c, const char *path,
                                        const char *type, const char *missing,
                                        const char *unreadable) {
  FILE *f = fopen(path, "rb");
  if (!f) return reply_text(c, 404, missing);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
  size_t got = buf ? fread(buf, 1, (size_t)n, f) : 0;
  fclose(f);
  enum MHD_Result ok =
      buf && got == (size_t)n ? reply(c, 200, type, buf, got) : reply_text(c, 500, unreadable);
  free(buf);
  return ok;
}

/* A file of Debian's JavaScript packages, or a 404 that says which package to install. */
static enum MHD_Result reply_file(struct MHD_Connection *c, const char *path, const char *pkg) {
  char msg[256];
  snprintf(msg, sizeof msg, "%s is missing; install Debian's %s (make deps)", path, pkg);
  return reply_whole_file(c, path, "application/javascript", msg, "cannot read a library file");
}

/* An embedded file of the page (src/view/page/), with the token written into it. */
static enum MHD_Result reply_page(view_server *v, struct MHD_Connection *c, const char *name,
                                  const char *type) {
  for (int i = 0; i < view_n_chunks; i++) {
    if (strcmp(view_chunk_name[i], name) != 0) continue;
    const char *s = view_chunk_text[i];
    size_t n = view_chunk_len[i], out = 0, marks = 0;
    for (size_t k = 0; k + 9 <= n; k++) marks += memcmp(s + k, "{{TOKEN}}", 9) == 0;
    char *buf = malloc(n + 23 * marks + 1); /* (each mark of 9 becomes the token's 32) */
    if (!buf) return reply_text(c, 500, "out of memory");
    for (size_t k = 0; k < n;)
      if (k + 9 <= n && memcmp(s + k, "{{TOKEN}}", 9) == 0) {
        memcpy(buf + out, v->token, 32);
        out += 32, k += 9;
      } else {
        buf[out++] = s[k++];
      }
    enum MHD_Result ok = reply(c, 200, type, buf, out);
    free(buf);
    return ok;
  }
  return reply_text(c, 404, "no such page");
}

/* A plain file name: letters, digits, '_', '-' and '.', not starting with '.' (so nothing
   outside the folder, nothing hidden). */
static int plain_name(const char *s) {
  if (!*s || *s == '.') return 0;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
          *s == '_' || *s == '-' || *s == '.'))
      return 0;
  return 1;
}

static int ends_with(const char *s, const char *tail) {
  size_t n = strlen(s), k = strlen(tail);
  return n > k && strcmp(s + n - k, tail) == 0;
}

/* cairn view's folder: a file of it, or the list of its saves, series and CSVs. */
static enum MHD_Result reply_folder_file(view_server *v, struct MHD_Connection *c,
                                         const char *name) {
  if (!v->folder[0] || !plain_name(name)) return reply_text(c, 404, "no such file");
  char path[2100];
  snprintf(path, sizeof path, "%s/%s", v->folder, name);
  const char *type = ends_with(name, ".csv")    ? "text/csv"
                     : ends_with(name, ".json") ? "application/json"
                                                : "application/octet-stream";
  return reply_whole_file(c, path, type, "no such file", "cannot read the file");
}

static enum MHD_Result reply_folder_list(view_server *v, struct MHD_Connection *c) {
  static const char *const kinds[3][2] = {{"saves", ".sav"}, {"series", ".pvd"}, {"csv", ".csv"}};
  DIR *dir = v->folder[0] ? opendir(v->folder) : NULL;
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  if (!buf) {
    if (dir) closedir(dir);
    return reply_text(c, 500, "out of memory");
  }
  n += (size_t)snprintf(buf, cap, "{");
  for (int k = 0; k < 3; k++) {
    n += (size_t)snprintf(buf + n, cap - n, "%s\"%s\":[", k ? "," : "", kinds[k][0]);
    int first = 1;
    if (dir) rewinddir(dir);
    for (struct dirent *e; dir && (e = readdir(dir));) {
      if (!plain_name(e->d_name) || !ends_with(e->d_name, kinds[k][1])) continue;
      size_t need = strlen(e->d_name) + 8;
      if (n + need + 8 > cap) {
        char *g = realloc(buf, cap = 2 * cap + need);
        if (!g) break;
        buf = g;
      }
      n += (size_t)snprintf(buf + n, cap - n, "%s\"%s\"", first ? "" : ",", e->d_name);
      first = 0;
    }
    n += (size_t)snprintf(buf + n, cap - n, "]");
  }
  n += (size_t)snprintf(buf + n, cap - n, "}");
  if (dir) closedir(dir);
  enum MHD_Result ok = reply(c, 200, "application/json", buf, n);
  free(buf);
  return ok;
}

/* The last status, with the page's last report as its member "page" (when there is one). */
static enum MHD_Result reply_status(view_server *v, struct MHD_Connection *c) {
  pthread_mutex_lock(&v->lock);
  enum MHD_Result ok;
  size_t n = v->n_status, k = strlen(v->page);
  char *buf = n && k ? malloc(n + k + 16) : NULL;
  if (buf) {
    memcpy(buf, v->status, n - 1); /* (all but the closing brace) */
    int m = snprintf(buf + n - 1, k + 16, ",\"page\":%s}", v->page);
    ok = reply(c, 200, "application/json", buf, n - 1 + (size_t)m);
    free(buf);
  } else {
    ok = n ? reply(c, 200, "application/json", v->status, n)
           : reply_text(c, 503, "no snapshot yet: the model has not cycled");
  }
  pthread_mutex_unlock(&v->lock);
  return ok;
}

/* A buffer of the last snapshot, copied out under the lock. */
static enum MHD_Result reply_buffer(view_server *v, struct MHD_Connection *c, char **buf, size_t *n,
                                    const char *type) {
  pthread_mutex_lock(&v->lock);
  enum MHD_Result ok = *n ? reply(c, 200, type, *buf, *n)
                          : reply_text(c, 503, "no snapshot yet: the model has not cycled");
  pthread_mutex_unlock(&v->lock);
  return ok;
}

static int command_of(const char *s) {
  if (!s) return VIEW_NONE;
  return strcmp(s, "pause") == 0    ? VIEW_PAUSE
         : strcmp(s, "resume") == 0 ? VIEW_RESUME
         : strcmp(s, "save") == 0   ? VIEW_SAVE
         : strcmp(s, "stop") == 0   ? VIEW_STOP
         : strcmp(s, "frame") == 0  ? VIEW_FRAME
                                    : VIEW_NONE;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *upload,
                              size_t *upload_size, void **state) {
  (void)version, (void)upload;
  view_server *v = cls;
  if (!*state) { /* the first call of a request: its headers; answer at the next */
    static int marker;
    *state = &marker;
    return MHD_YES;
  }
  *upload_size = 0;
  const char *token = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "token");
  if (!token_ok(v, token))
    return reply_text(c, 403, "forbidden: this page needs the token of the address cairn printed");
  int post = strcmp(method, "POST") == 0;
  if (post && strcmp(url, "/control") == 0) {
    int cmd = command_of(MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "cmd"));
    if (cmd == VIEW_NONE)
      return reply_text(c, 400, "cmd must be pause, resume, save, stop or frame (with k)");
    const char *k = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "k");
    int arg = k ? atoi(k) : 0;
    pthread_mutex_lock(&v->lock);
    int queued = v->q_n < QUEUE;
    if (queued) {
      int at = (v->q_head + v->q_n++) % QUEUE;
      v->queue[at] = cmd, v->q_arg[at] = arg;
    }
    pthread_mutex_unlock(&v->lock);
    return queued ? reply_text(c, 202, "queued") : reply_text(c, 503, "too many commands");
  }
  if (post && strcmp(url, "/report") == 0) { /* the page: how fast it draws, and on what */
    const char *fps = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "fps");
    const char *drawn = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "drawn");
    const char *by = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "renderer");
    char clean[200];
    size_t k = 0; /* (the renderer's name into JSON: no quotes, backslashes or controls) */
    for (const char *s = by ? by : ""; *s && k + 1 < sizeof clean; s++)
      if (*s != '"' && *s != '\\' && (unsigned char)*s >= 32) clean[k++] = *s;
    clean[k] = 0;
    pthread_mutex_lock(&v->lock);
    snprintf(v->page, sizeof v->page, "{\"fps\":%.4g,\"drawn\":%ld,\"renderer\":\"%s\"}",
             fps ? atof(fps) : 0.0, drawn ? atol(drawn) : 0L, clean);
    pthread_mutex_unlock(&v->lock);
    return reply_text(c, 202, "noted");
  }
  if (strcmp(method, "GET") != 0) return reply_text(c, 405, "GET, or POST /control and /report");
  if (strcmp(url, "/") == 0) return reply_page(v, c, "index.html", "text/html; charset=utf-8");
  if (strcmp(url, "/view.js") == 0) return reply_page(v, c, "view.js", "application/javascript");
  if (strcmp(url, "/status.json") == 0) return reply_status(v, c);
  if (strcmp(url, "/geometry.bin") == 0)
    return reply_buffer(v, c, &v->geometry, &v->n_geometry, "application/octet-stream");
  if (strcmp(url, "/histories.json") == 0)
    return reply_buffer(v, c, &v->histories, &v->n_histories, "application/json");
  if (strcmp(url, "/files.json") == 0) return reply_folder_list(v, c);
  if (strncmp(url, "/file/", 6) == 0) return reply_folder_file(v, c, url + 6);
  if (strcmp(url, "/lib/three.min.js") == 0)
    return reply_file(c, "/usr/share/javascript/three/three.min.js", "libjs-three");
  if (strcmp(url, "/lib/OrbitControls.js") == 0)
    return reply_file(c, "/usr/share/javascript/three/examples/js/controls/OrbitControls.js",
                      "libjs-three");
  if (strcmp(url, "/lib/chart.min.js") == 0)
    return reply_file(c, "/usr/share/javascript/chart.js/chart.min.js", "libjs-chart.js");
  return reply_text(c, 404, "no such page");
}

cairn_status view_start(const view_opts *o, view_server **out, cairn_diag *d) {
  view_server *v = calloc(1, sizeof *v);
  if (!v) return diag_set(d, CAIRN_ENOMEM, "out of memory starting the live view");
  unsigned char raw[16];
  if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw) {
    free(v);
    return diag_set(d, CAIRN_EIO, "the live view: no random bytes for its token (getrandom)");
  }
  for (int i = 0; i < 16; i++) snprintf(v->token + 2 * i, 3, "%02x", raw[i]);
  v->refresh = o && o->refresh > 0 ? o->refresh : 0.5;
  if (o && o->folder) snprintf(v->folder, sizeof v->folder, "%s", o->folder);
  v->last = -1e300;
  pthread_mutex_init(&v->lock, NULL);
  struct sockaddr_in addr;
  memset(&addr, 0, sizeof addr);
  addr.sin_family = AF_INET;
  addr.sin_port = htons((uint16_t)(o ? o->port : 0));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK); /* this machine only */
  v->daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD, (uint16_t)(o ? o->port : 0), NULL,
                               NULL, handle, v, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr,
                               MHD_OPTION_CONNECTION_LIMIT, 16u, MHD_OPTION_END);
  if (!v->daemon) {
    pthread_mutex_destroy(&v->lock);
    free(v);
    return diag_set(
        d, CAIRN_EIO,
        "the live view cannot listen on 127.0.0.1:%d; give another port (model.view{port "
        "= N}) or 0 for a free one",
        o ? o->port : 0);
  }
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(v->daemon, MHD_DAEMON_INFO_BIND_PORT);
  snprintf(v->address, sizeof v->address, "http://127.0.0.1:%u/?token=%s",
           info ? (unsigned)info->port : 0u, v->token);
  *out = v;
  return CAIRN_OK;
}

const char *view_address(const view_server *v) {
  return v->address;
}

void view_publish(view_server *v, const cairn_world *w, const view_run *r, int now) {
  double t = now_s();
  if (!now && t - v->last < v->refresh) return;
  if (pthread_mutex_trylock(&v->lock) != 0) return; /* the server is reading: skip this one */
  v->last = t;
  v->n_status = view_status_json(w, r, &v->status, &v->cap_status);
  if (w) {
    v->n_geometry = view_geometry(w, &v->geometry, &v->cap_geometry);
    v->n_histories = view_histories_json(w, &v->histories, &v->cap_histories);
  }
  if (v->note[0] && v->n_status > 1 && v->n_status + 300 < v->cap_status) {
    /* the note as the status object's last member (its closing brace replaced) */
    char *end = v->status + v->n_status - 1;
    int k = snprintf(end, v->cap_status - v->n_status + 1, ",\"note\":\"%s\"}", v->note);
    v->n_status += (size_t)k - 1;
  }
  pthread_mutex_unlock(&v->lock);
}

int view_take_command(view_server *v, int *arg) {
  pthread_mutex_lock(&v->lock);
  int cmd = VIEW_NONE;
  if (v->q_n) {
    cmd = v->queue[v->q_head];
    if (arg) *arg = v->q_arg[v->q_head];
    v->q_head = (v->q_head + 1) % QUEUE, v->q_n--;
  }
  pthread_mutex_unlock(&v->lock);
  return cmd;
}

void view_note(view_server *v, const char *msg) {
  pthread_mutex_lock(&v->lock);
  size_t k = 0; /* (quotes and backslashes left out: it goes into JSON as it is) */
  for (const char *s = msg; *s && k + 1 < sizeof v->note; s++)
    if (*s != '"' && *s != '\\' && (unsigned char)*s >= 32) v->note[k++] = *s;
  v->note[k] = 0;
  pthread_mutex_unlock(&v->lock);
}

void view_stop(view_server *v) {
  if (!v) return;
  MHD_stop_daemon(v->daemon);
  pthread_mutex_destroy(&v->lock);
  free(v->status), free(v->geometry), free(v->histories);
  free(v);
}

#else /* built without libmicrohttpd */

struct view_server {
  int unused;
};

cairn_status view_start(const view_opts *o, view_server **out, cairn_diag *d) {
  (void)o, (void)out;
  return diag_set(d, CAIRN_ESTATE,
                  "this cairn was built without libmicrohttpd, which the live view needs; install "
                  "Debian's libmicrohttpd-dev (make deps) and build again");
}
const char *view_address(const view_server *v) {
  (void)v;
  return "";
}
void view_publish(view_server *v, const cairn_world *w, const view_run *r, int now) {
  (void)v, (void)w, (void)r, (void)now;
}
int view_take_command(view_server *v, int *arg) {
  (void)v, (void)arg;
  return VIEW_NONE;
}
void view_note(view_server *v, const char *msg) {
  (void)v, (void)msg;
}

void view_stop(view_server *v) {
  (void)v;
}

#endif
