# Run `cairn run SCRIPT` and require exit status 1 and the expected message on stderr.
# The expected text is the first line of the script: "-- expect: <text>".
file(STRINGS ${SCRIPT} first LIMIT_COUNT 1)
string(REGEX REPLACE "^-- expect: " "" expected "${first}")
# file(STRINGS) escapes ';' as '\;' (a list separator); messages use ';' before what to do.
string(REPLACE "\\;" ";" expected "${expected}")
execute_process(COMMAND ${CAIRN} run ${SCRIPT} RESULT_VARIABLE rc ERROR_VARIABLE err
                OUTPUT_VARIABLE out)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "expected exit status 1, got ${rc}; stderr: ${err}")
endif()
string(FIND "${err}" "${expected}" pos)
if(pos EQUAL -1)
  message(FATAL_ERROR "stderr does not contain '${expected}':\n${err}")
endif()
message(STATUS "ok: ${err}")
