/* The "rrlinear" model: the linear model plus rolling resistance. A rolling spring turns the
   relative bending rotation of the two sides (their relative angular velocity less its twist
   about the normal, times dt) into a moment, incrementally, k_r = rr_kr (default k_s R*^2); the
   moment is capped at rr_fric R* F_n (F_n the linear spring's normal force), with its own slip
   state. The moment acts on side 2 and its opposite on side 1 (CAIRN_CM_WRITES_MOMENT); it is
   kept as a contact-plane vector, turned onto the new plane each step (cairn_cm_turn). PFC's
   rrlinear, with PFC's property names. Written against the public ABI only. */
#include "models/builtin.h"
#include "models/linear_law.h"

/* Property slots after linear's six. */
enum { P_RR_FRIC = P_DPMODE + 1, P_RR_KR };
/* State slots after linear's (S_ESLIP is its last). */
enum {
  S_RR_MOMENT = S_ESLIP + 1, /* four slots: [normal (unused, 0), x, y, z] */
  S_RR_SLIP = S_RR_MOMENT + 4,
  S_RR_KR = S_RR_SLIP + 1,
  S_RR_ESLIP = S_RR_KR + 1
};

static const cairn_prop_desc rrlinear_props[] = {
    LINEAR_PROP_ROWS
    /* clang-format off */
  {"rr_fric",   CAIRN_PROP_FLT, "-",     0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "rolling friction coefficient: |rolling moment| <= rr_fric * R* * normal spring force", NULL},
  {"rr_kr",     CAIRN_PROP_FLT, "N*m/rad", 0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "rolling stiffness; 0: ks R*^2, R* = r1 r2 / (r1 + r2), or the ball's radius on a wall", NULL},
    /* clang-format on */
};

static const cairn_state_desc rrlinear_state[] = {
    LINEAR_STATE_ROWS{"rr_moment", CAIRN_PROP_VEC, CAIRN_STATE_PLANE_XYZ, "N*m",
                      "rolling resistance moment on side 2 (normal, s, t); the normal part is 0"},
    {"rr_slip", CAIRN_PROP_BOOL, 0, "-", "1 while the rolling moment is at its limit"},
    {"rr_krc", CAIRN_PROP_FLT, 0, "N*m/rad", "rolling stiffness in use (rr_kr, or ks R*^2)"},
    {"rr_eslip", CAIRN_PROP_FLT, 0, "J",
     "energy dissipated by rolling slip while tracked (the rolling spring's work less the change "
     "of its stored energy)"},
};

/* Stored energy of a rolling moment m on a spring of stiffness kr. */
static double rolling_stored(const double m[3], double kr) {
  return kr > 0 ? (m[0] * m[0] + m[1] * m[1] + m[2] * m[2]) / (2.0 * kr) : 0.0;
}

static void rrlinear_force(const cairn_cm_input *in, const double *p, const double *derived,
                           double *st, cairn_cm_output *out) {
  (void)derived;
  const int slipping = st[S_SLIP] != 0 || st[S_RR_SLIP] != 0;
  linear_law(in, p, st, out);
  double *mr = st + S_RR_MOMENT + 1; /* the moment, a global vector in the contact plane */
  double wb[3];                      /* the relative bending angular velocity */
  cairn_cm_split(in->angvel_xyz, in->n, wb);
  cairn_cm_turn(mr, in->n);
  double old[3] = {mr[0], mr[1], mr[2]}, kr_old = st[S_RR_KR];
  if (in->gap >= 0) { /* open: no moment; the rolling history is dropped (the loss sum stays) */
    if (in->energy) {
      double work = 0;
      for (int k = 0; k < 3; k++) work -= 0.5 * old[k] * wb[k] * in->dt;
      st[S_RR_ESLIP] += work + rolling_stored(old, kr_old);
    }
    mr[0] = mr[1] = mr[2] = 0.0;
    st[S_RR_SLIP] = 0.0;
  } else {
    const double r = in->r_eff;
    const double kr = p[P_RR_KR] > 0 ? p[P_RR_KR] : p[P_KS] * r * r;
    for (int k = 0; k < 3; k++) mr[k] -= kr * wb[k] * in->dt;
    st[S_RR_SLIP] = law_coulomb_cap(mr, p[P_RR_FRIC] * r * st[S_FORCE]);
    st[S_RR_KR] = kr;
    if (in->energy) { /* the spring's work over the step, less the change of its stored energy */
      double work = 0;
      for (int k = 0; k < 3; k++) work -= 0.5 * (old[k] + mr[k]) * wb[k] * in->dt;
      st[S_RR_ESLIP] += work - (rolling_stored(mr, kr) - rolling_stored(old, kr_old));
    }
    out->moment_xyz[0] = mr[0], out->moment_xyz[1] = mr[1], out->moment_xyz[2] = mr[2];
    out->kr_est = kr;
  }
  /* One slip state for events: the contact slips while either slider is at its limit. */
  const int now = st[S_SLIP] != 0 || st[S_RR_SLIP] != 0;
  out->events &= ~CAIRN_EV_SLIP_CHANGE;
  out->slip_mode = 0;
  if (now != slipping && in->gap < 0) {
    out->events |= CAIRN_EV_SLIP_CHANGE;
    out->slip_mode = now ? 0 : 1;
  }
}

/* linear's energies, with the rolling spring's stored energy and rolling slip loss added. */
static void rrlinear_energy(const double *p, const double *st, double e[CAIRN_ENERGY_N]) {
  linear_law_energy(p, st, e);
  e[CAIRN_ENERGY_STRAIN] += rolling_stored(st + S_RR_MOMENT + 1, st[S_RR_KR]);
  e[CAIRN_ENERGY_SLIP] += st[S_RR_ESLIP];
}

/* From the properties alone: linear's translational stiffness, and rr_kr when set (the default
   k_s R*^2 needs the radii; the engine adds k_s r^2 for the shear spring already). */
static void rrlinear_stiffness(const double *p, double *k_tran, double *k_rot) {
  *k_tran = p[P_KN] + p[P_KS];
  *k_rot = p[P_RR_KR];
}

CAIRN_CM_SLICE(rrlinear_force_slice, rrlinear_force)

const cairn_contact_model cairn_model_rrlinear = {
    .abi_version = CAIRN_CM_ABI_VERSION,
    .name = "rrlinear",
    .version = 1,
    .doc = "linear model with rolling resistance: incremental rolling spring capped at "
           "rr_fric R* F_n",
    .props = rrlinear_props,
    .n_props = sizeof rrlinear_props / sizeof *rrlinear_props,
    .state = rrlinear_state,
    .n_state = sizeof rrlinear_state / sizeof *rrlinear_state,
    .needs = CAIRN_CM_USES_ANGVEL | CAIRN_CM_USES_RADII | CAIRN_CM_WRITES_MOMENT,
    .force = rrlinear_force,
    .force_slice = rrlinear_force_slice,
    .stiffness = rrlinear_stiffness,
    .energy = rrlinear_energy,
};
