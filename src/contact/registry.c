/* The contact-model registry: checks a model's tables once at registration, lays out its
   property/state slots, and owns the per-model pools of contact blocks. */
#include <math.h>
#include <string.h>

#include "contact/contact.h"
#include "contact/model_call.h"

static const char *type_name(cairn_prop_type t) {
  switch (t) {
  case CAIRN_PROP_FLT:
    return "a number";
  case CAIRN_PROP_INT:
    return "an integer";
  case CAIRN_PROP_BOOL:
    return "a boolean (true/false or 0/1)";
  case CAIRN_PROP_VEC:
    return "a vector of 3 numbers";
  }
  return "?";
}

/* A name scripts, CSV headers and VTK arrays can carry as it is: a letter, then letters, digits
   and '_'. */
static int is_identifier(const char *s) {
  if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z'))) return 0;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
          *s == '_'))
      return 0;
  return 1;
}

static cairn_status check_rows(const char *model, const char *what, const char *const *names,
                               const cairn_prop_type *types, int n, cairn_diag *d) {
  for (int i = 0; i < n; i++) {
    CAIRN_CHECK(names[i] && names[i][0], d, CAIRN_EABI,
                "contact model '%s': %s row %d has no name; give every row a name", model, what,
                i + 1);
    CAIRN_CHECK(strnlen(names[i], CAIRN_MAX_NAME) < CAIRN_MAX_NAME, d, CAIRN_EABI,
                "contact model '%s': %s name '%.*s...' is longer than %d characters; shorten it",
                model, what, CAIRN_MAX_NAME - 1, names[i], CAIRN_MAX_NAME - 1);
    CAIRN_CHECK(is_identifier(names[i]), d, CAIRN_EABI,
                "contact model '%s': %s name '%s' is not a plain name; use a letter, then "
                "letters, digits and '_' (scripts, CSV headers and VTK files carry it as it is)",
                model, what, names[i]);
    CAIRN_CHECK(types[i] >= CAIRN_PROP_FLT && types[i] <= CAIRN_PROP_VEC, d, CAIRN_EABI,
                "contact model '%s': %s '%s' has an unknown type %d; use CAIRN_PROP_FLT, INT, "
                "BOOL or VEC",
                model, what, names[i], (int)types[i]);
    for (int j = 0; j < i; j++)
      CAIRN_CHECK(strcmp(names[i], names[j]) != 0, d, CAIRN_EABI,
                  "contact model '%s': %s name '%s' is repeated; every name must be unique", model,
                  what, names[i]);
  }
  return CAIRN_OK;
}

static cairn_status check_model(const registry *r, const cairn_contact_model *m, cairn_diag *d) {
  CAIRN_CHECK(m->abi_version == CAIRN_CM_ABI_VERSION, d, CAIRN_EABI,
              "contact model '%s': built for contact-model ABI %d, this cairn needs ABI %d; "
              "rebuild it against this cairn's contact_model.h",
              m->name ? m->name : "?", m->abi_version, CAIRN_CM_ABI_VERSION);
  CAIRN_CHECK(m->name && m->name[0] && strnlen(m->name, CAIRN_MAX_NAME) < CAIRN_MAX_NAME, d,
              CAIRN_EABI,
              "a contact model has no name (or one of %d characters or more); give it a short "
              "lower-case name",
              CAIRN_MAX_NAME);
  CAIRN_CHECK(is_identifier(m->name), d, CAIRN_EABI,
              "contact model '%s': the name is not a plain name; use a letter, then letters, "
              "digits and '_'",
              m->name);
  CAIRN_CHECK((m->force || m->force_slice) && m->stiffness, d, CAIRN_EABI,
              "contact model '%s': a force law ('force' or 'force_slice') and the stiffness "
              "function are required; set them",
              m->name);
  CAIRN_CHECK(m->n_props >= 0 && m->n_props <= 64 && (m->n_props == 0 || m->props), d, CAIRN_EABI,
              "contact model '%s': property table of %d rows is invalid; give 0 to 64", m->name,
              m->n_props);
  CAIRN_CHECK(m->n_state >= 0 && m->n_state <= 64 && (m->n_state == 0 || m->state), d, CAIRN_EABI,
              "contact model '%s': state table of %d rows is invalid; give 0 to 64", m->name,
              m->n_state);
  CAIRN_CHECK(m->n_derived >= 0 && m->n_derived <= 256, d, CAIRN_EABI,
              "contact model '%s': %d derived constants is out of range; give 0 to 256", m->name,
              m->n_derived);
  int dup = registry_find(r, m->name);
  CAIRN_CHECK(dup < 0, d, CAIRN_EINVAL,
              "contact model '%s' is already registered (by %s); give the new one another name",
              m->name, dup >= 0 ? r->e[dup].source : "");
  const char *names[128];
  cairn_prop_type types[128];
  int n = 0;
  for (int i = 0; i < m->n_props; i++, n++)
    names[n] = m->props[i].name, types[n] = m->props[i].type;
  for (int i = 0; i < m->n_state; i++, n++)
    names[n] = m->state[i].name, types[n] = m->state[i].type;
  CAIRN_TRY(check_rows(m->name, "property/state", names, types, n, d));
  for (int i = 0; i < m->n_state; i++) {
    const cairn_state_desc *st = &m->state[i];
    const unsigned items = st->flags >> 8;
    const unsigned broke = st->flags & (CAIRN_STATE_BROKE_TENSION | CAIRN_STATE_BROKE_SHEAR);
    CAIRN_CHECK((st->flags & 0xF8u) == 0 &&
                    (items == 0 || (items >= 2 && items <= CAIRN_STATE_ARRAY_MAX)),
                d, CAIRN_EABI,
                "contact model '%s': state field '%s' has unknown flags %#x; use 0, "
                "CAIRN_STATE_PLANE_XYZ, CAIRN_STATE_ARRAY(n) with n from 2 to %d, "
                "CAIRN_STATE_BROKE_TENSION or CAIRN_STATE_BROKE_SHEAR",
                m->name, st->name, st->flags, CAIRN_STATE_ARRAY_MAX);
    CAIRN_CHECK(!broke || (st->flags == broke &&
                           broke != (CAIRN_STATE_BROKE_TENSION | CAIRN_STATE_BROKE_SHEAR) &&
                           st->type == CAIRN_PROP_INT),
                d, CAIRN_EABI,
                "contact model '%s': state field '%s' counts broken pieces but is not a plain "
                "INT field with one of CAIRN_STATE_BROKE_TENSION and CAIRN_STATE_BROKE_SHEAR; "
                "give it type CAIRN_PROP_INT and that flag alone",
                m->name, st->name);
    for (int j = 0; j < i; j++)
      CAIRN_CHECK(!broke || !(m->state[j].flags & broke), d, CAIRN_EABI,
                  "contact model '%s': state fields '%s' and '%s' both count pieces broken in "
                  "%s; flag one of them",
                  m->name, m->state[j].name, st->name,
                  broke == CAIRN_STATE_BROKE_TENSION ? "tension" : "shear");
    CAIRN_CHECK(items == 0 || (st->type != CAIRN_PROP_VEC && !(st->flags & CAIRN_STATE_PLANE_XYZ)),
                d, CAIRN_EABI,
                "contact model '%s': state field '%s' is an array of %u but not of scalars; "
                "give it type FLT, INT or BOOL (an array of vectors is one array per component)",
                m->name, st->name, items);
    CAIRN_CHECK(!(st->flags & CAIRN_STATE_PLANE_XYZ) || st->type == CAIRN_PROP_VEC, d, CAIRN_EABI,
                "contact model '%s': state field '%s' is flagged CAIRN_STATE_PLANE_XYZ but is not "
                "a VEC; give it type CAIRN_PROP_VEC or drop the flag",
                m->name, st->name);
  }
  int state_slots = 0;
  for (int i = 0; i < m->n_state; i++) state_slots += cairn_state_slots(&m->state[i]);
  CAIRN_CHECK(state_slots <= REGISTRY_STATE_MAX, d, CAIRN_EABI,
              "contact model '%s': its state takes %d doubles a contact, more than %d; use "
              "shorter arrays",
              m->name, state_slots, REGISTRY_STATE_MAX);
  for (int i = 0; i < m->n_props; i++) {
    const cairn_prop_desc *p = &m->props[i];
    CAIRN_CHECK(!isnan(p->min) && !isnan(p->max), d, CAIRN_EABI,
                "contact model '%s': property '%s' has a range bound that is not a number; give "
                "numbers (-INFINITY and INFINITY for open ends)",
                m->name, p->name);
    CAIRN_CHECK(p->min <= p->max, d, CAIRN_EABI,
                "contact model '%s': property '%s' has an empty range [%g, %g]; give min <= max",
                m->name, p->name, p->min, p->max);
    CAIRN_CHECK(p->access >= CAIRN_RW && p->access <= CAIRN_ALIAS, d, CAIRN_EABI,
                "contact model '%s': property '%s' has an unknown access %d; use CAIRN_RW, "
                "CAIRN_RO or CAIRN_ALIAS",
                m->name, p->name, p->access);
    if (p->access == CAIRN_ALIAS) {
      int t = model_prop_target(m, i);
      CAIRN_CHECK(t >= 0 && t != i && m->props[t].access != CAIRN_ALIAS &&
                      m->props[t].type == p->type,
                  d, CAIRN_EABI,
                  "contact model '%s': alias '%s' must name, in default_from, another property "
                  "of the same type that is not itself an alias",
                  m->name, p->name);
      continue;
    }
    CAIRN_CHECK(p->def >= p->min && p->def <= p->max, d, CAIRN_EABI,
                "contact model '%s': property '%s' default %g lies outside its range [%g, %g]",
                m->name, p->name, p->def, p->min, p->max);
    double def[3] = {p->def, p->def, p->def};
    CAIRN_CHECK(model_prop_valid(p, def), d, CAIRN_EABI,
                "contact model '%s': property '%s' default %g is not of its type (%s); give a "
                "default it accepts",
                m->name, p->name, p->def, type_name(p->type));
    if (p->default_from) {
      int found = -1;
      for (int j = 0; j < m->n_props; j++)
        if (j != i && strcmp(m->props[j].name, p->default_from) == 0) found = j;
      CAIRN_CHECK(found >= 0, d, CAIRN_EABI,
                  "contact model '%s': property '%s' takes its default from '%s', which the "
                  "table does not have",
                  m->name, p->name, p->default_from);
      CAIRN_CHECK(m->props[found].type == p->type, d, CAIRN_EABI,
                  "contact model '%s': property '%s' takes its default from '%s' of another "
                  "type; give both the same type",
                  m->name, p->name, p->default_from);
      CAIRN_CHECK(m->props[found].min >= p->min && m->props[found].max <= p->max, d, CAIRN_EABI,
                  "contact model '%s': property '%s' takes its default from '%s', whose range is "
                  "wider than its own, so it could inherit a value it refuses; give '%s' a range "
                  "that holds '%s''s",
                  m->name, p->name, p->default_from, p->name, p->default_from);
      /* Follow the chain: it must end, not loop back. */
      const cairn_prop_desc *q = p;
      for (int steps = 0; q && q->default_from; steps++) {
        CAIRN_CHECK(steps < m->n_props, d, CAIRN_EABI,
                    "contact model '%s': the defaults taken from other properties form a loop "
                    "through '%s'; break it",
                    m->name, p->name);
        const cairn_prop_desc *next = NULL;
        for (int j = 0; j < m->n_props; j++)
          if (strcmp(m->props[j].name, q->default_from) == 0) next = &m->props[j];
        q = next;
      }
    }
  }
  return CAIRN_OK;
}

cairn_status registry_add(registry *r, const cairn_contact_model *m, const char *source,
                          cairn_diag *d) {
  CAIRN_TRY(check_model(r, m, d));
  CAIRN_TRY(mem_grow((void **)&r->e, &r->cap, r->n + 1, sizeof *r->e, "registry", d));
  model_entry *e = &r->e[r->n];
  memset(e, 0, sizeof *e);
  e->m = m;
  int np = m->n_props, ns = m->n_state;
  e->prop_off = mem_realloc(NULL, 0, (size_t)(np + ns + 1) * sizeof(int), "registry:offsets");
  if (!e->prop_off) return diag_set(d, CAIRN_ENOMEM, "out of memory registering '%s'", m->name);
  e->state_off = e->prop_off + np;
  int off = 0;
  for (int i = 0; i < np; i++)
    if (m->props[i].access != CAIRN_ALIAS)
      e->prop_off[i] = off, off += cairn_prop_slots(m->props[i].type);
  for (int i = 0; i < np; i++) /* an alias shares its target's slots */
    if (m->props[i].access == CAIRN_ALIAS) e->prop_off[i] = e->prop_off[model_prop_target(m, i)];
  e->n_prop_slots = off;
  off = 0;
  e->broke_off[0] = e->broke_off[1] = -1;
  for (int i = 0; i < ns; i++) {
    e->state_off[i] = off, off += cairn_state_slots(&m->state[i]);
    if (m->state[i].flags == CAIRN_STATE_BROKE_TENSION) e->broke_off[0] = e->state_off[i];
    if (m->state[i].flags == CAIRN_STATE_BROKE_SHEAR) e->broke_off[1] = e->state_off[i];
  }
  e->n_state_slots = off;
  /* (a block of at least one double, so every block has an address of its own) */
  e->pool.stride = e->n_state_slots ? (size_t)e->n_state_slots : 1;
  e->ppool.stride = (size_t)(e->n_prop_slots + m->n_derived);
  if (e->ppool.stride == 0) e->ppool.stride = 1;
  snprintf(e->source, sizeof e->source, "%s", source);
  e->plugin = strcmp(source, "built-in") != 0;
  r->n++;
  return CAIRN_OK;
}

cairn_status registry_require(const registry *r, const char *name, int *index, cairn_diag *d) {
  *index = registry_find(r, name);
  CAIRN_CHECK(*index >= 0, d, CAIRN_ENOTFOUND,
              "contact model '%s' is not known; run `cairn models` to list the models (load a "
              "plugin with model.load first)",
              name);
  return CAIRN_OK;
}

int registry_find(const registry *r, const char *name) {
  for (size_t i = 0; i < r->n; i++)
    if (strcmp(r->e[i].m->name, name) == 0) return (int)i;
  return -1;
}

void registry_truncate(registry *r, size_t n) {
  for (size_t i = n; i < r->n; i++) {
    model_entry *e = &r->e[i];
    mem_free(e->prop_off, 0);
    model_pool *pools[2] = {&e->pool, &e->ppool};
    for (int k = 0; k < 2; k++) {
      mem_free(pools[k]->data, 0);
      mem_free(pools[k]->setmask, 0);
      mem_free(pools[k]->refs, 0);
      mem_free(pools[k]->free_list, 0);
    }
  }
  if (n < r->n) r->n = n;
}

void registry_free(registry *r) {
  registry_truncate(r, 0);
  mem_free(r->e, 0);
  memset(r, 0, sizeof *r);
}

int model_prop_target(const cairn_contact_model *m, int i) {
  if (m->props[i].access != CAIRN_ALIAS || !m->props[i].default_from) return i;
  for (int j = 0; j < m->n_props; j++)
    if (strcmp(m->props[j].name, m->props[i].default_from) == 0) return j;
  return -1;
}

int model_prop_index(const model_entry *e, const char *name) {
  for (int i = 0; i < e->m->n_props; i++)
    if (strcmp(e->m->props[i].name, name) == 0) return i;
  return -1;
}

int model_state_index(const model_entry *e, const char *name) {
  for (int i = 0; i < e->m->n_state; i++)
    if (strcmp(e->m->state[i].name, name) == 0) return i;
  return -1;
}

/* Copy property i's value to every property that takes its default from it and has not been
   set itself, and on down the chain (registration has checked that chains end). */
static void propagate_default(const model_entry *e, double *props, uint64_t setmask, int i) {
  const char *name = e->m->props[i].name;
  for (int j = 0; j < e->m->n_props; j++) {
    const cairn_prop_desc *q = &e->m->props[j];
    if (q->access == CAIRN_ALIAS || !q->default_from || strcmp(q->default_from, name) != 0 ||
        (setmask >> j & 1))
      continue;
    for (int k = 0; k < cairn_prop_slots(q->type); k++)
      props[e->prop_off[j] + k] = props[e->prop_off[i] + k];
    propagate_default(e, props, setmask, j);
  }
}

void model_props_default(const model_entry *e, double *props) {
  for (int i = 0; i < e->m->n_props; i++) {
    const cairn_prop_desc *p = &e->m->props[i];
    if (p->access == CAIRN_ALIAS) continue;
    for (int k = 0; k < cairn_prop_slots(p->type); k++) props[e->prop_off[i] + k] = p->def;
  }
  /* A property with default_from starts at its source's value. */
  for (int i = 0; i < e->m->n_props; i++)
    if (!e->m->props[i].default_from) propagate_default(e, props, 0, i);
}

void range_text(const cairn_prop_desc *p, char *buf, size_t n) {
  char lo[32], hi[32];
  if (isinf(p->min))
    snprintf(lo, sizeof lo, "(-inf");
  else
    snprintf(lo, sizeof lo, "[%g", p->min);
  if (isinf(p->max))
    snprintf(hi, sizeof hi, "+inf]"); /* +inf itself accepted */
  else if (p->max >= DBL_MAX)
    snprintf(hi, sizeof hi, "+inf)"); /* CAIRN_FINITE_MAX: every finite value */
  else
    snprintf(hi, sizeof hi, "%g]", p->max);
  snprintf(buf, n, "%s, %s", lo, hi);
}

void registry_name_owners(const registry *r, const char *name, cairn_diag *d) {
  char owners[400] = "";
  size_t used = 0;
  int n = 0;
  for (size_t i = 0; i < r->n && used + 64 < sizeof owners; i++)
    if (model_prop_index(&r->e[i], name) >= 0)
      used += (size_t)snprintf(owners + used, sizeof owners - used, "%s%s", n++ ? ", " : "",
                               r->e[i].m->name);
  char *at = strstr(d->msg, "; run `cairn models");
  if (!n || !at) return;
  char tail[256];
  snprintf(tail, sizeof tail, "%s", at);
  snprintf(at, sizeof d->msg - (size_t)(at - d->msg), " (models with it: %s)%s", owners, tail);
}

int model_prop_valid(const cairn_prop_desc *p, const double *v) {
  for (int k = 0; k < cairn_prop_slots(p->type); k++) {
    double x = v[k];
    if (isnan(x) || !(x >= p->min && x <= p->max)) return 0;
    if ((p->type == CAIRN_PROP_INT || p->type == CAIRN_PROP_BOOL) && x != floor(x)) return 0;
    if (p->type == CAIRN_PROP_BOOL && x != 0 && x != 1) return 0;
  }
  return 1;
}

cairn_status model_prop_write(const model_entry *e, double *props, uint64_t *setmask,
                              const char *name, const double *v, int n, const char *who,
                              cairn_diag *d) {
  int i = model_prop_index(e, name);
  if (i < 0) {
    if (model_state_index(e, name) >= 0)
      return diag_set(d, CAIRN_EINVAL,
                      "%s: property '%s' of contact model '%s' is read-only; it reports the "
                      "contact's state and cannot be set",
                      who, name, e->m->name);
    return diag_set(d, CAIRN_ENOTFOUND,
                    "%s: contact model '%s' has no property '%s'; run `cairn models %s` to list "
                    "its properties",
                    who, e->m->name, name, e->m->name);
  }
  i = model_prop_target(e->m, i); /* an alias writes its target */
  name = e->m->props[i].name;
  const cairn_prop_desc *p = &e->m->props[i];
  CAIRN_CHECK(p->access == CAIRN_RW, d, CAIRN_EINVAL,
              "%s: property '%s' of contact model '%s' is read-only; it cannot be set", who, name,
              e->m->name);
  int slots = cairn_prop_slots(p->type);
  CAIRN_CHECK(n == slots, d, CAIRN_EINVAL, "%s: property '%s' takes %s (got %d value%s)", who, name,
              type_name(p->type), n, n == 1 ? "" : "s");
  for (int k = 0; k < n; k++) {
    double x = v[k];
    CAIRN_CHECK(!isnan(x), d, CAIRN_EINVAL, "%s: property '%s' must be a number (got NaN)", who,
                name);
    if (p->type == CAIRN_PROP_INT || p->type == CAIRN_PROP_BOOL)
      CAIRN_CHECK(x == floor(x), d, CAIRN_EINVAL, "%s: property '%s' takes %s (got %g)", who, name,
                  type_name(p->type), x);
    if (p->type == CAIRN_PROP_BOOL)
      CAIRN_CHECK(x == 0 || x == 1, d, CAIRN_EINVAL, "%s: property '%s' takes %s (got %g)", who,
                  name, type_name(p->type), x);
    if (!(x >= p->min && x <= p->max)) {
      char range[96], comp[32] = "";
      range_text(p, range, sizeof range);
      if (p->type == CAIRN_PROP_VEC) snprintf(comp, sizeof comp, " component %d", k + 1);
      return diag_set(d, CAIRN_EINVAL,
                      "%s: property '%s'%s = %g is out of range %s; give a value in that range",
                      who, name, comp, x, range);
    }
  }
  for (int k = 0; k < n; k++) props[e->prop_off[i] + k] = v[k];
  if (setmask) *setmask |= 1ull << i;
  /* Properties that take their default from this one follow it until set themselves. */
  propagate_default(e, props, setmask ? *setmask : 1ull << i, i);
  return CAIRN_OK;
}

cairn_status pool_alloc(model_pool *p, uint32_t *blk, cairn_diag *d) {
  uint32_t b;
  if (p->n_free) {
    b = p->free_list[--p->n_free];
  } else {
    if (p->n_blocks + 1 > p->cap) {
      size_t ncap = p->cap ? p->cap * 2 : 64;
      double *nd = mem_realloc(p->data, p->cap * p->stride * sizeof(double),
                               ncap * p->stride * sizeof(double), "contact:model_pool");
      if (!nd) return diag_set(d, CAIRN_ENOMEM, "out of memory growing contact storage");
      p->data = nd;
      uint64_t *nm = mem_realloc(p->setmask, p->cap * 8, ncap * 8, "contact:setmask");
      if (!nm) return diag_set(d, CAIRN_ENOMEM, "out of memory growing contact storage");
      p->setmask = nm;
      uint32_t *nr = mem_realloc(p->refs, p->cap * 4, ncap * 4, "contact:refs");
      if (!nr) return diag_set(d, CAIRN_ENOMEM, "out of memory growing contact storage");
      p->refs = nr;
      p->cap = ncap;
    }
    b = (uint32_t)p->n_blocks++;
  }
  memset(p->data + (size_t)b * p->stride, 0, p->stride * sizeof(double));
  p->setmask[b] = 0;
  p->refs[b] = 1;
  *blk = b;
  return CAIRN_OK;
}

void pool_release(model_pool *p, uint32_t blk) {
  if (p->n_free + 1 > p->cap_free) {
    size_t ncap = p->cap_free ? p->cap_free * 2 : 64;
    while (ncap < p->n_free + 1) ncap *= 2;
    uint32_t *nf = mem_realloc(p->free_list, p->cap_free * 4, ncap * 4, "contact:free_list");
    if (!nf) return; /* the block leaks inside the pool; harmless, it is freed with the pool */
    p->free_list = nf;
    p->cap_free = ncap;
  }
  p->refs[blk] = 0;
  p->free_list[p->n_free++] = blk;
}

cairn_status props_block_new(model_entry *e, const double *props, uint64_t setmask, uint32_t *pblk,
                             cairn_diag *d) {
  CAIRN_TRY(pool_alloc(&e->ppool, pblk, d));
  memcpy(pool_props(e, *pblk), props, (size_t)e->n_prop_slots * sizeof(double));
  e->ppool.setmask[*pblk] = setmask;
  model_call_prepare(e, *pblk);
  return CAIRN_OK;
}

void props_block_release(model_entry *e, uint32_t pblk) {
  if (--e->ppool.refs[pblk] == 0) pool_release(&e->ppool, pblk);
}
