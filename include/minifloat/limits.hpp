// minifloat: std::numeric_limits and std::hash for the 8-bit types (docs/spec.md §4).
#ifndef MINIFLOAT_LIMITS_HPP
#define MINIFLOAT_LIMITS_HPP

#include <cstddef>
#include <typeindex> // declares std::hash (as <functional> does, at a tenth of the cost)
#include <limits>

#include "fp8.hpp"

namespace minifloat {
namespace detail {

// floor(log10(v)) for v > 0, by repeated scaling (only ever evaluated at compile time).
constexpr int floor_log10(double v) noexcept {
  int result = 0;
  while (v >= 10.0) {
    v /= 10.0;
    ++result;
  }
  while (v < 1.0) {
    v *= 10.0;
    --result;
  }
  return result;
}
// ceil(log10(v)) for v > 0.
constexpr int ceil_log10(double v) noexcept {
  const int floor = floor_log10(v);
  double power = 1.0;
  for (int i = 0; i < (floor < 0 ? -floor : floor); ++i) {
    power *= 10.0;
  }
  const bool exact = floor < 0 ? v * power == 1.0 : v == power;
  return exact ? floor : floor + 1;
}

} // namespace detail
} // namespace minifloat

namespace std {

template <class Format>
class numeric_limits<minifloat::basic_fp8<Format>> {
  using T = minifloat::basic_fp8<Format>;
  using info = minifloat::format_info<Format>;

public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = info::is_signed;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool has_infinity = info::has_infinity;
  static constexpr bool has_quiet_NaN = info::has_nan;
  // NaN codes carry no signalling meaning in any 8-bit format.
  static constexpr bool has_signaling_NaN = false;
  // C++23 deprecates has_denorm, has_denorm_loss and their enumeration (P2614) but still has
  // them: they stay, as the standard types' do, without a warning from this header (libc++ 19
  // and libstdc++ 14 mark the names deprecated).
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
  static constexpr std::float_denorm_style has_denorm =
      info::has_subnormals ? std::denorm_present : std::denorm_absent;
  static constexpr bool has_denorm_loss = false;
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif
  static constexpr std::float_round_style round_style = std::round_to_nearest;
  // The IEEE-style formats follow IEEE 754's rules for their width; E4M3 and fnuz do not.
  static constexpr bool is_iec559 = info::special_values == minifloat::specials::ieee;
  // (round_style: nearest; e8m0 breaks ties upward, the others to even.)
  static constexpr bool is_bounded = true;
  static constexpr bool is_modulo = false;
  static constexpr int digits = info::mantissa_bits + 1;
  static constexpr int digits10 = (digits - 1) * 30103 / 100000;   // floor((p - 1) log10 2)
  static constexpr int max_digits10 = 2 + digits * 30103 / 100000; // ceil(1 + p log10 2)
  static constexpr int radix = 2;
  static constexpr int min_exponent = info::min_normal_exponent + 1;
  static constexpr int max_exponent = info::max_normal_exponent + 1;
  static constexpr int min_exponent10 =
      minifloat::detail::ceil_log10(static_cast<double>(T::from_bits(info::min_normal_code)));
  static constexpr int max_exponent10 =
      minifloat::detail::floor_log10(static_cast<double>(T::from_bits(info::max_finite_code)));
  static constexpr bool traps = false;
  static constexpr bool tinyness_before = false;

  static constexpr T min() noexcept { return T::from_bits(info::min_normal_code); }
  // -max; for an unsigned format (e8m0) its smallest value.
  static constexpr T lowest() noexcept {
    return info::is_signed
               ? T::from_bits(static_cast<std::uint8_t>(info::sign_mask | info::max_finite_code))
               : min();
  }
  static constexpr T max() noexcept { return T::from_bits(info::max_finite_code); }
  // 2^-M: the gap between 1 and the next value.
  static constexpr T epsilon() noexcept { return power_of_two(-info::mantissa_bits); }
  static constexpr T round_error() noexcept { return power_of_two(-1); }
  // As for the standard types, infinity() is only meaningful when has_infinity; it is +0 else.
  static constexpr T infinity() noexcept {
    return T::from_bits(info::has_infinity ? info::infinity_code : std::uint8_t{0});
  }
  // As for infinity(): +0 where there is no NaN (the MX elements).
  static constexpr T quiet_NaN() noexcept {
    return T::from_bits(info::has_nan ? info::nan_code : std::uint8_t{0});
  }
  static constexpr T signaling_NaN() noexcept { return quiet_NaN(); }
  // The smallest positive value (min() when there are no subnormals, as for the standard types).
  static constexpr T denorm_min() noexcept {
    return T::from_bits(info::has_subnormals ? info::min_subnormal_code : info::min_normal_code);
  }

private:
  static constexpr T power_of_two(int exponent) noexcept {
    using namespace minifloat::detail;
    return T::from_bits(
        pack<Format, rounding_rule::nearest_even, minifloat::overflow::non_saturating>(
            unpacked{value_class::finite, false, exponent, 1}));
  }
};

// Hashes agree with ==: +0 and -0 hash alike. (NaN equals nothing, so its hash is free.) The
// code itself, as the standard libraries hash small integers: 256 distinct values.
template <class Format>
struct hash<minifloat::basic_fp8<Format>> {
  std::size_t operator()(minifloat::basic_fp8<Format> x) const noexcept {
    return minifloat::detail::is_zero(x) ? 0U : std::size_t{x.bits()};
  }
};

} // namespace std

#endif // MINIFLOAT_LIMITS_HPP
