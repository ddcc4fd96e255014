/* Triangle meshes of mesh walls (mesh.c): a wall made of triangles, from an STL file or a list
   (docs/meshes.md). The mesh keeps its vertices in its own frame, about the wall's centre; the
   wall's orientation (a quaternion) and centre place it, so that moving or turning the wall
   changes two numbers, not every vertex, and the mesh's grid of triangles stays valid. */
#ifndef CAIRN_MESH_H
#define CAIRN_MESH_H

#include <math.h>
#include <string.h>

#include "core/core.h"

/* Where a slot's list was made: the point, the cut, the distances of the nearest listed
   triangle (k1) and of the next nearest (or the cut). */
typedef struct mesh_near {
  double at[3], cut, d1, d2, slack; /* slack: what distances from 'at' may be off by rounding */
  uint32_t k1, kf;
  double face[16]; /* a copy of triangle kf's planes (wall_mesh.face): the last one found */
  /* whether the ball may touch the mesh at more than one place before the next rebuild: some
     listed triangle's normal (turned towards 'at') is farther than half the crease angle from
     the nearest one's, or its plane is within the reach of 'at' (a ball may cross it) */
  int multi;
} mesh_near;

/* The most contacts a ball has with one mesh (a concave corner of three faces). */
#define MESH_CONTACTS 3
/* Two places where a ball touches a mesh are one contact when their normals are within this
   angle (20 degrees): a shallow crease, such as between the facets of a tessellated drum, acts
   as one smooth surface, as a single-contact scheme would treat it, rather than giving the ball
   two contacts that double its stiffness where the surface is nearly flat (docs/meshes.md). */
#define MESH_CREASE_COS 0.93969262078590838

/* A triangle's point nearest to a ball's centre: the point q, its unit normal n (from the
   surface towards the centre), the square of its distance, its triangle, the centre's signed
   distance from that triangle's plane where q is inside its face (else NAN), and whether it is a
   local minimum of the distance over the mesh (a place where the ball touches it). */
typedef struct mesh_min {
  double q[3], n[3], d2, hf;
  uint32_t tri;
  int min;
} mesh_min;

/* A ball's contacts with a mesh at one pass (detect/geometry.c assigns them): for each of its
   MESH_CONTACTS contacts the minimum it follows (has[j]), and the contacts' normals at the pass
   before (mem[j], global, where has_mem[j]) that the assignment matched the minima to. */
typedef struct mesh_pick {
  double at[3]; /* the centre (the mesh's frame) the picks were made for */
  double mem[MESH_CONTACTS][3];
  mesh_min pick[MESH_CONTACTS];
  uint32_t slot, stamp;
  uint8_t has[MESH_CONTACTS], has_mem[MESH_CONTACTS];
} mesh_pick;

/* A triangle of a slot's list and its distance from where the list was made. */
typedef struct mesh_listed {
  double d0;
  uint32_t k;
} mesh_listed;

typedef struct wall_mesh {
  size_t nv, nt;
  /* a 2D polyline: each element a segment, stored as the triangle (p, q, q) with its planes those
     of the segment (mesh_build_segments), so that every search below serves both */
  int segments;
  double (*v)[3];   /* vertices, in the mesh's frame */
  uint32_t (*t)[3]; /* triangles: vertex indices, in the file's order */
  double (*n)[3];   /* each triangle's unit normal (right-handed in its vertices' order) */
  double (*ts)[4];  /* each triangle's bounding sphere: centre (centroid) and radius */
  /* each triangle's planes, 16 doubles together (one search reads one place): its normal and
     offset (n.x = off on the triangle's plane), then for each edge i (from corner i to i + 1)
     the unit normal in the triangle's plane pointing into it, and its offset: the plane's
     distance and how far outside an edge a point lies, lower bounds of its distance */
  double (*face)[16];
  uint32_t (*nb)[3]; /* the triangle across each edge i (corner i to i + 1); UINT32_MAX: none */
  uint32_t *vt_start, *vt; /* the triangles at each vertex: vt[vt_start[v] .. vt_start[v + 1]) */
  double radius;           /* the largest distance of a vertex from the frame's origin */
  /* a uniform grid of cells over the vertices' bounds: cell c holds the triangles whose bounds
     meet it, cell_tri[cell_start[c] .. cell_start[c + 1]) */
  double lo[3], h;
  int nc[3];
  uint32_t *cell_start, *cell_tri;
  /* per ball slot: the triangle found nearest to it last time, tried first (a cache, sized by
     mesh_hints; any value works, UINT32_MAX: none) */
  uint32_t *hint;
  size_t n_hint;
  double slack; /* what a distance may be off by rounding (relative to the mesh's size) */
  /* per ball slot below list_next, from the last neighbour rebuild: every triangle within
     list_at[i].cut of the point list_at[i].at (the mesh's frame), list[list_start[i] ..
     list_start[i + 1]) in increasing order. A fact of geometry, whichever ball holds the slot now:
     a search near that point needs only the list (mesh_closest_listed). */
  uint32_t *list_start, *stamp, stamp_now;
  mesh_near *list_at;
  mesh_listed *list;
  size_t list_next, cap_slots, cap_list;
  /* the picks of the balls that may touch the mesh at several places (geom_mesh_assign): the
     one for slot i is pick[pick_of[i]] where that entry names slot i and has stamp pick_now */
  mesh_pick *pick;
  uint32_t *pick_of, pick_now;
  size_t n_pick, cap_pick, cap_pick_of;
} wall_mesh;

/* A mesh from n triangles (three vertices each, in the frame they should keep): equal vertices
   merged, every triangle's area checked positive and every edge shared by at most two triangles
   (the first failure named: "triangle 12 ..."; 'what' names the source in messages). */
cairn_status mesh_build(const double (*tri)[3][3], size_t n, const char *what, wall_mesh **out,
                        cairn_diag *d);
/* A 2D polyline wall's mesh from n segments (two points each, z = 0): equal vertices merged,
   every segment's length checked positive and every vertex shared by at most two segments (the
   first failure named: "segment 12 ..."). Its face planes are the segments' lines, its edge
   planes their ends. */
cairn_status mesh_build_segments(const double (*seg)[2][3], size_t n, const char *what,
                                 wall_mesh **out, cairn_diag *d);
/* A mesh from vertices and triangles as a save file keeps them (checked as mesh_build does; a
   polyline's segments as triangles (p, q, q), with 'segments' set). */
cairn_status mesh_from_arrays(const double (*v)[3], size_t nv, const uint32_t (*t)[3], size_t nt,
                              int segments, const char *what, wall_mesh **out, cairn_diag *d);
void mesh_free(wall_mesh *m);
/* Whether the mesh is a closed, consistently oriented surface: every edge shared by exactly two
   triangles that run along it in opposite ways (else the first edge that is not, named). */
cairn_status mesh_check_closed(const wall_mesh *m, const char *what, cairn_diag *d);
/* Hints for n ball slots (grown as needed, new ones none). */
cairn_status mesh_hints(wall_mesh *m, size_t n, cairn_diag *d);
/* Move the mesh's frame: every vertex (and what is made of them) by e. */
void mesh_shift(wall_mesh *m, const double e[3]);
/* The point of the mesh nearest to c (the mesh's frame) within distance 'reach' of it, and its
   triangle: returns 0 when no triangle comes that near. *tri on entry: a triangle to try first
   (UINT32_MAX: none), which only speeds the search. The nearest point of a flat or convex
   region is one point, whichever triangle holds it, so a ball touching one feels one contact.
   *hf: c's signed distance from the plane of the triangle where the point is inside its face,
   else NAN (an edge or a corner). */
int mesh_closest(const wall_mesh *m, const double c[3], double reach, double q[3], uint32_t *tri,
                 double *hf);
/* Start the lists of triangles near the balls (at a neighbour rebuild), for up to n slots. */
cairn_status mesh_lists_begin(wall_mesh *m, size_t n, cairn_diag *d);
/* List for a slot (slots in increasing order, after mesh_lists_begin) every triangle within 'cut'
   of c (the mesh's frame); 'margin': how far a ball there may move before the next rebuild. */
cairn_status mesh_list_add(wall_mesh *m, size_t slot, const double c[3], double cut, double margin,
                           cairn_diag *d);
/* Whether slot has a list (made at the last rebuild), and whether it says the ball touches the
   mesh at one place at most until the next rebuild (then its one contact is the nearest point,
   mesh_closest). */
static inline int mesh_has_list(const wall_mesh *m, size_t slot) {
  return slot < m->list_next && m->list_start[slot] != m->list_start[slot + 1];
}
static inline int mesh_single(const wall_mesh *m, size_t slot) {
  return mesh_has_list(m, slot) && !m->list_at[slot].multi;
}
/* The nearest point of each triangle within 'reach' of c (the mesh's frame), at most cap of
   them, nearest first (ties: the lower triangle), each marked where it is a local minimum of the
   distance from c over the surface (inside a face; on an edge or at a corner where no triangle
   at that edge or corner comes nearer). Reads slot's list where it holds every triangle in
   reach, else the grid (the same points either way). Returns how many. */
#define MESH_POINTS 32
int mesh_points(const wall_mesh *m, size_t slot, const double c[3], double reach, mesh_min *out,
                int cap);
/* The places where a ball touches the mesh, from its points (mesh_points): the minima, nearest
   first, one dropped where its normal is within the crease angle of a nearer one's
   (MESH_CREASE_COS). Writes at most 'max' to out and returns how many; the first is the nearest
   point of the mesh (mesh_closest's answer, to the bit). */
int mesh_minima_of(const mesh_min *pts, int n, mesh_min *out, int max);
/* Room for the picks of n slots (pick_of), and a new pass of picks (pick_now). */
cairn_status mesh_picks_begin(wall_mesh *m, size_t n, cairn_diag *d);
/* The pick of slot's ball made at this pass, or NULL. */
static inline mesh_pick *mesh_pick_of(const wall_mesh *m, size_t slot) {
  if (slot >= m->cap_pick_of) return NULL;
  uint32_t j = m->pick_of[slot];
  if (j >= m->n_pick || m->pick[j].slot != slot || m->pick[j].stamp != m->pick_now) return NULL;
  return &m->pick[j];
}
/* A new pick for slot's ball at this pass (zeroed but for its slot and stamp). */
cairn_status mesh_pick_add(wall_mesh *m, size_t slot, mesh_pick **out, cairn_diag *d);
/* The point q of triangle k nearest to c by Voronoi regions (the corners, edges and face). */
void mesh_closest_on_triangle(const wall_mesh *m, uint32_t k, const double c[3], double q[3]);

/* The point q of triangle k (planes f: m->face[k] or a copy) nearest to c and the square of its
   distance; INFINITY (q unset) where a lower bound of that square, the plane's distance and how
   far outside an edge c's projection lies, is beyond 'limit'. A projection inside every edge is
   the point (the common case, cheaper than the corners' and edges' regions): then *hf is c's
   signed distance from the triangle's plane, else NAN. Every search calls
   this, so that one point has one set of bits whichever search finds it. */
static inline double mesh_tri_point(const wall_mesh *m, uint32_t k, const double *f,
                                    const double c[3], double limit, double q[3], double *hf) {
  double h = v3_dot(c, f) - f[3], out = 0;
  for (int j = 1; j < 4; j++) {
    double sj = v3_dot(c, f + 4 * j) - f[4 * j + 3]; /* (how far inside edge j - 1) */
    if (-sj > out) out = -sj;
  }
  if (h * h + out * out > limit) return INFINITY;
  if (out == 0) {
    for (int i = 0; i < 3; i++) q[i] = c[i] - h * f[i];
    *hf = h;
    return h * h;
  }
  mesh_closest_on_triangle(m, k, c, q);
  *hf = NAN;
  double e[3];
  v3_sub(c, q, e);
  return v3_dot(e, e);
}

/* The search of a slot's list (mesh_closest_listed, when the hint alone cannot tell). */
int mesh_closest_listed_search(const wall_mesh *m, size_t slot, const double c[3], double moved,
                               double slack, uint32_t h, double dh, const double p[3], double hp,
                               double q[3], uint32_t *tri, double *d2, double *hf);

/* mesh_closest from the slot's list alone, where the list is sure to hold the answer: the
   nearest triangle (ties: the lowest) to c, its point q and the square of its distance d2.
   Returns 0 when the list cannot tell (no list, or c moved so far from where it was made that
   a triangle left out might be nearer): then ask mesh_closest. Where it answers, it gives
   mesh_closest's answer to the bit (q, *tri and *hf), for any reach at least sqrt(d2). It tries
   first the triangle it found last time for the slot (kf, whose planes it keeps in the slot,
   so one caller per slot at a time), else *tri (UINT32_MAX: none), else the list's nearest. With
   'multi' set it returns 2, without a search, where the list says the ball may touch the mesh at
   several places (mesh_near.multi). Every triangle is as far from c as it was from the list's point
   'at', less how far c is from it
   ('moved'): the hint is the answer when it is nearer than that bound for every other triangle (the
   list's nearest at 'at' or, where the hint was that one, its next nearest or the cut), read in the
   slots' order, not the triangles'. */
static inline int mesh_closest_listed(wall_mesh *m, size_t slot, const double c[3], double q[3],
                                      uint32_t *tri, double *d2, double *hf, int multi) {
  if (slot >= m->list_next || m->list_start[slot] == m->list_start[slot + 1]) return 0;
  mesh_near *nr = &m->list_at[slot];
  if (multi && nr->multi) return 2;
  double e[3];
  v3_sub(c, nr->at, e);
  double moved = sqrt(v3_dot(e, e)), slack = nr->slack;
  /* the slot's last answer first (its planes are kept in the slot), else the list's nearest */
  uint32_t h = nr->kf < m->nt ? nr->kf : *tri < m->nt ? *tri : nr->k1;
  double p[3] = {0, 0, 0}, dh = INFINITY, hp = NAN;
  if (h < m->nt) {
    if (nr->kf != h) memcpy(nr->face, m->face[h], sizeof nr->face), nr->kf = h;
    double other = h == nr->k1 ? nr->d2 : nr->d1;
    dh = mesh_tri_point(m, h, nr->face, c, INFINITY, p, &hp);
    double room = other - moved - slack; /* (squares compared: one root fewer) */
    if (room > 0 && dh < room * room) {
      v3_copy(p, q);
      *tri = h, *d2 = dh, *hf = hp;
      return 1;
    }
  }
  if (!mesh_closest_listed_search(m, slot, c, moved, slack, h, dh, p, hp, q, tri, d2, hf)) return 0;
  if (nr->kf != *tri) memcpy(nr->face, m->face[*tri], sizeof nr->face), nr->kf = *tri;
  return 1;
}

#endif
