# Progress shows on stderr only when it is a terminal, and --quiet silences it. The terminal is
# a pseudo-terminal from util-linux's `script`.
execute_process(COMMAND ${CAIRN} run ${SCRIPT} RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
  message(FATAL_ERROR "not a terminal: expected no stderr, got status ${rc}: '${err}'")
endif()
find_program(SCRIPT_PROG script)
if(NOT SCRIPT_PROG)
  message(STATUS "skipped the terminal half: no `script` program")
  return()
endif()
execute_process(COMMAND ${SCRIPT_PROG} -qec "${CAIRN} run ${SCRIPT}" /dev/null
                RESULT_VARIABLE rc OUTPUT_VARIABLE tty)
# (SHORT_CALLS: the script cycles in many short calls, which show the status line but no
# fraction of a call or time left)
if(NOT rc EQUAL 0 OR NOT tty MATCHES "steps/s" OR (NOT SHORT_CALLS AND NOT tty MATCHES "left"))
  message(FATAL_ERROR "on a terminal: expected progress, got status ${rc}: '${tty}'")
endif()
execute_process(COMMAND ${SCRIPT_PROG} -qec "${CAIRN} run ${SCRIPT} --quiet" /dev/null
                RESULT_VARIABLE rc OUTPUT_VARIABLE quiet)
if(NOT rc EQUAL 0 OR quiet MATCHES "steps/s")
  message(FATAL_ERROR "--quiet: expected no progress, got status ${rc}: '${quiet}'")
endif()
