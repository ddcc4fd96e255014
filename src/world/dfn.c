/* Discrete fracture networks: the joint list and the Fisher generator (dfn.h). */
#include "world/dfn.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "core/core.h"

#define PI 3.14159265358979323846

cairn_status dfn_push(dfn_net *net, const dfn_joint *j, cairn_diag *d) {
  if (net->n == net->cap)
    CAIRN_TRY(mem_grow((void **)&net->j, &net->cap, net->n + 1, sizeof *net->j, "dfn", d));
  net->j[net->n++] = *j;
  return CAIRN_OK;
}

void dfn_free(dfn_net *net) {
  mem_free(net->j, net->cap * sizeof *net->j);
  memset(net, 0, sizeof *net);
}

int dfn_unit(double n[3]) {
  const double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  if (!(l > 0) || !isfinite(l)) return 0;
  if (fabs(l - 1.0) > 4 * DBL_EPSILON)
    for (int k = 0; k < 3; k++) n[k] /= l;
  return 1;
}

void dfn_pole(int dim, double dip, double ddir, double n[3]) {
  const double a = dip * PI / 180.0, b = ddir * PI / 180.0;
  if (dim == 2) {
    n[0] = -sin(a), n[1] = cos(a), n[2] = 0.0;
  } else {
    n[0] = sin(a) * sin(b), n[1] = sin(a) * cos(b), n[2] = cos(a);
  }
}

cairn_status dfn_fisher_check(const dfn_fisher_set *s, int dim, cairn_diag *d) {
  (void)dim;
  CAIRN_CHECK(isfinite(s->dip) && isfinite(s->ddir), d, CAIRN_EINVAL,
              "set %d: dip and dip_direction must be finite angles in degrees", s->set);
  CAIRN_CHECK(s->kappa >= 0 && isfinite(s->kappa), d, CAIRN_EINVAL,
              "set %d: kappa must be a finite number >= 0 (got %g); 0 draws poles uniformly, "
              "larger values cluster them about the mean",
              s->set, s->kappa);
  CAIRN_CHECK(s->rmin > 0 && s->rmax >= s->rmin && isfinite(s->rmax), d, CAIRN_EINVAL,
              "set %d: radii must satisfy 0 < min <= max, finite (got %g to %g)", s->set, s->rmin,
              s->rmax);
  CAIRN_CHECK(s->power >= 0 && isfinite(s->power), d, CAIRN_EINVAL,
              "set %d: the power law's exponent must be a finite number >= 0 (got %g)", s->set,
              s->power);
  CAIRN_CHECK(s->set >= 0, d, CAIRN_EINVAL, "a set id must be a whole number >= 0 (got %d)",
              s->set);
  return CAIRN_OK;
}

/* Two unit vectors normal to n and to each other. */
static void across(const double n[3], double a[3], double b[3]) {
  double e[3] = {0, 0, 0};
  const double ax = fabs(n[0]), ay = fabs(n[1]), az = fabs(n[2]);
  e[ax <= ay && ax <= az ? 0 : (ay <= az ? 1 : 2)] = 1.0;
  a[0] = n[1] * e[2] - n[2] * e[1], a[1] = n[2] * e[0] - n[0] * e[2];
  a[2] = n[0] * e[1] - n[1] * e[0];
  const double l = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  for (int k = 0; k < 3; k++) a[k] /= l;
  b[0] = n[1] * a[2] - n[2] * a[1], b[1] = n[2] * a[0] - n[0] * a[2];
  b[2] = n[0] * a[1] - n[1] * a[0];
}

/* The cosine of the angle from the mean pole, Fisher-distributed (density proportional to
   exp(kappa w) on the sphere): w = 1 + ln(u + (1 - u) exp(-2 kappa)) / kappa. */
static double fisher_w(double kappa, spec_rng *g) {
  const double u = spec_rng_uniform(g);
  if (kappa < 1e-12) return 2.0 * u - 1.0;
  double w = 1.0 + log(u + (1.0 - u) * exp(-2.0 * kappa)) / kappa;
  return w < -1.0 ? -1.0 : w;
}

/* An angle from the von Mises distribution of concentration kappa (Best and Fisher, 1979). */
static double von_mises(double kappa, spec_rng *g) {
  if (kappa < 1e-8) return PI * (2.0 * spec_rng_uniform(g) - 1.0);
  const double tau = 1.0 + sqrt(1.0 + 4.0 * kappa * kappa);
  const double rho = (tau - sqrt(2.0 * tau)) / (2.0 * kappa), r = (1.0 + rho * rho) / (2.0 * rho);
  for (;;) {
    const double u1 = spec_rng_uniform(g), u2 = spec_rng_uniform(g), u3 = spec_rng_uniform(g);
    const double z = cos(PI * u1), f = (1.0 + r * z) / (r + z), c = kappa * (r - f);
    if (c * (2.0 - c) - u2 > 0 || (u2 > 0 && log(c / u2) + 1.0 - c >= 0)) {
      const double t = acos(f > 1 ? 1 : (f < -1 ? -1 : f));
      return u3 < 0.5 ? -t : t;
    }
  }
}

static double draw_radius(const dfn_fisher_set *s, spec_rng *g) {
  const double u = spec_rng_uniform(g);
  if (s->rmax == s->rmin) return s->rmin;
  if (s->power == 0) return s->rmin + u * (s->rmax - s->rmin);
  if (fabs(s->power - 1.0) < 1e-12) return s->rmin * pow(s->rmax / s->rmin, u);
  const double e = 1.0 - s->power, a = pow(s->rmin, e), b = pow(s->rmax, e);
  return pow(a + u * (b - a), 1.0 / e);
}

cairn_status dfn_fisher(const dfn_fisher_set *s, int dim, const double lo[3], const double hi[3],
                        spec_rng *g, dfn_net *net, cairn_diag *d) {
  CAIRN_TRY(dfn_fisher_check(s, dim, d));
  double pole[3], a[3], b[3];
  dfn_pole(dim, s->dip, s->ddir, pole);
  across(pole, a, b);
  for (size_t i = 0; i < s->count; i++) {
    dfn_joint j;
    memset(&j, 0, sizeof j);
    for (int k = 0; k < dim; k++) j.centre[k] = lo[k] + spec_rng_uniform(g) * (hi[k] - lo[k]);
    if (dim == 3) {
      const double w = fisher_w(s->kappa, g), phi = 2.0 * PI * spec_rng_uniform(g);
      const double sw = sqrt(1.0 - w * w);
      for (int k = 0; k < 3; k++)
        j.normal[k] = w * pole[k] + sw * (cos(phi) * a[k] + sin(phi) * b[k]);
    } else {
      const double t = von_mises(s->kappa, g); /* turned about z from the pole */
      j.normal[0] = cos(t) * pole[0] - sin(t) * pole[1];
      j.normal[1] = sin(t) * pole[0] + cos(t) * pole[1];
    }
    dfn_unit(j.normal);
    j.radius = draw_radius(s, g);
    j.set = s->set;
    CAIRN_TRY(dfn_push(net, &j, d));
  }
  return CAIRN_OK;
}
