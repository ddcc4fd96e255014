/* The "flatjoint" model (Potyondy's flat joint, 2012): the interface between two balls is a
   notional flat disk (3D) or segment (2D, of unit thickness) of radius R = fj_rmul min(r1, r2),
   centred on the contact point and normal to the contact normal, cut into elements: in 3D fj_nr
   rings of equal width, each cut into fj_na equal sectors; in 2D fj_nr equal pieces along the
   segment. Each element carries a normal stress and a shear stress, uniform over it and acting
   at its centroid, from the relative displacement of the two sides at the centroid (the
   contact's relative velocity plus the relative spin crossed with the centroid's offset), so the
   interface's bending and twisting moments are the moments of the element forces about the
   contact point: there is no separate moment spring, and a bending moment is carried by the
   elements on one side opening and those on the other closing.

   An element is bonded or not. A bonded element carries tension and compression, sigma =
   -fj_kn g (g its gap, 0 when the bond formed), and an incremental shear stress (tau -= fj_ks
   du_s). It breaks for good in the step where its tension -sigma exceeds fj_ten (mode 2) or its
   shear stress |tau| exceeds fj_coh + sigma tan(fj_fa) (mode 3). An element without a bond
   (a slit at installation, drawn with probability fj_slit per element from fj_seed, or broken)
   carries compression only, sigma = -fj_kn g while g < 0, and a shear stress up to fj_fric sigma
   (Coulomb); it loses contact when g >= 0 (its stresses drop to zero) and regains it when g < 0
   again. A slit element starts open by fj_gap.

   The interface is installed at a contact's first update if fj_bond is 1 and the gap is at most
   fj_igap (elements bonded or slit, as drawn); otherwise at the first update where the surfaces
   touch, with every element unbonded at the balls' gap (a frictional flat interface). Once no
   element is bonded and every element is open, the contact may be deleted.

   The in-plane frame of the elements (3D: e1 and e2 = n x e1; 2D: the in-plane direction t) is
   turned onto each step's contact plane, as the global shear vectors of the other models are;
   a spin of the pair as a whole about the normal does not turn it (as it does not turn theirs).
   Energy: the elements' springs store A (sigma^2 / 2 fj_kn + tau^2 / 2 fj_ks); frictional slip
   dissipates (fj_eslip), and a breaking element releases what its springs held beyond what the
   element keeps after breaking (fj_ebreak); both are booked as slip losses. Written against the
   public ABI only. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "models/builtin.h"
#include "models/laws.h"

#define PI 3.14159265358979323846
#define FJ_MAX 64 /* elements per interface */

enum {
  P_KN,
  P_KS,
  P_RMUL,
  P_NR,
  P_NA,
  P_SLIT,
  P_SEED,
  P_GAP,
  P_TEN,
  P_COH,
  P_FA,
  P_FRIC,
  P_BOND,
  P_IGAP,
};
/* State slots. */
enum {
  S_STATE,
  S_E1, /* 3 slots: the elements' in-plane reference direction (3D), global */
  S_NBOND = S_E1 + 3,
  S_NSLIT,
  S_NTEN,
  S_NSHEAR,
  S_NEWTEN,   /* elements broken in tension in the last call (a crack each) */
  S_NEWSHEAR, /* and in shear */
  S_FN,
  S_ESTORE,
  S_ESLIP,
  S_EBREAK,
  S_MODE, /* FJ_MAX slots each from here */
  S_GAP = S_MODE + FJ_MAX,
  S_SN = S_GAP + FJ_MAX,
  S_SS = S_SN + FJ_MAX,
  S_ST = S_SS + FJ_MAX,
};
/* Derived constants: the 3D layout on a unit disk (centroid coordinates along e1 and e2, area),
   its sum of area times squared centroid distance, tan(fj_fa), and 1 / 2k for the stored
   energy (0 for a zero stiffness). */
enum {
  D_A1 = 0,
  D_A2 = FJ_MAX,
  D_AREA = 2 * FJ_MAX,
  D_KB = 3 * FJ_MAX,
  D_TANFA,
  D_HKN,
  D_HKS,
  D_N
};
enum { E_NONE = -1, E_OPEN = 0, E_BONDED = 1, E_BROKEN_TENSION = 2, E_BROKEN_SHEAR = 3 };

static const cairn_prop_desc fj_props[] = {
    /* clang-format off */
  {"fj_kn",   CAIRN_PROP_FLT,  "Pa/m", 0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "normal stiffness per area of the interface (a stress per displacement)", NULL},
  {"fj_ks",   CAIRN_PROP_FLT,  "Pa/m", 0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "shear stiffness per area of the interface", NULL},
  {"fj_rmul", CAIRN_PROP_FLT,  "-",    1.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "interface radius over the smaller ball radius (> 0)", NULL},
  {"fj_nr",   CAIRN_PROP_INT,  "-",    2.0, 1.0, 64.0, CAIRN_RW,
   "elements along a radius (3D: rings of equal width; 2D: pieces along the segment)", NULL},
  {"fj_na",   CAIRN_PROP_INT,  "-",    4.0, 1.0, 64.0, CAIRN_RW,
   "elements around each ring (3D only; fj_nr fj_na at most 64)", NULL},
  {"fj_slit", CAIRN_PROP_FLT,  "-",    0.0, 0.0, 1.0, CAIRN_RW,
   "chance that an element is installed without a bond (a slit)", NULL},
  {"fj_seed", CAIRN_PROP_INT,  "-",    1.0, 0.0, 2147483647.0, CAIRN_RW,
   "seed of the slit draws", NULL},
  {"fj_gap",  CAIRN_PROP_FLT,  "m",    0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "initial gap of the slit elements (0: touching)", NULL},
  {"fj_ten",  CAIRN_PROP_FLT,  "Pa",   0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "tensile strength of a bonded element", NULL},
  {"fj_coh",  CAIRN_PROP_FLT,  "Pa",   0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "cohesion of a bonded element (shear strength at no normal stress)", NULL},
  {"fj_fa",   CAIRN_PROP_FLT,  "deg",  0.0, 0.0, 89.0, CAIRN_RW,
   "friction angle of a bonded element: compression raises its shear strength by tan(fj_fa)",
   NULL},
  {"fj_fric", CAIRN_PROP_FLT,  "-",    0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "friction coefficient of an unbonded element", NULL},
  {"fj_bond", CAIRN_PROP_BOOL, "-",    1.0, 0.0, 1.0, CAIRN_RW,
   "1: a contact whose gap is at most fj_igap at its first update gets bonded elements", NULL},
  {"fj_igap", CAIRN_PROP_FLT,  "m",    0.0, 0.0, CAIRN_FINITE_MAX, CAIRN_RW,
   "the largest gap at which an interface is installed with bonds", NULL},
    /* clang-format on */
};

static const cairn_state_desc fj_state[] = {
    {"fj_state", CAIRN_PROP_INT, 0, "-", "0: no interface yet; 1: installed"},
    {"fj_e1", CAIRN_PROP_VEC, 0, "-",
     "the elements' in-plane reference direction, global (3D; unit length)"},
    {"fj_nbond", CAIRN_PROP_INT, 0, "-", "elements bonded now"},
    {"fj_nslit", CAIRN_PROP_INT, 0, "-", "elements installed without a bond"},
    {"fj_nten", CAIRN_PROP_INT, 0, "-", "elements broken in tension"},
    {"fj_nshear", CAIRN_PROP_INT, 0, "-", "elements broken in shear"},
    {"fj_newten", CAIRN_PROP_INT, CAIRN_STATE_BROKE_TENSION, "-",
     "elements broken in tension in the last step (a crack each)"},
    {"fj_newshear", CAIRN_PROP_INT, CAIRN_STATE_BROKE_SHEAR, "-",
     "elements broken in shear in the last step (a crack each)"},
    {"fj_fn", CAIRN_PROP_FLT, 0, "N", "normal force of the interface, > 0 in compression"},
    {"fj_estore", CAIRN_PROP_FLT, 0, "J", "energy stored in the elements' springs"},
    {"fj_eslip", CAIRN_PROP_FLT, 0, "J", "energy dissipated by frictional slip while tracked"},
    {"fj_ebreak", CAIRN_PROP_FLT, 0, "J", "energy released by breaking elements while tracked"},
    {"fj_emode", CAIRN_PROP_INT, CAIRN_STATE_ARRAY(FJ_MAX), "-",
     "per element: 0 unbonded, 1 bonded, 2 broken in tension, 3 broken in shear; -1 past the "
     "interface's element count"},
    {"fj_egap", CAIRN_PROP_FLT, CAIRN_STATE_ARRAY(FJ_MAX), "m",
     "per element: gap at its centroid (< 0 closed), 0 when its bond formed"},
    {"fj_esn", CAIRN_PROP_FLT, CAIRN_STATE_ARRAY(FJ_MAX), "Pa",
     "per element: normal stress, > 0 in compression"},
    {"fj_ess", CAIRN_PROP_FLT, CAIRN_STATE_ARRAY(FJ_MAX), "Pa",
     "per element: shear stress along e1 (2D: along t = (-n_y, n_x))"},
    {"fj_est", CAIRN_PROP_FLT, CAIRN_STATE_ARRAY(FJ_MAX), "Pa",
     "per element: shear stress along e2 = n x e1 (3D)"},
};

/* The 3D layout on a unit disk: ring i spans radii i / nr .. (i + 1) / nr, sector j the angles
   j D .. (j + 1) D with D = 2 pi / na; the centroid of an annular sector lies at
   2 (ro^3 - ri^3) / (3 (ro^2 - ri^2)) sin(D / 2) / (D / 2) from the centre, on its mid-angle. */
static void fj_prepare(const double *p, double *d) {
  int nr = (int)p[P_NR], na = (int)p[P_NA];
  memset(d, 0, D_N * sizeof *d);
  d[D_TANFA] = tan(p[P_FA] * PI / 180.0);
  d[D_HKN] = p[P_KN] > 0 ? 0.5 / p[P_KN] : 0.0;
  d[D_HKS] = p[P_KS] > 0 ? 0.5 / p[P_KS] : 0.0;
  if (nr < 1 || na < 1 || nr * na > FJ_MAX) return; /* refused by fj_validate */
  const double D = 2.0 * PI / na, chord = na == 1 ? 0.0 : sin(0.5 * D) / (0.5 * D);
  for (int i = 0; i < nr; i++) {
    const double ri = (double)i / nr, ro = (double)(i + 1) / nr;
    const double rho = 2.0 * (ro * ro * ro - ri * ri * ri) / (3.0 * (ro * ro - ri * ri)) * chord;
    for (int j = 0; j < na; j++) {
      const double phi = (j + 0.5) * D;
      d[D_A1 + i * na + j] = rho * cos(phi);
      d[D_A2 + i * na + j] = rho * sin(phi);
      d[D_AREA + i * na + j] = 0.5 * (ro * ro - ri * ri) * D;
      d[D_KB] += d[D_AREA + i * na + j] * rho * rho;
    }
  }
}

/* A uniform number in [0, 1) from a seed, an element and the contact's geometry at installation
   (bits of its gap, normal and radii): the same contact in the same run draws the same slits on
   any number of threads or ranks. */
static double fj_draw(const cairn_cm_input *in, const double *p, int e) {
  uint64_t x = (uint64_t)p[P_SEED] * 0x9E3779B97F4A7C15ull + (uint64_t)e;
  const double g[6] = {in->gap, in->n[0], in->n[1], in->n[2], in->r1, in->r2};
  for (int k = 0; k < 6; k++) {
    uint64_t b;
    memcpy(&b, &g[k], sizeof b);
    x ^= b + 0x9E3779B97F4A7C15ull + (x << 6) + (x >> 2);
    x += 0x9E3779B97F4A7C15ull; /* splitmix64's mixer */
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    x ^= x >> 31;
  }
  return (double)(x >> 11) * 0x1.0p-53;
}

/* The element count, or 0 past FJ_MAX (refused by fj_validate at the contact's first touch; a
   contact installed across a gap, or whose counts a script raised, carries nothing until then
   rather than overrun its state). */
static int fj_count(const cairn_cm_input *in, const double *p) {
  const int ne = (int)p[P_NR] * (in->dim == 3 ? (int)p[P_NA] : 1);
  return ne >= 1 && ne <= FJ_MAX ? ne : 0;
}

/* The interface's elements set up: bonded (as drawn) or all unbonded at the balls' gap. */
static void fj_install(const cairn_cm_input *in, const double *p, double *st, int bonded) {
  const int ne = fj_count(in, p);
  st[S_STATE] = 1;
  /* e1: normal to n and to the axis least aligned with it (the contact frame's s) */
  const double *n = in->n;
  double ax = fabs(n[0]), ay = fabs(n[1]), az = fabs(n[2]);
  double a[3] = {0, 0, 0};
  a[ax <= ay && ax <= az ? 0 : (ay <= az ? 1 : 2)] = 1.0;
  double e1[3] = {n[1] * a[2] - n[2] * a[1], n[2] * a[0] - n[0] * a[2], n[0] * a[1] - n[1] * a[0]};
  double l = sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
  for (int k = 0; k < 3; k++) st[S_E1 + k] = in->dim == 3 ? e1[k] / l : 0.0;
  int nbond = 0, nslit = 0;
  for (int e = 0; e < ne; e++) {
    int bond = bonded && !(fj_draw(in, p, e) < p[P_SLIT]);
    st[S_MODE + e] = bond ? E_BONDED : E_OPEN;
    st[S_GAP + e] = bonded ? (bond ? 0.0 : p[P_GAP]) : in->gap;
    st[S_SN + e] = st[S_SS + e] = st[S_ST + e] = 0.0;
    nbond += bond, nslit += bonded && !bond;
  }
  for (int e = ne; e < FJ_MAX; e++) st[S_MODE + e] = E_NONE; /* past the interface's count */
  st[S_NBOND] = nbond, st[S_NSLIT] = nslit;
}

static void fj_force(const cairn_cm_input *in, const double *p, const double *derived, double *st,
                     cairn_cm_output *out) {
  double h = in->dt;
  st[S_NEWTEN] = st[S_NEWSHEAR] = 0.0;
  if (fj_count(in, p) == 0) return;
  if (st[S_STATE] == 0) {
    /* Installed stress-free at this update's configuration: this update's increment is the
       motion that brought the balls here, before the interface existed (as for parallel bonds) */
    if (in->first && p[P_BOND] != 0 && in->gap <= p[P_IGAP])
      fj_install(in, p, st, 1), h = 0.0;
    else if (in->gap <= 0)
      fj_install(in, p, st, 0), h = 0.0;
    else
      return;
  }
  const int dim = in->dim, ne = fj_count(in, p);
  const double rmin = in->r1 > 0 && in->r1 < in->r2 ? in->r1 : in->r2, R = p[P_RMUL] * rmin;
  const double kn = p[P_KN], ks = p[P_KS], mu = p[P_FRIC];
  const double tan_fa = derived[D_TANFA], hkn = derived[D_HKN], hks = derived[D_HKS];
  const double *n = in->n;
  /* the in-plane frame: 3D e1 turned onto this plane (kept of unit length), e2 = n x e1; 2D
     e1 = t = (-n_y, n_x), e2 = z (along which nothing moves) */
  double e1[3], e2[3];
  if (dim == 3) {
    cairn_cm_turn(st + S_E1, n);
    /* the turn keeps the length but for rounding: set it back to 1 once that drifts */
    double l2 = st[S_E1] * st[S_E1] + st[S_E1 + 1] * st[S_E1 + 1] + st[S_E1 + 2] * st[S_E1 + 2];
    if (fabs(l2 - 1.0) > 1e-12)
      for (int k = 0; k < 3; k++) st[S_E1 + k] /= sqrt(l2);
    for (int k = 0; k < 3; k++) e1[k] = st[S_E1 + k];
    e2[0] = n[1] * e1[2] - n[2] * e1[1];
    e2[1] = n[2] * e1[0] - n[0] * e1[2];
    e2[2] = n[0] * e1[1] - n[1] * e1[0];
  } else {
    e1[0] = -n[1], e1[1] = n[0], e1[2] = 0.0;
    e2[0] = e2[1] = 0.0, e2[2] = 1.0;
  }
  const double *v = in->vel_xyz, *w = in->angvel_xyz;
  /* the relative velocity at the contact point and the spin, in (n, e1, e2) */
  const double vn = v[0] * n[0] + v[1] * n[1] + v[2] * n[2];
  const double v1 = v[0] * e1[0] + v[1] * e1[1] + v[2] * e1[2];
  const double v2 = v[0] * e2[0] + v[1] * e2[1] + v[2] * e2[2];
  const double wn = dim == 3 ? w[0] * n[0] + w[1] * n[1] + w[2] * n[2] : 0.0;
  const double w1 = dim == 3 ? w[0] * e1[0] + w[1] * e1[1] + w[2] * e1[2] : 0.0;
  const double w2 = dim == 3 ? w[0] * e2[0] + w[1] * e2[1] + w[2] * e2[2] : w[2];
  double fn = 0, f1 = 0, f2 = 0, mn = 0, m1 = 0, m2 = 0; /* force and extra moment, (n, e1, e2) */
  double estore = 0, loss = 0, released = 0;
  int nbond = (int)st[S_NBOND], open = 0, broke = 0;
  /* 2D: pieces of length 2R / ne, the first centred at -R + R / ne */
  const double step2 = 2.0 * R / ne;
  double a1_2d = -R + 0.5 * step2;
  for (int e = 0; e < ne; e++, a1_2d += step2) {
    /* the centroid x = a1 e1 + a2 e2; its area A */
    double a1, a2, A;
    if (dim == 3)
      a1 = R * derived[D_A1 + e], a2 = R * derived[D_A2 + e], A = R * R * derived[D_AREA + e];
    else
      a1 = a1_2d, a2 = 0.0, A = step2;
    /* the relative velocity at the centroid, v + w x x, in (n, e1, e2): with x = a1 e1 + a2 e2
       and (n, e1, e2) right-handed, w x x = (w1 a2 - w2 a1) n - wn a2 e1 + wn a1 e2 */
    const double un = vn + w1 * a2 - w2 * a1, u1 = v1 - wn * a2, u2 = v2 + wn * a1;
    double *mode = st + S_MODE + e, *g = st + S_GAP + e;
    const double sn0 = st[S_SN + e], ss0 = st[S_SS + e], st0 = st[S_ST + e];
    *g += un * h;
    double sn = -kn * *g, ss = ss0 - ks * u1 * h, stt = st0 - ks * u2 * h;
    double trial = 0; /* what the springs would hold, for a breaking element */
    if (*mode == E_BONDED) {
      const double tau2 = ss * ss + stt * stt, strength = p[P_COH] + sn * tan_fa;
      int why = -sn > p[P_TEN]                               ? E_BROKEN_TENSION
                : strength < 0 || tau2 > strength * strength ? E_BROKEN_SHEAR
                                                             : 0;
      if (why) {
        *mode = why, nbond--, broke = 1;
        st[why == E_BROKEN_TENSION ? S_NTEN : S_NSHEAR] += 1;
        st[why == E_BROKEN_TENSION ? S_NEWTEN : S_NEWSHEAR] += 1;
        trial = A * (sn * sn * hkn + tau2 * hks);
      }
    }
    if (*mode != E_BONDED) { /* compression only, friction-limited shear */
      if (*g >= 0) {
        sn = ss = stt = 0.0;
        open++;
      } else {
        double fs[3] = {ss, stt, 0.0};
        law_coulomb_cap(fs, mu * sn);
        ss = fs[0], stt = fs[1];
      }
    }
    const double es = A * (sn * sn * hkn + (ss * ss + stt * stt) * hks);
    if (trial > 0) released += trial - es;
    if (in->energy) { /* work on the springs (trapezoidal) less what they now hold more */
      const double w_on = -0.5 * A * ((sn0 + sn) * un + (ss0 + ss) * u1 + (st0 + stt) * u2) * h;
      const double e0 = A * (sn0 * sn0 * hkn + (ss0 * ss0 + st0 * st0) * hks);
      loss += w_on - (es - e0);
    }
    estore += es;
    st[S_SN + e] = sn, st[S_SS + e] = ss, st[S_ST + e] = stt;
    /* the element's force on side 2, (sn n + ss e1 + stt e2) A at x: its moment x x F =
       (a1 stt - a2 ss) n + a2 sn e1 - a1 sn e2 */
    fn += sn * A, f1 += ss * A, f2 += stt * A;
    mn += (a1 * stt - a2 * ss) * A, m1 += a2 * sn * A, m2 -= a1 * sn * A;
  }
  st[S_NBOND] = nbond;
  st[S_FN] = fn;
  st[S_ESTORE] = estore;
  if (in->energy) {
    st[S_EBREAK] += released;
    st[S_ESLIP] += loss - released;
  }
  for (int k = 0; k < 3; k++) {
    out->force_xyz[k] = fn * n[k] + f1 * e1[k] + f2 * e2[k];
    out->moment_xyz[k] = mn * n[k] + m1 * e1[k] + m2 * e2[k];
  }
  if (dim == 2) out->moment_xyz[0] = out->moment_xyz[1] = 0.0;
  if (broke) {
    out->events |= CAIRN_EV_BOND_BREAK;
    out->bond_mode = 0;
  }
  out->active = open < ne;
  out->may_delete = nbond == 0 && open == ne;
  const double atot = dim == 3 ? PI * R * R : 2.0 * R;
  /* sum of A |x|^2: 3D from the layout; 2D 2R^3 / 3 (1 - 1 / ne^2), the midpoint rule's */
  const double kb = dim == 3 ? R * R * R * R * derived[D_KB]
                             : 2.0 * R * R * R / 3.0 * (1.0 - 1.0 / ((double)ne * ne));
  out->kn_est = kn * atot;
  out->ks_est = ks * atot;
  out->kr_est = (kn > ks ? kn : ks) * kb;
}

CAIRN_CM_SLICE(fj_force_slice, fj_force)

/* The elements' springs, their slip and their breakage. */
static void fj_energy(const double *p, const double *st, double e[CAIRN_ENERGY_N]) {
  (void)p;
  e[CAIRN_ENERGY_STRAIN] = st[S_ESTORE];
  e[CAIRN_ENERGY_SLIP] = st[S_ESLIP] + st[S_EBREAK];
}

/* Stiffness grows with the ball size: nothing to say before a contact exists (the timestep
   comes from the contacts' own estimates). */
static void fj_stiffness(const double *p, double *k_tran, double *k_rot) {
  (void)p;
  *k_tran = 0, *k_rot = 0;
}

static const char *fj_validate(const double *p, int dim, char *msg, size_t n) {
  if (dim == 3 && p[P_NR] * p[P_NA] > FJ_MAX) {
    snprintf(msg, n,
             "fj_nr * fj_na is %g elements, more than the %d an interface holds; lower fj_nr or "
             "fj_na",
             p[P_NR] * p[P_NA], FJ_MAX);
    return msg;
  }
  if (!(p[P_RMUL] > 0)) {
    snprintf(msg, n,
             "fj_rmul must be > 0 (got %g); give the interface radius over the smaller "
             "ball radius",
             p[P_RMUL]);
    return msg;
  }
  return NULL;
}

const cairn_contact_model cairn_model_flatjoint = {
    .abi_version = CAIRN_CM_ABI_VERSION,
    .name = "flatjoint",
    .version = 1,
    .doc = "flat joint: a disk (3D) or segment (2D) interface cut into elements, each bonded or "
           "not, breaking in tension or shear on its own and then frictional",
    .props = fj_props,
    .n_props = sizeof fj_props / sizeof *fj_props,
    .state = fj_state,
    .n_state = sizeof fj_state / sizeof *fj_state,
    .n_derived = D_N,
    .needs = CAIRN_CM_USES_ANGVEL | CAIRN_CM_USES_RADII | CAIRN_CM_WRITES_MOMENT,
    .prepare = fj_prepare,
    .force = fj_force,
    .force_slice = fj_force_slice,
    .stiffness = fj_stiffness,
    .validate = fj_validate,
    .energy = fj_energy,
};
