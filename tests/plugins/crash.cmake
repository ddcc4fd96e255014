# A plugin whose force function ends the run (MODEL, one of crasher.c's: a fault, a stack
# overflow, a failed assert, exit(0)): exit status 3, one message naming the plugin file, the model
# and the function and saying how it ended, and the save written before the end intact (it
# restores).
if(MODEL STREQUAL "asserter")
  set(how "crashed with an abort \\(SIGABRT; a failed assert is one\\)")
elseif(MODEL STREQUAL "exiter")
  set(how "called exit\\(\\)")
else() # crasher, overflower
  set(how "crashed with a segmentation fault \\(SIGSEGV\\)")
endif()
set(ENV{CAIRN_TEST_PLUGINS} ${PLUGINS})
set(ENV{CAIRN_CRASH_MODEL} ${MODEL})
file(REMOVE ${WORK}/before_${MODEL}.sav)
execute_process(COMMAND ${CAIRN} run ${SCRIPT} WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc
                ERROR_VARIABLE err OUTPUT_VARIABLE out)
if(NOT rc EQUAL 3)
  message(FATAL_ERROR "expected exit status 3, got ${rc}: ${err}${out}")
endif()
set(head "cairn: the plugin [^ ]*libcrasher.so ")
set(tail " in contact model '${MODEL}', function force; a plugin runs inside cairn's process")
string(REGEX MATCHALL "cairn: the plugin" reports "${err}")
list(LENGTH reports n_reports)
# (a failed assert prints its own line first: the C library's, before the abort)
if(NOT n_reports EQUAL 1 OR NOT err MATCHES "${head}${how}${tail}[^\n]*\n$")
  message(FATAL_ERROR "not one message naming the plugin, '${MODEL}' and force: ${err}")
endif()
if(MODEL STREQUAL "exiter" AND NOT out MATCHES "saved before the exiter runs")
  message(FATAL_ERROR "what the script printed before the exit was lost: ${out}")
endif()
file(WRITE ${WORK}/restore_after_${MODEL}.lua
     "model.load(os.getenv('CAIRN_TEST_PLUGINS') .. '/libcrasher.so')\n"
     "model.restore('before_${MODEL}.sav')\nprint('restored', ball.count())\n")
execute_process(COMMAND ${CAIRN} run ${WORK}/restore_after_${MODEL}.lua WORKING_DIRECTORY ${WORK}
                RESULT_VARIABLE rc2 OUTPUT_VARIABLE out2 ERROR_VARIABLE err2)
if(NOT rc2 EQUAL 0 OR NOT out2 MATCHES "restored\t2")
  message(FATAL_ERROR "the save written before the crash did not restore: ${rc2} ${out2}${err2}")
endif()
message(STATUS "ok: ${err}")
