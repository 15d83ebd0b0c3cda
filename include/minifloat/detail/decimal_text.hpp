// minifloat: the texts of a code, written at compile time into a small buffer: the shortest
// decimal that reads back (to_chars, to_string, {:s}), the exact value, the fields ({:b}) and
// the debug text ({:?}).
#ifndef MINIFLOAT_DETAIL_DECIMAL_TEXT_HPP
#define MINIFLOAT_DETAIL_DECIMAL_TEXT_HPP

#include <cstdint>

#include "../fp8.hpp"
#include "decimal.hpp"

namespace minifloat {
namespace detail {

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
    const bool reads_back =
        code_of_decimal<Format>(candidate, false) == magnitude &&
        !(info::always_saturates && rounds_past_largest<Format>(candidate)); // e3m2 28, not 30
    if (digits >= exact.count || reads_back) {
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

} // namespace detail
} // namespace minifloat

#endif // MINIFLOAT_DETAIL_DECIMAL_TEXT_HPP
