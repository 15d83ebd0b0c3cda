# cmake -DNVCC=... -DSOURCE=... -DINCLUDE=... -DOUTPUT=... -P check_ptx.cmake
# Compiles SOURCE to PTX for sm_90 and checks that the saturating narrowings use the hardware
# conversion instructions. Needs nvcc, not a GPU.
execute_process(COMMAND "${NVCC}" -std=c++17 -arch=sm_90 -ptx -I "${INCLUDE}" "${SOURCE}" -o
                        "${OUTPUT}" RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "nvcc failed to compile ${SOURCE} to PTX")
endif()
file(READ "${OUTPUT}" ptx)
foreach(instruction "cvt.rn.satfinite.e4m3x2.f32" "cvt.rn.satfinite.e5m2x2.f32")
  string(FIND "${ptx}" "${instruction}" position)
  if(position EQUAL -1)
    message(FATAL_ERROR "${instruction} is not in the PTX: the hardware conversion is not used")
  endif()
  message(STATUS "found ${instruction}")
endforeach()
