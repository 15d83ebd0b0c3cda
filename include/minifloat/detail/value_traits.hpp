// minifloat: which format each C++ type carries, and how to read and write its code. This is
// what lets the one converter accept float, double, binary16, bfloat16, integers and every
// 8-bit type, and produce any of them (detail/convert_value.hpp).
#ifndef MINIFLOAT_DETAIL_VALUE_TRAITS_HPP
#define MINIFLOAT_DETAIL_VALUE_TRAITS_HPP

#include "../binary16.hpp"
#include "../converter.hpp"

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
  MINIFLOAT_HOST_DEVICE static constexpr code_type to_code(T x) noexcept {
    return detail::bit_cast<code_type>(x);
  }
  MINIFLOAT_HOST_DEVICE static constexpr T from_code(code_type c) noexcept {
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
MINIFLOAT_HOST_DEVICE constexpr unpacked unpack_value(T x) noexcept {
  return unpack_code<typename value_traits<T>::format>(value_traits<T>::to_code(x));
}
template <class T, std::enable_if_t<is_integer_source<T>, int> = 0>
MINIFLOAT_HOST_DEVICE constexpr unpacked unpack_value(T x) noexcept {
  return unpack_integer(x);
}

} // namespace detail
} // namespace minifloat

#endif // MINIFLOAT_DETAIL_VALUE_TRAITS_HPP
