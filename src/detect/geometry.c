/* Contact geometry of a ball against a ball, a 2D segment, a 3D plane or a convex polygon.
   Segments and polygons are two-sided with edge and corner contacts; planes are one-sided. */
#include <string.h>

#include "detect/detect.h"

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

/* c in the frame of mesh wall wl, and the frame's axes m (0: the frame is the wall's centre
   unturned, m unset: a mesh that never turns, most of them, skips the products). */
/* A global vector g in the frame whose axes are m's columns (m's transpose times g). */
static void into_frame(const double m[3][3], const double g[3], double out[3]) {
  for (int i = 0; i < 3; i++) out[i] = m[0][i] * g[0] + m[1][i] * g[1] + m[2][i] * g[2];
}

static int mesh_frame(const wall *wl, const double c[3], double m[3][3], double cl[3]) {
  v3_sub(c, wl->centre, cl);
  if (!wl->turned) return 0;
  double rel[3];
  v3_copy(cl, rel);
  quat_matrix(wl->orient, m);
  into_frame(m, rel, cl);
  return 1;
}

cairn_status geom_mesh_list(wall *wl, uint32_t ball, const double c[3], double cut, double margin,
                            cairn_diag *d) {
  double m[3][3], cl[3];
  mesh_frame(wl, c, m, cl);
  return mesh_list_add(wl->mesh, ball, cl, cut, margin, d);
}

void geom_mesh_centre(const wall *wl, const double c[3], double cl[3]) {
  double m[3][3];
  mesh_frame(wl, c, m, cl);
}

int geom_mesh_pick(const wall *wl, uint32_t ball, const double cl[3], double r, mesh_pick *p) {
  wall_mesh *mm = wl->mesh;
  mesh_min pts[MESH_POINTS], mins[2 * MESH_CONTACTS];
  /* within half the mesh's reach beyond the radius: the skin and the largest proximity, more
     than any contact needs, and what the ball's list holds until the next rebuild however it
     moves meanwhile (less than the skin), so that the list answers as the grid would */
  int np = mesh_points(mm, ball, cl, r + 0.5 * wl->mesh_reach, pts, MESH_POINTS);
  int nm = mesh_minima_of(pts, np, mins, 2 * MESH_CONTACTS);
  double mem[MESH_CONTACTS][3], rot[3][3];
  int turned = wl->turned;
  if (turned) quat_matrix(wl->orient, rot);
  for (int j = 0; j < MESH_CONTACTS; j++) { /* the contacts' normals in the mesh's frame */
    p->has[j] = 0;
    if (!turned)
      v3_copy(p->mem[j], mem[j]);
    else
      into_frame(rot, p->mem[j], mem[j]);
  }
  uint8_t used[2 * MESH_CONTACTS] = {0};
  int count = 0;
  /* 1. The contacts take the places whose normals are nearest their own, the nearest pair of
     normals first, each within the crease angle (a place's normal turns little in a step). */
  for (;;) {
    int bj = -1, bi = -1;
    double bd = MESH_CREASE_COS;
    for (int j = 0; j < MESH_CONTACTS; j++)
      for (int i = 0; i < nm && p->has_mem[j] && !p->has[j]; i++)
        if (!used[i] && v3_dot(mins[i].n, mem[j]) >= bd)
          bd = v3_dot(mins[i].n, mem[j]), bj = j, bi = i;
    if (bj < 0) break;
    used[bi] = 1, p->has[bj] = 1, p->pick[bj] = mins[bi], count++;
  }
  /* 2. A contact whose place is gone (its face's foot left the face across a concave crease)
     follows its surface's nearest point, the triangle point whose normal is nearest its own,
     one that no other contact holds: its gap grows as the ball leaves that surface, so it
     parts, rather than being left on its last geometry or taking another contact's face. */
  for (int j = 0; j < MESH_CONTACTS; j++) {
    if (!p->has_mem[j] || p->has[j]) continue;
    int best = -1;
    double bd = -INFINITY;
    for (int i = 0; i < np; i++) {
      int held = 0;
      for (int k = 0; k < MESH_CONTACTS && !held; k++)
        held = p->has[k] && p->pick[k].tri == pts[i].tri;
      if (!held && v3_dot(pts[i].n, mem[j]) > bd) bd = v3_dot(pts[i].n, mem[j]), best = i;
    }
    if (best >= 0) p->has[j] = 1, p->pick[j] = pts[best], count++;
  }
  /* 3. The places left, nearest first, to the contacts that had none, in order. */
  for (int i = 0, j = 0; i < nm; i++) {
    if (used[i]) continue;
    while (j < MESH_CONTACTS && (p->has_mem[j] || p->has[j])) j++;
    if (j == MESH_CONTACTS) break;
    p->has[j] = 1, p->pick[j] = mins[i], count++;
  }
  v3_copy(cl, p->at);
  return count;
}

/* The minimum that contact 'sub' of the ball in slot 'ball' follows (its centre cl in the mesh's
   frame): this pass's pick where it was made for this centre, else made again as the pass makes
   it (the ball was moved since, by a script), with the contacts' normals the pass read. */
#if defined(__GNUC__)
__attribute__((noinline)) /* (out of the one-place search's way: a flat floor never comes here) */
#endif
static int
mesh_sub_min(const wall *wl, uint32_t ball, int sub, const double cl[3], double r, mesh_min *x) {
  const mesh_pick *p = mesh_pick_of(wl->mesh, ball);
  if (p && p->at[0] == cl[0] && p->at[1] == cl[1] && p->at[2] == cl[2]) {
    if (!p->has[sub]) return 0;
    *x = p->pick[sub];
    return 1;
  }
  mesh_pick fresh;
  memset(&fresh, 0, sizeof fresh);
  if (p)
    memcpy(fresh.mem, p->mem, sizeof fresh.mem),
        memcpy(fresh.has_mem, p->has_mem, sizeof fresh.has_mem);
  geom_mesh_pick(wl, ball, cl, r, &fresh);
  if (!fresh.has[sub]) return 0;
  *x = fresh.pick[sub];
  return 1;
}

int geom_ball_wall(const wall *wl, uint32_t ball, int sub, const double c[3], double r,
                   double *restrict gap, double n[restrict 3], double pt[restrict 3]) {
  double q[3], e[3];
  if (wl->kind == WALL_PLANE) {
    double h = (c[0] - wl->point[0]) * wl->normal[0] + (c[1] - wl->point[1]) * wl->normal[1] +
               (c[2] - wl->point[2]) * wl->normal[2];
    v3_copy(wl->normal, n);
    *gap = h - r;
    for (int k = 0; k < 3; k++) pt[k] = c[k] - (h - 0.5 * *gap) * n[k];
    return 1;
  }
  if (wl->kind == WALL_CYLINDER) { /* the balls inside: the wall is R from the axis */
    double rel[3], ax = 0;
    v3_sub(c, wl->point, rel);
    ax = v3_dot(rel, wl->normal);
    for (int k = 0; k < 3; k++) e[k] = rel[k] - ax * wl->normal[k]; /* from the axis out */
    double dist = v3_norm(e);
    if (!(dist > 0)) return 0;   /* on the axis: every direction is as near */
    v3_scale(e, -1.0 / dist, n); /* from the wall towards the axis, through the centre */
    *gap = wl->radius - dist - r;
    for (int k = 0; k < 3; k++) pt[k] = c[k] - (r + 0.5 * *gap) * n[k];
    return 1;
  }
  if (wl->kind == WALL_MESH) { /* in the mesh's frame, the nearest point within reach */
    double m[3][3], cl[3], ql[3];
    uint32_t tri;
    int turned = mesh_frame(wl, c, m, cl);
    wall_mesh *mm = wl->mesh; /* (its hints are a cache: each ball's slot its own) */
    double d2, hf, reach = r + wl->mesh_reach;
    /* The nearest point, where the ball's list says it touches the mesh at one place at most
       (from the list where it can tell, else through the grid, first within the radius, where
       a touching ball's nearest point lies, few cells, then within the reach; sub -1: the
       nearest point whatever the list says); else the place contact 'sub' follows. */
    int got; /* 1: the nearest point found; 0: to be found through the grid; 2: several */
    if (sub > 0) {
      if (mesh_single(mm, ball)) return 0; /* (one place at most: no further contact) */
      got = 2;
    } else {
      tri = UINT32_MAX; /* (the list starts from its own last answer) */
      got = mesh_closest_listed(mm, ball, cl, ql, &tri, &d2, &hf, sub == 0);
      if (got == 0 && sub == 0 && !mesh_has_list(mm, ball)) got = 2; /* (no list: restored) */
      if (got == 1) {
        if (!(d2 <= r * r) && !(d2 <= reach * reach)) return 0; /* (as mesh_closest decides) */
      } else if (got == 0) { /* (the grid's search starts from the slot's last answer) */
        tri = ball < mm->n_hint ? mm->hint[ball] : UINT32_MAX;
        if (!mesh_closest(mm, cl, r, ql, &tri, &hf) && !mesh_closest(mm, cl, reach, ql, &tri, &hf))
          return 0;
        if (ball < mm->n_hint) mm->hint[ball] = tri;
      }
    }
    if (got == 2) { /* it may touch at several places */
      mesh_min x;
      if (!mesh_sub_min(wl, ball, sub, cl, r, &x)) return 0;
      v3_copy(x.q, ql);
      tri = x.tri, hf = x.hf;
    }
    if (!turned)
      v3_add(wl->centre, ql, q);
    else
      for (int i = 0; i < 3; i++)
        q[i] = wl->centre[i] + m[i][0] * ql[0] + m[i][1] * ql[1] + m[i][2] * ql[2];
    if (!isnan(hf)) { /* on a face: its normal and the plane's distance, as for a plane */
      const double *f = got == 1 ? mm->list_at[ball].face /* (the slot's copy: no far read) */
                                 : mm->face[tri];
      double dist = fabs(hf), s = hf > 0 ? 1.0 : -1.0;
      if (!(dist > 0)) return 0;
      if (!turned)
        for (int i = 0; i < 3; i++) n[i] = s * f[i];
      else
        for (int i = 0; i < 3; i++) n[i] = s * (m[i][0] * f[0] + m[i][1] * f[1] + m[i][2] * f[2]);
      *gap = dist - r;
      for (int k = 0; k < 3; k++) pt[k] = q[k] + 0.5 * *gap * n[k];
      return 1;
    }
  } else if (wl->kind == WALL_SEGMENT)
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
