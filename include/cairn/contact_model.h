/* cairn contact-model ABI: everything a contact model (built-in or plugin) sees of cairn.
 *
 * A model is a constant description (cairn_contact_model) with a property table, a per-contact
 * state table and a pure force law. The engine owns all memory: a property block (with the
 * constants derived from it) shared by every contact that got it from the same assignment (a
 * contact gets a block of its own only when a script writes to it: copy on write), a state block
 * per contact (zeroed when the contact gets the model), validation of property writes against the
 * table, and saving and restoring of state by field name. Each step the engine hands the model
 * slices of up to CAIRN_CM_SLICE_MAX contacts that share a model, a property block and a kind,
 * as arrays (structure of arrays), and the model writes their forces into arrays the engine
 * sums from.
 *
 * This header is C99 and C++ compatible and includes nothing of cairn's internals.
 *
 * Conventions (the engine guarantees them to every model):
 *  - Units are whatever consistent system the script uses (SI in all examples).
 *  - Each contact has two sides. Ball-ball: side 1 is the ball with the lower id. Ball-wall: side 1
 *    is the wall, side 2 the ball. The unit normal n points from side 1 to side 2.
 *  - Every vector the model sees or writes is in global coordinates (x, y, z); in 2D the z
 *    component of positions, velocities and forces is 0 and only the z component of angular
 *    velocities and moments is used.
 *  - Force: the model writes the force that side 1 exerts on side 2; side 1 receives its opposite.
 *    A normal force in compression pushes side 2 along +n.
 *  - Moment: an extra moment on side 2 (beyond that of the force about the centre); side 1
 *    receives its opposite. Only models that set CAIRN_CM_WRITES_MOMENT may write it.
 *  - Contact-plane state (a shear force, a Kelvin shear displacement) is kept in the global frame,
 *    in a state field flagged CAIRN_STATE_PLANE_XYZ: four slots, the normal component first,
 *    then the in-plane part as a global vector. The model turns the in-plane part onto the new
 *    contact plane at each update with cairn_cm_turn() below (as LAMMPS does with its shear
 *    history); scripts see such a field as (normal, s, t) components in the contact's frame
 *    (docs/contact-models.md).
 *  - An input the model does not declare in 'needs' (CAIRN_CM_USES_*) is NaN, so that a law that
 *    reads it anyway returns a non-finite force, which stops the run with a message naming the
 *    missing declaration, instead of a plausible value.
 *
 * Names whose meaning changed are renamed (the '_xyz' fields, CAIRN_STATE_PLANE_XYZ), and each
 * old name is kept as a trap whose use fails to compile naming the porting guide
 * (docs/writing-a-contact-model.md, section 9), so source written for an older ABI never builds
 * into a model that runs wrong.
 */
#ifndef CAIRN_CONTACT_MODEL_H
#define CAIRN_CONTACT_MODEL_H

#include <float.h>
#include <math.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever the layout or the meaning of anything below changes. A plugin built against
   another ABI version is refused at load time. */
/* 2: the energy flag in the input and the energy hook; 3: the batch force entry; 4: slices of
   contacts as arrays, global-frame vectors and state, shared property blocks; 5: the names whose
   meaning changed in 4 renamed (vel_xyz, angvel_xyz, force_xyz, moment_xyz,
   CAIRN_STATE_PLANE_XYZ), and undeclared inputs NaN instead of 0 */
#define CAIRN_CM_ABI_VERSION 5

/* The traps for old names. Each name whose meaning changed is kept as a pointer to this
   structure, which is never defined (a constant as its size), so indexing it, computing with it
   and passing it as a 'double *' fail to compile (but not passing it as a 'void *', as to
   memcpy), with a message that names this structure, that is, the porting guide. */
struct cairn_abi5_renamed_see_porting_guide_in_docs_writing_a_contact_model_md;
#define CAIRN_CM_OLD_NAME                                                                          \
  struct cairn_abi5_renamed_see_porting_guide_in_docs_writing_a_contact_model_md
/* A member under its new name and its trap under the old one share storage (an anonymous union,
   standard in C11 and C++; '__extension__' keeps GCC and Clang quiet about it under -std=c99
   -pedantic), so the layout is that of the plain member. */
#if defined(__GNUC__) && !defined(__cplusplus)
#define CAIRN_CM_UNION __extension__ union
#else
#define CAIRN_CM_UNION union
#endif
/* Passing an old name on (cairn_cm_split(in->vel, ...), as ABI 4 source does) converts the
   trap's pointer to a 'const double *': C makes that only a warning before GCC 14 (C++ an error),
   and the source would build and crash. In C with GCC or Clang an incompatible pointer type is
   therefore an error from here on in the file that includes this header (as it is by default
   from GCC 14). */
#if defined(__GNUC__) && !defined(__cplusplus)
#pragma GCC diagnostic error "-Wincompatible-pointer-types"
#endif

/* Contact kinds. */
#define CAIRN_KIND_BALL_BALL 0
#define CAIRN_KIND_BALL_WALL 1

/* Property and state value types. FLT, INT and BOOL take one double slot, VEC takes three (a
   state VEC flagged CAIRN_STATE_PLANE_XYZ takes four: see cairn_state_slots). */
typedef enum cairn_prop_type {
  CAIRN_PROP_FLT = 0,
  CAIRN_PROP_INT = 1,
  CAIRN_PROP_BOOL = 2,
  CAIRN_PROP_VEC = 3
} cairn_prop_type;

/* The upper end of a range open to every finite value, but not +inf. */
#define CAIRN_FINITE_MAX DBL_MAX

/* Access of a property from scripts. */
#define CAIRN_RW 0 /* modifiable */
#define CAIRN_RO 1 /* read-only: reported, never written by a script */
/* Another name for the property named in 'default_from' (same type): reads and writes go to that
   property; the row takes no storage. */
#define CAIRN_ALIAS 2

/* One row of a model's property table. Properties are stored, in table order, as doubles in the
   property block: row k starts at the sum of the slot counts of rows 0..k-1 (alias rows take no
   slots). */
typedef struct cairn_prop_desc {
  const char *name; /* lower case, with the model's prefix, e.g. "bur_knk" */
  cairn_prop_type type;
  const char *unit;         /* e.g. "N/m", "-" for none */
  double def;               /* default value (each component, for VEC) */
  double min, max;          /* inclusive range, checked on every write: max = CAIRN_FINITE_MAX
                               for any finite value ("[min, +inf)"), INFINITY to accept +inf as
                               well ("[min, +inf]": for a value where infinity means something,
                               such as a rigid material) */
  int access;               /* CAIRN_RW, CAIRN_RO or CAIRN_ALIAS */
  const char *doc;          /* one line, for `cairn models` and the docs */
  const char *default_from; /* NULL, or the name of another property whose value this one
                               takes until it is itself set; for CAIRN_ALIAS, the target */
} cairn_prop_desc;

/* Flags of a state field. */
/* A VEC in the contact plane with a normal component, in four slots: [normal, x, y, z], the
   in-plane part a global vector that the model keeps perpendicular to the current normal
   (cairn_cm_turn). Scripts read it as three components (normal, s, t). */
#define CAIRN_STATE_PLANE_XYZ 1u
/* An array of n scalars (FLT, INT or BOOL; 2 <= n <= CAIRN_STATE_ARRAY_MAX): n slots, one per
   item, as for a discretised interface's elements. Scripts read such a field as a list of n
   numbers. (Added within ABI 5: no existing row changes meaning, and an engine from before it
   refuses the flag when the model is loaded, naming the row.) */
#define CAIRN_STATE_ARRAY(n) ((unsigned)(n) << 8)
#define CAIRN_STATE_ARRAY_MAX 1024
/* An INT field that counts the pieces of the contact's bond (a flat joint's elements) that broke
   in the model's last call: in tension (CAIRN_STATE_BROKE_TENSION) or in shear
   (CAIRN_STATE_BROKE_SHEAR); the model sets it at every call, 0 when none broke. When the model
   raises a bond break with bond_mode 0, the engine records that many cracks of each mode
   (contact.cracks) instead of one whose mode it judges from the normal force. A model flags at
   most one field of each. (Added within ABI 5, as CAIRN_STATE_ARRAY.) */
#define CAIRN_STATE_BROKE_TENSION 2u
#define CAIRN_STATE_BROKE_SHEAR 4u
/* The flag's name up to ABI 4, when such a field took three slots (n, s, t) in ABI 3 and these
   four in ABI 4: a trap (CAIRN_CM_OLD_NAME). */
#define CAIRN_STATE_PLANE_VEC (0u * sizeof(CAIRN_CM_OLD_NAME))

/* One row of a model's per-contact state table. State is zeroed when a contact gets the model.
   Every field can be read by name from scripts (read-only) and is saved and restored by name.
   The state block holds the rows in table order (cairn_state_slots each). */
typedef struct cairn_state_desc {
  const char *name;
  cairn_prop_type type;
  unsigned flags;
  const char *unit;
  const char *doc;
} cairn_state_desc;

/* What a model reads of one contact for one step (the per-contact form of the force law). */
typedef struct cairn_cm_input {
  int dim;     /* 2 or 3 */
  int kind;    /* CAIRN_KIND_BALL_BALL or CAIRN_KIND_BALL_WALL */
  int first;   /* 1 on the first update after the contact was created or got this model */
  double dt;   /* timestep */
  double gap;  /* surface gap; negative when the surfaces overlap */
  double n[3]; /* unit normal, from side 1 to side 2 */
  CAIRN_CM_UNION {
    double vel_xyz[3];      /* velocity of side 2 relative to side 1 at the contact point, global;
                               vel_xyz . n > 0 when the sides separate */
    CAIRN_CM_OLD_NAME *vel; /* (n, s, t) to ABI 3, global in 4: now vel_xyz */
  };
  CAIRN_CM_UNION {
    double angvel_xyz[3]; /* angular velocity of side 2 minus that of side 1, global (NaN unless
                             the model declares CAIRN_CM_USES_ANGVEL) */
    CAIRN_CM_OLD_NAME *angvel; /* (n, s, t) to ABI 3, global in 4: now angvel_xyz */
  };
  double m_eff;  /* effective (reduced) mass m1 m2 / (m1 + m2); see docs for fixed balls */
  double r_eff;  /* effective radius r1 r2 / (r1 + r2); a wall counts as flat (NaN unless the
                    model declares CAIRN_CM_USES_RADII) */
  double r1, r2; /* radii of side 1 and side 2 (0 for a wall; NaN unless CAIRN_CM_USES_RADII) */
  int energy;    /* 1 while the engine tracks energy: the model then adds this step's
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

/* What the per-contact law writes. Prepared by the caller as zero, except that 'may_delete'
   starts at 1 and 'active' at 0. */
typedef struct cairn_cm_output {
  CAIRN_CM_UNION {
    double force_xyz[3];      /* force of side 1 on side 2, global */
    CAIRN_CM_OLD_NAME *force; /* (n, s, t) to ABI 3, global in 4: now force_xyz */
  };
  CAIRN_CM_UNION {
    double moment_xyz[3]; /* extra moment on side 2, global (only with CAIRN_CM_WRITES_MOMENT) */
    CAIRN_CM_OLD_NAME *moment; /* (n, s, t) to ABI 3, global in 4: now moment_xyz */
  };
  double kn_est;   /* translational stiffness estimate (normal), for the automatic timestep */
  double ks_est;   /* translational stiffness estimate (shear) */
  double kr_est;   /* rotational stiffness estimate */
  int active;      /* 1 while the contact transmits force */
  int may_delete;  /* 1 if the engine may delete the contact once the gap exceeds proximity */
  unsigned events; /* CAIRN_EV_* bits */
  int slip_mode;   /* with CAIRN_EV_SLIP_CHANGE */
  int bond_mode;   /* with CAIRN_EV_BOND_BREAK */
} cairn_cm_output;

/* Bits of a contact's status byte in a slice's output (cairn_cm_status packs an output). */
#define CAIRN_CM_ST_ACTIVE 1u    /* transmits force */
#define CAIRN_CM_ST_KEEP 2u      /* may not be deleted (the negation of may_delete) */
#define CAIRN_CM_ST_EV_ACT 4u    /* event: activated */
#define CAIRN_CM_ST_EV_SLIP 8u   /* event: slip change ... */
#define CAIRN_CM_ST_SLIP_END 16u /* ... with slip_mode 1 (slip ended) */
#define CAIRN_CM_ST_EV_BOND 32u  /* event: bond break ... */
#define CAIRN_CM_ST_BOND_1 64u   /* ... with bond_mode 1 (strength first exceeded) */

/* What a model declares it reads and writes (cairn_contact_model.needs), so the engine skips the
   rest. */
#define CAIRN_CM_USES_ANGVEL 1u   /* reads the relative angular velocity (else it is NaN) */
#define CAIRN_CM_USES_RADII 2u    /* reads r1, r2 and r_eff (else they are NaN) */
#define CAIRN_CM_WRITES_MOMENT 4u /* writes a moment */

/* Most contacts a slice holds. */
#define CAIRN_CM_SLICE_MAX 64

/* A slice: n contacts that share a model, a property block and a contact kind. Contact k's
   inputs are element k of each input array, its outputs go to element k of each output array.
   Arrays the model did not declare it needs (angvel: wx, wy, wz; radii: r1, r2) are NULL, and so
   are mx, my, mz unless it declares CAIRN_CM_WRITES_MOMENT. The model writes every output element
   of every contact: fx..fz, kn, ks, kr, status (and mx..mz when it writes moments). */
typedef struct cairn_cm_slice {
  size_t n;              /* 1 .. CAIRN_CM_SLICE_MAX */
  int dim, kind, energy; /* as in cairn_cm_input, the same for the whole slice */
  double dt;             /* timestep */
  const double *props;   /* the shared property block */
  const double *derived; /* its derived constants (n_derived doubles) */
  double *const *state;  /* state[k]: contact k's state block */
  const unsigned char *first;
  const double *gap;
  const double *nx, *ny, *nz;
  const double *vx, *vy, *vz;
  const double *wx, *wy, *wz;
  const double *m_eff;
  const double *r1, *r2;
  double *fx, *fy, *fz;
  double *mx, *my, *mz;
  double *kn, *ks, *kr;
  unsigned char *status; /* CAIRN_CM_ST_* bits */
} cairn_cm_slice;

/* A contact model. 'force' or 'force_slice' (or both), and 'stiffness', are required; every
   other function pointer may be NULL. Every function must be a pure function of its arguments:
   no globals, no static mutable data, no I/O. The engine may call them from several threads at
   once on different contacts. */
typedef struct cairn_contact_model {
  int abi_version;  /* CAIRN_CM_ABI_VERSION */
  const char *name; /* lower case, e.g. "linear" */
  int version;      /* the model's own version, saved with its state */
  const char *doc;  /* one line */
  const cairn_prop_desc *props;
  int n_props;
  const cairn_state_desc *state;
  int n_state;
  int n_derived;  /* number of doubles of constants derived from the properties */
  unsigned needs; /* CAIRN_CM_USES_* and CAIRN_CM_WRITES_MOMENT bits */

  /* Compute derived constants from the properties; called after every property write. */
  void (*prepare)(const double *props, double *derived);

  /* The force-displacement law of one contact for one step. The engine calls it only where
     'force_slice' is NULL (then through a pointer, once per contact: slower); tests and tools
     may call it directly. */
  void (*force)(const cairn_cm_input *in, const double *props, const double *derived, double *state,
                cairn_cm_output *out);

  /* The law for a slice of contacts: what the engine calls each step. It must give exactly what
     'force' gives contact by contact, where both are set; CAIRN_CM_SLICE below makes it from
     'force'. */
  void (*force_slice)(const cairn_cm_slice *s);

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
} cairn_contact_model;

/* Number of double slots a property row takes. */
static inline int cairn_prop_slots(cairn_prop_type t) {
  return t == CAIRN_PROP_VEC ? 3 : 1;
}

/* Number of items of a state row: n for a CAIRN_STATE_ARRAY(n) row, else 1. */
static inline int cairn_state_items(const cairn_state_desc *s) {
  unsigned n = s->flags >> 8;
  return n > 1 ? (int)n : 1;
}

/* Number of double slots a state row takes (a contact-plane VEC keeps its normal component and
   a global in-plane vector; an array one slot per item). */
static inline int cairn_state_slots(const cairn_state_desc *s) {
  return s->type == CAIRN_PROP_VEC ? ((s->flags & CAIRN_STATE_PLANE_XYZ) ? 4 : 3)
                                   : cairn_state_items(s);
}

/* --- Helpers for force laws (inline, pure) --------------------------------------------------- */

/* Turn the in-plane vector v (global, perpendicular to the last normal) onto the plane normal to
   the unit vector n, keeping its length: v loses its component along n and is rescaled (LAMMPS's
   treatment of the shear history). Against rotating v with the normal this errs by O(theta^2)
   in direction per step, theta the normal's turn in the step. */
static inline void cairn_cm_turn(double v[3], const double n[3]) {
  double vn = v[0] * n[0] + v[1] * n[1] + v[2] * n[2];
  if (vn == 0) return; /* already in the plane (always, while the normal does not turn) */
  v[0] -= vn * n[0], v[1] -= vn * n[1], v[2] -= vn * n[2];
  double now2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
  if (!(now2 > 0)) { /* all of v was along n (the normal flipped): nothing of it in the plane */
    v[0] = v[1] = v[2] = 0.0;
    return;
  }
  /* rescale by sqrt(old2 / now2) = sqrt(1 + x), x = vn^2 / now2: for the small turns of a step
     (x = theta^2) the series 1 + x/2 - x^2/8 + x^3/16 is exact to 5 x^4 / 128 < 4e-18 of 1 */
  double x = vn * vn / now2;
  double r = x < 1e-4 ? 1.0 + x * (0.5 - x * (0.125 - 0.0625 * x)) : sqrt(1.0 + x);
  v[0] *= r, v[1] *= r, v[2] *= r;
}

/* Split a global vector v into its component along n (returned) and its in-plane part vt. */
static inline double cairn_cm_split(const double v[3], const double n[3], double vt[3]) {
  double vn = v[0] * n[0] + v[1] * n[1] + v[2] * n[2];
  vt[0] = v[0] - vn * n[0], vt[1] = v[1] - vn * n[1], vt[2] = v[2] - vn * n[2];
  return vn;
}

/* The status byte of a per-contact output. */
static inline unsigned char cairn_cm_status(const cairn_cm_output *o) {
  unsigned s = (o->active ? CAIRN_CM_ST_ACTIVE : 0u) | (o->may_delete ? 0u : CAIRN_CM_ST_KEEP);
  if (o->events & CAIRN_EV_ACTIVATED) s |= CAIRN_CM_ST_EV_ACT;
  if (o->events & CAIRN_EV_SLIP_CHANGE)
    s |= CAIRN_CM_ST_EV_SLIP | (o->slip_mode ? CAIRN_CM_ST_SLIP_END : 0u);
  if (o->events & CAIRN_EV_BOND_BREAK)
    s |= CAIRN_CM_ST_EV_BOND | (o->bond_mode ? CAIRN_CM_ST_BOND_1 : 0u);
  return (unsigned char)s;
}

/* Define a slice entry 'name' from a per-contact law 'force' (a function of cairn_cm_model's
   'force' signature defined above it in the same file, so the compiler inlines it into the loop
   and keeps the input and output in registers). */
#if defined(__GNUC__)
#define CAIRN_CM_FLATTEN __attribute__((flatten)) /* inline 'force' into the loop */
#else
#define CAIRN_CM_FLATTEN
#endif
/* The loop of a slice entry: the per-contact law 'law' (a function, or a pointer to one) over
   slice s_, with each contact's input block filled and its output block cleared first. An input
   whose array is NULL (not declared in 'needs') is NaN, r_eff then too. */
#define CAIRN_CM_SLICE_LOOP(s_, law)                                                               \
  for (size_t k_ = 0; k_ < s_->n; k_++) {                                                          \
    cairn_cm_input in_;                                                                            \
    cairn_cm_output out_;                                                                          \
    in_.dim = s_->dim, in_.kind = s_->kind, in_.first = s_->first[k_], in_.dt = s_->dt;            \
    in_.gap = s_->gap[k_], in_.m_eff = s_->m_eff[k_], in_.energy = s_->energy;                     \
    in_.n[0] = s_->nx[k_], in_.n[1] = s_->ny[k_], in_.n[2] = s_->nz[k_];                           \
    in_.vel_xyz[0] = s_->vx[k_], in_.vel_xyz[1] = s_->vy[k_], in_.vel_xyz[2] = s_->vz[k_];         \
    if (s_->wx)                                                                                    \
      in_.angvel_xyz[0] = s_->wx[k_], in_.angvel_xyz[1] = s_->wy[k_],                              \
      in_.angvel_xyz[2] = s_->wz[k_];                                                              \
    else                                                                                           \
      in_.angvel_xyz[0] = in_.angvel_xyz[1] = in_.angvel_xyz[2] = NAN;                             \
    in_.r1 = s_->r1 ? s_->r1[k_] : NAN, in_.r2 = s_->r2 ? s_->r2[k_] : NAN;                        \
    in_.r_eff = in_.r1 > 0 ? in_.r1 * in_.r2 / (in_.r1 + in_.r2) : in_.r2;                         \
    out_.force_xyz[0] = out_.force_xyz[1] = out_.force_xyz[2] = 0.0;                               \
    out_.moment_xyz[0] = out_.moment_xyz[1] = out_.moment_xyz[2] = 0.0;                            \
    out_.kn_est = out_.ks_est = out_.kr_est = 0.0;                                                 \
    out_.active = 0, out_.may_delete = 1, out_.events = 0u, out_.slip_mode = out_.bond_mode = 0;   \
    law(&in_, s_->props, s_->derived, s_->state[k_], &out_);                                       \
    s_->fx[k_] = out_.force_xyz[0], s_->fy[k_] = out_.force_xyz[1],                                \
    s_->fz[k_] = out_.force_xyz[2];                                                                \
    if (s_->mx)                                                                                    \
      s_->mx[k_] = out_.moment_xyz[0], s_->my[k_] = out_.moment_xyz[1],                            \
      s_->mz[k_] = out_.moment_xyz[2];                                                             \
    s_->kn[k_] = out_.kn_est, s_->ks[k_] = out_.ks_est, s_->kr[k_] = out_.kr_est;                  \
    s_->status[k_] = cairn_cm_status(&out_);                                                       \
  }
#define CAIRN_CM_SLICE(name, law)                                                                  \
  static CAIRN_CM_FLATTEN void name(const cairn_cm_slice *s_) {                                    \
    CAIRN_CM_SLICE_LOOP(s_, law)                                                                   \
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

#ifdef __cplusplus
}
#endif

#endif /* CAIRN_CONTACT_MODEL_H */
