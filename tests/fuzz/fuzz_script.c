/* libFuzzer target: the script modules' argument parsing. Each input is decoded into a short
   script, a model of the dimension its first byte picks, then up to 12 calls of script functions
   (every function of every module, less those that write files, start processes or run long)
   with arguments from a dictionary of awkward values: NaN, infinities, huge and negative
   numbers, strings, tables of the wrong shape, functions that fail. Each call runs in pcall:
   a Lua error is the expected answer to bad input; a crash, a sanitizer report or a leak is a
   finding. Seeds: tests/fuzz/corpus_script/.

   A refused call must change nothing (docs/scripting.md, Conventions): around each call but the
   cycles (a run stopped by an error keeps its steps), the model is saved before and after, and
   a call that fails but changed the save's bytes is a finding too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/io.h"
#include "lua/lua_api.h"

static int l_detect(lua_State *L) {
  detected_world(L);
  return 0;
}

/* fingerprint(): the FNV-1a hash of the model's save file, as a string (nil when it cannot be
   saved); the save holds every store a call can change. Detection is brought up to date first,
   as queries and contact.apply do on their own (contacts of balls created since are derived
   state, not a change made by the call). */
static int l_fingerprint(lua_State *L) {
  lua_pushcfunction(L, l_detect);
  if (lua_pcall(L, 0, 0, 0) != LUA_OK) return 0;
  static char path[64];
  if (!path[0]) snprintf(path, sizeof path, "/tmp/cairn-fuzz-script-%d.sav", (int)getpid());
  cairn_diag d;
  script_ctx *c = ctx_of(L);
  if (!c->w || io_save(c->w, path, NULL, 0, &d) != CAIRN_OK) return 0;
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  unsigned long long h = 1469598103934665603ULL;
  for (int ch; (ch = getc(f)) != EOF;) h = (h ^ (unsigned)ch) * 1099511628211ULL;
  fclose(f);
  remove(path);
  char hex[24];
  snprintf(hex, sizeof hex, "%016llx", h);
  lua_pushstring(L, hex);
  return 1;
}

/* changed(name, message): a refused call changed the model. */
static int l_changed(lua_State *L) {
  fprintf(stderr, "fuzz_script: %s was refused (%s) but changed the model\n", lua_tostring(L, 1),
          lua_tostring(L, 2));
  abort();
}

/* try(name, f, ...): f(...) in pcall, checked as above. */
static const char TRY[] =
    "local fingerprint, changed = ...\n"
    "return function(name, f, ...)\n"
    "  local before = fingerprint()\n"
    "  local ok, err = pcall(f, ...)\n"
    "  if not ok and before and fingerprint() ~= before then changed(name, tostring(err)) end\n"
    "end\n";

/* Functions left out: they write files or folders (model.save, history.export, vtk.*, plot.*,
   contact.cracks, verify.path), start threads, processes or servers (model.threads, model.view,
   vtk.render), make models of arbitrary size or run for as long as asked (model.cycle,
   model.solve, specimen.*), or replace the model (model.new, model.restore: the prelude makes
   it). "model.cycle(1)" and
   "model.cycle(5)" are in the list as calls of their own, so fuzzed states are cycled. */
static const char *const DENY[] = {
    "model.save", "model.restore",  "model.new",      "model.cycle", "model.solve", "model.threads",
    "model.view", "history.export", "contact.cracks", "verify.path", NULL};
static const char *const DENY_MODULES[] = {"vtk", "plot", "specimen", NULL};
static const char *const MODULES[] = {"model",   "ball",     "wall",   "contact",
                                      "history", "callback", "verify", "measure",
                                      "energy",  "cell",     NULL};

static const char *const ARGS[] = {
    "nil",
    "true",
    "false",
    "0",
    "1",
    "-1",
    "2",
    "3",
    "7",
    "0.5",
    "1e-300",
    "1e300",
    "-1e300",
    "0/0",
    "1/0",
    "-1/0",
    "2^31",
    "2^53",
    "-2^63",
    "\"x\"",
    "\"\"",
    "\"1\"",
    "\"ball-ball\"",
    "\"ball-wall\"",
    "\"linear\"",
    "\"hertz\"",
    "\"linearpbond\"",
    "\"burger\"",
    "\"velocity\"",
    "\"xy\"",
    "\"xyz\"",
    "\"kn\"",
    "\"after_force\"",
    "\"contact_created\"",
    "{}",
    "{1, 2}",
    "{1, 2, 3}",
    "{0/0, 1}",
    "{1/0, 0, 0}",
    "{1, 2, 3, 4}",
    "{\"a\", \"b\"}",
    "{{0, 0}, {1, 0}}",
    "{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}",
    "{rad = 0.1, pos = {0, 0}}",
    "{rad = 0.1, pos = {0, 0, 0}}",
    "{id = 1, rad = 0.1, pos = {0.5, 0.5}}",
    "{id = 9, rad = 1e300, pos = {0, 0, 0}}",
    "{model = \"linear\", kn = 1e6, ks = 1e6}",
    "{model = \"hertz\", hz_shear = 1e9, hz_poiss = 0.3}",
    "{kind = \"plane\", point = {0, 0, 0}, normal = {0, 0, 1}}",
    "{kind = \"cylinder\", point = {0, 0, 0}, axis = {0, 0, 1}, radius = 1}",
    "{nodes = {{0, -1}, {2, -1}}}",
    "{min = {0, 0}, max = {1, 1}}",
    "{min = {0, 0, 0}, max = {1, 1, 1}}",
    "{min = {0, 0}, max = {0, 0}}",
    "{shape = \"box\", min = {0, 0}, max = {1, 1}}",
    "{shape = \"sphere\", centre = {0, 0, 0}, radius = 1}",
    "{axis = \"x\", stress = 1, rate_max = 1}",
    "{xy = 1}",
    "{xx = -1e3}",
    "{fix = 1e-3}",
    "{fix = 0/0}",
    "{auto = true}",
    "{id = 1, stress = 10, area = 1, vmax = 1}",
    "{stress = {time = {0, 1}, value = {1, 2}}, id = 1, area = 1, vmax = 1}",
    "{density = 2, damp = 0.5}",
    "{fric = 0.5}",
    "{quantity = \"q\", sim = 1, ref = 1, tol = 0}",
    "function() return 1 end",
    "function() error(\"e\") end",
    "function() return 0/0 end",
    "function() model.cycle(1) end",
    "contact.list()[1]",
    "(contact.list()[1])",
    "R",
    "R2",
    "{ratio = 1e-3, steps = 3}",
    "{gap = 0.1}",
    "{kind = \"ball-ball\"}",
    "{auto = true, impact = 20}",
    "{impact = 0/0}",
    "{impact = 1e300, safety = 1}",
    "{model = \"hertzlike\", hl_k = 1e6, hl_dref = 1e-4}"};

typedef struct fn_list {
  char (*name)[64];
  size_t n;
} fn_list;

static int cmp_name(const void *a, const void *b) {
  return strcmp(a, b);
}

static int denied(const char *mod, const char *fn) {
  char full[80];
  snprintf(full, sizeof full, "%s.%s", mod, fn);
  for (const char *const *d = DENY; *d; d++)
    if (strcmp(*d, full) == 0) return 1;
  for (const char *const *d = DENY_MODULES; *d; d++)
    if (strcmp(*d, mod) == 0) return 1;
  return 0;
}

/* The functions to call, sorted (the same list every run). */
static fn_list functions(void) {
  static fn_list fl;
  if (fl.n) return fl;
  script_ctx c;
  cairn_diag d;
  if (ctx_open(&c, 1, NULL, 0, &d) != CAIRN_OK) abort();
  lua_State *L = c.L;
  size_t cap = 512;
  fl.name = calloc(cap, sizeof *fl.name);
  for (const char *const *m = MODULES; *m; m++) {
    lua_getglobal(L, *m);
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      if (lua_type(L, -2) == LUA_TSTRING && lua_isfunction(L, -1) &&
          !denied(*m, lua_tostring(L, -2)) && fl.n < cap)
        snprintf(fl.name[fl.n++], 64, "%s.%s", *m, lua_tostring(L, -2));
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  snprintf(fl.name[fl.n++], 64, "model.cycle(1)");
  snprintf(fl.name[fl.n++], 64, "model.cycle(5)");
  qsort(fl.name, fl.n, sizeof *fl.name, cmp_name);
  ctx_close(&c);
  return fl;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fn_list fl = functions();
  static char script[16384];
  size_t pos = 0, n = 0;
  int dim = size && (data[pos++] & 1) ? 3 : 2;
  n += (size_t)snprintf(
      script + n, sizeof script - n,
      "model.new{dim = %d}\ncontact.cmat_default{model = \"linear\", kn = 1e4, ks = 1e4}\n"
      "ball.create{id = 1, rad = 0.1, pos = %s}\nball.create{id = 2, rad = 0.1, pos = %s}\n"
      "model.timestep{fix = 1e-4}\nmodel.cycle(1)\n"
      "R = measure.create{shape = \"box\", min = %s, max = %s}\n"
      "R2 = measure.create{shape = \"%s\", centre = %s, radius = 1}\n",
      dim, dim == 3 ? "{0, 0, 0}" : "{0, 0}", dim == 3 ? "{0.19, 0, 0}" : "{0.19, 0}",
      dim == 3 ? "{-1, -1, -1}" : "{-1, -1}", dim == 3 ? "{1, 1, 1}" : "{1, 1}",
      dim == 3 ? "sphere" : "circle", dim == 3 ? "{0, 0, 0}" : "{0, 0}");
  size_t nargs_dict = sizeof ARGS / sizeof *ARGS;
  for (int call = 0; call < 12 && pos + 1 < size && n < sizeof script - 1024; call++) {
    const char *fn = fl.name[data[pos++] % fl.n];
    int nargs = data[pos++] % 4;
    if (strchr(fn, '(')) { /* a call with its arguments */
      n += (size_t)snprintf(script + n, sizeof script - n, "pcall(function() %s end)\n", fn);
      continue;
    }
    n += (size_t)snprintf(script + n, sizeof script - n, "try(\"%s\", %s", fn, fn);
    for (int a = 0; a < nargs && pos < size; a++)
      n += (size_t)snprintf(script + n, sizeof script - n, ", %s", ARGS[data[pos++] % nargs_dict]);
    n += (size_t)snprintf(script + n, sizeof script - n, ")\n");
  }
  script_ctx c;
  cairn_diag d;
  if (ctx_open(&c, 1, NULL, 0, &d) != CAIRN_OK) abort();
  lua_State *L = c.L;
  if (getenv("CAIRN_FUZZ_SHOW")) fputs(script, stderr);
  if (luaL_loadbuffer(L, TRY, sizeof TRY - 1, "=try") != LUA_OK) abort();
  lua_pushcfunction(L, l_fingerprint);
  lua_pushcfunction(L, l_changed);
  if (lua_pcall(L, 2, 1, 0) != LUA_OK) abort();
  lua_setglobal(L, "try");
  lua_pushcfunction(L, lua_msg_handler);
  if (luaL_loadbuffer(L, script, n, "=fuzz") == LUA_OK) lua_pcall(L, 0, 0, -2);
  ctx_close(&c);
  return 0;
}
