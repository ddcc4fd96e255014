/* Output files. Every file is written atomically: to a temporary name beside the target, then
   renamed over it, so a reader never sees a half-written file and a failed run leaves none. */
#ifndef CAIRN_IO_H
#define CAIRN_IO_H

#include <stdio.h>

#include "contact/cracks.h"
#include "world/dfn.h"
#include "world/world.h"

typedef struct atomic_file {
  FILE *f;
  int discard; /* under MPI, on ranks other than 0: written to /dev/null (rank 0 writes) */
  char path[4096], tmp[4096 + 32];
  char shown[4200]; /* what messages call the file ("" : its path) */
} atomic_file;

cairn_status io_atomic_open(atomic_file *af, const char *path, cairn_diag *d);
/* The same, for a file that messages call 'shown' (a helper file of another output). */
cairn_status io_atomic_open_as(atomic_file *af, const char *path, const char *shown, cairn_diag *d);
/* Flush, close and rename into place; on any write error remove the temporary and fail. */
cairn_status io_atomic_commit(atomic_file *af, cairn_diag *d);
/* The same, for a file that this rank writes whatever its number (a piece of a divided model's
   output); its commit does not wait for the other ranks. */
cairn_status io_atomic_open_own(atomic_file *af, const char *path, cairn_diag *d);
cairn_status io_atomic_commit_own(atomic_file *af, cairn_diag *d);
/* Every rank's af->tmp names rank 0's temporary (a file the ranks write together); collective. */
void io_atomic_share_tmp(atomic_file *af);
/* Give up: close and remove the temporary. */
void io_atomic_abort(atomic_file *af);

/* Joints of a fracture network as text (dfn_file.c, docs/joints.md): read whole into *net (a
   malformed line refused, naming it; nothing kept), or written atomically. */
cairn_status io_dfn_read(const char *path, int dim, dfn_net *net, cairn_diag *d);
cairn_status io_dfn_write(const char *path, int dim, const dfn_net *net, cairn_diag *d);
/* The joints for ParaView: one .vtp, a polygon per disk (2D a segment), with set, radius and
   normal per cell (vtk.c). */
cairn_status io_vtk_joints(const char *path, int dim, const dfn_net *net, cairn_diag *d);

/* The numbers of one line of a text table, into v: separated by blanks or commas, '#' starting
   a comment (the line is edited in place). Returns how many (0: a blank or comment line), or
   IO_TEXT_TOO_MANY (more than max) or IO_TEXT_NOT_A_NUMBER. */
#define IO_TEXT_TOO_MANY (-1)
#define IO_TEXT_NOT_A_NUMBER (-2)
int io_text_numbers(char *line, double *v, int max);

/* Write the world's histories as CSV: step,time,<names...>; one row per sample. */
cairn_status io_history_csv(const cairn_world *w, const char *path, cairn_diag *d);
/* The same, for a file that messages call 'shown'. */
cairn_status io_history_csv_as(const cairn_world *w, const char *path, const char *shown,
                               cairn_diag *d);

/* Save the world atomically (versioned, checksummed). 'callbacks' names the events that had
   script callbacks, kept only as names. */
cairn_status io_save(const cairn_world *w, const char *path, const char *const *callbacks,
                     int n_callbacks, cairn_diag *d);

/* What a restore reports besides the world. */
typedef struct restore_info {
  int n_callbacks;
  char callbacks[64][CAIRN_MAX_NAME];
} restore_info;
/* Makes an empty world of a dimension with the run's models registered. */
typedef cairn_status (*world_maker)(void *ud, int dim, cairn_world **out, cairn_diag *d);
/* Read a save into a new world (made by mk). want_dim 0 accepts either dimension. On any
   failure *out is NULL, d says why, and nothing else has changed. */
cairn_status io_restore(const char *path, int want_dim, world_maker mk, void *ud, cairn_world **out,
                        restore_info *info, cairn_diag *d);
/* Test hook: make the next saves fail after this many bytes (negative: never). */
CAIRN_API void cairn_io_fail_after(long bytes);
/* Test hook: make the n-th output file to be finished from now (a save, CSV, VTK file or plot;
   n >= 1, 0 never) fail as on a full disk, at the point where the file would be put in place.
   cairn_io_fail_output_pending gives the outputs left before it (0: none pending). */
CAIRN_API void cairn_io_fail_output(long n);
CAIRN_API long cairn_io_fail_output_pending(void);
int io_output_fails_now(void); /* whether this output is the one (counts it) */

/* Triangle surfaces (stl.c): ASCII or binary STL, each vertex times 'scale'. A file that is not
   STL, is cut short, holds no triangles or a vertex that is not finite is refused, naming the
   file and the triangle (a triangle's area and the surface's shape: mesh_build checks them). */
typedef struct stl_mesh {
  size_t n;
  double (*tri)[3][3];
} stl_mesh;
cairn_status io_read_stl(const char *path, double scale, stl_mesh *m, cairn_diag *d);
void stl_free(stl_mesh *m);
/* The plain vertex/face text format (vertex_face.c, docs/meshes.md), which io_read_stl reads
   where a file is not STL: whether an open file starts as one (rewound after), and its
   triangles appended to m (each vertex scaled), or a sentence naming the line. */
int io_is_vertex_face(FILE *f);
cairn_status io_read_vertex_face(FILE *f, const char *path, double scale, stl_mesh *m,
                                 cairn_diag *d);
/* The segments of a 2D polyline file (polyline.c, docs/meshes.md): one vertex "x y" a line,
   a blank line between polylines, each vertex scaled; refused with the line named (a line
   that is not a vertex, a coordinate that is not finite, a vertex repeated, a polyline of one
   vertex, a file without a segment). */
typedef struct polyline_segments {
  size_t n;
  double (*seg)[2][3]; /* (z = 0) */
} polyline_segments;
cairn_status io_read_polyline(const char *path, double scale, polyline_segments *out,
                              cairn_diag *d);
void polyline_free(polyline_segments *p);

/* VTK output: a series of snapshots of one prefix, listed in PREFIX.pvd with their times. */
typedef struct vtk_frame {
  double time;
  int pieces; /* its balls, contacts and cracks written in pieces, one per rank (.pvtp) */
} vtk_frame;
typedef struct vtk_series {
  size_t n, cap;
  vtk_frame *frame;
} vtk_series;
/* Write PREFIX_balls_NNNNN.vtp, PREFIX_walls_NNNNN.vtp, PREFIX_contacts_NNNNN.vtp,
   PREFIX_cracks_NNNNN.vtp and PREFIX_clumps_NNNNN.vtp (NNNNN = the series' count) and rewrite
   PREFIX.pvd; with vs NULL, one snapshot PREFIX_balls.vtp etc. Collective under MPI. While the
   model is divided, the balls, contacts and cracks are one piece per rank, PART_NNNNN_RANK.vtp,
   named by PART_NNNNN.pvtp (the ghosts must be current: par_sync_ghosts). */
cairn_status io_vtk_write(const cairn_world *w, vtk_series *vs, const char *prefix, cairn_diag *d);

/* The broken bonds as CSV (step,time,x,y,z,kind,id1,id2,mode), atomically. */
cairn_status io_cracks_csv(const crack *c, size_t n, const char *path, cairn_diag *d);

/* A plot of CSV columns (a history export) drawn with gnuplot into a PNG, SVG or PDF file. A
   header cell "NAME [UNIT]" is column NAME in UNIT. Without a ylabel, y2 or 'together', the
   columns of y are drawn one quantity to a panel (panels stacked over a shared x): columns with
   the same unit, or without units a column and its reference (fn and fn_exact), share one. */
typedef struct plot_spec {
  const char *csv;      /* input: header row of names, then numbers */
  const char *out;      /* output: .png, .svg or .pdf */
  const char *x;        /* column for the x axis (NULL: "time") */
  const char *const *y; /* columns to draw (n_y = 0: every column but step and x) */
  int n_y;
  const char *title, *xlabel, *ylabel; /* NULL: none / the x column's name / none */
  const char *const *y2;               /* columns drawn against a second y axis, on the right */
  int n_y2;
  const char *y2label;
  int logx, logy, logy2; /* logarithmic axes */
  /* legends: labels[i] for the i-th drawn series (y, then y2); NULL or a NULL entry: the column's
     name */
  const char *const *labels;
  /* how each drawn series is drawn: styles[i] is "line", "dashed", "points" or "linespoints";
     NULL or a NULL entry: by its name (dashed for a reference, else linespoints) */
  const char *const *styles;
  int together; /* every column of y on one axis, even without a ylabel */
} plot_spec;
cairn_status io_plot_csv(const plot_spec *p, cairn_diag *d);

/* Pictures of a VTK series: python/cairn/render.py run with argv (its own arguments: the
   series, the picture and options; docs/scripting.md "Pictures: cairn render"). With err_size,
   its messages come back in err (the last lines, trimmed); without, they go to stderr. Returns
   its exit status: 0 done, 2 a refused request, 1 anything else (a missing Python, VTK or
   xvfb-run: said in err). */
int io_render(const char *const *argv, int argc, char *err, size_t err_size);

#endif
