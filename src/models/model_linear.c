/* The "linear" model: linear normal and shear springs, the shear force carried incrementally as
   a global vector that the model turns onto the contact plane each step (cairn_cm_turn), a
   Coulomb slider on the spring shear force, and normal and shear dashpots given as fractions of
   critical damping with the reduced mass (seed 003 §4.4.1, seed 004 Eq. 6d; design.md). The normal
   dashpot is resolved inside the step, so restitution does not depend on where in a step a contact
   begins or ends (laws.h, law_dashpot_normal_step). Written against the public ABI only. */
#include "models/builtin.h"
#include "models/linear_law.h"
#include "cairn/simd.h"

static const cairn_prop_desc linear_props[] = {LINEAR_PROP_ROWS};

static const cairn_state_desc linear_state[] = {LINEAR_STATE_ROWS};

static void linear_force(const cairn_cm_input *in, const double *p, const double *derived,
                         double *st, cairn_cm_output *out) {
  (void)derived;
  linear_law(in, p, st, out);
}

static void linear_energy(const double *p, const double *st, double e[CAIRN_ENERGY_N]) {
  linear_law_energy(p, st, e);
}

static void linear_stiffness(const double *p, double *k_tran, double *k_rot) {
  *k_tran = p[P_KN] + p[P_KS];
  *k_rot = 0;
}

/* The law above, inlined into a loop over the slice: the general entry (energy tracked, or no
   step to resolve). */
CAIRN_CM_SLICE(linear_force_slice_general, linear_force)

/* The cycle's case (a step to resolve, energy not tracked) as a loop without branches that gcc
   vectorises: every branch of linear_law becomes a select between both of its outcomes, each
   computed by the same operations in the same order, so the results are the law's to the last bit
   (the file is built with -ffp-contract=off and -fno-trapping-math: no fused operations, and the
   outcome not taken may divide by zero harmlessly). The state blocks are copied into columns
   first and back after. It is built twice, for the x86-64 baseline and for AVX2 (cairn/simd.h),
   with the same bits. */
/* The state's slots of the columns (laws.h, law_cols). */
static const law_slots linear_slots = {S_FORCE, S_SLIP, S_DPFORCE, S_DPXI};

/* The slice's output arrays. */
#define LINEAR_OUT_PARAMS                                                                          \
  double *restrict fx, double *restrict fy, double *restrict fz, double *restrict kno,             \
      double *restrict kso, double *restrict kro

/* The inputs and outputs as restrict parameters (so gcc sees that nothing aliases), the state
   in c.
   has_cn and has_cs say whether the normal and shear dashpots have coefficients (a property test,
   the same for the whole slice): constants in each call below, because gcc vectorises no select
   on a condition that is the same for every lane. */
static inline __attribute__((always_inline)) void
linear_columns_body(size_t n, const double *restrict p, double dt, const double *restrict gap,
                    const double *restrict m_eff, const double *restrict nx,
                    const double *restrict ny, const double *restrict nz, const double *restrict vx,
                    const double *restrict vy, const double *restrict vz, law_cols *restrict c,
                    LINEAR_OUT_PARAMS, const int has_cn, const int has_cs) {
  const double kn = p[P_KN], ks = p[P_KS], fric = p[P_FRIC];
  const double dpn = p[P_DPN], dps = p[P_DPS];
  const int mode = (int)p[P_DPMODE], slip_shear = (mode & DP_SLIP_SHEAR) != 0;
  /* dp_mode 1 keeps f0 + fd >= 0: as a per-lane test against 0, or against -inf (never true) */
  const double tension_floor = mode & DP_NO_TENSION ? 0.0 : -INFINITY;
  for (size_t k = 0; k < n; k++) {
    const double n0 = nx[k], n1 = ny[k], n2 = nz[k], m = m_eff[k];
    /* cairn_cm_split */
    const double vn = vx[k] * n0 + vy[k] * n1 + vz[k] * n2;
    const double vs0 = vx[k] - vn * n0, vs1 = vy[k] - vn * n1, vs2 = vz[k] - vn * n2;
    const int open = gap[k] >= 0;
    /* the spring's in-plane part turned onto this step's plane */
    const double a[3] = {c->fl[1][k], c->fl[2][k], c->fl[3][k]};
    double t[3];
    law_turn_lane(a, n0, n1, n2, t);
    double s0 = t[0], s1 = t[1], s2 = t[2];
    /* the normal spring and the shear increment (law_shear_increment) */
    const double f0 = kn * -gap[k];
    s0 -= ks * vs0 * dt;
    s1 -= ks * vs1 * dt;
    s2 -= ks * vs2 * dt;
    double fs[3] = {s0, s1, s2};
    const int slip = law_coulomb_cap_lane(fs, fric * f0);
    s0 = fs[0], s1 = fs[1], s2 = fs[2];
    const double slipd = slip ? 1.0 : 0.0;
    /* law_dashpot_coeff */
    const double cn = has_cn ? 2.0 * dpn * sqrt(m * kn) : 0.0;
    const double cs0 = has_cs ? 2.0 * dps * sqrt(m * ks) : 0.0;
    const double cs = slip & slip_shear ? 0.0 : cs0;
    /* law_dashpot_normal_step (overlap -gap, approach speed -vn) */
    const double overlap = -gap[k], u = -vn, xa = c->xi[k];
    const double idt = 1.0 / dt, dt_m = dt / m, rr = 0.5 * cn * dt_m, stop = m * u * idt;
    double fd = (cn * ((overlap - xa) * idt + 0.5 * u) - f0 * rr) / (1.0 + rr);
    const int ahead = u >= 0; /* the side 'stop' bounds fd from */
    fd = (ahead & (fd > stop)) | (!ahead & (fd < stop)) ? stop : fd;
    double u1 = u - (f0 + fd) * dt_m;
    const int opens = overlap + u1 * dt <= 0;
    double fdo = -cn * xa * idt;
    fdo = (ahead & (fdo > stop)) | (!ahead & (fdo < stop)) ? stop : fdo;
    fd = opens ? fdo : fd;
    fd = f0 + fd < tension_floor ? -f0 : fd;
    u1 = u - (f0 + fd) * dt_m;
    const double xib = opens ? 0.0 : overlap + 0.5 * u1 * dt;
    const int damped = cn > 0;
    const double fdn = damped ? fd : 0.0;
    const double xi = damped ? xib : xa;
    const double d0 = -cs * vs0, d1 = -cs * vs1, d2 = -cs * vs2;
    /* law_add_force onto a zero force */
    const double fn = f0 + fdn;
    const double g0 = 0.0 + (fn * n0 + (s0 + d0));
    const double g1 = 0.0 + (fn * n1 + (s1 + d1));
    const double g2 = 0.0 + (fn * n2 + (s2 + d2));
    /* an open contact: no force, the history dropped */
    fx[k] = open ? 0.0 : g0;
    fy[k] = open ? 0.0 : g1;
    fz[k] = open ? 0.0 : g2;
    kno[k] = open ? 0.0 : kn;
    kso[k] = open ? 0.0 : ks;
    kro[k] = 0.0;
    const double fls[4] = {f0, s0, s1, s2}, fds[4] = {fdn, d0, d1, d2};
    law_cols_lane(c, k, open, fls, slipd, fds, xi);
  }
}

/* The body for a slice's properties, with the dashpot tests of law_dashpot_coeff as constants. */
#define LINEAR_COLUMNS(name, target)                                                               \
  target static void name(                                                                         \
      size_t n, const double *restrict p, double dt, const double *restrict gap,                   \
      const double *restrict m_eff, const double *restrict nx, const double *restrict ny,          \
      const double *restrict nz, const double *restrict vx, const double *restrict vy,             \
      const double *restrict vz, law_cols *restrict c, LINEAR_OUT_PARAMS) {                        \
    const int has_cn = p[P_DPN] > 0 && p[P_KN] > 0, has_cs = p[P_DPS] > 0 && p[P_KS] > 0;          \
    if (has_cn && has_cs)                                                                          \
      linear_columns_body(n, p, dt, gap, m_eff, nx, ny, nz, vx, vy, vz, c, fx, fy, fz, kno, kso,   \
                          kro, 1, 1);                                                              \
    else if (has_cn)                                                                               \
      linear_columns_body(n, p, dt, gap, m_eff, nx, ny, nz, vx, vy, vz, c, fx, fy, fz, kno, kso,   \
                          kro, 1, 0);                                                              \
    else if (has_cs)                                                                               \
      linear_columns_body(n, p, dt, gap, m_eff, nx, ny, nz, vx, vy, vz, c, fx, fy, fz, kno, kso,   \
                          kro, 0, 1);                                                              \
    else                                                                                           \
      linear_columns_body(n, p, dt, gap, m_eff, nx, ny, nz, vx, vy, vz, c, fx, fy, fz, kno, kso,   \
                          kro, 0, 0);                                                              \
  }
LINEAR_COLUMNS(linear_columns_base, )
#if CAIRN_SIMD_AVX2
LINEAR_COLUMNS(linear_columns_avx2, CAIRN_TARGET_AVX2)
#endif

static void linear_force_slice(const cairn_cm_slice *s) {
  if (s->energy || !(s->dt > 0)) {
    linear_force_slice_general(s);
    return;
  }
  law_cols c;
  const size_t n = s->n;
  law_cols_in_all(&c, n, s->state, linear_slots);
#if CAIRN_SIMD_AVX2
  if (cairn_cpu_avx2())
    linear_columns_avx2(n, s->props, s->dt, s->gap, s->m_eff, s->nx, s->ny, s->nz, s->vx, s->vy,
                        s->vz, &c, s->fx, s->fy, s->fz, s->kn, s->ks, s->kr);
  else
#endif
    linear_columns_base(n, s->props, s->dt, s->gap, s->m_eff, s->nx, s->ny, s->nz, s->vx, s->vy,
                        s->vz, &c, s->fx, s->fy, s->fz, s->kn, s->ks, s->kr);
  law_cols_out_all(&c, n, s->state, linear_slots);
  for (size_t k = 0; k < n; k++) s->status[k] = (unsigned char)(int)c.status[k];
}

const cairn_contact_model cairn_model_linear = {
    .abi_version = CAIRN_CM_ABI_VERSION,
    .name = "linear",
    .version = 3, /* 2: dp_mode and the state field dp_xi; 3: lin_edash, lin_eslip */
    .doc = "linear springs, Coulomb friction, critical-ratio dashpots with the reduced mass",
    .props = linear_props,
    .n_props = sizeof linear_props / sizeof *linear_props,
    .state = linear_state,
    .n_state = sizeof linear_state / sizeof *linear_state,
    .force = linear_force,
    .force_slice = linear_force_slice,
    .stiffness = linear_stiffness,
    .energy = linear_energy,
};
