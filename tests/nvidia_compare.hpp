// Comparison with NVIDIA's host conversions from cuda_fp8.h (__nv_cvt_float_to_fp8,
// __nv_cvt_double_to_fp8). They follow docs/spec.md but for one documented difference: NaN becomes
// 0x7F whatever its sign. Expected = NVIDIA's code, with the input's sign on NaN.
#ifndef MINIFLOAT_TESTS_NVIDIA_COMPARE_HPP
#define MINIFLOAT_TESTS_NVIDIA_COMPARE_HPP

#include <cuda_fp8.h>

#include <cmath>

#include <minifloat/minifloat.hpp>

#include "sweep.hpp"
#include "ieee.hpp"

namespace nvidia_compare {

template <class Source>
unsigned expected(Source x, __nv_saturation_t saturation, __nv_fp8_interpretation_t format) {
  unsigned code;
  if constexpr (sizeof(Source) == 4) {
    code = __nv_cvt_float_to_fp8(x, saturation, format);
  } else {
    code = __nv_cvt_double_to_fp8(x, saturation, format);
  }
  if (ieee::isnan(x) && ieee::signbit(x)) {
    code |= 0x80u; // the one difference: docs/spec.md keeps NaN's sign
  }
  return code;
}

// Compares the library's four float/double -> {e4m3, e5m2} x {non-saturating, saturating}
// conversions with NVIDIA's for one input.
template <class Source>
void compare(sweep::local_tally& tally, Source x, std::uint64_t input_id) {
  using minifloat::e4m3;
  using minifloat::e5m2;
  tally.check(e4m3(x).bits(), expected(x, __NV_NOSAT, __NV_E4M3), "e4m3", input_id);
  tally.check(minifloat::saturate_cast<e4m3>(x).bits(), expected(x, __NV_SATFINITE, __NV_E4M3),
              "e4m3 satfinite", input_id);
  tally.check(e5m2(x).bits(), expected(x, __NV_NOSAT, __NV_E5M2), "e5m2", input_id);
  tally.check(minifloat::saturate_cast<e5m2>(x).bits(), expected(x, __NV_SATFINITE, __NV_E5M2),
              "e5m2 satfinite", input_id);
}

} // namespace nvidia_compare

#endif // MINIFLOAT_TESTS_NVIDIA_COMPARE_HPP
