/* Deleting balls and walls with their contacts. The world removes a ball or a wall and knows
   nothing of contacts (docs/architecture.md: calls go down only); here, one floor up, the
   contacts that touch it are deleted first (with their energy booked), then the world removes
   it, then the contacts that named the slots it moved are renamed. */
#include "contact/contact.h"
#include "contact/energy.h"

/* Rename the contacts' ball sides by to[old slot] (balls removed or reordered). */
static void rename_balls(contact_store *cs, const uint32_t *to) {
  for (size_t c = 0; c < cs->n; c++) {
    cs->b[c] = to[cs->b[c]];
    if (cs->kind[c] == CAIRN_KIND_BALL_BALL) cs->a[c] = to[cs->a[c]];
  }
}

cairn_status contact_delete_ball(cairn_world *w, int64_t id, cairn_diag *d) {
  uint32_t s = 0;
  CAIRN_TRY(ball_slot(w, id, &s, d));
  contact_store *cs = w->contacts;
  energy_remove_ball(w, s); /* its energy leaves the books by name */
  ball_extra_drop(&w->balls, id);
  /* Delete the ball's contacts (backwards: deletion fills c from later places). */
  for (size_t c = cs->n; c-- > 0;) {
    int bb = cs->kind[c] == CAIRN_KIND_BALL_BALL;
    if (cs->b[c] == s || (bb && cs->a[c] == s)) {
      energy_remove_contact(w, (uint32_t)c);
      contact_delete(w, (uint32_t)c);
    }
  }
  uint32_t last = (uint32_t)w->balls.n - 1;
  ball_remove(w, s); /* the last ball moves into slot s */
  if (s != last)
    for (size_t c = 0; c < cs->n; c++) {
      if (cs->b[c] == last) cs->b[c] = s;
      if (cs->kind[c] == CAIRN_KIND_BALL_BALL && cs->a[c] == last) cs->a[c] = s;
    }
  return CAIRN_OK;
}

cairn_status contact_delete_marked_balls(cairn_world *w, cairn_diag *d) {
  contact_store *cs = w->contacts;
  const uint8_t *mark = w->del_mark;
  for (size_t s = 0; s < w->balls.n; s++)
    if (mark[s]) {
      energy_remove_ball(w, (uint32_t)s);
      if (w->balls.extras.n || w->balls.cum.on) ball_extra_drop(&w->balls, w->balls.id[s]);
    }
  /* their contacts: one pass, backwards (deletion fills c from later places) */
  for (size_t c = cs->n; c-- > 0;) {
    int bb = cs->kind[c] == CAIRN_KIND_BALL_BALL;
    if (mark[cs->b[c]] || (bb && mark[cs->a[c]])) {
      energy_remove_contact(w, (uint32_t)c);
      contact_delete(w, (uint32_t)c);
    }
  }
  CAIRN_TRY(balls_remove_marked(w, d));
  rename_balls(cs, w->del_remap);
  return CAIRN_OK;
}

cairn_status contact_delete_wall(cairn_world *w, int64_t id, cairn_diag *d) {
  uint32_t s = 0;
  CAIRN_TRY(wall_slot(w, id, &s, d));
  contact_store *cs = w->contacts;
  for (size_t c = cs->n; c-- > 0;)
    if (cs->kind[c] == CAIRN_KIND_BALL_WALL && cs->a[c] == s) contact_delete(w, (uint32_t)c);
  uint32_t last = (uint32_t)w->walls.n - 1;
  wall_remove(w, s); /* the last wall moves into slot s */
  if (s != last)
    for (size_t c = 0; c < cs->n; c++)
      if (cs->kind[c] == CAIRN_KIND_BALL_WALL && cs->a[c] == last) cs->a[c] = s;
  return CAIRN_OK;
}

void contact_renumber_balls(cairn_world *w, const uint32_t *to) {
  rename_balls(w->contacts, to);
  w->contacts->links.ok = 0;
}
