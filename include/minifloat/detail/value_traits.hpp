// minifloat: which format each C++ type carries, and how to read and write its code. This is
// what lets the one converter accept float, double, binary16, bfloat16, integers and every
// 8-bit type, and produce any of them.
#ifndef MINIFLOAT_DETAIL_VALUE_TRAITS_HPP
#define MINIFLOAT_DETAIL_VALUE_TRAITS_HPP

#include "../binary16.hpp"
#include "../converter.hpp"
#include "lanes_portable.hpp"

namespace minifloat {

template <class Format>
class basic_fp8;

namespace detail {

// Primary template: not a floating-point value type minifloat knows.
template <class T>
struct value_traits {
  static constexpr bool is_known = false;
};

// A type whose object representation is the code of Format.
template <class T, class Format>
struct bit_castable_traits {
  static constexpr bool is_known = true;
  using format = Format;
  using code_type = typename format_info<Format>::storage_type;
  MINIFLOAT_HOST_DEVICE static MINIFLOAT_BIT_CAST_CONSTEXPR code_type to_code(T x) noexcept {
    return detail::bit_cast<code_type>(x);
  }
  MINIFLOAT_HOST_DEVICE static MINIFLOAT_BIT_CAST_CONSTEXPR T from_code(code_type c) noexcept {
    return detail::bit_cast<T>(c);
  }
};

template <>
struct value_traits<float> : bit_castable_traits<float, formats::binary32> {};
template <>
struct value_traits<double> : bit_castable_traits<double, formats::binary64> {};
template <>
struct value_traits<binary16_bits> : bit_castable_traits<binary16_bits, formats::binary16> {};
template <>
struct value_traits<bfloat16_bits> : bit_castable_traits<bfloat16_bits, formats::bfloat16> {};
#if MINIFLOAT_HAS_FLOAT16
template <>
struct value_traits<_Float16> : bit_castable_traits<_Float16, formats::binary16> {};
#endif
#if MINIFLOAT_HAS_BFLOAT16
template <>
struct value_traits<__bf16> : bit_castable_traits<__bf16, formats::bfloat16> {};
#endif

template <class Format>
struct value_traits<basic_fp8<Format>> {
  static constexpr bool is_known = true;
  using format = Format;
  using code_type = std::uint8_t;
  MINIFLOAT_HOST_DEVICE static constexpr code_type to_code(basic_fp8<Format> x) noexcept {
    return x.bits();
  }
  MINIFLOAT_HOST_DEVICE static constexpr basic_fp8<Format> from_code(code_type c) noexcept {
    return basic_fp8<Format>::from_bits(c);
  }
};

template <class T>
constexpr bool is_integer_source = std::is_integral<T>::value && sizeof(T) <= 8;

// A source the converter reads: a known floating type or an integer.
template <class T>
constexpr bool is_source = value_traits<T>::is_known || is_integer_source<T>;

// Step 1 of the converter for any source type.
template <class T, std::enable_if_t<value_traits<T>::is_known, int> = 0>
MINIFLOAT_HOST_DEVICE MINIFLOAT_BIT_CAST_CONSTEXPR unpacked unpack_value(T x) noexcept {
  return unpack_code<typename value_traits<T>::format>(value_traits<T>::to_code(x));
}
template <class T, std::enable_if_t<is_integer_source<T>, int> = 0>
MINIFLOAT_HOST_DEVICE constexpr unpacked unpack_value(T x) noexcept {
  return unpack_integer(x);
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
// sm_89 and later convert float to e4m3 / e5m2 in hardware: cvt.rn.satfinite is nearest-even
// with saturation, i.e. saturate_cast, except that NaN comes out as 0x7F whatever its sign;
// the sign is put back so that device and host agree bit for bit (SPEC §2).
template <class Format>
__device__ inline std::uint8_t hardware_saturating_narrow(float x) {
  unsigned short pair;
  if (std::is_same<Format, formats::e4m3>::value) {
    asm("cvt.rn.satfinite.e4m3x2.f32 %0, %2, %1;" : "=h"(pair) : "f"(x), "f"(0.0f));
  } else {
    asm("cvt.rn.satfinite.e5m2x2.f32 %0, %2, %1;" : "=h"(pair) : "f"(x), "f"(0.0f));
  }
  const auto code = static_cast<std::uint8_t>(pair & 0xFF); // x is the low half
  return x != x ? static_cast<std::uint8_t>(code | (__float_as_uint(x) >> 24 & 0x80)) : code;
}
template <class Format>
constexpr bool has_hardware_narrowing =
    std::is_same<Format, formats::e4m3>::value || std::is_same<Format, formats::e5m2>::value;
#endif

// The 8-bit formats the lane kernels (lanes.inc) encode floats into: the signed formats with
// subnormals, and e8m0, whose exponent is float's.
template <class Format>
constexpr bool has_float_lane_kernel = is_direct_narrowing<formats::binary32, Format> ||
                                       (!format_info<Format>::is_signed &&
                                        !format_info<Format>::has_subnormals &&
                                        format_info<Format>::exponent_bits == 8 &&
                                        format_info<Format>::mantissa_bits == 0 &&
                                        format_info<Format>::bias == 127);

// The whole conversion: From -> To with one rounding. Even to the same type it re-encodes:
// NaN becomes the canonical NaN of the target and, when saturating, infinities become +-max.
template <class To, rounding_rule Rule, overflow Overflow, class From>
MINIFLOAT_HOST_DEVICE MINIFLOAT_BIT_CAST_CONSTEXPR To convert_value(From x,
                                                                    std::uint32_t random_bits) {
  static_assert(value_traits<To>::is_known, "the target must be a floating-point type minifloat "
                                            "knows: an fp8 type, float, double, binary16 or "
                                            "bfloat16");
  static_assert(is_source<From>, "the source must be a floating-point type minifloat knows or "
                                 "an integer");
  using to_format = typename value_traits<To>::format;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
  if constexpr (std::is_same<From, float>::value && has_hardware_narrowing<to_format> &&
                Rule == rounding_rule::nearest_even && Overflow == overflow::saturate) {
    if (!__builtin_is_constant_evaluated()) { // constant expressions take the converter
      return value_traits<To>::from_code(hardware_saturating_narrow<to_format>(x));
    }
  }
#endif
  if constexpr (value_traits<From>::is_known) {
    using from_format = typename value_traits<From>::format;
    if constexpr (std::is_same<from_format, formats::binary32>::value && sizeof(To) == 1 &&
                  has_float_lane_kernel<to_format>) {
      // float -> fp8, the hot case: the lane kernel in 32-bit arithmetic (lanes.inc), the same
      // code as the portable path of the array functions.
      return value_traits<To>::from_code(
          static_cast<std::uint8_t>(portable::encode_float_lanes<to_format, Rule, Overflow>(
              value_traits<From>::to_code(x), random_bits)));
    } else if constexpr (is_direct_narrowing<from_format, to_format>) {
      return value_traits<To>::from_code(narrow_directly<from_format, to_format, Rule, Overflow>(
          value_traits<From>::to_code(x), random_bits));
    }
  }
  return value_traits<To>::from_code(pack<to_format, Rule, Overflow>(unpack_value(x), random_bits));
}

} // namespace detail
} // namespace minifloat

#endif // MINIFLOAT_DETAIL_VALUE_TRAITS_HPP
