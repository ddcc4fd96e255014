/* Contact-model plugins: shared libraries loaded at run time (see plugin.c). */
#ifndef CAIRN_PLUGIN_H
#define CAIRN_PLUGIN_H

#include <limits.h>

#include "contact/contact.h"

#ifndef CAIRN_PLUGIN_DIR
#define CAIRN_PLUGIN_DIR "."
#endif

#define PLUGIN_MAX_MODELS 64

typedef struct plugin_lib {
  char path[PATH_MAX];
  void *handle;
  const cairn_contact_model *models[PLUGIN_MAX_MODELS];
  int n;
} plugin_lib;

/* Turn a plugin name or path into an absolute path to an existing file. */
cairn_status plugin_resolve(const char *name, char *out, size_t n, cairn_diag *d);
/* Load the library and collect its models (nothing registered yet). */
cairn_status plugin_open(const char *path, plugin_lib *lib, cairn_diag *d);
void plugin_close(plugin_lib *lib);
/* Register all of a library's models, or none (the registry is left as it was on failure). */
cairn_status registry_add_plugin(registry *r, const plugin_lib *lib, cairn_diag *d);

#endif
