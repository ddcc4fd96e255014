/* A cairn session for embedders (the Python package uses it through ctypes): a Lua state with
   cairn's script modules, kept open across calls, with the ball, wall and contact arrays of its
   model readable in place. The script API (docs/scripting.md) is the way to change the model: the
   embedder pushes a module function and its arguments on the session's Lua stack (liblua5.4's own
   calls) and runs it with cairn_session_pcall. */
#ifndef CAIRN_SESSION_H
#define CAIRN_SESSION_H

#include "cairn/cairn.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cairn_session cairn_session;

/* The library's version, "MAJOR.MINOR.PATCH". */
CAIRN_API const char *cairn_version(void);

/* Open a session (quiet = 1: no notes or status line on stderr). Close it with
   cairn_session_close, which frees its model and plugins and sets *s to NULL. */
CAIRN_API cairn_status cairn_session_open(int quiet, cairn_session **out, cairn_diag *d);
CAIRN_API void cairn_session_close(cairn_session **s);

/* The session's lua_State (a liblua5.4 state; cast it to lua_State *). */
CAIRN_API void *cairn_session_lua(cairn_session *s);

/* Call the function below nargs arguments on the Lua stack, as lua_pcall does, with cairn's
   message handler; on failure the error message (file:line first for a script) is in d, the
   stack is back where it was below the function, and CAIRN_EINVAL (or ENOMEM) is returned. */
CAIRN_API cairn_status cairn_session_pcall(cairn_session *s, int nargs, int nresults,
                                           cairn_diag *d);

/* Run a script file in the session: it sees, and may replace, the session's model. */
CAIRN_API cairn_status cairn_session_run_file(cairn_session *s, const char *path, cairn_diag *d);

/* The model's dimension, 2 or 3; 0 before model.new. */
CAIRN_API int cairn_session_dim(cairn_session *s);

/* A column of the model's storage, in place: element i, component k is at
   (char *)data + i * stride + k * size, where size follows 'type' ('d' double, 'q' int64,
   'I' uint32, 'H' uint16, 'B' uint8). The pointer is valid until the next call that runs a step
   or creates, deletes, sorts or restores anything: read it again each time. Rows are in storage
   order (the order of "ball.id", "contact.*" or "wall.id" read at the same moment). */
typedef struct cairn_array {
  void *data;
  int64_t n;      /* rows */
  int32_t ncomp;  /* components per row (the model's dimension for vectors) */
  int32_t type;   /* 'd', 'q', 'I', 'H' or 'B' */
  int64_t stride; /* bytes from one row to the next */
} cairn_array;

/* name: "ball.id", "ball.pos", "ball.vel", "ball.spin", "ball.force", "ball.moment", "ball.rad",
   "ball.density", "ball.mass", "ball.inertia", "ball.damp", "ball.fix", "ball.group";
   "wall.id", "wall.kind", "wall.vel", "wall.force", "wall.disp", "wall.point", "wall.normal",
   "wall.radius"; "contact.kind", "contact.normal", "contact.gap", "contact.force" (global, on
   side 2), "contact.moment", "contact.active". In 2D, ball.spin and ball.moment have 1
   component (about z). CAIRN_ENOTFOUND for another name, CAIRN_ESTATE before model.new. */
CAIRN_API cairn_status cairn_session_array(cairn_session *s, const char *name, cairn_array *a,
                                           cairn_diag *d);

/* Contacts' ends as ids, into caller arrays of the contact count ("contact.kind"'s n): ball-ball
   lower and higher ball id; ball-wall ball id and wall id; and each contact's model index
   (cairn_session_model_name). Any pointer may be NULL. */
CAIRN_API cairn_status cairn_session_contact_ends(cairn_session *s, int64_t *id1, int64_t *id2,
                                                  int32_t *model, cairn_diag *d);
/* A property or state field of every contact by name, into out (3 doubles per contact); *ncomp:
   1 for a number, 3 for a VEC (the most over the models that have it). A contact whose model has
   no such field gets NaN. CAIRN_ENOTFOUND if no model of any contact has it. */
CAIRN_API cairn_status cairn_session_contact_field(cairn_session *s, const char *name, double *out,
                                                   int *ncomp, cairn_diag *d);
/* The name of model index i (NULL if out of range), and of group index g ("" for none). */
CAIRN_API const char *cairn_session_model_name(cairn_session *s, int i);
CAIRN_API const char *cairn_session_group_name(cairn_session *s, int g);

#ifdef __cplusplus
}
#endif

#endif /* CAIRN_SESSION_H */
