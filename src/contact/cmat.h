/* The contact model assignment table (cmat.c): which model, properties and proximity a new
   contact gets, by contact kind and by the groups of its sides. */
#ifndef CAIRN_CMAT_H
#define CAIRN_CMAT_H

#include "contact/registry.h"

/* A contact model assignment: model, property values, proximity. */
typedef struct cmat_entry {
  int model;     /* registry index, -1 = none set */
  double *props; /* n_prop_slots doubles */
  uint64_t setmask;
  double proximity;
  uint32_t pblk; /* the property block the contacts made from this entry share since its last
                    change (it holds a reference), or IDMAP_NONE before the next contact */
} cmat_entry;

/* A rule: applies to contacts of a kind (-1: any) whose sides are in the named groups. */
typedef struct cmat_rule {
  int kind;
  uint16_t g1, g2; /* g2 == 0: either side in g1; else one side in g1 and the other in g2 */
  cmat_entry e;
} cmat_rule;

/* A joint that lasts (contact.joint): a ball-ball contact made later whose line of centres
   crosses the plane through 'point' normal to 'normal' (unit), within 'radius' of 'point'
   (radius < 0: anywhere), gets this entry (the smooth joint with the joint's normal), before
   any rule: balls that slide along a joint meet new partners across it. */
typedef struct cmat_joint {
  double point[3], normal[3], radius;
  cmat_entry e;
} cmat_joint;

typedef struct cmat {
  cmat_entry def[2]; /* per contact kind */
  size_t n_rules, cap_rules;
  cmat_rule *rules; /* first match wins, in the order added */
  size_t n_joints, cap_joints;
  cmat_joint *joints; /* the first that the centres cross wins, before the rules */
} cmat;

/* Set the default assignment of one contact kind: model name and (name, values) properties. */
cairn_status cmat_set_default(cairn_world *w, int kind, const char *model, double proximity,
                              cairn_diag *d);
/* Set only the proximity of one contact kind's default assignment (model and properties kept). */
cairn_status cmat_set_proximity(cairn_world *w, int kind, double proximity, cairn_diag *d);
/* The proximity and the model (registry index) of one contact kind's default assignment, and
   the number of rules. */
double cmat_default_proximity(const cairn_world *w, int kind);
int cmat_default_model(const cairn_world *w, int kind);
size_t cmat_rule_count(const cairn_world *w);
/* Every assignment a contact can get, for walking them: the joints' (ball-ball only), the rules'
   and the defaults'. cmat_assignment gives assignment r of kind k (r == cmat_assignment_count:
   the default of kind k), or NULL when assignment r is for the other kind. */
size_t cmat_assignment_count(const cairn_world *w);
const cmat_entry *cmat_assignment(const cairn_world *w, size_t r, int k);
/* Add a joint that lasts (cmat_joint): later ball-ball contacts across it get 'model' with the
   n_prop_slots values at 'props' and 'setmask' (copied). */
cairn_status cmat_add_joint(cairn_world *w, const double point[3], const double normal[3],
                            double radius, int model, const double *props, uint64_t setmask,
                            cairn_diag *d);
/* Whether the segment from p1 to p2 crosses the plane through 'point' normal to 'normal' (unit)
   within 'radius' of 'point' (radius < 0: anywhere): a joint parts two centres. */
int cmat_joint_parts(const double point[3], const double normal[3], double radius,
                     const double p1[3], const double p2[3]);
cairn_status cmat_set_prop(cairn_world *w, int kind, const char *name, const double *v, int n,
                           cairn_diag *d);
/* Add a rule (after the existing ones). kind -1 matches both kinds. g2 may be NULL. */
cairn_status cmat_add_rule(cairn_world *w, int kind, const char *g1, const char *g2,
                           const char *model, double proximity, cairn_diag *d);
/* Set a property of the last rule added. */
cairn_status cmat_rule_set_prop(cairn_world *w, const char *name, const double *v, int n,
                                cairn_diag *d);
void cmat_clear_rules(cairn_world *w);
/* The assignment for a new contact between sides a and b: first matching rule, else default. */
cmat_entry *cmat_lookup(cairn_world *w, int kind, uint32_t a, uint32_t b);
/* The property block a new contact gets from entry ce (shared, one more reference). */
cairn_status cmat_entry_block(cairn_world *w, cmat_entry *ce, uint32_t *pblk, cairn_diag *d);
/* Drop the entry's shared block (after a change: later contacts get a new one). */
void cmat_entry_unshare(cairn_world *w, cmat_entry *ce);
/* Restoring a saved model (src/io/, which read and checked the values): the default assignment
   of one contact kind, and a rule appended after the others, as 'saved' holds them (model,
   proximity, set mask, and n_prop_slots property values at saved->props, which the table
   copies; saved->pblk is not used: the entry shares no block until its next contact). */
cairn_status cmat_restore_default(cairn_world *w, int kind, const cmat_entry *saved, cairn_diag *d);
cairn_status cmat_restore_rule(cairn_world *w, const cmat_rule *saved, cairn_diag *d);
double cmat_max_proximity(const cairn_world *w);
void cmat_free(cairn_world *w);

#endif
