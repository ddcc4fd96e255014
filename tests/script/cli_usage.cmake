# Command-line usage (design.md, Command line): exit status 0 ok, 1 a script or input error,
# 2 a usage error. Runs CAIRN with each case below and checks its exit status and output.
set(failures "")

# check(<expected rc> <stream: out|err> <text> <args...>)
function(check want stream text)
  execute_process(COMMAND ${CAIRN} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  set(cmd "cairn ${ARGN}")
  if(NOT rc STREQUAL "${want}")
    set(failures "${failures}\n  ${cmd}: exit status ${rc}, expected ${want}; stderr: ${err}"
        PARENT_SCOPE)
    return()
  endif()
  string(FIND "${${stream}}" "${text}" pos)
  if(pos EQUAL -1)
    set(failures "${failures}\n  ${cmd}: std${stream} lacks '${text}':\n${${stream}}" PARENT_SCOPE)
    return()
  endif()
  message(STATUS "ok: ${cmd} -> ${rc}")
endfunction()

check(2 err "usage: cairn run SCRIPT.lua")
check(2 err "usage: cairn run SCRIPT.lua" bogus)
check(2 err "cairn: unknown command 'bogus'" bogus)
check(0 out "cairn " --version)
check(0 out "contact-model ABI" --version)
check(0 out "usage: cairn run SCRIPT.lua" --help)
check(2 err "cairn verify: no case 'no_such_case'" verify no_such_case)
check(2 err "usage: cairn run SCRIPT.lua" run)
check(2 err "unknown option '--bogus' for run" run x.lua --bogus)
check(1 err "cannot open no_such_script.lua: No such file or directory" run no_such_script.lua)
check(2 err "usage: cairn run SCRIPT.lua" plot)
check(2 err "cairn: plot needs a CSV file" plot)
check(2 err "--labels needs one legend per column of --y and --y2, in order (1 columns, 2 labels)"
      plot h.csv --y a --labels x,y)
check(2 err "--styles needs one style per column of --y and --y2" plot h.csv --y a --styles line,points)
check(1 err "cairn models: no contact model 'no_such_model'; run `cairn models` to list them"
      models no_such_model)

if(failures)
  message(FATAL_ERROR "CLI usage checks failed:${failures}")
endif()
