/* The "ductile" model (seed 003 §4.4.3): a bonded linear contact whose tensile strength softens
   linearly with further opening once reached, unloads through the origin, breaks when the
   strength reaches zero and is then an unbonded frictional contact. */
#include "models/builtin.h"
#include "models/laws.h"

enum { P_KN, P_RATKS, P_RATFS, P_FRIC, P_FTMAX, P_KDUC, P_KUN };
/* State slots: the force is a contact-plane vector in four slots, the normal component and then
   the shear part as a global vector (x, y, z) in the contact plane. */
enum { S_FORCE = 0, S_SOFTENED = 4, S_BROKEN = 5, S_USOFT = 6, S_SLIP = 7 };

static const cairn_prop_desc ductile_props[] = {
    /* clang-format off */
  /* name        type            unit   def  min  max       access    doc */
  {"duc_kn",    CAIRN_PROP_FLT, "N/m", 0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "normal stiffness in compression", NULL},
  {"duc_ratks", CAIRN_PROP_FLT, "-",   0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "shear stiffness over normal stiffness (of duc_kn in compression, of the current tensile "
   "stiffness in tension)", NULL},
  {"duc_ratfs", CAIRN_PROP_FLT, "-",   0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "bonded contact in tension: largest shear force over the current tensile strength", NULL},
  {"duc_fric",  CAIRN_PROP_FLT, "-",   0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "friction coefficient once the bond is broken", NULL},
  {"duc_ftmax", CAIRN_PROP_FLT, "N",   0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "tensile strength", NULL},
  {"duc_kduc",  CAIRN_PROP_FLT, "N/m", 0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "softening stiffness: strength lost per unit of further opening (0: no softening)", NULL},
  {"duc_kun",   CAIRN_PROP_FLT, "N/m", 0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "normal stiffness in tension before yield", "duc_kn"},
    /* clang-format on */
};

static const cairn_state_desc ductile_state[] = {
    {"duc_force", CAIRN_PROP_VEC, CAIRN_STATE_PLANE_XYZ, "N",
     "contact force (normal, s, t); normal > 0 in compression"},
    {"duc_softened", CAIRN_PROP_FLT, 0, "-",
     "1 - T / duc_ftmax, T the current tensile strength; 0 until the contact yields"},
    {"duc_broken", CAIRN_PROP_BOOL, 0, "-", "1 once the strength has softened to zero"},
    {"duc_usoft", CAIRN_PROP_FLT, 0, "m",
     "opening at the last point of the softening line; 0 until the contact yields"},
    {"duc_slip", CAIRN_PROP_BOOL, 0, "-", "1 while a broken contact slides"},
};

/* Coulomb slider with the slip event, for the broken contact in compression (fs: the global
   shear force). */
static void slide(double fs[3], double fmax, double *st, cairn_cm_output *out) {
  int slip = law_coulomb_cap(fs, fmax);
  if (slip != (int)st[S_SLIP]) {
    out->events |= CAIRN_EV_SLIP_CHANGE;
    out->slip_mode = slip ? 0 : 1;
  }
  st[S_SLIP] = slip;
}

static void ductile_force(const cairn_cm_input *in, const double *p, const double *derived,
                          double *st, cairn_cm_output *out) {
  (void)derived;
  /* f[0] the normal force (> 0 in compression), fs = f + 1 the shear force (global). */
  double *f = st + S_FORCE, *fs = f + 1;
  int broken = st[S_BROKEN] != 0;
  double kn = p[P_KN], ftmax = p[P_FTMAX];
  /* The shear force is turned onto the current contact plane (keeping its length) before the
     increment; the increment uses the shear part of the relative velocity (the normal force
     follows the gap, not the normal velocity). */
  cairn_cm_turn(fs, in->n);
  double vs[3];
  (void)cairn_cm_split(in->vel_xyz, in->n, vs);

  if (in->gap < 0) { /* compression: linear in the overlap, whatever the bond's state */
    f[0] = kn * -in->gap;
    law_shear_increment(fs, kn * p[P_RATKS], vs, in->dt);
    if (broken) slide(fs, p[P_FRIC] * f[0], st, out); /* bonded: no slip at all (seed) */
    law_add_force(out->force_xyz, f[0], in->n, fs);
    out->active = 1;
    out->may_delete = broken;
    out->kn_est = kn;
    out->ks_est = kn * p[P_RATKS];
    return;
  }
  if (broken) { /* open and unbonded: no force (and no event: slip just ends quietly) */
    f[0] = f[1] = f[2] = f[3] = 0;
    st[S_SLIP] = 0;
    return;
  }
  /* Tension on a bonded contact. The strength T follows the softening line
     T(u) = ftmax - kduc (u - u_t), u_t = ftmax / kun, fixed in the (opening, force) plane; below
     the last point reached on it, (usoft, T), the contact is elastic along the secant through
     the origin (seed 003, Example 4.8). */
  double u = in->gap, usoft = st[S_USOFT];
  double t_str = ftmax * (1.0 - st[S_SOFTENED]);
  double ksec = usoft > 0 ? t_str / usoft : p[P_KUN];
  double t = ksec * u;
  if (t > t_str) { /* beyond the strength: onto the softening line */
    double ut = p[P_KUN] > 0 ? ftmax / p[P_KUN] : 0.0;
    double tsoft = ftmax - p[P_KDUC] * (u - ut);
    if (!(tsoft > 0)) { /* softened to zero: the bond breaks and the contact opens */
      st[S_BROKEN] = 1;
      st[S_SOFTENED] = 1;
      st[S_USOFT] = u;
      f[0] = f[1] = f[2] = f[3] = 0;
      st[S_SLIP] = 0;
      /* One event per update: when yield and break fall in the same step, break is reported. */
      out->events |= CAIRN_EV_BOND_BREAK;
      out->bond_mode = 0;
      return;
    }
    if (usoft == 0) { /* the strength is exceeded for the first time */
      out->events |= CAIRN_EV_BOND_BREAK;
      out->bond_mode = 1;
    }
    st[S_USOFT] = u;
    st[S_SOFTENED] = ftmax > 0 ? 1.0 - tsoft / ftmax : 1.0;
    t_str = t = tsoft;
    ksec = t / u;
  }
  f[0] = -t;
  /* Shear while bonded in tension: stiffness from the current tensile stiffness, magnitude
     limited to duc_ratfs times the current strength (the code's |FT|, not the text's normal
     force: they differ before yield). */
  law_shear_increment(fs, ksec * p[P_RATKS], vs, in->dt);
  law_coulomb_cap(fs, p[P_RATFS] * t_str);
  law_add_force(out->force_xyz, f[0], in->n, fs);
  out->active = 1;
  out->may_delete = 0;
  out->kn_est = ksec;
  out->ks_est = ksec * p[P_RATKS];
}

static void ductile_stiffness(const double *p, double *k_tran, double *k_rot) {
  double kn = p[P_KN] > p[P_KUN] ? p[P_KN] : p[P_KUN];
  *k_tran = kn * (1.0 + p[P_RATKS]);
  *k_rot = 0;
}

/* The slice entry the engine calls: the law above, inlined into a loop over the slice. */
CAIRN_CM_SLICE(ductile_force_slice, ductile_force)

const cairn_contact_model cairn_model_ductile = {
    .abi_version = CAIRN_CM_ABI_VERSION,
    .name = "ductile",
    .version = 1,
    .doc = "bonded contact with linear tensile softening, unloading through the origin, then "
           "frictional once broken",
    .props = ductile_props,
    .n_props = sizeof ductile_props / sizeof *ductile_props,
    .state = ductile_state,
    .n_state = sizeof ductile_state / sizeof *ductile_state,
    .force = ductile_force,
    .force_slice = ductile_force_slice,
    .stiffness = ductile_stiffness,
};
