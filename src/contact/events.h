/* Contact events (events.c): a queue of what happened to contacts this step (made, deleted,
   activated, slip, bond break) for the script layer's callbacks, filled only for the events
   someone listens to. */
#ifndef CAIRN_EVENTS_H
#define CAIRN_EVENTS_H

#include "world/world.h"

/* Event hook: the script layer receives engine and model events. */
typedef enum world_event {
  EV_CONTACT_CREATED = 0,
  EV_CONTACT_DELETED,
  EV_CONTACT_ACTIVATED,
  EV_SLIP_CHANGE,
  EV_BOND_BREAK,
  EV_COUNT
} world_event_type;

typedef struct event_rec {
  uint8_t type; /* world_event */
  uint8_t kind; /* contact kind */
  int mode;
  int64_t id1, id2; /* ball-ball: lower, higher id; ball-wall: ball id, wall id */
  uint64_t seq;     /* its place in the queue: a contact's events in the order they came */
} event_rec;

typedef struct event_queue {
  unsigned mask; /* bit per world_event that someone listens to */
  size_t n, cap;
  event_rec *rec;
} event_queue;

/* Queue an event about contact c if someone listens to it. Never fails: an event that cannot
   be queued for lack of memory is dropped. */
void world_event(cairn_world *w, world_event_type ev, uint32_t c, int mode);
/* Call the script layer's hook, if any, for point p (without one the queue is emptied). */
cairn_status world_call_hook(cairn_world *w, hook_point p, cairn_diag *d);
/* Listen to the events whose bits are set in mask (the script layer's callbacks). */
void events_listen(cairn_world *w, unsigned mask);
/* Whether anyone listens to any event. */
unsigned events_mask(const cairn_world *w);
/* The next batch of events for the callbacks, in an order that depends on nothing but the
   contacts: every event queued so far, by contact (kind, then the ids) and, for one contact, in
   the order they came; *out (to mem_free; NULL when none) holds *n of them, and the queue is
   emptied, so that the events the callbacks cause make the next batch. Under MPI decomposition
   a collective: every rank's events (each queued by the rank that books its contact) reach every
   rank, so that every rank calls the same callbacks in the same order, as one process does.
   Fails only for lack of memory (every rank's failure shared). */
cairn_status events_batch(cairn_world *w, event_rec **out, size_t *n, cairn_diag *d);
/* The queued events (n of them), read in place; events_clear empties the queue. */
const event_rec *events_queued(const cairn_world *w, size_t *n);
void events_clear(cairn_world *w);
void events_free(event_queue *q);

#endif
