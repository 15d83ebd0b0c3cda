// minifloat: convert_value, the one entry point of every scalar conversion (the constructors of
// fp8.hpp and the casts of convert.hpp). It asks the converter's map (converter.hpp, step2_for)
// which implementation of step 2 serves the source, target and rounding on the portable path,
// and runs it: a lane kernel of lanes.inc on one lane, or the generic steps of converter.hpp.
#ifndef MINIFLOAT_DETAIL_CONVERT_VALUE_HPP
#define MINIFLOAT_DETAIL_CONVERT_VALUE_HPP

#include "../converter.hpp"
#include "kernels_portable.hpp"
#include "narrowing_table.hpp"
#include "value_traits.hpp"

namespace minifloat {
namespace detail {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
// Step 2 variant device_instruction: sm_89 and later convert float to e4m3 / e5m2 in hardware.
// cvt.rn.satfinite is nearest-even with saturation, i.e. saturate_cast, except that NaN comes
// out as 0x7F whatever its sign; the sign is put back so that device and host agree bit for bit
// (docs/spec.md §2). PTX has no non-saturating form for these targets; the non-saturating
// conversion is the saturating one but where |x| rounds past the largest finite value (and for
// +-inf), which gives +-inf or, without infinities, NaN with the input's sign (docs/spec.md §2).
template <class Format>
struct hardware_narrowing {
  using traits = format_info<Format>;
  // The float bits of max + ulp / 2 (the bit below max's last mantissa bit set), and of the
  // first magnitude that rounds past max: that midpoint when max's code is odd (the tie goes to
  // the even code above it), the next float when it is even (the tie stays at max).
  static constexpr std::uint32_t max_bits =
      static_cast<std::uint32_t>(traits::max_normal_exponent + 127) << 23 |
      static_cast<std::uint32_t>(traits::max_finite_code & traits::mantissa_mask)
          << (23 - Format::mantissa_bits);
  static constexpr std::uint32_t first_overflowing_bits =
      (max_bits | 1U << (22 - Format::mantissa_bits)) + ((traits::max_finite_code & 1U) ^ 1U);
  static constexpr std::uint8_t overflow_code =
      traits::has_infinity ? traits::infinity_code : traits::nan_code;
};

template <class Format, overflow Overflow>
__device__ inline std::uint8_t hardware_narrow(float x) {
  unsigned short pair;
  if (std::is_same<Format, formats::e4m3>::value) {
    asm("cvt.rn.satfinite.e4m3x2.f32 %0, %2, %1;" : "=h"(pair) : "f"(x), "f"(0.0f));
  } else {
    asm("cvt.rn.satfinite.e5m2x2.f32 %0, %2, %1;" : "=h"(pair) : "f"(x), "f"(0.0f));
  }
  const auto code = static_cast<std::uint8_t>(pair & 0xFF); // x is the low half
  const std::uint32_t bits = __float_as_uint(x);
  const std::uint32_t magnitude = bits & 0x7FFFFFFFU;
  const auto sign = static_cast<std::uint8_t>(bits >> 24 & 0x80);
  if (magnitude > 0x7F800000U) { // NaN
    return static_cast<std::uint8_t>(code | sign);
  }
  if (Overflow == overflow::non_saturating &&
      magnitude >= hardware_narrowing<Format>::first_overflowing_bits) {
    return static_cast<std::uint8_t>(hardware_narrowing<Format>::overflow_code | sign);
  }
  return code;
}
template <class Format>
constexpr bool has_hardware_narrowing =
    std::is_same<Format, formats::e4m3>::value || std::is_same<Format, formats::e5m2>::value;
#endif

// Step 2 of a scalar conversion From -> To, as the map says for the portable path (whose
// addition, which depends on the environment's rounding, the scalar casts leave to the arrays:
// lane_fixed_point).
template <class From, class To, rounding_rule Rule>
MINIFLOAT_HOST_DEVICE constexpr step2_variant scalar_step2() noexcept {
  constexpr step2_variant mapped = step2_for<From, To, Rule>(portable_kernels::capabilities);
  return mapped == step2_variant::lane_addition_if_nearest ? step2_variant::lane_fixed_point
                                                           : mapped;
}

// The whole conversion: From -> To with one rounding. Even to the same type it re-encodes:
// NaN becomes the canonical NaN of the target and, when saturating, infinities become +-max.
template <class To, rounding_rule Rule, overflow Overflow, class From>
MINIFLOAT_HOST_DEVICE constexpr To convert_value(From x, std::uint32_t random_bits) {
  static_assert(value_traits<To>::is_known, "the target must be a floating-point type minifloat "
                                            "knows: an fp8 type, float, double, binary16 or "
                                            "bfloat16");
  static_assert(is_source<From>, "the source must be a floating-point type minifloat knows or "
                                 "an integer");
  using to_format = typename value_traits<To>::format;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
  if constexpr (std::is_same<From, float>::value && has_hardware_narrowing<to_format> &&
                Rule == rounding_rule::nearest_even) {
    if (!__builtin_is_constant_evaluated()) { // constant expressions take the converter
      return value_traits<To>::from_code(hardware_narrow<to_format, Overflow>(x));
    }
  }
#endif
  if constexpr (value_traits<From>::is_known) {
    using from_format = typename value_traits<From>::format;
    constexpr step2_variant variant = scalar_step2<from_format, to_format, Rule>();
    if constexpr (variant != step2_variant::generic) {
      // float, binary16, bfloat16 or double -> an 8-bit type: the lane kernel on one lane, the
      // same code as the portable path of the array functions.
#if !defined(__CUDA_ARCH__)
      // binary16 and double into such a format: the code looked up by the source's own bits
      // (narrowing_table.hpp).
      using source_table = table_narrowing<to_format, Rule, Overflow>;
      if constexpr (std::is_same<from_format, formats::binary16>::value &&
                    source_table::applies_to_binary16) {
        return value_traits<To>::from_code(
            source_table::code_of_binary16(value_traits<From>::to_code(x)));
      }
      if constexpr (std::is_same<from_format, formats::binary64>::value && source_table::applies) {
        return value_traits<To>::from_code(
            source_table::code_of_double(value_traits<From>::to_code(x)));
      }
#endif
      std::uint32_t bits = 0;
      if constexpr (std::is_same<from_format, formats::binary64>::value) {
        const std::uint64_t code = value_traits<From>::to_code(x);
        bits = portable::float_bits_rounded_to_odd(static_cast<std::uint32_t>(code >> 32),
                                                   static_cast<std::uint32_t>(code));
      } else {
        bits = portable::float_bits_of<from_format>(value_traits<From>::to_code(x));
      }
#if !defined(__CUDA_ARCH__)
      // Into a format of at most 5 mantissa bits with subnormals, or e8m0, every rounding but
      // stochastic: the lane kernel's code for these float bits looked up (narrowing_table.hpp;
      // the table lives in host memory). The fixed-point kernel took 8.1-8.5 cycles per float in
      // a loop left scalar with nearest rounding, 16-20 toward zero and upward, the lookup 2-3
      // (g++ 12, AMD Zen 5).
      using table = table_narrowing<to_format, Rule, Overflow>;
      if constexpr (table::applies) {
        return value_traits<To>::from_code(table::code(bits));
      }
#endif
      return value_traits<To>::from_code(static_cast<std::uint8_t>(
          portable::convert_float_lanes<to_format, Rule, Overflow, variant>(bits, random_bits)));
    }
  }
  return value_traits<To>::from_code(pack<to_format, Rule, Overflow>(unpack_value(x), random_bits));
}

} // namespace detail
} // namespace minifloat

#endif // MINIFLOAT_DETAIL_CONVERT_VALUE_HPP
