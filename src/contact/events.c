/* Contact events: the queue the force pass and detection fill for the script layer's callbacks,
   and the call of the script layer's hook at points of the cycle. */
#include "contact/events.h"

#include "contact/contact.h"

void world_event(cairn_world *w, world_event_type ev, uint32_t c, int mode) {
  event_queue *q = w->events;
  if (!(q->mask >> ev & 1)) return;
  const contact_store *cs = w->contacts;
  if (!rank_books_contact(w, cs->kind[c], cs->a[c], cs->b[c])) return;
  if (q->n == q->cap &&
      mem_grow((void **)&q->rec, &q->cap, q->n + 1, sizeof *q->rec, "events", NULL) != CAIRN_OK)
    return;
  event_rec *e = &q->rec[q->n++];
  e->type = (uint8_t)ev;
  e->kind = (uint8_t)(cs->kind[c] + cs->sub[c]); /* (a mesh's further contacts: as in their key) */
  e->mode = mode;
  contact_ids(w, c, &e->id1, &e->id2);
}

cairn_status world_call_hook(cairn_world *w, hook_point p, cairn_diag *d) {
  if (!w->hook) {
    w->events->n = 0;
    return CAIRN_OK;
  }
  return w->hook(w->hook_ud, w, p, d);
}

void events_listen(cairn_world *w, unsigned mask) {
  w->events->mask = mask;
}

unsigned events_mask(const cairn_world *w) {
  return w->events->mask;
}

const event_rec *events_queued(const cairn_world *w, size_t *n) {
  *n = w->events->n;
  return w->events->rec;
}

void events_clear(cairn_world *w) {
  w->events->n = 0;
}

void events_free(event_queue *q) {
  mem_free(q->rec, 0);
  q->rec = NULL, q->n = q->cap = 0;
}
