# `cairn verify` with two cases: one line on stderr with the number of cases and the time they
# take (always), and the case it is at with the time left only on a terminal (a pseudo-terminal
# from util-linux's `script`).
execute_process(COMMAND ${CAIRN} verify free_fall_2d free_fall_3d RESULT_VARIABLE rc
                ERROR_VARIABLE err OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT err MATCHES "verify: 2 cases, about [0-9]+ (s|min) on an unloaded machine"
   OR err MATCHES "case 1 of")
  message(FATAL_ERROR "not a terminal: expected the estimate alone, got status ${rc}: '${err}'")
endif()
execute_process(COMMAND ${CAIRN} verify free_fall_2d RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR err MATCHES "cases, about")
  message(FATAL_ERROR "one case: expected no estimate, got status ${rc}: '${err}'")
endif()
find_program(SCRIPT_PROG script)
if(NOT SCRIPT_PROG)
  message(STATUS "skipped the terminal half: no `script` program")
  return()
endif()
execute_process(COMMAND ${SCRIPT_PROG} -qec "${CAIRN} verify free_fall_2d free_fall_3d" /dev/null
                RESULT_VARIABLE rc OUTPUT_VARIABLE tty)
if(NOT rc EQUAL 0 OR NOT tty MATCHES "verify: case 2 of 2, about [0-9]+ (s|min) left")
  message(FATAL_ERROR "on a terminal: expected the case and the time left, got status ${rc}: '${tty}'")
endif()
