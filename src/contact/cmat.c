/* The contact model assignment table (CMAT): which model, properties and proximity a new
   contact gets. Rules by group are tried in the order they were added and the first match wins;
   a contact no rule matches gets the default of its kind (ball-ball or ball-wall). */
#include <string.h>

#include "contact/contact.h"

void cmat_entry_unshare(cairn_world *w, cmat_entry *ce) {
  if (ce->props && ce->pblk != IDMAP_NONE) props_block_release(&w->reg->e[ce->model], ce->pblk);
  ce->pblk = IDMAP_NONE;
}

cairn_status cmat_entry_block(cairn_world *w, cmat_entry *ce, uint32_t *pblk, cairn_diag *d) {
  model_entry *e = &w->reg->e[ce->model];
  if (ce->pblk == IDMAP_NONE) CAIRN_TRY(props_block_new(e, ce->props, ce->setmask, &ce->pblk, d));
  e->ppool.refs[ce->pblk]++;
  *pblk = ce->pblk;
  return CAIRN_OK;
}

static cairn_status entry_set_model(cairn_world *w, cmat_entry *ce, int model, cairn_diag *d) {
  const model_entry *e = &w->reg->e[model];
  cmat_entry_unshare(w, ce);
  double *np = mem_realloc(NULL, 0, (size_t)(e->n_prop_slots + 1) * sizeof(double), "cmat:props");
  if (!np) return diag_set(d, CAIRN_ENOMEM, "out of memory setting the contact model assignment");
  model_props_default(e, np);
  mem_free(ce->props, 0);
  ce->props = np;
  ce->model = model;
  ce->setmask = 0;
  ce->pblk = IDMAP_NONE;
  return CAIRN_OK;
}

cairn_status cmat_set_default(cairn_world *w, int kind, const char *model, double proximity,
                              cairn_diag *d) {
  int m;
  CAIRN_TRY(registry_require(w->reg, model, &m, d));
  CAIRN_CHECK(isfinite(proximity) && proximity >= 0, d, CAIRN_EINVAL,
              "contact assignment: proximity must be >= 0 (got %g); give the gap in length units "
              "below which contacts are created",
              proximity);
  cmat_entry *ce = &w->cmat->def[kind];
  CAIRN_TRY(entry_set_model(w, ce, m, d));
  ce->proximity = proximity;
  world_mark_dirty(w);
  return CAIRN_OK;
}

cairn_status cmat_set_proximity(cairn_world *w, int kind, double proximity, cairn_diag *d) {
  CAIRN_CHECK(isfinite(proximity) && proximity >= 0, d, CAIRN_EINVAL,
              "proximity must be >= 0 (got %g)", proximity);
  w->cmat->def[kind].proximity = proximity;
  world_mark_dirty(w);
  return CAIRN_OK;
}

double cmat_default_proximity(const cairn_world *w, int kind) {
  return w->cmat->def[kind].proximity;
}

int cmat_default_model(const cairn_world *w, int kind) {
  return w->cmat->def[kind].model;
}

size_t cmat_rule_count(const cairn_world *w) {
  return w->cmat->n_rules;
}

size_t cmat_assignment_count(const cairn_world *w) {
  return w->cmat->n_joints + w->cmat->n_rules;
}

const cmat_entry *cmat_assignment(const cairn_world *w, size_t r, int k) {
  const cmat *t = w->cmat;
  if (r < t->n_joints) return k == CAIRN_KIND_BALL_BALL ? &t->joints[r].e : NULL;
  r -= t->n_joints;
  if (r == t->n_rules) return &t->def[k];
  return t->rules[r].kind >= 0 && t->rules[r].kind != k ? NULL : &t->rules[r].e;
}

cairn_status cmat_add_joint(cairn_world *w, const double point[3], const double normal[3],
                            double radius, int model, const double *props, uint64_t setmask,
                            cairn_diag *d) {
  cmat *t = w->cmat;
  const model_entry *e = &w->reg->e[model];
  CAIRN_TRY(mem_grow((void **)&t->joints, &t->cap_joints, t->n_joints + 1, sizeof *t->joints,
                     "cmat:joints", d));
  cmat_joint j;
  memset(&j, 0, sizeof j);
  memcpy(j.point, point, sizeof j.point);
  memcpy(j.normal, normal, sizeof j.normal);
  j.radius = radius;
  j.e.model = model;
  j.e.setmask = setmask;
  j.e.pblk = IDMAP_NONE;
  j.e.props = mem_realloc(NULL, 0, (size_t)(e->n_prop_slots + 1) * sizeof(double), "cmat:joint");
  CAIRN_CHECK(j.e.props, d, CAIRN_ENOMEM, "out of memory keeping a joint for later contacts");
  memcpy(j.e.props, props, (size_t)e->n_prop_slots * sizeof(double));
  t->joints[t->n_joints++] = j;
  world_mark_dirty(w);
  return CAIRN_OK;
}

int cmat_joint_parts(const double point[3], const double normal[3], double radius,
                     const double p1[3], const double p2[3]) {
  double s1 = 0, s2 = 0;
  for (int k = 0; k < 3; k++) {
    s1 += (p1[k] - point[k]) * normal[k];
    s2 += (p2[k] - point[k]) * normal[k];
  }
  if (!((s1 < 0 && s2 > 0) || (s1 > 0 && s2 < 0))) return 0;
  if (radius < 0) return 1;
  double d2 = 0, f = s1 / (s1 - s2);
  for (int k = 0; k < 3; k++) {
    double x = p1[k] + f * (p2[k] - p1[k]) - point[k];
    d2 += x * x;
  }
  return d2 <= radius * radius;
}

cairn_status cmat_set_prop(cairn_world *w, int kind, const char *name, const double *v, int n,
                           cairn_diag *d) {
  cmat_entry *ce = &w->cmat->def[kind];
  char who[96];
  snprintf(who, sizeof who, "contact assignment (%s)", contact_kind_name(kind));
  cairn_status s =
      model_prop_write(&w->reg->e[ce->model], ce->props, &ce->setmask, name, v, n, who, d);
  if (s == CAIRN_ENOTFOUND) registry_name_owners(w->reg, name, d);
  CAIRN_TRY(s);
  cmat_entry_unshare(w, ce); /* contacts made before keep the values they got */
  return CAIRN_OK;
}

/* Append rule r after the others; it owns its properties, freed if it cannot be added. */
static cairn_status append_rule(cmat *t, cmat_rule *r, cairn_diag *d) {
  cairn_status s = mem_grow((void **)&t->rules, &t->cap_rules, t->n_rules + 1, sizeof *t->rules,
                            "cmat:rules", d);
  if (s != CAIRN_OK) {
    mem_free(r->e.props, 0);
    return s;
  }
  t->rules[t->n_rules++] = *r;
  return CAIRN_OK;
}

cairn_status cmat_add_rule(cairn_world *w, int kind, const char *g1, const char *g2,
                           const char *model, double proximity, cairn_diag *d) {
  cmat *t = w->cmat;
  CAIRN_CHECK(g1 && g1[0], d, CAIRN_EINVAL,
              "contact assignment rule: give group = NAME (or groups = {A, B})");
  int m;
  CAIRN_TRY(registry_require(w->reg, model, &m, d));
  CAIRN_CHECK(isfinite(proximity) && proximity >= 0, d, CAIRN_EINVAL,
              "contact assignment rule: proximity must be >= 0 (got %g)", proximity);
  cmat_rule r;
  memset(&r, 0, sizeof r);
  r.kind = kind;
  CAIRN_TRY(world_group_index(w, g1, &r.g1, d));
  if (g2 && g2[0]) CAIRN_TRY(world_group_index(w, g2, &r.g2, d));
  r.e.proximity = proximity;
  CAIRN_TRY(entry_set_model(w, &r.e, m, d));
  CAIRN_TRY(append_rule(t, &r, d));
  world_mark_dirty(w);
  return CAIRN_OK;
}

cairn_status cmat_rule_set_prop(cairn_world *w, const char *name, const double *v, int n,
                                cairn_diag *d) {
  cmat *t = w->cmat;
  CAIRN_CHECK(t->n_rules > 0, d, CAIRN_ESTATE, "no contact assignment rule to set '%s' on", name);
  cmat_entry *ce = &t->rules[t->n_rules - 1].e;
  char who[64];
  snprintf(who, sizeof who, "contact assignment rule %zu", t->n_rules);
  cairn_status s =
      model_prop_write(&w->reg->e[ce->model], ce->props, &ce->setmask, name, v, n, who, d);
  if (s == CAIRN_ENOTFOUND) registry_name_owners(w->reg, name, d);
  CAIRN_TRY(s);
  cmat_entry_unshare(w, ce);
  return CAIRN_OK;
}

void cmat_clear_rules(cairn_world *w) {
  cmat *t = w->cmat;
  for (size_t i = 0; i < t->n_rules; i++) {
    cmat_entry_unshare(w, &t->rules[i].e);
    mem_free(t->rules[i].e.props, 0);
  }
  t->n_rules = 0;
}

static uint16_t side_group(const cairn_world *w, int kind, int side, uint32_t slot) {
  if (kind == CAIRN_KIND_BALL_WALL && side == 1) return w->walls.w[slot].group;
  return w->balls.group[slot];
}

cmat_entry *cmat_lookup(cairn_world *w, int kind, uint32_t a, uint32_t b) {
  cmat *t = w->cmat;
  if (t->n_joints && kind == CAIRN_KIND_BALL_BALL) {
    const double *p1 = w->balls.pos[a];
    double p2[3], img[3];
    memcpy(p2, w->balls.pos[b], sizeof p2);
    if (w->cell.on) { /* b's image nearest a: the pair as the contact sees it */
      double sep[3];
      for (int k = 0; k < 3; k++) sep[k] = p2[k] - p1[k];
      periodic_shift(&w->cell, sep, img);
      for (int k = 0; k < 3; k++) p2[k] += img[k];
    }
    for (size_t i = 0; i < t->n_joints; i++)
      if (cmat_joint_parts(t->joints[i].point, t->joints[i].normal, t->joints[i].radius, p1, p2))
        return &t->joints[i].e;
  }
  if (t->n_rules) {
    uint16_t ga = side_group(w, kind, 1, a), gb = side_group(w, kind, 2, b);
    for (size_t i = 0; i < t->n_rules; i++) {
      cmat_rule *r = &t->rules[i];
      if (r->kind >= 0 && r->kind != kind) continue;
      int hit = r->g2 == 0 ? (ga == r->g1 || gb == r->g1)
                           : ((ga == r->g1 && gb == r->g2) || (ga == r->g2 && gb == r->g1));
      if (hit) return &r->e;
    }
  }
  return &t->def[kind];
}

double cmat_max_proximity(const cairn_world *w) {
  double p = 0;
  for (int k = 0; k < 2; k++)
    if (w->cmat->def[k].proximity > p) p = w->cmat->def[k].proximity;
  for (size_t i = 0; i < w->cmat->n_rules; i++)
    if (w->cmat->rules[i].e.proximity > p) p = w->cmat->rules[i].e.proximity;
  return p;
}

/* A copy of saved's properties in *props (n_prop_slots of its model, and a spare slot). */
static cairn_status restored_props(cairn_world *w, const cmat_entry *saved, double **props,
                                   cairn_diag *d) {
  const model_entry *e = &w->reg->e[saved->model];
  *props = mem_realloc(NULL, 0, (size_t)(e->n_prop_slots + 1) * sizeof(double), "cmat");
  if (!*props) return diag_set(d, CAIRN_ENOMEM, "out of memory restoring the assignment table");
  memcpy(*props, saved->props, (size_t)e->n_prop_slots * sizeof(double));
  return CAIRN_OK;
}

cairn_status cmat_restore_default(cairn_world *w, int kind, const cmat_entry *saved,
                                  cairn_diag *d) {
  cmat_entry *ce = &w->cmat->def[kind];
  double *props;
  CAIRN_TRY(restored_props(w, saved, &props, d));
  cmat_entry_unshare(w, ce);
  mem_free(ce->props, 0);
  ce->props = props;
  ce->model = saved->model;
  ce->proximity = saved->proximity;
  ce->setmask = saved->setmask;
  return CAIRN_OK;
}

cairn_status cmat_restore_rule(cairn_world *w, const cmat_rule *saved, cairn_diag *d) {
  cmat *t = w->cmat;
  cmat_rule r = *saved;
  r.e.pblk = IDMAP_NONE;
  CAIRN_TRY(restored_props(w, &saved->e, &r.e.props, d));
  return append_rule(t, &r, d);
}

void cmat_free(cairn_world *w) {
  for (int k = 0; k < 2; k++) {
    cmat_entry_unshare(w, &w->cmat->def[k]);
    mem_free(w->cmat->def[k].props, 0);
    w->cmat->def[k].props = NULL;
  }
  cmat_clear_rules(w);
  mem_free(w->cmat->rules, 0);
  w->cmat->rules = NULL;
  w->cmat->cap_rules = 0;
  for (size_t i = 0; i < w->cmat->n_joints; i++) {
    cmat_entry_unshare(w, &w->cmat->joints[i].e);
    mem_free(w->cmat->joints[i].e.props, 0);
  }
  mem_free(w->cmat->joints, 0);
  w->cmat->joints = NULL;
  w->cmat->n_joints = w->cmat->cap_joints = 0;
}
