// minifloat: decimal text. to_chars writes the shortest decimal that reads back to the same
// code (as std::to_chars does for float); from_chars reads decimal text correctly rounded from
// its exact value (nearest, ties to even, as the constructors round: never through a double);
// to_string; and constexpr literals, 1.5_e4m3, read the same way at compile time.
#ifndef MINIFLOAT_TEXT_HPP
#define MINIFLOAT_TEXT_HPP

#include <charconv>     // std::to_chars_result, std::from_chars_result
#include <cstddef>      // std::size_t
#include <string>       // to_string
#include <system_error> // std::errc

#include "fp8.hpp"

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
    return {number.length, std::errc{}, code};
  }
  code = code_of_decimal<Format>(number.magnitude, number.negative);
  // A finite number that does not give a finite value (past the largest; negative for an
  // unsigned format) is out of range, as std::from_chars reports it.
  const bool finite = !info::is_nan(code) && !info::is_infinity(code);
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

// Writes text to a buffer: a tiny constexpr string builder.
struct text_buffer {
  static constexpr int capacity = 160; // an exact e8m0 value has up to 89 digits
  char text[capacity] = {};
  int length = 0;
  constexpr void put(char c) noexcept {
    if (length < capacity) {
      text[length++] = c;
    }
  }
  constexpr void put(const char* s) noexcept {
    for (; *s != '\0'; ++s) {
      put(*s);
    }
  }
};

// The shortest text of a finite non-zero decimal: fixed or scientific, whichever is shorter,
// fixed on a tie (std::to_chars's rule); scientific has a signed exponent of two digits or more.
constexpr void put_decimal(text_buffer& out, const decimal& value) noexcept {
  const int digits = value.count;
  const int point = value.exponent; // the point sits after this many digits
  const int fixed_length = point <= 0 ? 2 - point + digits : point >= digits ? point : digits + 1;
  const int scientific_exponent = point - 1;
  const int magnitude = scientific_exponent < 0 ? -scientific_exponent : scientific_exponent;
  const int exponent_digits = magnitude >= 100 ? 3 : 2;
  const int scientific_length = digits + (digits > 1 ? 1 : 0) + 2 + exponent_digits;
  if (fixed_length <= scientific_length) {
    if (point <= 0) {
      out.put("0.");
      for (int i = 0; i < -point; ++i) {
        out.put('0');
      }
    }
    for (int i = 0; i < digits || i < point; ++i) {
      if (i == point && point > 0) {
        out.put('.');
      }
      out.put(static_cast<char>('0' + (i < digits ? value.digits[i] : 0)));
    }
    return;
  }
  out.put(static_cast<char>('0' + value.digits[0]));
  if (digits > 1) {
    out.put('.');
    for (int i = 1; i < digits; ++i) {
      out.put(static_cast<char>('0' + value.digits[i]));
    }
  }
  out.put(scientific_exponent < 0 ? "e-" : "e+");
  if (exponent_digits == 3) {
    out.put(static_cast<char>('0' + magnitude / 100));
  }
  out.put(static_cast<char>('0' + magnitude / 10 % 10));
  out.put(static_cast<char>('0' + magnitude % 10));
}

// The shortest text that reads back (read_decimal) to the same code; "nan", "inf", "0" with
// a '-' where the sign bit is set (as std::to_chars writes float).
template <class Format>
constexpr text_buffer shortest_text(std::uint8_t code) noexcept {
  using info = format_info<Format>;
  text_buffer out{};
  if (info::is_negative(code)) {
    out.put('-');
  }
  const unpacked value = unpack_code<Format>(code);
  if (value.kind != value_class::finite) {
    out.put(value.kind == value_class::nan        ? "nan"
            : value.kind == value_class::infinite ? "inf"
                                                  : "0");
    return out;
  }
  const decimal exact = decimal_of(value.significand, value.exponent);
  const auto magnitude = static_cast<std::uint8_t>(code & info::magnitude_mask);
  for (int digits = 1;; ++digits) {
    // The nearest decimal of each length: the first that reads back is the shortest, and of
    // the shortest the nearest to the value.
    const decimal candidate = round_to_digits(exact, digits);
    if (digits >= exact.count || code_of_decimal<Format>(candidate, false) == magnitude) {
      put_decimal(out, candidate);
      return out;
    }
  }
}

// The exact value's text (every digit), in the shorter of fixed and scientific.
template <class Format>
constexpr text_buffer exact_text(std::uint8_t code) noexcept {
  using info = format_info<Format>;
  const unpacked value = unpack_code<Format>(code);
  if (value.kind != value_class::finite) {
    return shortest_text<Format>(code);
  }
  text_buffer out{};
  if (info::is_negative(code)) {
    out.put('-');
  }
  put_decimal(out, decimal_of(value.significand, value.exponent));
  return out;
}

// The code's fields, sign|exponent|mantissa: e4m3 1.5 is "0|0111|100"; e8m0 has one field.
template <class Format>
constexpr text_buffer bits_text(std::uint8_t code) noexcept {
  using info = format_info<Format>;
  text_buffer out{};
  int bit = info::total_bits - 1;
  const auto put_field = [&](int width) {
    for (int end = bit - width; bit > end; --bit) {
      out.put(((code >> bit) & 1) != 0 ? '1' : '0');
    }
  };
  if (info::is_signed) {
    put_field(1);
    out.put('|');
  }
  put_field(info::exponent_bits);
  if (info::mantissa_bits > 0) {
    out.put('|');
    put_field(info::mantissa_bits);
  }
  return out;
}

// The exact value, the class and the code: "1.5 (normal, 0x3C)", "-nan (NaN, 0xFF)".
template <class Format>
constexpr text_buffer debug_text(std::uint8_t code) noexcept {
  const basic_fp8<Format> x = basic_fp8<Format>::from_bits(code);
  text_buffer out = exact_text<Format>(code);
  const int kind = fpclassify(x);
  out.put(kind == FP_NAN         ? " (NaN, 0x"
          : kind == FP_INFINITE  ? " (inf, 0x"
          : kind == FP_ZERO      ? " (zero, 0x"
          : kind == FP_SUBNORMAL ? " (subnormal, 0x"
                                 : " (normal, 0x");
  constexpr char hex[] = "0123456789ABCDEF";
  out.put(hex[code >> 4]);
  out.put(hex[code & 15]);
  out.put(')');
  return out;
}

// The presentations of the fmt and std::format formatters (fmt.hpp, std_format.hpp).
enum class presentation : std::uint8_t {
  value, // a float presentation (none, e, f, g, a, ...): the exact float value, formatted as float
  code,  // x or X: the code as an unsigned integer, with the integer options (#x: 0x7e)
  bits,  // b: the fields, "0|0111|100"
  debug, // ?: "1.5 (normal, 0x3C)"
  shortest, // s: the shortest text that reads back (to_string)
};
// For bits, debug and shortest: [[fill]align][width], fill one ASCII character, text aligned
// left unless asked otherwise, as strings are.
struct text_spec {
  presentation kind = presentation::value;
  char fill = ' ';
  char align = '<';
  int width = 0;
  bool valid = true;
};

// The spec's end: the '}' that closes it (nested replacement fields skipped), or last.
template <class It>
constexpr It spec_end(It first, It last) noexcept {
  int depth = 0;
  for (; first != last; ++first) {
    if (*first == '{') {
      ++depth;
    } else if (*first == '}' && depth-- == 0) {
      break;
    }
  }
  return first;
}

template <class It>
constexpr text_spec parse_text_spec(It first, It close) noexcept {
  text_spec spec{};
  if (first == close) {
    return spec;
  }
  It type = close;
  --type;
  const char last = *type;
  spec.kind = last == 'x' || last == 'X' ? presentation::code
              : last == 'b'              ? presentation::bits
              : last == '?'              ? presentation::debug
              : last == 's'              ? presentation::shortest
                                         : presentation::value;
  if (spec.kind == presentation::value || spec.kind == presentation::code) {
    return spec; // the float or integer formatter parses these
  }
  const auto is_align = [](char c) { return c == '<' || c == '>' || c == '^'; };
  It p = first;
  It next = p;
  if (p != type && ++next != type && is_align(*next)) {
    spec.fill = *p;
    spec.align = *next;
    p = ++next;
  } else if (p != type && is_align(*p)) {
    spec.align = *p;
    ++p;
  }
  if (p != type && *p == '{') {
    spec.valid = false; // dynamic widths only with the float presentations
  }
  for (; p != type && is_digit(*p) && spec.width < 100000; ++p) {
    spec.width = spec.width * 10 + (*p - '0');
  }
  spec.valid = spec.valid && p == type && static_cast<unsigned char>(spec.fill) < 0x80 &&
               spec.fill != '{' && spec.fill != '}';
  return spec;
}

// The text of one of the text presentations.
template <class Format>
constexpr text_buffer presentation_text(presentation kind, std::uint8_t code) noexcept {
  return kind == presentation::bits    ? bits_text<Format>(code)
         : kind == presentation::debug ? debug_text<Format>(code)
                                       : shortest_text<Format>(code);
}

// Writes the text padded to spec.width with spec.fill.
template <class Out>
Out write_padded(Out out, const text_buffer& text, const text_spec& spec) {
  const int padding = spec.width > text.length ? spec.width - text.length : 0;
  const int before = spec.align == '>' ? padding : spec.align == '^' ? padding / 2 : 0;
  for (int i = 0; i < before; ++i) {
    *out++ = spec.fill;
  }
  for (int i = 0; i < text.length; ++i) {
    *out++ = text.text[i];
  }
  for (int i = before; i < padding; ++i) {
    *out++ = spec.fill;
  }
  return out;
}

template <class T, char... Chars>
struct literal_text {
  static constexpr char text[] = {Chars...};
};
template <class T, char... Chars>
constexpr T parse_literal() noexcept {
  using literal = literal_text<T, Chars...>;
  constexpr decimal_reading reading =
      read_decimal<typename T::format>(literal::text, literal::text + sizeof...(Chars), true);
  static_assert(reading.length == sizeof...(Chars),
                "a minifloat literal is a decimal number, e.g. 1.5_e4m3 or 2e-3_e5m2");
  static_assert(reading.error == std::errc{}, "the literal is past the format's largest value");
  return T::from_bits(reading.code);
}

} // namespace detail

// Writes the shortest decimal that reads back to x's code into [first, last), as std::to_chars
// writes a float: 0.3125_e4m3 (code 0x2A) prints "0.3", 448 "448", 2^-9 "0.002", e5m2 57344
// "57344", e8m0 2^127 "1.7e+38"; NaN "nan" or "-nan", infinities "inf" or "-inf".
// When the text does not fit, returns {last, std::errc::value_too_large} and writes nothing.
template <class Format>
constexpr std::to_chars_result to_chars(char* first, char* last, basic_fp8<Format> x) noexcept {
  const detail::text_buffer text = detail::shortest_text<Format>(x.bits());
  if (last - first < text.length) {
    return {last, std::errc::value_too_large};
  }
  for (int i = 0; i < text.length; ++i) {
    first[i] = text.text[i];
  }
  return {first + text.length, std::errc{}};
}

// Reads a number in std::from_chars's general format (decimal, optional exponent; "inf",
// "nan") from [first, last) and rounds its exact value to nearest, ties to even, as the
// constructors do. No leading '+' or whitespace, as std::from_chars. On success x is set and
// ptr points past the number. No number: {first, std::errc::invalid_argument}. A finite number
// without a finite value in the format (past the largest, or negative for e8m0):
// {end of the number, std::errc::result_out_of_range}. On either error x is left untouched.
template <class Format>
constexpr std::from_chars_result from_chars(const char* first, const char* last,
                                            basic_fp8<Format>& x) noexcept {
  const detail::decimal_reading reading = detail::read_decimal<Format>(first, last, false);
  if (reading.error == std::errc{}) {
    x = basic_fp8<Format>::from_bits(reading.code);
  }
  return {first + reading.length, reading.error};
}

// The shortest decimal that reads back to the same code (to_chars's text).
template <class Format>
std::string to_string(basic_fp8<Format> x) {
  const detail::text_buffer text = detail::shortest_text<Format>(x.bits());
  return {text.text, static_cast<std::size_t>(text.length)};
}

// Literals, read from their decimal text at compile time, correctly rounded (never through a
// double): using namespace minifloat::literals; e4m3 x = 0.3_e4m3; e8m0 s = 0.25_e8m0;
// -1.5_e4m3 is -(1.5_e4m3). A literal that does not fit (1000_e4m3) or is not decimal
// (0x1p3_e4m3) does not compile.
namespace literals {
// NOLINTBEGIN(bugprone-macro-parentheses): name is a type name
#define MINIFLOAT_DEFINE_LITERAL(name)                                                             \
  template <char... Chars>                                                                         \
  constexpr name operator""_##name() noexcept {                                                    \
    return minifloat::detail::parse_literal<name, Chars...>();                                     \
  }
// NOLINTEND(bugprone-macro-parentheses)
MINIFLOAT_DEFINE_LITERAL(e4m3)
MINIFLOAT_DEFINE_LITERAL(e5m2)
MINIFLOAT_DEFINE_LITERAL(e3m4)
MINIFLOAT_DEFINE_LITERAL(e2m5)
MINIFLOAT_DEFINE_LITERAL(e4m3_ieee)
MINIFLOAT_DEFINE_LITERAL(e4m3fnuz)
MINIFLOAT_DEFINE_LITERAL(e5m2fnuz)
MINIFLOAT_DEFINE_LITERAL(e4m3b11fnuz)
MINIFLOAT_DEFINE_LITERAL(e8m0)
#undef MINIFLOAT_DEFINE_LITERAL
} // namespace literals

} // namespace minifloat

#endif // MINIFLOAT_TEXT_HPP
