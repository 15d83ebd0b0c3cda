// minifloat: exact decimal numbers, and reading them onto a format's grid. A decimal is kept
// digit by digit, exactly (every value and rounding boundary of an 8-bit format has at most 95
// significant digits), so text is rounded once, from its exact value, as the converter rounds
// (never through a double). Used by from_chars and the literals (read_decimal) and by the
// writers of detail/decimal_text.hpp (decimal_of, round_to_digits).
#ifndef MINIFLOAT_DETAIL_DECIMAL_HPP
#define MINIFLOAT_DETAIL_DECIMAL_HPP

#include <cstddef>      // std::size_t
#include <cstdint>      // std::uint8_t, std::uint64_t
#include <system_error> // std::errc

#include "../converter.hpp"

namespace minifloat {
namespace detail {

// A non-negative decimal number 0.d1 d2 ... dn × 10^exponent with d1 != 0; count == 0 is zero.
// Exact to max_digits significant digits; `sticky` records a non-zero digit dropped past them.
// Every value and rounding boundary of an 8-bit format has at most 95 significant digits
// (3 · 2^-129, below e8m0's smallest value, has the most), so comparisons with those are exact.
struct decimal {
  static constexpr int max_digits = 128;
  char digits[max_digits] = {}; // 0 to 9, most significant first
  int count = 0;
  int exponent = 0;
  bool sticky = false;
};

// Three-way comparison of two decimals (-1, 0, 1).
constexpr int compare(const decimal& a, const decimal& b) noexcept {
  if (a.count == 0 || b.count == 0) {
    return (a.count != 0 ? 1 : 0) - (b.count != 0 ? 1 : 0);
  }
  if (a.exponent != b.exponent) {
    return a.exponent < b.exponent ? -1 : 1;
  }
  const int length = a.count > b.count ? a.count : b.count;
  for (int i = 0; i < length; ++i) {
    const int digit_a = i < a.count ? a.digits[i] : 0;
    const int digit_b = i < b.count ? b.digits[i] : 0;
    if (digit_a != digit_b) {
      return digit_a < digit_b ? -1 : 1;
    }
  }
  return (a.sticky ? 1 : 0) - (b.sticky ? 1 : 0);
}

// The exact decimal of significand · 2^exponent (|exponent| up to a few hundred): the integer
// significand times 2^exponent, or times 5^-exponent with the decimal point moved -exponent
// places. Digits are kept least significant first while multiplying, by 2^16 or 5^13 at a time.
constexpr decimal decimal_of(std::uint64_t significand, int exponent) noexcept {
  decimal result{};
  if (significand == 0) {
    return result;
  }
  char reversed[decimal::max_digits] = {};
  int length = 0;
  for (; significand != 0; significand /= 10) {
    reversed[length++] = static_cast<char>(significand % 10);
  }
  const bool halving = exponent < 0;
  for (int remaining = halving ? -exponent : exponent; remaining > 0;) {
    const int step =
        halving ? (remaining < 13 ? remaining : 13) : (remaining < 16 ? remaining : 16);
    std::uint64_t factor = 1;
    for (int i = 0; i < step; ++i) {
      factor *= halving ? 5u : 2u;
    }
    remaining -= step;
    std::uint64_t carry = 0;
    for (int i = 0; i < length; ++i) {
      const std::uint64_t product = static_cast<std::uint64_t>(reversed[i]) * factor + carry;
      reversed[i] = static_cast<char>(product % 10);
      carry = product / 10;
    }
    for (; carry != 0 && length < decimal::max_digits; carry /= 10) {
      reversed[length++] = static_cast<char>(carry % 10);
    }
  }
  int low_zeros = 0;
  while (reversed[low_zeros] == 0) {
    ++low_zeros;
  }
  result.count = length - low_zeros;
  for (int i = 0; i < result.count; ++i) {
    result.digits[i] = reversed[length - 1 - i];
  }
  result.exponent = halving ? length + exponent : length;
  return result;
}

// What the grammar below read: its length, and the value's class, sign and magnitude.
struct scanned_number {
  std::size_t length = 0; // 0: no number
  value_class kind = value_class::zero;
  bool negative = false;
  decimal magnitude{};
};

constexpr char lower_case(char c) noexcept {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}
constexpr bool starts_with_word(const char* first, const char* last, const char* word) noexcept {
  for (; *word != '\0'; ++word, ++first) {
    if (first == last || lower_case(*first) != *word) {
      return false;
    }
  }
  return true;
}
constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

// std::from_chars's general format: an optional '-', then "inf", "infinity", "nan",
// "nan(chars)" in any case, or digits with an optional '.' and fraction (at least one digit in
// all) and an optional exponent e or E, sign, digits. The longest prefix that matches is read.
// `separators` skips the digit separator ' (for literals).
constexpr scanned_number scan_number(const char* first, const char* last,
                                     bool separators) noexcept {
  scanned_number result{};
  const char* p = first;
  if (p != last && *p == '-') {
    result.negative = true;
    ++p;
  }
  if (starts_with_word(p, last, "inf")) {
    result.kind = value_class::infinite;
    p += starts_with_word(p, last, "infinity") ? 8 : 3;
    result.length = static_cast<std::size_t>(p - first);
    return result;
  }
  if (starts_with_word(p, last, "nan")) {
    result.kind = value_class::nan;
    p += 3;
    if (p != last && *p == '(') {
      const char* q = p + 1;
      while (q != last &&
             (is_digit(*q) || *q == '_' || (lower_case(*q) >= 'a' && lower_case(*q) <= 'z'))) {
        ++q;
      }
      if (q != last && *q == ')') {
        p = q + 1;
      }
    }
    result.length = static_cast<std::size_t>(p - first);
    return result;
  }
  // 0.d1 d2 ... × 10^exponent: leading zeros move the exponent down after the point and are
  // skipped before it; each significant digit before the point moves it up.
  decimal& magnitude = result.magnitude;
  bool any_digit = false;
  bool after_point = false;
  for (; p != last; ++p) {
    const char c = *p;
    if (separators && c == '\'') {
      continue;
    }
    if (c == '.' && !after_point) {
      after_point = true;
      continue;
    }
    if (!is_digit(c)) {
      break;
    }
    any_digit = true;
    const char digit = static_cast<char>(c - '0');
    if (magnitude.count == 0 && digit == 0) {
      magnitude.exponent -= after_point ? 1 : 0;
      continue;
    }
    magnitude.exponent += after_point ? 0 : 1;
    if (magnitude.count < decimal::max_digits) {
      magnitude.digits[magnitude.count++] = digit;
    } else if (digit != 0) {
      magnitude.sticky = true;
    }
  }
  if (!any_digit) {
    return result; // length 0: not a number
  }
  if (p != last && (*p == 'e' || *p == 'E')) {
    const char* q = p + 1;
    bool exponent_negative = false;
    if (q != last && (*q == '+' || *q == '-')) {
      exponent_negative = *q == '-';
      ++q;
    }
    if (q != last && is_digit(*q)) {
      int exponent = 0;
      for (; q != last && is_digit(*q); ++q) {
        // Past 10^6 every format's result is decided (zero or overflow): stop counting there.
        exponent = exponent < 1000000 ? exponent * 10 + (*q - '0') : exponent;
      }
      magnitude.exponent += exponent_negative ? -exponent : exponent;
      p = q;
    }
  }
  while (magnitude.count > 0 && magnitude.digits[magnitude.count - 1] == 0) {
    --magnitude.count;
  }
  result.kind = magnitude.count == 0 ? value_class::zero : value_class::finite;
  result.length = static_cast<std::size_t>(p - first);
  return result;
}

// An exact non-negative dyadic number significand · 2^exponent.
struct dyadic {
  std::uint64_t significand;
  int exponent;
};

// The value of a magnitude code of Format (zero has significand 0).
template <class Format>
constexpr dyadic value_of_code(std::uint64_t code) noexcept {
  const unpacked value =
      unpack_code<Format>(static_cast<typename format_info<Format>::storage_type>(code));
  return {value.kind == value_class::finite ? value.significand : 0, value.exponent};
}

// The code of Format nearest to the decimal (ties as the converter breaks them), with its sign.
// The converter rounds any value strictly between two neighbouring points of {grid values,
// midpoints} the same way, so the decimal is located among them exactly and a dyadic
// representative of its place is converted: the decimal's value is never rounded first.
template <class Format>
constexpr typename format_info<Format>::storage_type code_of_decimal(const decimal& magnitude,
                                                                     bool negative) noexcept {
  using info = format_info<Format>;
  constexpr auto rule = rounding_rule::nearest_even;
  if (magnitude.count == 0) {
    return pack<Format, rule, overflow::non_saturating>({value_class::zero, negative, 0, 0});
  }
  // The largest magnitude code whose value is at most the decimal (-1: below them all, e8m0).
  std::int64_t low = -1;
  std::int64_t high = info::max_finite_code;
  while (low < high) {
    const std::int64_t middle = (low + high + 1) / 2;
    const dyadic value = value_of_code<Format>(static_cast<std::uint64_t>(middle));
    if (compare(decimal_of(value.significand, value.exponent), magnitude) <= 0) {
      low = middle;
    } else {
      high = middle - 1;
    }
  }
  const dyadic below =
      low < 0 ? dyadic{0, 0} : value_of_code<Format>(static_cast<std::uint64_t>(low));
  dyadic above{};
  if (low < static_cast<std::int64_t>(info::max_finite_code)) {
    above = value_of_code<Format>(static_cast<std::uint64_t>(low + 1));
  } else {
    // Past the largest finite value, the next grid value of an unbounded exponent range: one
    // binade up without a mantissa, else one more step of the largest value's binade.
    const dyadic largest = value_of_code<Format>(info::max_finite_code);
    const dyadic previous = value_of_code<Format>(info::max_finite_code - 1u);
    above = info::mantissa_bits == 0
                ? dyadic{largest.significand, largest.exponent + 1}
                : dyadic{2 * largest.significand - previous.significand, largest.exponent};
  }
  // Both neighbours and their midpoint and quarter points in units of 2^unit.
  const int unit = (below.significand != 0 && below.exponent < above.exponent ? below.exponent
                                                                              : above.exponent) -
                   2;
  const std::uint64_t a = below.significand << (below.significand != 0 ? below.exponent - unit : 0);
  const std::uint64_t b = above.significand << (above.exponent - unit);
  const std::uint64_t midpoint = (a + b) / 2;
  std::uint64_t representative = a;
  if (compare(decimal_of(a, unit), magnitude) != 0) {
    const int side = compare(magnitude, decimal_of(midpoint, unit));
    representative = side < 0 ? (a + midpoint) / 2 : side > 0 ? (midpoint + b) / 2 : midpoint;
  }
  return pack<Format, rule, overflow::non_saturating>(
      {representative == 0 ? value_class::zero : value_class::finite, negative, unit,
       representative});
}

// Whether a decimal magnitude rounds (nearest-even) past Format's largest finite value: at or
// beyond the midpoint between max and the next value of an unbounded range (for a finite-only
// format, whose max's code is all ones, odd, that tie goes up). Such formats saturate instead
// of overflowing, so the text reader needs this to report the number out of range.
template <class Format>
constexpr bool rounds_past_largest(const decimal& magnitude) noexcept {
  const dyadic largest = value_of_code<Format>(format_info<Format>::max_finite_code);
  return compare(magnitude, decimal_of(2 * largest.significand + 1, largest.exponent - 1)) >= 0;
}

// from_chars's work, with the result as a code so that literals can use it at compile time.
struct decimal_reading {
  std::size_t length;
  std::errc error;
  std::uint8_t code;
};
template <class Format>
constexpr decimal_reading read_decimal(const char* first, const char* last,
                                       bool separators) noexcept {
  using info = format_info<Format>;
  const scanned_number number = scan_number(first, last, separators);
  if (number.length == 0) {
    return {0, std::errc::invalid_argument, 0};
  }
  constexpr auto rule = rounding_rule::nearest_even;
  std::uint8_t code = 0;
  if (number.kind == value_class::nan || number.kind == value_class::infinite) {
    code = pack<Format, rule, overflow::non_saturating>({number.kind, number.negative, 0, 1});
    // A finite-only format has neither: out of range (a conversion would give +-max).
    return {number.length, info::always_saturates ? std::errc::result_out_of_range : std::errc{},
            code};
  }
  code = code_of_decimal<Format>(number.magnitude, number.negative);
  // A finite number that does not give a finite value (past the largest; negative for an
  // unsigned format) is out of range, as std::from_chars reports it; so is one that a finite-only
  // format saturates.
  const bool finite = info::always_saturates ? !rounds_past_largest<Format>(number.magnitude)
                                             : !info::is_nan(code) && !info::is_infinity(code);
  return {number.length, finite ? std::errc{} : std::errc::result_out_of_range, code};
}

// Rounds a decimal to `digits` significant digits, to nearest, ties to even.
constexpr decimal round_to_digits(const decimal& exact, int digits) noexcept {
  decimal result = exact;
  if (exact.count <= digits) {
    return result;
  }
  result.count = digits;
  result.sticky = false;
  const int first_dropped = static_cast<unsigned char>(exact.digits[digits]);
  bool rest_nonzero = exact.sticky;
  for (int i = digits + 1; i < exact.count; ++i) {
    rest_nonzero = rest_nonzero || exact.digits[i] != 0;
  }
  const bool up = first_dropped > 5 ||
                  (first_dropped == 5 && (rest_nonzero || exact.digits[digits - 1] % 2 != 0));
  if (up) {
    int i = digits - 1;
    while (i >= 0 && result.digits[i] == 9) {
      result.digits[i--] = 0;
    }
    if (i < 0) { // 99.9 -> 100: one digit, one place up
      result.digits[0] = 1;
      result.count = 1;
      ++result.exponent;
    } else {
      ++result.digits[i];
    }
  }
  while (result.count > 0 && result.digits[result.count - 1] == 0) {
    --result.count;
  }
  return result;
}

} // namespace detail
} // namespace minifloat

#endif // MINIFLOAT_DETAIL_DECIMAL_HPP
