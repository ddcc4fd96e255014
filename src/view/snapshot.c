/* The live view's snapshots (view.h): the world as the page reads it. Written by the engine's
   thread between steps, into buffers the server then copies. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"
#include "contact/cracks.h"
#include "cycle/history.h"
#include "view/view.h"

/* Room for n more bytes in *buf (grown by doubling); 0 if out of memory. */
static int room(char **buf, size_t *cap, size_t used, size_t n) {
  if (used + n <= *cap) return 1;
  size_t c = *cap ? *cap : 4096;
  while (c < used + n) c *= 2;
  char *p = realloc(*buf, c);
  if (!p) return 0;
  *buf = p, *cap = c;
  return 1;
}

/* A number for JSON: finite, else null. */
static int json_num(char *out, size_t n, double x) {
  return isfinite(x) ? snprintf(out, n, "%.9g", x) : snprintf(out, n, "null");
}

size_t view_status_json(const cairn_world *w, const view_run *r, char **buf, size_t *cap) {
  if (!room(buf, cap, 0, 2048)) return 0;
  char *s = *buf;
  char t[32], rate[32], fr[32], ra[32];
  json_num(t, sizeof t, w ? w->time : 0);
  json_num(rate, sizeof rate, r ? r->rate : 0);
  json_num(fr, sizeof fr, r && r->fraction >= 0 ? r->fraction : NAN);
  json_num(ra, sizeof ra, r && r->ratio >= 0 ? r->ratio : NAN);
  /* (1 KB left past the end: view_publish may append a note) */
  int k = snprintf(s, *cap - 1024,
                   "{\"state\":\"%s\",\"dim\":%d,\"step\":%llu,\"time\":%s,\"balls\":%zu,"
                   "\"contacts\":%zu,\"walls\":%zu,\"cracks\":%zu,\"rate\":%s,\"fraction\":%s,"
                   "\"ratio\":%s,\"frame\":%d,\"frames\":%d}",
                   r && r->what ? r->what : "idle", w ? w->dim : 0,
                   (unsigned long long)(w ? w->step : 0), t, w ? w->balls.n : 0,
                   w ? w->contacts->n : 0, w ? w->walls.n : 0, w ? w->cracks->n : 0, rate, fr, ra,
                   r ? r->frame : 0, r ? r->frames : 0);
  return k > 0 ? (size_t)k : 0;
}

/* ---- geometry ---- */

typedef struct fbuf {
  char **buf;
  size_t *cap, n;
  int ok;
} fbuf;

static void put_f32(fbuf *b, double x) {
  if (!b->ok || !(b->ok = room(b->buf, b->cap, b->n, 4))) return;
  float f = (float)x;
  memcpy(*b->buf + b->n, &f, 4);
  b->n += 4;
}

static void put_seg(fbuf *b, const double p[3], const double q[3], size_t *count) {
  for (int k = 0; k < 3; k++) put_f32(b, p[k]);
  for (int k = 0; k < 3; k++) put_f32(b, q[k]);
  (*count)++;
}

/* A plane's outline in the box [lo, hi] grown by a tenth of its largest side: where the plane
   crosses the box's twelve edges, in turn around the plane (u, v span it), joined. */
static void plane_outline(fbuf *b, const double *pt, const double *n, const double *u,
                          const double *v, const double lo[3], const double hi[3], size_t *count) {
  double g = 0, bl[3], bh[3], x[12][3], ang[12];
  for (int k = 0; k < 3; k++) g = fmax(g, 0.1 * (hi[k] - lo[k]));
  for (int k = 0; k < 3; k++) bl[k] = lo[k] - g, bh[k] = hi[k] + g;
  int m = 0;
  for (int axis = 0; axis < 3; axis++) /* the four edges along each axis */
    for (int e = 0; e < 4; e++) {
      double a[3], z[3];
      int j = (axis + 1) % 3, l = (axis + 2) % 3;
      a[axis] = bl[axis], z[axis] = bh[axis];
      a[j] = z[j] = e & 1 ? bh[j] : bl[j];
      a[l] = z[l] = e & 2 ? bh[l] : bl[l];
      double da = (a[0] - pt[0]) * n[0] + (a[1] - pt[1]) * n[1] + (a[2] - pt[2]) * n[2];
      double dz = (z[0] - pt[0]) * n[0] + (z[1] - pt[1]) * n[1] + (z[2] - pt[2]) * n[2];
      if ((da > 0) == (dz > 0) || da == dz) continue;
      double t = da / (da - dz);
      for (int k = 0; k < 3; k++) x[m][k] = a[k] + t * (z[k] - a[k]);
      m++;
    }
  if (m < 3) return;
  double c[3] = {0, 0, 0};
  for (int i = 0; i < m; i++)
    for (int k = 0; k < 3; k++) c[k] += x[i][k] / m;
  for (int i = 0; i < m; i++) {
    double d[3];
    v3_sub(x[i], c, d);
    ang[i] = atan2(v3_dot(d, v), v3_dot(d, u));
  }
  for (int i = 1; i < m; i++) /* (at most 6 points: sorted by insertion) */
    for (int j = i; j > 0 && ang[j] < ang[j - 1]; j--) {
      double t = ang[j];
      ang[j] = ang[j - 1], ang[j - 1] = t;
      double y[3];
      v3_copy(x[j], y), v3_copy(x[j - 1], x[j]), v3_copy(y, x[j - 1]);
    }
  for (int i = 0; i < m; i++) put_seg(b, x[i], x[(i + 1) % m], count);
}

/* The walls as line segments: a segment or polygon by its edges, a mesh by its triangles'
   edges, a plane by its outline in the balls' box grown by a tenth, a cylinder by two rings at
   the balls' ends along its axis (the page cuts them all to that box). */
static size_t wall_segments(const cairn_world *w, fbuf *b, const double lo[3], const double hi[3]) {
  size_t count = 0;
  double mid[3], h = 0;
  for (int k = 0; k < 3; k++) mid[k] = 0.5 * (lo[k] + hi[k]), h = fmax(h, hi[k] - lo[k]);
  if (!(h > 0)) h = 1;
  for (size_t i = 0; i < w->walls.n; i++) {
    const wall *wl = &w->walls.w[i];
    if (wl->kind == WALL_SEGMENT || wl->kind == WALL_POLYGON) {
      int n = wl->n_nodes, closed = wl->kind == WALL_POLYGON;
      for (int q = 0; q + 1 < n + closed; q++)
        put_seg(b, wl->nodes[q], wl->nodes[(q + 1) % n], &count);
    } else if (wl->kind == WALL_MESH) {
      const wall_mesh *m = wl->mesh;
      double r[3][3], g[3][3];
      quat_matrix(wl->orient, r);
      for (size_t t = 0; t < m->nt; t++) {
        for (int c = 0; c < 3; c++) {
          const double *v = m->v[m->t[t][c]];
          for (int k = 0; k < 3; k++)
            g[c][k] = wl->centre[k] + r[k][0] * v[0] + r[k][1] * v[1] + r[k][2] * v[2];
        }
        put_seg(b, g[0], g[1], &count);
        if (!m->segments) put_seg(b, g[1], g[2], &count), put_seg(b, g[2], g[0], &count);
      }
    } else if (wl->kind == WALL_PLANE || wl->kind == WALL_CYLINDER) {
      /* two unit vectors across the normal (plane) or axis (cylinder) */
      const double *n = wl->normal;
      double e[3] = {0, 0, 0}, u[3], v[3];
      e[fabs(n[0]) < 0.6 ? 0 : fabs(n[1]) < 0.6 ? 1 : 2] = 1;
      v3_cross(n, e, u);
      v3_scale(u, 1 / v3_norm(u), u);
      v3_cross(n, u, v);
      double d[3], c[3];
      v3_sub(mid, wl->point, d);
      double along = v3_dot(d, n);
      for (int k = 0; k < 3; k++) c[k] = mid[k] - along * n[k]; /* mid on the plane (axis) */
      if (wl->kind == WALL_PLANE) {
        plane_outline(b, wl->point, n, u, v, lo, hi, &count);
      } else {
        enum { RING = 48 };
        for (int end = -1; end <= 1; end += 2)
          for (int q = 0; q < RING; q++) {
            double a0 = 2 * M_PI * q / RING, a1 = 2 * M_PI * (q + 1) / RING, p0[3], p1[3];
            for (int k = 0; k < 3; k++) {
              double axial = c[k] + end * 0.5 * h * n[k];
              p0[k] = axial + wl->radius * (cos(a0) * u[k] + sin(a0) * v[k]);
              p1[k] = axial + wl->radius * (cos(a1) * u[k] + sin(a1) * v[k]);
            }
            put_seg(b, p0, p1, &count);
          }
      }
    }
  }
  return count;
}

size_t view_geometry(const cairn_world *w, char **buf, size_t *cap) {
  const ball_store *bs = &w->balls;
  const contact_store *cs = w->contacts;
  size_t nb = bs->n;
  /* the header, filled in at the end: magic, version, dim, counts of balls, chains, wall
     segments, cracks (u32 each), then step and time (f64), then the box (6 f32) */
  enum { HEAD = 32 + 16 + 24 };
  if (!room(buf, cap, 0, HEAD)) return 0;
  fbuf b = {buf, cap, HEAD, 1};
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (size_t i = 0; i < nb; i++) { /* balls: x y z r, speed, spin, net force, group */
    const double *p = bs->pos[i];
    for (int k = 0; k < 3; k++) {
      put_f32(&b, p[k]);
      lo[k] = fmin(lo[k], p[k] - bs->rad[i]), hi[k] = fmax(hi[k], p[k] + bs->rad[i]);
    }
    put_f32(&b, bs->rad[i]);
    put_f32(&b, v3_norm(bs->vel[i]));
    put_f32(&b, v3_norm(bs->spin[i]));
    put_f32(&b, v3_norm(bs->force[i]));
    put_f32(&b, bs->group[i]);
  }
  if (!nb) lo[0] = lo[1] = lo[2] = -1, hi[0] = hi[1] = hi[2] = 1;
  size_t nc = 0; /* force chains: ball-ball contacts in compression, centre to centre */
  for (size_t c = 0; c < cs->n; c++) {
    if (cs->kind[c] != CAIRN_KIND_BALL_BALL) continue;
    /* (the force on side 2 along the normal from side 1 to 2: positive in compression) */
    double fn = v3_dot(cs->force[c], cs->normal[c]);
    if (!(fn > 0)) continue;
    put_seg(&b, bs->pos[cs->a[c]], bs->pos[cs->b[c]], &nc);
    put_f32(&b, fn);
  }
  size_t nw = wall_segments(w, &b, lo, hi);
  const crack_set *cr = w->cracks;
  for (size_t k = 0; k < cr->n; k++) {
    for (int q = 0; q < 3; q++) put_f32(&b, cr->c[k].pos[q]);
    put_f32(&b, cr->c[k].tension);
  }
  if (!b.ok) return 0;
  char *h = *buf;
  uint32_t head[8] = {
      0x564e5243u /* "CRNV" */, 1, (uint32_t)w->dim, (uint32_t)nb, (uint32_t)nc, (uint32_t)nw,
      (uint32_t)cr->n,          0};
  memcpy(h, head, 32);
  double st[2] = {(double)w->step, w->time};
  memcpy(h + 32, st, 16);
  float box[6];
  for (int k = 0; k < 3; k++) box[k] = (float)lo[k], box[3 + k] = (float)hi[k];
  memcpy(h + 48, box, 24);
  return b.n;
}

/* ---- histories ---- */

/* s as a JSON string (quoted; a backslash, quote or control character escaped). */
static int put_json_string(char **buf, size_t *cap, size_t *n, const char *s, int comma) {
  if (!room(buf, cap, *n, 6 * strlen(s) + 4)) return 0;
  char *o = *buf + *n;
  if (comma) *o++ = ',';
  *o++ = '"';
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\')
      *o++ = '\\', *o++ = (char)ch;
    else if (ch < 32)
      o += sprintf(o, "\\u%04x", ch);
    else
      *o++ = (char)ch;
  }
  *o++ = '"';
  *o = 0;
  *n = (size_t)(o - *buf);
  return 1;
}

static int put_text(char **buf, size_t *cap, size_t *n, const char *s) {
  size_t k = strlen(s);
  if (!room(buf, cap, *n, k + 1)) return 0;
  memcpy(*buf + *n, s, k + 1);
  *n += k;
  return 1;
}

size_t view_histories_json(const cairn_world *w, char **buf, size_t *cap) {
  const history_set *hs = w->hist;
  size_t n = 0, rows = hs->n_rows;
  size_t stride = rows > 1000 ? (rows + 999) / 1000 : 1; /* at most about 1 000 points a chart */
  int ok = put_text(buf, cap, &n, "{\"names\":[");
  for (size_t i = 0; i < hs->n && ok; i++) ok = put_json_string(buf, cap, &n, hs->h[i].name, i > 0);
  ok = ok && put_text(buf, cap, &n, "],\"units\":[");
  for (size_t i = 0; i < hs->n && ok; i++) ok = put_json_string(buf, cap, &n, hs->h[i].unit, i > 0);
  ok = ok && put_text(buf, cap, &n, "],\"time\":[");
  for (size_t r = 0; r < rows && ok; r += stride) {
    char num[40];
    num[0] = r ? ',' : 0;
    json_num(num + (r ? 1 : 0), sizeof num - 1, hs->time[r]);
    ok = put_text(buf, cap, &n, num);
  }
  ok = ok && put_text(buf, cap, &n, "],\"values\":[");
  for (size_t i = 0; i < hs->n && ok; i++) {
    ok = put_text(buf, cap, &n, i ? ",[" : "[");
    for (size_t r = 0; r < rows && ok; r += stride) {
      char num[40];
      num[0] = r ? ',' : 0;
      json_num(num + (r ? 1 : 0), sizeof num - 1, hs->h[i].v[r]);
      ok = put_text(buf, cap, &n, num);
    }
    ok = ok && put_text(buf, cap, &n, "]");
  }
  ok = ok && put_text(buf, cap, &n, "]}");
  return ok ? n : 0;
}
