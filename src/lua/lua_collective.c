/* Collective calls under MPI (docs/parallel.md, "Collective calls"). Every rank runs the whole
   script, and a call that waits for the other ranks (a cycle, a file written by rank 0) must be
   made by every rank, in the same order: a rank that makes one alone waits forever for the
   others. So before each such call, and at the end of the script, the ranks agree on which call
   they are making (comm_same_call: one reduction of two numbers); when they differ, every rank
   stops with the same message naming each rank's call and where it stands, and the script ends
   as after any error (exit status 1, the message printed once). The calls are the values of
   script_call (lua_api.h); each entry point names its own at its start. On one process there is
   nothing to agree on. */
#include <string.h>

#include "core/comm.h"
#include "lua/lua_api.h"

static const char *const WHAT[CALL_COUNT] = {
    [CALL_END] = "reached the end of the script",
    [CALL_MODEL_CYCLE] = "called model.cycle",
    [CALL_MODEL_SOLVE] = "called model.solve",
    [CALL_MODEL_SAVE] = "called model.save",
    [CALL_VTK_WRITE] = "called vtk.write",
    [CALL_VTK_EVERY] = "called vtk.every",
    [CALL_HISTORY_EXPORT] = "called history.export",
    [CALL_PLOT_HISTORY] = "called plot.history",
    [CALL_VTK_RENDER] = "called vtk.render",
    [CALL_CRACKS_EXPORT] = "called contact.cracks{export = ...}",
    [CALL_HISTORY_RETURN] = "returned from history '%s'",
    [CALL_CALLBACK_RETURN] = "returned from the %s callbacks",
    [CALL_LAB_WRITE_CSV] = "called lab.rock.write_csv",
    [CALL_GATHER] = "called %s, which gathers the divided model",
    [CALL_REDUCE] = "called %s, which sums over the divided model",
    [CALL_ASK] = "called %s, which the rank that owns it answers",
};

/* "rank 3", "ranks 1-3, 5": the ranks whose call matches calls[first]. */
static void rank_list(const comm_call *calls, int n, int first, char *out, size_t cap) {
  int count = 0;
  for (int r = first; r < n; r++) count += memcmp(&calls[r], &calls[first], sizeof *calls) == 0;
  size_t k = (size_t)snprintf(out, cap, "rank%s", count > 1 ? "s" : "");
  const char *sep = " ";
  for (int r = first; r < n && k < cap; r++) {
    if (memcmp(&calls[r], &calls[first], sizeof *calls) != 0) continue;
    int e = r; /* the run r..e of matching ranks */
    while (e + 1 < n && memcmp(&calls[e + 1], &calls[first], sizeof *calls) == 0) e++;
    k += (size_t)(e > r ? snprintf(out + k, cap - k, "%s%d-%d", sep, r, e)
                        : snprintf(out + k, cap - k, "%s%d", sep, r));
    sep = ", ";
    r = e;
  }
}

/* The message, the same on every rank: rank 0's position first, then each group of ranks
   making the same call, with its position where it differs. */
static void out_of_step_message(const comm_call *calls, int n, cairn_diag *d) {
  char msg[sizeof d->msg];
  const char *at = calls[0].where;
  for (int r = 0; r < n && !at[0]; r++) at = calls[r].where;
  size_t k = at[0] ? (size_t)snprintf(msg, sizeof msg, "%s: ", at) : 0;
  int groups = 0;
  for (int r = 0; r < n && k < sizeof msg; r++) {
    int seen = 0;
    for (int q = 0; q < r && !seen; q++) seen = memcmp(&calls[q], &calls[r], sizeof *calls) == 0;
    if (seen) continue;
    if (groups == 4) { /* (enough to see the point) */
      k += (size_t)snprintf(msg + k, sizeof msg - k, ", and others");
      break;
    }
    char ranks[96];
    rank_list(calls, n, r, ranks, sizeof ranks);
    int same_place = strcmp(calls[r].where, at) == 0 || !calls[r].where[0];
    k += (size_t)snprintf(msg + k, sizeof msg - k, "%s%s %s%s%s%s", groups ? " while " : "", ranks,
                          calls[r].what, same_place ? "" : " (", same_place ? "" : calls[r].where,
                          same_place ? "" : ")");
    groups++;
  }
  if (k < sizeof msg)
    snprintf(msg + k, sizeof msg - k,
             ": collective calls must be made by every rank, in the same order "
             "(docs/parallel.md, Collective calls); make them outside any test of "
             "model.ranks().rank");
  diag_set(d, CAIRN_EINVAL, "%s", msg);
}

cairn_status collective_agree(lua_State *L, script_call k, const char *name, cairn_diag *d) {
  if (comm_size() <= 1) return CAIRN_OK;
  comm_call mine;
  memset(&mine, 0, sizeof mine);
  mine.code = (int32_t)k;
  snprintf(mine.what, sizeof mine.what, WHAT[k], name ? name : "");
  /* where: the script's line that made the call (the first Lua function up the stack: the call
     may come through pcall) */
  lua_Debug ar;
  for (int level = 1; k != CALL_END && k != CALL_HISTORY_RETURN && k != CALL_CALLBACK_RETURN &&
                      lua_getstack(L, level, &ar);
       level++)
    if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0) {
      snprintf(mine.where, sizeof mine.where, "%s:%d", ar.short_src, ar.currentline);
      break;
    }
  const comm_call *all;
  if (comm_same_call(&mine, &all)) return CAIRN_OK;
  out_of_step_message(all, comm_size(), d);
  return CAIRN_EINVAL;
}

void collective_call(lua_State *L, script_call k) {
  cairn_diag d;
  if (collective_agree(L, k, NULL, &d) == CAIRN_OK) return;
  lua_pushstring(L, d.msg); /* (the message carries its position: rank 0's) */
  lua_error(L);
}
