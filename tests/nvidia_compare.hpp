// Comparison with NVIDIA's host conversions from cuda_fp8.h (__nv_cvt_float_to_fp8,
// __nv_cvt_double_to_fp8). They follow docs/spec.md but for one documented difference: NaN becomes
// 0x7F whatever its sign. Expected = NVIDIA's code, with the input's sign on NaN.
#ifndef MINIFLOAT_TESTS_NVIDIA_COMPARE_HPP
#define MINIFLOAT_TESTS_NVIDIA_COMPARE_HPP

#include <cuda_fp8.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include <minifloat/minifloat.hpp>

#include "sweep.hpp"
#include "ieee.hpp"

namespace nvidia_compare {

// The floats the exhaustive comparisons with NVIDIA's code take: a quarter of all floats, 2^30
// of them spread over the whole range (bit patterns j * 0x9E3779B1 for j < 2^30: the multiplier
// is odd, so they are distinct, and they cover every exponent and every pattern of low bits), or
// all 2^32 with MINIFLOAT_NVIDIA_ALL_FLOATS=1 (four times as long: CI takes the quarter to stay
// within its time; the library itself is swept over every float against the reference in
// exhaustive_test). NVIDIA's host conversions are a second oracle, and the slow one.
class float_sample {
public:
  float_sample() {
    const char* all = std::getenv("MINIFLOAT_NVIDIA_ALL_FLOATS");
    every_float_ = all != nullptr && std::strcmp(all, "1") == 0;
  }
  std::uint64_t count() const { return std::uint64_t{1} << (every_float_ ? 32 : 30); }
  // The bits of the j-th float of the sample.
  std::uint32_t bits(std::uint64_t j) const {
    return every_float_ ? static_cast<std::uint32_t>(j)
                        : static_cast<std::uint32_t>(j * 0x9E3779B1U);
  }
  const char* name() const { return every_float_ ? "every float" : "a quarter of the floats"; }

private:
  bool every_float_ = false;
};

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
