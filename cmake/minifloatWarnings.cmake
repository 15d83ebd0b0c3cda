# minifloat_warnings(target): the warning flags for minifloat's own targets (tests, examples,
# benchmarks). The library headers must stay clean under them for every consumer.
function(minifloat_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE
                           $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wconversion>)
    if(MINIFLOAT_WERROR)
      target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
    endif()
  endif()
  # nvcc: its own warnings, and the host compiler's, are errors too.
  target_compile_options(${target} PRIVATE
                         $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings -Xcompiler=-Wall,-Wextra>)
endfunction()
