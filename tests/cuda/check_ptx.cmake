# cmake -DNVCC=... -DSOURCE=... -DINCLUDE=... -DOUTPUT=... -P check_ptx.cmake
# Compiles SOURCE (ptx_satfinite.cu) to PTX for sm_90 and checks that its two kernels, the
# saturating and the non-saturating narrowings, both use the hardware conversion instructions:
# each instruction must appear twice. Needs nvcc, not a GPU.
execute_process(COMMAND "${NVCC}" -std=c++17 -arch=sm_90 -ptx -I "${INCLUDE}" "${SOURCE}" -o
                        "${OUTPUT}" RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "nvcc failed to compile ${SOURCE} to PTX")
endif()
file(READ "${OUTPUT}" ptx)
foreach(instruction "cvt.rn.satfinite.e4m3x2.f32" "cvt.rn.satfinite.e5m2x2.f32")
  string(REPLACE "." "\\." pattern "${instruction}")
  string(REGEX MATCHALL "${pattern}" found "${ptx}")
  list(LENGTH found count)
  if(NOT count EQUAL 2)
    message(FATAL_ERROR "${instruction} appears ${count} times in the PTX, not twice (once per "
                        "kernel): a narrowing does not use the hardware conversion")
  endif()
  message(STATUS "found ${instruction} in both kernels")
endforeach()
