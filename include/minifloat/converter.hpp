// minifloat: the one converter. Every conversion — narrowing, widening, between 8-bit formats,
// from integers — takes the same path (DESIGN.md):
//   1. unpack the source into sign, class and an exact value significand · 2^exponent;
//   2. round that value on the target's grid with an unbounded exponent range (the rounding
//      policy: nearest-even, toward-zero or stochastic);
//   3. apply the overflow policy to the rounded result (non-saturating or saturate);
//   4. pack the result into the target's encoding.
// Because step 1 is exact and step 2 rounds once, every conversion is correctly rounded
// (SPEC §2: never through an intermediate format).
#ifndef MINIFLOAT_CONVERTER_HPP
#define MINIFLOAT_CONVERTER_HPP

#include "config.hpp"
#include "format.hpp"

namespace minifloat {

// Rounding of a conversion (SPEC §2). Stochastic rounding takes random bits and has its own
// entry point, stochastic_cast.
enum class rounding {
  nearest_even, // the nearest value of the format; ties to the even mantissa
  toward_zero,  // drop the extra bits; never rounds a finite value past the largest finite
};

// What happens to a rounded result beyond the largest finite value (SPEC §2).
enum class overflow {
  non_saturating, // OCP / IEEE: +-inf where the format has it, else NaN with the input's sign
  saturate,       // +-max; infinities become +-max too; NaN stays NaN
};

namespace detail {

enum class value_class : std::uint8_t { zero, finite, infinite, nan };

// An exact value: (-1)^negative · significand · 2^exponent when finite (significand != 0).
struct unpacked {
  value_class kind;
  bool negative;
  int exponent;
  std::uint64_t significand;
};

// The rounding step proper: the public `rounding` plus stochastic rounding.
enum class rounding_rule : std::uint8_t { nearest_even, toward_zero, stochastic };

constexpr rounding_rule rule_of(rounding r) noexcept {
  return r == rounding::nearest_even ? rounding_rule::nearest_even : rounding_rule::toward_zero;
}

// Step 1 for a code of any binary format: exact.
template <class Format>
MINIFLOAT_HOST_DEVICE constexpr unpacked
unpack_code(typename format_info<Format>::storage_type code) noexcept {
  using info = format_info<Format>;
  const bool negative = info::is_negative(code);
  if (info::is_nan(code)) {
    return {value_class::nan, negative, 0, 0};
  }
  if (info::is_infinity(code)) {
    return {value_class::infinite, negative, 0, 0};
  }
  const std::uint64_t magnitude = code & info::magnitude_mask;
  if (magnitude == 0) {
    return {value_class::zero, negative, 0, 0};
  }
  const std::uint64_t exponent_field = magnitude >> info::mantissa_bits;
  const std::uint64_t mantissa = magnitude & info::mantissa_mask;
  if (exponent_field == 0) { // subnormal: 0.mmm · 2^(1 - bias)
    return {value_class::finite, negative, info::min_subnormal_exponent, mantissa};
  }
  // normal: 1.mmm · 2^(e - bias)
  return {value_class::finite, negative,
          static_cast<int>(exponent_field) - info::bias - info::mantissa_bits,
          mantissa | (std::uint64_t{1} << info::mantissa_bits)};
}

// Step 1 for an integer: exact for every value of every integer type up to 64 bits.
template <class Integer>
MINIFLOAT_HOST_DEVICE constexpr unpacked unpack_integer(Integer value) noexcept {
  static_assert(std::is_integral<Integer>::value && sizeof(Integer) <= 8, "64-bit at most");
  if (value == 0) {
    return {value_class::zero, false, 0, 0};
  }
  const bool negative = value < 0;
  // Unsigned negation is defined for the most negative value, where -value would overflow.
  const auto bits = static_cast<std::uint64_t>(value);
  return {value_class::finite, negative, 0, negative ? std::uint64_t{0} - bits : bits};
}

// The result of step 2 for an out-of-range or infinite value (step 3).
template <class Format, overflow Overflow>
MINIFLOAT_HOST_DEVICE constexpr typename format_info<Format>::storage_type
overflowed(typename format_info<Format>::storage_type sign) noexcept {
  using info = format_info<Format>;
  using storage = typename info::storage_type;
  if (Overflow == overflow::saturate) {
    return static_cast<storage>(sign | info::max_finite_code);
  }
  if (info::has_infinity) {
    return static_cast<storage>(sign | info::infinity_code);
  }
  return info::special_values == specials::fnuz ? info::nan_code
                                                : static_cast<storage>(sign | info::nan_code);
}

// Whether the magnitude, after dropping `shift` low bits of `significand` (the kept part having
// parity `kept_is_odd`), rounds up by one unit in the last kept place.
template <rounding_rule Rule>
MINIFLOAT_HOST_DEVICE constexpr bool rounds_up(std::uint64_t significand, int shift,
                                               bool kept_is_odd,
                                               std::uint32_t random_bits) noexcept {
  if (shift <= 0 || Rule == rounding_rule::toward_zero) {
    return false;
  }
  // The discarded bits as a fraction of one unit in the last kept place: dropped / 2^shift.
  const std::uint64_t dropped =
      shift >= 64 ? significand : significand & ((std::uint64_t{1} << shift) - 1);
  if (Rule == rounding_rule::nearest_even) {
    if (shift > 64) {
      return false; // dropped < 2^64 <= 2^(shift-1): below half a unit
    }
    const std::uint64_t half = std::uint64_t{1} << (shift - 1);
    return dropped > half || (dropped == half && kept_is_odd);
  }
  // Stochastic (SPEC §2): the fraction truncated to 32 bits, floor(fraction · 2^32), plus the
  // random bits; a carry out of bit 31 rounds the magnitude up.
  std::uint64_t fraction32 = 0;
  if (shift <= 32) {
    fraction32 = dropped << (32 - shift);
  } else if (shift - 32 < 64) {
    fraction32 = dropped >> (shift - 32);
  }
  return fraction32 + random_bits >= (std::uint64_t{1} << 32);
}

// Steps 2 to 4: round an exact value onto Format's grid and encode it.
template <class Format, rounding_rule Rule, overflow Overflow>
MINIFLOAT_HOST_DEVICE constexpr typename format_info<Format>::storage_type
pack(const unpacked& value, std::uint32_t random_bits = 0) noexcept {
  using info = format_info<Format>;
  using storage = typename info::storage_type;
  const storage sign = value.negative ? info::sign_mask : storage{0};
  switch (value.kind) {
  case value_class::nan:
    return info::special_values == specials::fnuz ? info::nan_code
                                                  : static_cast<storage>(sign | info::nan_code);
  case value_class::infinite:
    return overflowed<Format, Overflow>(sign);
  case value_class::zero:
    return info::has_negative_zero ? sign : storage{0};
  case value_class::finite:
    break;
  }
  // The value lies in [2^exponent, 2^(exponent + 1)).
  const int exponent = value.exponent + detail::most_significant_bit(value.significand);
  if (exponent > info::max_normal_exponent) {
    // At least 2^(emax + 1), beyond the largest finite value whatever the rounding.
    return Rule == rounding_rule::toward_zero ? static_cast<storage>(sign | info::max_finite_code)
                                              : overflowed<Format, Overflow>(sign);
  }
  // The weight of one unit in the last place at this magnitude; subnormals share the smallest
  // normal's. `shift` low bits of the significand fall below it.
  const int quantum =
      (exponent > info::min_normal_exponent ? exponent : info::min_normal_exponent) -
      info::mantissa_bits;
  const int shift = quantum - value.exponent;
  const std::uint64_t kept = shift <= 0   ? value.significand << -shift
                             : shift < 64 ? value.significand >> shift
                                          : 0;
  const bool up = rounds_up<Rule>(value.significand, shift, (kept & 1) != 0, random_bits);
  // `kept` counts quanta, the implicit bit included for normals. Adding the exponent field's
  // offset gives the code magnitude directly; a carry out of the mantissa (1.111 + 0.001)
  // moves into the exponent field, which is the correct encoding.
  const std::uint64_t magnitude =
      kept + (up ? 1 : 0) +
      (static_cast<std::uint64_t>(quantum - info::min_subnormal_exponent) << info::mantissa_bits);
  if (magnitude > info::max_finite_code) {
    // Rounded past the largest finite value (e4m3: 480 = S.1111.111 is NaN's code). Toward
    // zero never rounds past it (SPEC §2).
    return Rule == rounding_rule::toward_zero ? static_cast<storage>(sign | info::max_finite_code)
                                              : overflowed<Format, Overflow>(sign);
  }
  if (magnitude == 0 && !info::has_negative_zero) {
    return storage{0};
  }
  return static_cast<storage>(sign | magnitude);
}

} // namespace detail
} // namespace minifloat

#endif // MINIFLOAT_CONVERTER_HPP
