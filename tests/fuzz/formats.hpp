// The fuzzers' one-byte types, numbered as the harnesses' input bytes number them.
#ifndef MINIFLOAT_TESTS_FUZZ_FORMATS_HPP
#define MINIFLOAT_TESTS_FUZZ_FORMATS_HPP

#include <minifloat/minifloat.hpp>

#include "../reference.hpp"

namespace fuzz {

// The number of types the harnesses pick from.
constexpr unsigned format_count = 13;

// Calls f(T{}, reference format of T) for the type number `index` (mod format_count): the
// nine 8-bit types, then the MX elements and the NVFP4 scale.
template <class F>
inline void with_format(unsigned index, F f) {
  switch (index % format_count) {
  case 0:
    return f(minifloat::e4m3{}, reference::e4m3);
  case 1:
    return f(minifloat::e5m2{}, reference::e5m2);
  case 2:
    return f(minifloat::e3m4{}, reference::e3m4);
  case 3:
    return f(minifloat::e2m5{}, reference::e2m5);
  case 4:
    return f(minifloat::e4m3_ieee{}, reference::e4m3_ieee);
  case 5:
    return f(minifloat::e4m3fnuz{}, reference::e4m3fnuz);
  case 6:
    return f(minifloat::e5m2fnuz{}, reference::e5m2fnuz);
  case 7:
    return f(minifloat::e4m3b11fnuz{}, reference::e4m3b11fnuz);
  case 8:
    return f(minifloat::e8m0{}, reference::e8m0);
  case 9:
    return f(minifloat::e2m1{}, reference::e2m1);
  case 10:
    return f(minifloat::e2m3{}, reference::e2m3);
  case 11:
    return f(minifloat::e3m2{}, reference::e3m2);
  default:
    return f(minifloat::ue4m3{}, reference::ue4m3);
  }
}

} // namespace fuzz

#endif // MINIFLOAT_TESTS_FUZZ_FORMATS_HPP
