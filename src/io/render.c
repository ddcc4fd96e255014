/* Pictures of a VTK series (cairn render, vtk.render): python/cairn/render.py run by Debian's
   Python (VTK's Python modules draw), under a virtual X server (xvfb-run) when no display is
   set, as VTK draws through X. $CAIRN_RENDER_SCRIPT names another copy of the script. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io/io.h"

#ifndef CAIRN_RENDER_SCRIPT
#define CAIRN_RENDER_SCRIPT "python/cairn/render.py"
#endif

int io_render(const char *const *argv, int argc, char *err, size_t err_size) {
  const char *script = getenv("CAIRN_RENDER_SCRIPT");
  if (!script || !script[0]) script = CAIRN_RENDER_SCRIPT;
  const char *python = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
  if (err_size) err[0] = 0;
  if (access(script, R_OK) != 0) {
    snprintf(err, err_size,
             "cairn render: cannot read its script '%s'; set CAIRN_RENDER_SCRIPT to "
             "python/cairn/render.py of cairn's sources",
             script);
    return 1;
  }
  const char *display = getenv("DISPLAY");
  int xvfb = !(display && display[0]);
  const char **args = calloc((size_t)argc + 8, sizeof *args);
  if (!args) {
    snprintf(err, err_size, "cairn render: out of memory");
    return 1;
  }
  int n = 0;
  if (xvfb) {
    args[n++] = "xvfb-run";
    args[n++] = "-a";
    args[n++] = "-s";
    args[n++] = "-screen 0 1280x1024x24";
  }
  args[n++] = python;
  args[n++] = script;
  for (int i = 0; i < argc; i++) args[n++] = argv[i];
  args[n] = NULL;
  int pipefd[2] = {-1, -1};
  if (err_size && pipe(pipefd) != 0) pipefd[0] = pipefd[1] = -1;
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid == 0) {
    if (pipefd[1] >= 0) {
      dup2(pipefd[1], 2); /* (the messages come back to the caller) */
      close(pipefd[0]);
      close(pipefd[1]);
    }
    execvp(args[0], (char *const *)args);
    fprintf(stderr,
            "cairn render: cannot run %s (%s); install %s (Debian: apt-get install %s, or make "
            "deps)\n",
            args[0], strerror(errno), xvfb ? "xvfb-run" : "python3",
            xvfb ? "xvfb xauth" : "python3-vtk9");
    _exit(127);
  }
  free(args);
  if (pipefd[1] >= 0) close(pipefd[1]);
  size_t used = 0;
  if (pipefd[0] >= 0) { /* the messages, kept up to err_size (the rest read and dropped) */
    char buf[512];
    ssize_t k;
    while ((k = read(pipefd[0], buf, sizeof buf)) > 0 || (k < 0 && errno == EINTR))
      for (ssize_t i = 0; i < k; i++)
        if (used + 1 < err_size) err[used++] = buf[i];
    close(pipefd[0]);
    err[used] = 0;
    while (used && (err[used - 1] == '\n' || err[used - 1] == '\r')) err[--used] = 0;
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) < 0) {
    snprintf(err, err_size, "cairn render: cannot start %s: %s", python, strerror(errno));
    return 1;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status) == 127 ? 1 : WEXITSTATUS(status);
  return 1;
}
