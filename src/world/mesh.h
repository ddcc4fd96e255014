/* Triangle meshes of mesh walls (mesh.c): a wall made of triangles, from an STL file or a list
   (docs/meshes.md). The mesh keeps its vertices in its own frame, about the wall's centre; the
   wall's orientation (a quaternion) and centre place it, so that moving or turning the wall
   changes two numbers, not every vertex, and the mesh's grid of triangles stays valid. */
#ifndef CAIRN_MESH_H
#define CAIRN_MESH_H

#include "core/core.h"

/* Where a slot's list was made: the point, the cut, the distances of the nearest listed
   triangle (k1) and of the next nearest (or the cut). */
typedef struct mesh_near {
  double at[3], cut, d1, d2;
  uint32_t k1, kf;
  double face[16]; /* a copy of triangle kf's planes (wall_mesh.face): the last one found */
} mesh_near;

/* A triangle of a slot's list and its distance from where the list was made. */
typedef struct mesh_listed {
  double d0;
  uint32_t k;
} mesh_listed;

typedef struct wall_mesh {
  size_t nv, nt;
  double (*v)[3];   /* vertices, in the mesh's frame */
  uint32_t (*t)[3]; /* triangles: vertex indices, in the file's order */
  double (*n)[3];   /* each triangle's unit normal (right-handed in its vertices' order) */
  double (*ts)[4];  /* each triangle's bounding sphere: centre (centroid) and radius */
  /* each triangle's planes, 16 doubles together (one search reads one place): its normal and
     offset (n.x = off on the triangle's plane), then for each edge i (from corner i to i + 1)
     the unit normal in the triangle's plane pointing into it, and its offset: the plane's
     distance and how far outside an edge a point lies, lower bounds of its distance */
  double (*face)[16];
  double radius; /* the largest distance of a vertex from the frame's origin */
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
} wall_mesh;

/* A mesh from n triangles (three vertices each, in the frame they should keep): equal vertices
   merged, every triangle's area checked positive and every edge shared by at most two triangles
   (the first failure named: "triangle 12 ..."; 'what' names the source in messages). */
cairn_status mesh_build(const double (*tri)[3][3], size_t n, const char *what, wall_mesh **out,
                        cairn_diag *d);
/* A mesh from vertices and triangles as a save file keeps them (checked as mesh_build does). */
cairn_status mesh_from_arrays(const double (*v)[3], size_t nv, const uint32_t (*t)[3], size_t nt,
                              const char *what, wall_mesh **out, cairn_diag *d);
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
   region is one point, whichever triangle holds it, so a ball touching one feels one contact. */
int mesh_closest(const wall_mesh *m, const double c[3], double reach, double q[3], uint32_t *tri);
/* Start the lists of triangles near the balls (at a neighbour rebuild), for up to n slots. */
cairn_status mesh_lists_begin(wall_mesh *m, size_t n, cairn_diag *d);
/* List for a slot (slots in increasing order, after mesh_lists_begin) every triangle within 'cut'
   of c (the mesh's frame). */
cairn_status mesh_list_add(wall_mesh *m, size_t slot, const double c[3], double cut, cairn_diag *d);
/* mesh_closest from the slot's list alone, where the list is sure to hold the answer: the
   nearest triangle (ties: the lowest) to c, its point q and the square of its distance d2.
   Returns 0 when the list cannot tell (no list, or c moved so far from where it was made that
   a triangle left out might be nearer): then ask mesh_closest. Where it answers, it gives
   mesh_closest's answer to the bit, for any reach at least sqrt(d2). */
int mesh_closest_listed(wall_mesh *m, size_t slot, const double c[3], double q[3], uint32_t *tri,
                        double *d2);

#endif
