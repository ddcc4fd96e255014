/* Run-time loading of contact-model plugins: dlopen a shared library, call its one entry point
   (cairn_plugin_register) to collect its models, and check them before anything is registered,
   so a bad library changes nothing. */
#include <dlfcn.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "contact/contact.h"
#include "contact/plugin.h"
#include "contact/plugin_call.h"

typedef struct collector {
  plugin_lib *lib;
  int overflow;
} collector;

_Thread_local plugin_call cairn_plugin_call;

const plugin_call *cairn_plugin_call_now(void) {
  return &cairn_plugin_call;
}

_Thread_local int cairn_plugin_thread_ready;

/* The size of an alternate signal stack: the crash handler needs little, but a sanitizer's
   instrumented handler code needs more than MINSIGSTKSZ. */
enum { ALT_STACK_SIZE = 64 * 1024 };

void plugin_call_thread_init(void) {
  cairn_plugin_thread_ready = 1; /* once, even when it fails: no retry on every call */
  stack_t old;
  if (sigaltstack(NULL, &old) != 0 || !(old.ss_flags & SS_DISABLE)) return; /* has one */
  /* mmap, not malloc: the stack lives as long as the thread (cairn's OpenMP threads, the
     process) and is never freed by cairn, and a sanitizer that finds it at a thread's end unmaps
     it, as it does its own. */
  void *p = mmap(NULL, ALT_STACK_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return; /* a stack overflow then dies of a bare SIGSEGV, as before */
  stack_t ss = {.ss_sp = p, .ss_size = ALT_STACK_SIZE, .ss_flags = 0};
  if (sigaltstack(&ss, NULL) != 0) munmap(p, ALT_STACK_SIZE);
}

static int collect(void *reg, const cairn_contact_model *m) {
  collector *c = reg;
  if (!m || c->lib->n >= PLUGIN_MAX_MODELS) {
    c->overflow = 1;
    return -1;
  }
  c->lib->models[c->lib->n++] = m;
  return 0;
}

static const char *base_name(const char *p) {
  const char *b = strrchr(p, '/');
  return b ? b + 1 : p;
}

cairn_status plugin_resolve(const char *name, char *out, size_t n, cairn_diag *d) {
  /* A name with a slash is a path; otherwise search CAIRN_PLUGIN_PATH, then the built-in
     plugin folder, for NAME, libNAME.so and NAME.so. */
  if (strchr(name, '/')) {
    CAIRN_CHECK(access(name, R_OK) == 0, d, CAIRN_ENOTFOUND,
                "plugin %s: no such file; check the path", name);
    CAIRN_CHECK(realpath(name, out) && strlen(out) < n, d, CAIRN_EIO,
                "plugin %s: cannot resolve the path", name);
    return CAIRN_OK;
  }
  const char *env = getenv("CAIRN_PLUGIN_PATH");
  char dirs[4096];
  snprintf(dirs, sizeof dirs, "%s%s%s", env && env[0] ? env : "", env && env[0] ? ":" : "",
           CAIRN_PLUGIN_DIR);
  const char *forms[] = {"%s/%s", "%s/lib%s.so", "%s/%s.so"};
  for (char *save = NULL, *dir = strtok_r(dirs, ":", &save); dir; dir = strtok_r(NULL, ":", &save))
    for (int f = 0; f < 3; f++) {
      char cand[PATH_MAX];
      snprintf(cand, sizeof cand, forms[f], dir, name);
      if (access(cand, R_OK) == 0 && realpath(cand, out) && strlen(out) < n) return CAIRN_OK;
    }
  return diag_set(d, CAIRN_ENOTFOUND,
                  "plugin %s: not found in CAIRN_PLUGIN_PATH or %s; give a path to the .so file",
                  name, CAIRN_PLUGIN_DIR);
}

cairn_status plugin_open(const char *path, plugin_lib *lib, cairn_diag *d) {
  memset(lib, 0, sizeof *lib);
  snprintf(lib->path, sizeof lib->path, "%s", path);
  const char *nm = base_name(path);
  dlerror();
  lib->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib->handle)
    return diag_set(d, CAIRN_EABI,
                    "plugin %s: cannot be loaded (%s); build it as a shared "
                    "library for this machine",
                    nm, dlerror());
  cairn_plugin_register_fn reg;
  *(void **)&reg = dlsym(lib->handle, CAIRN_PLUGIN_ENTRY);
  if (!reg) {
    plugin_close(lib);
    return diag_set(d, CAIRN_EABI,
                    "plugin %s: has no function %s; export it with CAIRN_PLUGIN_EXPORT (see "
                    "docs/writing-a-contact-model.md)",
                    nm, CAIRN_PLUGIN_ENTRY);
  }
  collector c = {lib, 0};
  if (!cairn_plugin_thread_ready) plugin_call_thread_init();
  cairn_plugin_call = (plugin_call){"(none yet)", lib->path, CAIRN_PLUGIN_ENTRY};
  int rc = reg(CAIRN_CM_ABI_VERSION, &c, collect);
  cairn_plugin_call.function = NULL;
  cairn_status s = CAIRN_OK;
  if (c.overflow)
    s = diag_set(d, CAIRN_EABI, "plugin %s: registers more than %d models or a NULL model", nm,
                 PLUGIN_MAX_MODELS);
  else if (rc < 0)
    s = diag_set(d, CAIRN_EABI,
                 "plugin %s: its registration failed (returned %d); it may be built for another "
                 "contact-model ABI than %d: rebuild it",
                 nm, rc, CAIRN_CM_ABI_VERSION);
  else if (lib->n == 0)
    s = diag_set(d, CAIRN_EABI, "plugin %s: registers no contact model; call add() in %s", nm,
                 CAIRN_PLUGIN_ENTRY);
  if (s != CAIRN_OK) {
    plugin_close(lib);
    return s;
  }
  return CAIRN_OK;
}

void plugin_close(plugin_lib *lib) {
  if (lib->handle) dlclose(lib->handle);
  lib->handle = NULL;
  lib->n = 0;
}

cairn_status registry_add_plugin(registry *r, const plugin_lib *lib, cairn_diag *d) {
  size_t n0 = r->n;
  for (int i = 0; i < lib->n; i++) {
    cairn_diag inner;
    cairn_status s = registry_add(r, lib->models[i], lib->path, &inner);
    if (s != CAIRN_OK) {
      registry_truncate(r, n0);
      return diag_set(d, s, "plugin %s: %s", base_name(lib->path), inner.msg);
    }
  }
  return CAIRN_OK;
}
