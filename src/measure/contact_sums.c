/* Sums over the contacts of the last force pass that the world's own parts need but cannot form
   (they live below the contacts): a turning wall's torque, a periodic cell's stress. Both are
   exact sums (core/xsum.h), so they do not depend on the order of the contacts. */
#include "contact/contact.h"
#include "core/comm.h"
#include "core/xsum.h"
#include "measure/measure.h"

void periodic_stress_sums(const cairn_world *w, int control, xsum acc[PERIODIC_SUMS],
                          int64_t *n_contacts) {
  const ball_store *b = &w->balls;
  const contact_store *cs = w->contacts;
  const periodic_cell *pc = &w->cell;
  /* exact sums: the same stress whatever the order of the contacts (core/xsum.h): sigma_ij V
     (0-8), sum (n_i l_i)^2 per axis (9-11), the balls' stiffness sums (12) */
  for (int k = 0; k < PERIODIC_SUMS; k++) xsum_init(&acc[k]);
  int64_t nc = 0;
  for (size_t c = 0; c < cs->n; c++) {
    /* (under MPI each contact once: on the rank that books it) */
    if (!cs->active[c] || !rank_books_contact(w, cs->kind[c], cs->a[c], cs->b[c])) continue;
    const double *n = cs->normal[c], *f = cs->force[c];
    double len = contact_branch_length(w, (uint32_t)c);
    for (int i = 0; i < w->dim; i++) {
      /* (the control reads only its axes' normal stress and stiffness: an exact sum costs as
         much as the contact's force law, so each step forms no more) */
      if (control && !pc->servo[i]) continue;
      for (int j = 0; j < w->dim; j++)
        if (!control || j == i) xsum_add(&acc[3 * i + j], f[i] * len * n[j]);
      double q = n[i] * len * n[i]; /* n_i l_i, l = len n */
      xsum_add(&acc[9 + i], q * q);
    }
    nc++;
  }
  for (size_t i = 0; i < balls_owned(w); i++) xsum_add(&acc[12], b->k_tran[i]);
  *n_contacts = nc;
}

void periodic_stress_value(const cairn_world *w, xsum acc[PERIODIC_SUMS], int64_t n_contacts,
                           double s[9], double stiff[3]) {
  double v = periodic_volume(&w->cell, w->dim);
  for (int k = 0; k < 9; k++) s[k] = xsum_value(&acc[k]) / v;
  if (!stiff) return;
  /* d sigma_jj / d eps_jj = (1/V) sum_c k_c (n_j l_j)^2 with k_c a contact's normal stiffness;
     the stiffness is taken as the mean over the contacts of what the balls' sums hold
     (normal and shear, each contact counted at both ends): an estimate on the stiff side,
     which only slows the control down. */
  double kc = n_contacts ? 0.5 * xsum_value(&acc[12]) / (double)n_contacts : 0.0;
  for (int j = 0; j < 3; j++) stiff[j] = kc * xsum_value(&acc[9 + j]) / v;
}

void periodic_stress(const cairn_world *w, double s[9], double stiff[3]) {
  xsum acc[PERIODIC_SUMS];
  int64_t nc;
  periodic_stress_sums(w, 0, acc, &nc);
  if (w->par) { /* every rank's part (every rank calls this at once) */
    comm_xsum(acc, PERIODIC_SUMS);
    comm_sum_i64(&nc, 1);
  }
  periodic_stress_value(w, acc, nc, s, stiff);
}

void wall_torque(const cairn_world *w, uint32_t slot, double t[3]) {
  const contact_store *cs = w->contacts;
  const ball_store *bs = &w->balls;
  const wall *wl = &w->walls.w[slot];
  xsum tx[3]; /* exact: the same whatever the order of the contacts */
  for (int i = 0; i < 3; i++) xsum_init(&tx[i]);
  for (size_t c = 0; c < cs->n; c++) {
    if (cs->kind[c] != CAIRN_KIND_BALL_WALL || cs->a[c] != slot) continue;
    uint32_t b = cs->b[c];
    /* the contact point: on the normal through the ball's centre, in the middle of the overlap */
    double pt[3], r[3], f[3], m[3];
    v3_scale(cs->normal[c], -(bs->rad[b] + 0.5 * cs->gap[c]), pt);
    v3_add(bs->pos[b], pt, pt);
    v3_sub(pt, wl->centre, r);
    v3_scale(cs->force[c], -1.0, f); /* on the wall */
    v3_cross(r, f, m);
    for (int i = 0; i < 3; i++) xsum_add(&tx[i], m[i]);
  }
  if (w->par) comm_xsum(tx, 3); /* (every rank's contacts; every rank calls this at once) */
  for (int i = 0; i < 3; i++) t[i] = xsum_value(&tx[i]);
  if (w->dim == 2) t[0] = t[1] = 0;
}

cairn_status mesh_triangle_forces(const cairn_world *w, uint32_t slot, double (*f)[3],
                                  cairn_diag *d) {
  const contact_store *cs = w->contacts;
  const ball_store *bs = &w->balls;
  const wall *wl = &w->walls.w[slot];
  const wall_mesh *m = wl->mesh;
  size_t nt = m->nt;
  xsum *x = mem_realloc(NULL, 0, 3 * nt * sizeof *x, "mesh:forces");
  CAIRN_CHECK(x, d, CAIRN_ENOMEM, "out of memory summing a mesh's %zu triangle forces", nt);
  for (size_t i = 0; i < 3 * nt; i++) xsum_init(&x[i]);
  double r[3][3];
  quat_matrix(wl->orient, r);
  for (size_t c = 0; c < cs->n; c++) {
    if (cs->kind[c] != CAIRN_KIND_BALL_WALL || cs->a[c] != slot) continue;
    uint32_t b = cs->b[c];
    /* the contact's point on the mesh (the ball's centre less its distance along the normal),
       in the mesh's frame: its triangle is the mesh's nearest to it */
    double pt[3], e[3], pl[3], q[3];
    v3_scale(cs->normal[c], -(bs->rad[b] + cs->gap[c]), pt);
    v3_add(bs->pos[b], pt, pt);
    v3_sub(pt, wl->centre, e);
    for (int i = 0; i < 3; i++) pl[i] = r[0][i] * e[0] + r[1][i] * e[1] + r[2][i] * e[2];
    uint32_t t;
    double hf;
    if (!mesh_closest(m, pl, bs->rad[b] + 1e-9 * m->h, q, &t, &hf)) continue;
    for (int i = 0; i < 3; i++) xsum_add(&x[3 * (size_t)t + (size_t)i], -cs->force[c][i]);
  }
  if (w->par) comm_xsum(x, (int)(3 * nt));
  for (size_t t = 0; t < nt; t++)
    for (int i = 0; i < 3; i++) f[t][i] = xsum_value(&x[3 * t + (size_t)i]);
  mem_free(x, 0);
  return CAIRN_OK;
}
