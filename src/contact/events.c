/* Contact events: the queue the force pass and detection fill for the script layer's callbacks,
   and the call of the script layer's hook at points of the cycle. */
#include "contact/events.h"

#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"
#include "core/comm.h"

void world_event(cairn_world *w, world_event_type ev, uint32_t c, int mode) {
  event_queue *q = w->events;
  if (!(q->mask >> ev & 1)) return;
  const contact_store *cs = w->contacts;
  if (!rank_books_contact(w, cs->kind[c], cs->a[c], cs->b[c])) return;
  if (q->n == q->cap &&
      mem_grow((void **)&q->rec, &q->cap, q->n + 1, sizeof *q->rec, "events", NULL) != CAIRN_OK)
    return;
  event_rec *e = &q->rec[q->n++];
  memset(e, 0, sizeof *e); /* (its padding too: records travel between MPI ranks as bytes) */
  e->type = (uint8_t)ev;
  e->kind = (uint8_t)(cs->kind[c] + cs->sub[c]); /* (a mesh's further contacts: as in their key) */
  e->mode = mode;
  e->seq = q->n - 1;
  contact_ids(w, c, &e->id1, &e->id2);
}

/* An event's contact's key (contact_key: contact.list's order; a ball-wall contact's key names
   the wall first). */
static uint64_t event_key(const event_rec *e) {
  return e->kind == CAIRN_KIND_BALL_BALL ? contact_key(e->kind, e->id1, e->id2)
                                         : contact_key(e->kind, e->id2, e->id1);
}

/* By contact, then in the order they came. */
static int event_cmp(const void *x, const void *y) {
  const event_rec *a = x, *b = y;
  uint64_t ka = event_key(a), kb = event_key(b);
  if (ka != kb) return ka < kb ? -1 : 1;
  return (a->seq > b->seq) - (a->seq < b->seq);
}

cairn_status events_batch(cairn_world *w, event_rec **out, size_t *n, cairn_diag *d) {
  event_queue *q = w->events;
  *out = NULL, *n = 0;
  if (!w->par) {
    if (!q->n) return CAIRN_OK;
    *out = mem_realloc(NULL, 0, q->n * sizeof **out, "events");
    CAIRN_CHECK(*out, d, CAIRN_ENOMEM, "out of memory passing %zu contact events to callbacks",
                q->n);
    memcpy(*out, q->rec, q->n * sizeof **out);
    *n = q->n;
  } else { /* every rank's (a contact's events are all queued by the rank that books it) */
    size_t *counts = calloc((size_t)comm_size(), sizeof *counts), cap = 0;
    cairn_status s =
        counts ? CAIRN_OK : diag_set(d, CAIRN_ENOMEM, "out of memory gathering contact events");
    s = comm_agree(s, d);
    if (s == CAIRN_OK)
      s = comm_gather_all(q->rec, q->n * sizeof *q->rec, (void **)out, &cap, counts, d);
    for (int r = 0; s == CAIRN_OK && r < comm_size(); r++) *n += counts[r] / sizeof **out;
    free(counts);
    if (s != CAIRN_OK) {
      mem_free(*out, 0);
      *out = NULL, *n = 0;
      q->n = 0;
      return s;
    }
  }
  q->n = 0;
  qsort(*out, *n, sizeof **out, event_cmp);
  return CAIRN_OK;
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
