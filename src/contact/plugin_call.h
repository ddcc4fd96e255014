/* Which plugin function a thread is running, for the report of a crash inside it. A plugin runs
   in cairn's process: a fault in its code (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT of a failed
   assert) or a call of exit() ends the run. The engine marks each call into a plugin's function
   (not the built-in models') with PLUGIN_CALL_ENTER / PLUGIN_CALL_LEAVE, and the command's signal
   and exit handlers read the mark of the thread (cairn_plugin_call_now) to say which plugin,
   model and function crashed. */
#ifndef CAIRN_PLUGIN_CALL_H
#define CAIRN_PLUGIN_CALL_H

typedef struct plugin_call {
  const char *model, *source, *function; /* function NULL: no plugin call under way */
} plugin_call;

extern _Thread_local plugin_call cairn_plugin_call;

/* Whether this thread has an alternate signal stack (plugin_call_thread_init). */
extern _Thread_local int cairn_plugin_thread_ready;
/* Give the calling thread an alternate signal stack, once (it keeps one it has, a sanitizer's):
   a plugin that recurses without bound overflows the stack of the thread running it, and the
   crash handler can run only on another stack. Called on a thread's first plugin call, so a
   thread that never runs a plugin (and a run without plugins) pays nothing; one test of a
   thread-local flag per call after that. */
void plugin_call_thread_init(void);

#define PLUGIN_CALL_ENTER(e, fn)                                                                   \
  do {                                                                                             \
    if ((e)->plugin) {                                                                             \
      if (!cairn_plugin_thread_ready) plugin_call_thread_init();                                   \
      cairn_plugin_call.model = (e)->m->name;                                                      \
      cairn_plugin_call.source = (e)->source;                                                      \
      cairn_plugin_call.function = (fn);                                                           \
    }                                                                                              \
  } while (0)
#define PLUGIN_CALL_LEAVE(e)                                                                       \
  do {                                                                                             \
    if ((e)->plugin) cairn_plugin_call.function = 0;                                               \
  } while (0)

/* The calling thread's mark (async-signal-safe: a read of thread-local storage). */
const plugin_call *cairn_plugin_call_now(void);

#endif
