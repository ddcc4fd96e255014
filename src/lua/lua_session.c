/* The embedder's session (include/cairn/session.h): one script context kept open, with its
   model's storage readable in place and contacts' ids and fields gathered on request. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "cairn/session.h"
#include "contact/contact.h"
#include "lua/lua_api.h"

struct cairn_session {
  script_ctx ctx;
};

const char *cairn_version(void) {
  return CAIRN_VERSION_STRING;
}

cairn_status cairn_session_open(int quiet, cairn_session **out, cairn_diag *d) {
  *out = NULL;
  cairn_session *s = mem_realloc(NULL, 0, sizeof *s, "session");
  if (!s) return diag_set(d, CAIRN_ENOMEM, "out of memory opening a session");
  cairn_status st = ctx_open(&s->ctx, quiet, NULL, 0, d);
  if (st != CAIRN_OK) {
    mem_free(s, sizeof *s);
    return st;
  }
  s->ctx.case_name = "python";
  *out = s;
  return CAIRN_OK;
}

void cairn_session_close(cairn_session **s) {
  if (!s || !*s) return;
  ctx_close(&(*s)->ctx);
  mem_free(*s, sizeof **s);
  *s = NULL;
}

void *cairn_session_lua(cairn_session *s) {
  return s->ctx.L;
}

cairn_status cairn_session_pcall(cairn_session *s, int nargs, int nresults, cairn_diag *d) {
  lua_State *L = s->ctx.L;
  int fn = lua_gettop(L) - nargs;
  lua_pushcfunction(L, lua_msg_handler);
  lua_insert(L, fn);
  int st = lua_pcall(L, nargs, nresults, fn);
  lua_remove(L, fn);
  if (st == LUA_OK) return CAIRN_OK;
  const char *m = lua_tostring(L, -1);
  cairn_status e = st == LUA_ERRMEM ? CAIRN_ENOMEM : CAIRN_EINVAL;
  diag_set(d, e, "%s", m ? m : "unknown Lua error");
  lua_pop(L, 1);
  return e;
}

cairn_status cairn_session_run_file(cairn_session *s, const char *path, cairn_diag *d) {
  return ctx_run_file(&s->ctx, path, d);
}

int cairn_session_dim(cairn_session *s) {
  return s->ctx.w ? s->ctx.w->dim : 0;
}

static void column(cairn_array *a, void *data, size_t n, int ncomp, int type, size_t stride) {
  a->data = data;
  a->n = (int64_t)n;
  a->ncomp = ncomp;
  a->type = type;
  a->stride = (int64_t)stride;
}

cairn_status cairn_session_array(cairn_session *s, const char *name, cairn_array *a,
                                 cairn_diag *d) {
  cairn_world *w = s->ctx.w;
  if (!w) return diag_set(d, CAIRN_ESTATE, "no model yet; create one (model.new) first");
  walls_settle(w); /* (wall.force) */
  int dim = w->dim;
  ball_store *b = &w->balls;
  contact_store *cs = w->contacts;
  wall *wl = w->walls.w;
  size_t nw = w->walls.n, V = sizeof(double[3]);
  /* 2D turning quantities live in the z slot of the vector */
  size_t z = dim == 2 ? 2 * sizeof(double) : 0;
  int nrot = dim == 2 ? 1 : 3;
  memset(a, 0, sizeof *a);
  /* contacts in the order of their ids, as scripts see them (contact_sort_by_key) */
  if (strncmp(name, "contact.", 8) == 0) CAIRN_TRY(contact_sort_by_key(w, d));
  if (strcmp(name, "ball.id") == 0)
    column(a, b->id, b->n, 1, 'q', sizeof *b->id);
  else if (strcmp(name, "ball.pos") == 0)
    column(a, b->pos, b->n, dim, 'd', V);
  else if (strcmp(name, "ball.vel") == 0)
    column(a, b->vel, b->n, dim, 'd', V);
  else if (strcmp(name, "ball.spin") == 0)
    column(a, (char *)b->spin + z, b->n, nrot, 'd', V);
  else if (strcmp(name, "ball.force") == 0)
    column(a, b->force, b->n, dim, 'd', V);
  else if (strcmp(name, "ball.moment") == 0)
    column(a, (char *)b->moment + z, b->n, nrot, 'd', V);
  else if (strcmp(name, "ball.rad") == 0)
    column(a, b->rad, b->n, 1, 'd', sizeof(double));
  else if (strcmp(name, "ball.density") == 0)
    column(a, b->density, b->n, 1, 'd', sizeof(double));
  else if (strcmp(name, "ball.mass") == 0)
    column(a, b->mass, b->n, 1, 'd', sizeof(double));
  else if (strcmp(name, "ball.inertia") == 0)
    column(a, b->inertia, b->n, 1, 'd', sizeof(double));
  else if (strcmp(name, "ball.damp") == 0)
    column(a, b->damp, b->n, 1, 'd', sizeof(double));
  else if (strcmp(name, "ball.fix") == 0)
    column(a, b->fix, b->n, 1, 'B', 1);
  else if (strcmp(name, "ball.group") == 0)
    column(a, b->group, b->n, 1, 'H', sizeof(uint16_t));
  else if (strcmp(name, "clump.id") == 0)
    column(a, w->clumps.id, w->clumps.n, 1, 'q', sizeof(int64_t));
  else if (strcmp(name, "clump.pos") == 0)
    column(a, w->clumps.pos, w->clumps.n, dim, 'd', V);
  else if (strcmp(name, "clump.vel") == 0)
    column(a, w->clumps.vel, w->clumps.n, dim, 'd', V);
  else if (strcmp(name, "clump.spin") == 0)
    column(a, w->clumps.n ? (char *)w->clumps.spin + z : NULL, w->clumps.n, nrot, 'd', V);
  else if (strcmp(name, "clump.force") == 0)
    column(a, w->clumps.force, w->clumps.n, dim, 'd', V);
  else if (strcmp(name, "clump.moment") == 0)
    column(a, w->clumps.n ? (char *)w->clumps.moment + z : NULL, w->clumps.n, nrot, 'd', V);
  else if (strcmp(name, "clump.mass") == 0)
    column(a, w->clumps.mass, w->clumps.n, 1, 'd', sizeof(double));
  else if (strcmp(name, "clump.inertia") == 0) /* principal moments (2D: about z) */
    column(a, w->clumps.n ? (char *)w->clumps.inertia + z : NULL, w->clumps.n, nrot, 'd', V);
  else if (strcmp(name, "clump.quat") == 0) /* body (principal) frame to global */
    column(a, w->clumps.q, w->clumps.n, 4, 'd', sizeof(double[4]));
  else if (strcmp(name, "wall.id") == 0)
    column(a, nw ? &wl->id : NULL, nw, 1, 'q', sizeof(wall));
  else if (strcmp(name, "wall.kind") == 0) /* an enum: int-sized */
    column(a, nw ? &wl->kind : NULL, nw, 1, sizeof(wall_kind) == 4 ? 'I' : 'B', sizeof(wall));
  else if (strcmp(name, "wall.vel") == 0)
    column(a, nw ? wl->vel : NULL, nw, dim, 'd', sizeof(wall));
  else if (strcmp(name, "wall.force") == 0)
    column(a, nw ? wl->force : NULL, nw, dim, 'd', sizeof(wall));
  else if (strcmp(name, "wall.disp") == 0)
    column(a, nw ? wl->moved : NULL, nw, dim, 'd', sizeof(wall));
  else if (strcmp(name, "wall.point") == 0)
    column(a, nw ? wl->point : NULL, nw, dim, 'd', sizeof(wall));
  else if (strcmp(name, "wall.normal") == 0)
    column(a, nw ? wl->normal : NULL, nw, dim, 'd', sizeof(wall));
  else if (strcmp(name, "wall.radius") == 0)
    column(a, nw ? &wl->radius : NULL, nw, 1, 'd', sizeof(wall));
  else if (strcmp(name, "contact.kind") == 0)
    column(a, cs->kind, cs->n, 1, 'B', 1);
  else if (strcmp(name, "contact.normal") == 0)
    column(a, cs->normal, cs->n, dim, 'd', V);
  else if (strcmp(name, "contact.gap") == 0)
    column(a, cs->gap, cs->n, 1, 'd', sizeof(double));
  else if (strcmp(name, "contact.force") == 0)
    column(a, cs->force, cs->n, dim, 'd', V);
  else if (strcmp(name, "contact.moment") == 0)
    column(a, (char *)cs->moment + z, cs->n, nrot, 'd', V);
  else if (strcmp(name, "contact.active") == 0)
    column(a, cs->active, cs->n, 1, 'B', 1);
  else
    return diag_set(d, CAIRN_ENOTFOUND,
                    "no array named '%s'; see cairn_session.h (or cairn's Python docs) for the "
                    "names",
                    name);
  return CAIRN_OK;
}

cairn_status cairn_session_contact_ends(cairn_session *s, int64_t *id1, int64_t *id2,
                                        int32_t *model, cairn_diag *d) {
  cairn_world *w = s->ctx.w;
  if (!w) return diag_set(d, CAIRN_ESTATE, "no model yet; create one (model.new) first");
  CAIRN_TRY(contact_sort_by_key(w, d));
  const contact_store *cs = w->contacts;
  for (size_t c = 0; c < cs->n; c++) {
    int64_t i1, i2; /* as contact.ends gives them */
    contact_ids(w, (uint32_t)c, &i1, &i2);
    if (id1) id1[c] = i1;
    if (id2) id2[c] = i2;
    if (model) model[c] = cs->model[c];
  }
  return CAIRN_OK;
}

cairn_status cairn_session_contact_field(cairn_session *s, const char *name, double *out,
                                         int *ncomp, cairn_diag *d) {
  cairn_world *w = s->ctx.w;
  if (!w) return diag_set(d, CAIRN_ESTATE, "no model yet; create one (model.new) first");
  CAIRN_TRY(contact_sort_by_key(w, d));
  const contact_store *cs = w->contacts;
  int most = 0;
  for (size_t c = 0; c < cs->n; c++) {
    double v[3] = {NAN, NAN, NAN};
    const double *items;
    int n = contact_state_array(w, (uint32_t)c, name, &items);
    if (n)
      return diag_set(d, CAIRN_EINVAL,
                      "state field '%s' holds %d values per contact (one per item), not a column; "
                      "read it contact by contact with contact.prop(cp, '%s')",
                      name, n, name);
    if (contact_prop_get(w, (uint32_t)c, name, v, &n, NULL) != CAIRN_OK) v[0] = v[1] = v[2] = NAN;
    if (n > most) most = n;
    if (n == 1) v[1] = v[2] = NAN;
    memcpy(out + 3 * c, v, sizeof v);
  }
  *ncomp = most;
  if (cs->n && most == 0)
    return diag_set(d, CAIRN_ENOTFOUND,
                    "no contact's model has a property or state field '%s'; contact.props(cp) "
                    "lists a contact's names",
                    name);
  if (!cs->n) *ncomp = 1;
  return CAIRN_OK;
}

const char *cairn_session_model_name(cairn_session *s, int i) {
  cairn_world *w = s->ctx.w;
  if (!w || i < 0 || (size_t)i >= w->reg->n) return NULL;
  return w->reg->e[i].m->name;
}

const char *cairn_session_group_name(cairn_session *s, int g) {
  cairn_world *w = s->ctx.w;
  if (!w || g < 0 || (size_t)g >= w->n_groups) return NULL;
  return world_group_name(w, (uint16_t)g);
}
