/* Triangle meshes of mesh walls (mesh.c): a wall made of triangles, from an STL file or a list
   (docs/meshes.md). The mesh keeps its vertices in its own frame, about the wall's centre; the
   wall's orientation (a quaternion) and centre place it, so that moving or turning the wall
   changes two numbers, not every vertex, and the mesh's grid of triangles stays valid. */
#ifndef CAIRN_MESH_H
#define CAIRN_MESH_H

#include "core/core.h"

typedef struct wall_mesh {
  size_t nv, nt;
  double (*v)[3];     /* vertices, in the mesh's frame */
  uint32_t (*t)[3];   /* triangles: vertex indices, in the file's order */
  double (*n)[3];     /* each triangle's unit normal (right-handed in its vertices' order) */
  double (*ts)[4];    /* each triangle's bounding sphere: centre (centroid) and radius */
  double (*te)[3][3]; /* each triangle's edges' inward unit normals in its plane (edge i runs from
                         corner i to corner i + 1): lower bounds of a point's distance to it */
  double radius;      /* the largest distance of a vertex from the frame's origin */
  /* a uniform grid of cells over the vertices' bounds: cell c holds the triangles whose bounds
     meet it, cell_tri[cell_start[c] .. cell_start[c + 1]) */
  double lo[3], h;
  int nc[3];
  uint32_t *cell_start, *cell_tri;
  /* per ball slot: the triangle found nearest to it last time, tried first (a cache, sized by
     mesh_hints; any value works, UINT32_MAX: none) */
  uint32_t *hint;
  size_t n_hint;
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

#endif
