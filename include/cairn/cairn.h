/* cairn public interface for embedders: status codes, diagnostics, the world handle.
   Scripts reach everything through the Lua API (docs/scripting.md); C embedders start here. */
#ifndef CAIRN_H
#define CAIRN_H

#include <stddef.h>
#include <stdint.h>

#include "cairn/version.h"
#include "cairn/contact_model.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(CAIRN_BUILDING)
#define CAIRN_API __attribute__((visibility("default")))
#else
#define CAIRN_API
#endif

typedef enum cairn_status {
  CAIRN_OK = 0,
  CAIRN_EINVAL,    /* a bad input: value, name, type or range */
  CAIRN_ENOMEM,    /* out of memory */
  CAIRN_EIO,       /* a file could not be read or written */
  CAIRN_ENOTFOUND, /* no such ball, wall, contact, model or property */
  CAIRN_EABI,      /* a plugin built for another ABI or with a bad table */
  CAIRN_ESTATE,    /* the operation is not possible in the world's current state */
  CAIRN_ECALLBACK  /* a script callback failed; the message carries its position */
} cairn_status;

/* Caller-owned diagnostics: one message, shaped "where: what is wrong (value); what to do". */
typedef struct cairn_diag {
  char msg[1024];
} cairn_diag;

typedef struct cairn_world cairn_world;

typedef struct cairn_world_opts {
  int dim; /* 2 or 3 */
} cairn_world_opts;

/* Create an empty world. Returns CAIRN_EINVAL for a dimension other than 2 or 3. */
CAIRN_API cairn_status cairn_world_create(const cairn_world_opts *opts, cairn_world **out,
                                          cairn_diag *d);
/* Destroy a world and everything in it; sets *w to NULL. NULL is allowed. */
CAIRN_API void cairn_world_destroy(cairn_world **w);

/* Name of a status code, e.g. "invalid input". */
CAIRN_API const char *cairn_status_str(cairn_status s);

#ifdef __cplusplus
}
#endif

#endif /* CAIRN_H */
