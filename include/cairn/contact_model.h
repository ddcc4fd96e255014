/* cairn contact-model ABI: everything a contact model (built-in or plugin) sees of cairn.
 *
 * A model is a constant description (cairn_contact_model) with a property table, a per-contact
 * state table and a pure force-update function. The engine owns all memory: it allocates each
 * contact's property block, derived-constant block and state block (all doubles, zeroed state),
 * validates property writes against the table, saves and restores state by field name, and calls
 * the model once per contact per step.
 *
 * This header is C99 and C++ compatible and includes nothing of cairn's internals.
 *
 * Conventions (the engine guarantees them to every model):
 *  - Units are whatever consistent system the script uses (SI in all examples).
 *  - Each contact has two sides. Ball-ball: side 1 is the ball with the lower id. Ball-wall: side 1
 *    is the wall, side 2 the ball. The unit normal n points from side 1 to side 2.
 *  - The contact-plane system is (n, s, t), right-handed in 3D (t = n x s). In 2D, s is the
 *    out-of-plane axis z and t = (-n_y, n_x), so every in-plane shear quantity has a zero
 *    s component and lives in the t slot. Vectors in the input and output blocks are given in
 *    this system: index 0 = normal, 1 = s, 2 = t.
 *  - The engine carries (s, t) along with the normal as it turns, by the smallest rotation that
 *    takes the old normal to the new one, so a shear vector stored in (s, t) components in a
 *    state field flagged CAIRN_STATE_PLANE_VEC is thereby rotated with the contact.
 *  - Force: out->force is the force that side 1 exerts on side 2; side 1 receives its opposite.
 *    Its normal component is positive in compression (it pushes side 2 along +n).
 *  - Moment: out->moment is an extra moment on side 2 (beyond that of the force about the
 *    centre); side 1 receives its opposite. Components in the contact-plane system.
 */
#ifndef CAIRN_CONTACT_MODEL_H
#define CAIRN_CONTACT_MODEL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever the layout of any structure below changes. A plugin built against another
   ABI version is refused at load time. */
/* 2: the energy flag in the input and the energy hook; 3: the batch force entry */
#define CAIRN_CM_ABI_VERSION 3

/* Contact kinds. */
#define CAIRN_KIND_BALL_BALL 0
#define CAIRN_KIND_BALL_WALL 1

/* Property and state value types. FLT, INT and BOOL take one double slot, VEC takes three. */
typedef enum cairn_prop_type {
  CAIRN_PROP_FLT = 0,
  CAIRN_PROP_INT = 1,
  CAIRN_PROP_BOOL = 2,
  CAIRN_PROP_VEC = 3
} cairn_prop_type;

/* Access of a property from scripts. */
#define CAIRN_RW 0 /* modifiable */
#define CAIRN_RO 1 /* read-only: reported, never written by a script */
/* Another name for the property named in 'default_from' (same type): reads and writes go to that
   property; the row takes no storage. */
#define CAIRN_ALIAS 2

/* One row of a model's property table. Properties are stored, in table order, as doubles in the
   contact's property block: row k starts at the sum of the slot counts of rows 0..k-1 (alias rows
   take no slots). */
typedef struct cairn_prop_desc {
  const char *name; /* lower case, with the model's prefix, e.g. "bur_knk" */
  cairn_prop_type type;
  const char *unit;         /* e.g. "N/m", "-" for none */
  double def;               /* default value (each component, for VEC) */
  double min, max;          /* inclusive range, checked on every write (INFINITY for unbounded) */
  int access;               /* CAIRN_RW, CAIRN_RO or CAIRN_ALIAS */
  const char *doc;          /* one line, for `cairn models` and the docs */
  const char *default_from; /* NULL, or the name of another property whose value this one
                               takes until it is itself set; for CAIRN_ALIAS, the target */
} cairn_prop_desc;

/* Flags of a state field. */
#define CAIRN_STATE_PLANE_VEC 1u /* a VEC in the contact plane, kept in (n, s, t) components */

/* One row of a model's per-contact state table. State is zeroed when a contact gets the model.
   Every field can be read by name from scripts (read-only) and is saved and restored by name. */
typedef struct cairn_state_desc {
  const char *name;
  cairn_prop_type type;
  unsigned flags;
  const char *unit;
  const char *doc;
} cairn_state_desc;

/* What the engine gives the force update of one contact, every step the contact exists. */
typedef struct cairn_cm_input {
  int dim;          /* 2 or 3 */
  int kind;         /* CAIRN_KIND_BALL_BALL or CAIRN_KIND_BALL_WALL */
  int first;        /* 1 on the first update after the contact was created or got this model */
  double dt;        /* timestep */
  double gap;       /* surface gap; negative when the surfaces overlap */
  double vel[3];    /* velocity of side 2 relative to side 1 at the contact point, (n, s, t);
                       vel[0] > 0 when the sides separate */
  double angvel[3]; /* angular velocity of side 2 minus that of side 1, (n, s, t) */
  double m_eff;     /* effective (reduced) mass m1 m2 / (m1 + m2); see docs for fixed balls */
  double r_eff;     /* effective radius r1 r2 / (r1 + r2); a wall counts as flat */
  double r1, r2;    /* radii of side 1 and side 2 (0 for a wall) */
  int energy;       /* 1 while the engine tracks energy: the model then adds this step's
                       dissipation to its state (see the 'energy' hook) */
} cairn_cm_input;

/* Energy partitions of a contact, as the 'energy' hook reports them. */
#define CAIRN_ENERGY_STRAIN 0  /* stored in the contact's springs now */
#define CAIRN_ENERGY_DASHPOT 1 /* dissipated by its dashpots (viscous elements) so far */
#define CAIRN_ENERGY_SLIP 2    /* dissipated by frictional slip so far */
#define CAIRN_ENERGY_N 3

/* Event bits a model may raise in cairn_cm_output.events. */
#define CAIRN_EV_ACTIVATED 1u   /* the contact became active */
#define CAIRN_EV_SLIP_CHANGE 2u /* slip_mode: 0 slip began, 1 slip ended */
#define CAIRN_EV_BOND_BREAK 4u  /* bond_mode: 1 strength first exceeded, 0 bond broken */

/* What the force update writes. The engine zeroes it before each call, except that 'may_delete'
   starts at 1 and 'active' at 0. */
typedef struct cairn_cm_output {
  double force[3];  /* force of side 1 on side 2, (n, s, t); force[0] > 0 in compression */
  double moment[3]; /* extra moment on side 2, (n, s, t) */
  double kn_est;    /* translational stiffness estimate (normal), for the automatic timestep */
  double ks_est;    /* translational stiffness estimate (shear) */
  double kr_est;    /* rotational stiffness estimate */
  int active;       /* 1 while the contact transmits force */
  int may_delete;   /* 1 if the engine may delete the contact once the gap exceeds proximity */
  unsigned events;  /* CAIRN_EV_* bits */
  int slip_mode;    /* with CAIRN_EV_SLIP_CHANGE */
  int bond_mode;    /* with CAIRN_EV_BOND_BREAK */
} cairn_cm_output;

/* The property, derived-constant and state blocks of one contact, for the batch entry. */
typedef struct cairn_cm_blocks {
  const double *props, *derived;
  double *state;
} cairn_cm_blocks;

/* A contact model. All function pointers except 'force' and 'stiffness' may be NULL.
   Every function must be a pure function of its arguments: no globals, no static mutable data,
   no I/O. The engine may call them from several threads at once on different contacts. */
typedef struct cairn_contact_model {
  int abi_version;  /* CAIRN_CM_ABI_VERSION */
  const char *name; /* lower case, e.g. "linear" */
  int version;      /* the model's own version, saved with its state */
  const char *doc;  /* one line */
  const cairn_prop_desc *props;
  int n_props;
  const cairn_state_desc *state;
  int n_state;
  int n_derived; /* number of doubles of constants derived from the properties */

  /* Compute derived constants from the properties; called after every property write. */
  void (*prepare)(const double *props, double *derived);

  /* The force-displacement law of one contact for one step. */
  void (*force)(const cairn_cm_input *in, const double *props, const double *derived, double *state,
                cairn_cm_output *out);

  /* Stiffness estimates from the properties alone (before any contact exists): translational
     and rotational, for the automatic timestep. */
  void (*stiffness)(const double *props, double *k_tran, double *k_rot);

  /* Optional check, run once per contact at its first update where the surfaces touch
     (gap <= 0), so a contact created early by a positive proximity is not refused before it is
     used. Return NULL if the properties are usable, else write one sentence (what is wrong, what
     to do) into msg and return msg; cairn stops the run with it, naming the contact. */
  const char *(*validate)(const double *props, int dim, char *msg, size_t msg_size);

  /* Optional: the contact's energies, indexed by CAIRN_ENERGY_*, into e (zeroed by the engine):
     the energy its springs store now, and what its dashpots and its slip dissipated while the
     input's 'energy' flag was set (the model keeps those sums in its state). A model without
     this hook is left out of the energy balance, and the engine says so. */
  void (*energy)(const double *props, const double *state, double e[CAIRN_ENERGY_N]);

  /* Optional: restore state saved by an older version of this model. Called with the saved
     version; may convert fields in place. Return 0 on success. */
  int (*upgrade_state)(int saved_version, double *state);

  /* Optional: the force update of n contacts in one call: contact i has the input in[i], the
     blocks blk[i] and the output out[i] (prepared as for 'force'). It must give exactly what n
     calls of 'force' would. The engine uses it whenever it is set, for runs of neighbouring
     contacts with this model, so the per-contact call goes through no function pointer; define
     it with CAIRN_CM_BATCH below. */
  void (*force_batch)(size_t n, const cairn_cm_input *in, const cairn_cm_blocks *blk,
                      cairn_cm_output *out);
} cairn_contact_model;

/* Define a batch entry 'name' from a model's force function 'force' (defined above it in the
   same file, so the compiler can inline it into the loop). */
#if defined(__GNUC__)
#define CAIRN_CM_FLATTEN __attribute__((flatten)) /* inline 'force' into the loop */
#else
#define CAIRN_CM_FLATTEN
#endif
#define CAIRN_CM_BATCH(name, force)                                                                \
  static CAIRN_CM_FLATTEN void name(size_t n, const cairn_cm_input *in,                            \
                                    const cairn_cm_blocks *blk, cairn_cm_output *out) {            \
    for (size_t i_ = 0; i_ < n; i_++)                                                              \
      force(&in[i_], blk[i_].props, blk[i_].derived, blk[i_].state, &out[i_]);                     \
  }

/* A plugin exports exactly one function with this name and signature. It calls 'add' once for
   each model it provides, passing 'registry' back unchanged, and returns the number of models
   added (or a negative number after a failed 'add'). */
typedef int (*cairn_cm_add_fn)(void *registry, const cairn_contact_model *model);

#if defined(_WIN32)
#define CAIRN_PLUGIN_EXPORT __declspec(dllexport)
#else
#define CAIRN_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

#define CAIRN_PLUGIN_ENTRY "cairn_plugin_register"
typedef int (*cairn_plugin_register_fn)(int abi_version, void *registry, cairn_cm_add_fn add);

/* Number of double slots a property or state row takes. */
static inline int cairn_prop_slots(cairn_prop_type t) {
  return t == CAIRN_PROP_VEC ? 3 : 1;
}

#ifdef __cplusplus
}
#endif

#endif /* CAIRN_CONTACT_MODEL_H */
