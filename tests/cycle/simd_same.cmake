# The vector kernels give the same bits as the baseline ones (cairn/simd.h): tests/cycle/
# simd_run.lua run with the CPU's kernels (AVX2 where it has them) and with CAIRN_SIMD=baseline
# must write the same file, byte for byte. (On a CPU without AVX2 both runs use the baseline.)
file(MAKE_DIRECTORY ${WORKDIR})
foreach(mode native baseline)
  set(ENV{SIMD_OUT} ${WORKDIR}/simd_${mode}.txt)
  if(mode STREQUAL "baseline")
    set(ENV{CAIRN_SIMD} baseline)
  else()
    unset(ENV{CAIRN_SIMD})
  endif()
  execute_process(COMMAND ${CAIRN} run ${CMAKE_CURRENT_LIST_DIR}/simd_run.lua
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "simd_run.lua (${mode}) failed: ${err}")
  endif()
endforeach()
file(SHA256 ${WORKDIR}/simd_native.txt a)
file(SHA256 ${WORKDIR}/simd_baseline.txt b)
if(NOT a STREQUAL b)
  message(FATAL_ERROR "the vector kernels and the baseline ones differ: compare "
          "${WORKDIR}/simd_native.txt with ${WORKDIR}/simd_baseline.txt")
endif()
message(STATUS "simd: the same bits with the CPU's kernels and the baseline ones")
