/* Contact geometry of a ball against a ball, a 2D segment, a 3D plane or a convex polygon.
   Segments and polygons are two-sided with edge and corner contacts; planes are one-sided. */
#include "detect/detect.h"

int geom_ball_ball(const double c1[3], double r1, const double c2[3], double r2, double *gap,
                   double n[3], double pt[3]) {
  double e[3];
  v3_sub(c2, c1, e);
  double dist = v3_norm(e);
  if (!(dist > 0)) return 0;
  v3_scale(e, 1.0 / dist, n);
  *gap = dist - r1 - r2;
  double a = r1 + 0.5 * *gap;
  for (int k = 0; k < 3; k++) pt[k] = c1[k] + a * n[k];
  return 1;
}

/* Closest point on segment [p, q] to c. */
static void closest_on_segment(const double p[3], const double q[3], const double c[3],
                               double out[3]) {
  double e[3], pc[3];
  v3_sub(q, p, e);
  v3_sub(c, p, pc);
  double t = v3_dot(pc, e) / v3_dot(e, e);
  if (t < 0) t = 0;
  if (t > 1) t = 1;
  for (int k = 0; k < 3; k++) out[k] = p[k] + t * e[k];
}

/* Closest point of a convex planar polygon to c. */
static void closest_on_polygon(const wall *wl, const double c[3], double out[3]) {
  double h = (c[0] - wl->point[0]) * wl->normal[0] + (c[1] - wl->point[1]) * wl->normal[1] +
             (c[2] - wl->point[2]) * wl->normal[2];
  double proj[3];
  for (int k = 0; k < 3; k++) proj[k] = c[k] - h * wl->normal[k];
  int inside = 1;
  for (int i = 0; i < wl->n_nodes && inside; i++) {
    const double *p = wl->nodes[i], *q = wl->nodes[(i + 1) % wl->n_nodes];
    double e[3], pp[3], x[3];
    v3_sub(q, p, e);
    v3_sub(proj, p, pp);
    v3_cross(e, pp, x);
    if (v3_dot(x, wl->normal) < 0) inside = 0;
  }
  if (inside) {
    v3_copy(proj, out);
    return;
  }
  double best = INFINITY;
  for (int i = 0; i < wl->n_nodes; i++) {
    double q[3], e[3];
    closest_on_segment(wl->nodes[i], wl->nodes[(i + 1) % wl->n_nodes], c, q);
    v3_sub(c, q, e);
    double d2 = v3_dot(e, e);
    if (d2 < best) best = d2, v3_copy(q, out);
  }
}

int geom_ball_wall(const wall *wl, const double c[3], double r, double *gap, double n[3],
                   double pt[3]) {
  double q[3], e[3];
  if (wl->kind == WALL_PLANE) {
    double h = (c[0] - wl->point[0]) * wl->normal[0] + (c[1] - wl->point[1]) * wl->normal[1] +
               (c[2] - wl->point[2]) * wl->normal[2];
    v3_copy(wl->normal, n);
    *gap = h - r;
    for (int k = 0; k < 3; k++) pt[k] = c[k] - (h - 0.5 * *gap) * n[k];
    return 1;
  }
  if (wl->kind == WALL_SEGMENT)
    closest_on_segment(wl->nodes[0], wl->nodes[1], c, q);
  else
    closest_on_polygon(wl, c, q);
  v3_sub(c, q, e);
  double dist = v3_norm(e);
  if (!(dist > 0)) return 0;
  v3_scale(e, 1.0 / dist, n);
  *gap = dist - r;
  for (int k = 0; k < 3; k++) pt[k] = q[k] + 0.5 * *gap * n[k];
  return 1;
}

void frame_rotate(int dim, double f[9], const double m[3]) {
  if (dim == 2) {
    f[0] = m[0], f[1] = m[1], f[2] = 0;
    f[3] = 0, f[4] = 0, f[5] = 1;
    f[6] = -m[1], f[7] = m[0], f[8] = 0;
    return;
  }
  const double *n = f;
  double k[3];
  v3_cross(n, m, k);
  double c = v3_dot(n, m);
  double s[3] = {f[3], f[4], f[5]};
  if (c > -0.999999) {
    /* Rodrigues with an unnormalised axis k = n x m (|k| = sin): v' = v c + k x v +
       k (k.v) / (1 + c). */
    double kx[3], ks = v3_dot(k, s) / (1 + c);
    v3_cross(k, s, kx);
    for (int i = 0; i < 3; i++) s[i] = s[i] * c + kx[i] + k[i] * ks;
  }
  /* Re-orthonormalise against the exact new normal to stop round-off from accumulating. */
  double sn = v3_dot(s, m);
  for (int i = 0; i < 3; i++) s[i] -= sn * m[i];
  double len = v3_norm(s);
  if (len < 1e-12) { /* the normal flipped: pick any perpendicular */
    double ax[3] = {fabs(m[0]) < 0.9 ? 1.0 : 0.0, fabs(m[0]) < 0.9 ? 0.0 : 1.0, 0};
    v3_cross(m, ax, s);
    len = v3_norm(s);
  }
  v3_scale(s, 1.0 / len, s);
  double t[3];
  v3_cross(m, s, t);
  f[0] = m[0], f[1] = m[1], f[2] = m[2];
  f[3] = s[0], f[4] = s[1], f[5] = s[2];
  f[6] = t[0], f[7] = t[1], f[8] = t[2];
}
