# A plugin that crashes in its force function: exit status 3, one message naming the plugin file,
# the model and the function, and the save written before the crash intact (it restores).
set(ENV{CAIRN_TEST_PLUGINS} ${PLUGINS})
file(REMOVE ${WORK}/before_crash.sav)
execute_process(COMMAND ${CAIRN} run ${SCRIPT} WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc
                ERROR_VARIABLE err OUTPUT_VARIABLE out)
if(NOT rc EQUAL 3)
  message(FATAL_ERROR "expected exit status 3, got ${rc}: ${err}${out}")
endif()
if(NOT err MATCHES "cairn: the plugin [^ ]*libcrasher.so crashed with a segmentation fault \\(SIGSEGV\\) in contact model 'crasher', function force;")
  message(FATAL_ERROR "unexpected message: ${err}")
endif()
file(WRITE ${WORK}/restore_after_crash.lua
     "model.load(os.getenv('CAIRN_TEST_PLUGINS') .. '/libcrasher.so')\n"
     "model.restore('before_crash.sav')\nprint('restored', ball.count())\n")
execute_process(COMMAND ${CAIRN} run ${WORK}/restore_after_crash.lua WORKING_DIRECTORY ${WORK}
                RESULT_VARIABLE rc2 OUTPUT_VARIABLE out2 ERROR_VARIABLE err2)
if(NOT rc2 EQUAL 0 OR NOT out2 MATCHES "restored\t2")
  message(FATAL_ERROR "the save written before the crash did not restore: ${rc2} ${out2}${err2}")
endif()
message(STATUS "ok: ${err}")
