# Source written for an older contact-model ABI (old_abi.c, one construct per OLD_* macro) must
# fail to compile against this contact_model.h, and the compiler's message must name the porting
# guide (the trap type cairn_abi5_renamed_see_porting_guide_in_docs_writing_a_contact_model_md).
# COMPILER is the C or C++ compiler, LANG "c" or "c++"; INCLUDE the header's folder. The same
# file without any OLD_* macro must compile, so a failure is the trap's and nothing else's.
set(guide "cairn_abi5_renamed_see_porting_guide_in_docs_writing_a_contact_model_md")
set(flags -fsyntax-only -Wall -x ${LANG} -I${INCLUDE})
if(LANG STREQUAL "c")
  list(APPEND flags -std=c99 -pedantic)
else()
  list(APPEND flags -std=c++11 -pedantic)
endif()
execute_process(COMMAND ${COMPILER} ${flags} ${SOURCE} RESULT_VARIABLE rc ERROR_VARIABLE err
                OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT "${err}${out}" STREQUAL "")
  message(FATAL_ERROR "old_abi.c without an OLD_* construct does not compile cleanly: ${err}${out}")
endif()
foreach(what STATE_FLAG VEL ANGVEL FORCE FORCE_ADD MOMENT VEL_PASSED FORCE_PASSED)
  execute_process(COMMAND ${COMPILER} ${flags} -DOLD_${what} ${SOURCE} RESULT_VARIABLE rc
                  ERROR_VARIABLE err OUTPUT_VARIABLE out)
  if(rc EQUAL 0)
    message(FATAL_ERROR "OLD_${what} (${LANG}): the old source compiles: ${err}${out}")
  endif()
  # (the guide is named on the error line, or on the note that goes with it: an argument's type)
  string(REGEX MATCH "[^\n]*(error|note)[^\n]*${guide}[^\n]*" line "${err}${out}")
  if(line STREQUAL "")
    message(FATAL_ERROR "OLD_${what} (${LANG}): no message naming the porting guide: ${err}${out}")
  endif()
  message(STATUS "OLD_${what} (${LANG}): ${line}")
endforeach()
