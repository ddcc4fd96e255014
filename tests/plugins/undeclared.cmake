# A model that reads an input it does not declare in 'needs' (MODEL, one of undeclared.c's) gets
# it as NaN, so its force is not finite and the run stops at once: exit status 1 (a script error,
# docs/writing-a-contact-model.md, section 7) and one message naming the contact, the model, the
# step and the declaration it lacks (NEED), in the message shape of a script error (file:line).
set(ENV{CAIRN_TEST_PLUGINS} ${PLUGINS})
set(ENV{CAIRN_UNDECLARED_MODEL} ${MODEL})
execute_process(COMMAND ${CAIRN} run ${SCRIPT} RESULT_VARIABLE rc ERROR_VARIABLE err
                OUTPUT_VARIABLE out)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "expected exit status 1, got ${rc}: ${err}${out}")
endif()
if(out MATCHES "FAILED")
  message(FATAL_ERROR "the run went on: ${out}")
endif()
string(CONCAT want
       "undeclared_script.lua:[0-9]+: ball-ball contact 1-2: contact model '${MODEL}' \\([^)]*"
       "libundeclared.so\\) returned a non-finite (force|moment) \\([^)]*NaN[^)]*\\) at step "
       "[0-9]+; it does not declare ${NEED}, so ${INPUTS} NaN in its input: if it reads [a-z]+, "
       "add ${NEED} to its 'needs'; else check its properties \\(contact.props\\) and the "
       "model's law")
string(REGEX MATCHALL "\n" lines "${err}")
list(LENGTH lines n_lines)
if(NOT err MATCHES "${want}" OR NOT n_lines EQUAL 1)
  message(FATAL_ERROR "not one message naming ${NEED}: ${err}")
endif()
message(STATUS "ok: ${err}")
