/* The assembler: creating and destroying a whole model. The world (src/world/) holds the stores
   of the floors above it by pointer and never creates or frees them; this file, above all of
   them, does (docs/architecture.md). The stores live in one block with the world, in the order
   of their floors. */
#include <string.h>

#include "contact/cmat.h"
#include "contact/contact.h"
#include "contact/cracks.h"
#include "contact/energy.h"
#include "contact/events.h"
#include "contact/registry.h"
#include "cycle/cycle.h"
#include "cycle/forces.h"
#include "cycle/history.h"
#include "detect/detect.h"
#include "models/builtin.h"
#include "par/par.h"

typedef struct model_block {
  cairn_world w; /* first: the block is freed through the world's address */
  contact_store contacts;
  registry reg;
  cmat cmat;
  energy_track energy;
  event_queue events;
  crack_set cracks;
  pair_list pairs;
  force_scratch fs;
  history_set hist;
} model_block;

/* Register every built-in model, in the order of the one list (models/builtin.h). */
static cairn_status register_builtin(registry *r, cairn_diag *d) {
  for (size_t i = 0; i < cairn_builtin_count; i++)
    CAIRN_TRY(registry_add(r, cairn_builtin_models[i], "built-in", d));
  return CAIRN_OK;
}

cairn_status cairn_world_create(const cairn_world_opts *opts, cairn_world **out, cairn_diag *d) {
  *out = NULL;
  int dim = opts ? opts->dim : 3;
  CAIRN_CHECK(dim == 2 || dim == 3, d, CAIRN_EINVAL,
              "model dimension must be 2 or 3 (got %d); pass dim = 2 for disks or 3 for spheres",
              dim);
  model_block *m = mem_realloc(NULL, 0, sizeof *m, "world");
  if (!m) return diag_set(d, CAIRN_ENOMEM, "out of memory creating the world");
  memset(m, 0, sizeof *m);
  cairn_world *w = &m->w;
  world_init(w, dim);
  w->contacts = &m->contacts;
  w->reg = &m->reg;
  w->cmat = &m->cmat;
  w->energy = &m->energy;
  w->events = &m->events;
  w->cracks = &m->cracks;
  w->pairs = &m->pairs;
  w->fs = &m->fs;
  w->hist = &m->hist;
  m->contacts.pair_contact = &m->pairs.contact;
  m->hist.interval = 10;
  m->pairs.dirty = 1;
  cairn_status s = register_builtin(w->reg, d);
  if (s == CAIRN_OK) s = cmat_set_default(w, CAIRN_KIND_BALL_BALL, "null", 0.0, d);
  if (s == CAIRN_OK) s = cmat_set_default(w, CAIRN_KIND_BALL_WALL, "null", 0.0, d);
  if (s != CAIRN_OK) {
    cairn_world_destroy(&w);
    return s;
  }
  *out = w;
  return CAIRN_OK;
}

void cairn_world_destroy(cairn_world **wp) {
  if (!wp || !*wp) return;
  cairn_world *w = *wp;
  par_release(w); /* (a model left divided by its last cycle call) */
  contact_store_free(w);
  pairs_free(w->pairs);
  world_free_own(w);
  mem_free(w->cracks->c, 0);
  cmat_free(w);
  registry_free(w->reg);
  history_clear(w);
  force_scratch_free(w->fs);
  events_free(w->events);
  mem_free((model_block *)w, sizeof(model_block));
  *wp = NULL;
}
