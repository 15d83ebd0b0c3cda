// Every public header in one translation unit, for clang-tidy (.clang-tidy; CI fails on any
// finding in include/minifloat/).
#include <minifloat/minifloat.hpp>

#include <minifloat/eigen.hpp>
#include <minifloat/fmt.hpp>
#include <minifloat/std_format.hpp>
