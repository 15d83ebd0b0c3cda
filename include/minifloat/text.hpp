// minifloat: decimal text. to_chars writes the shortest decimal that reads back to the same
// code (as std::to_chars does for float); from_chars reads decimal text correctly rounded from
// its exact value (nearest, ties to even, as the constructors round: never through a double);
// to_string. The literals (1.5_e4m3) are in literals.hpp, which this header includes.
#ifndef MINIFLOAT_TEXT_HPP
#define MINIFLOAT_TEXT_HPP

#include <charconv>     // std::to_chars_result, std::from_chars_result
#include <cstddef>      // std::size_t
#include <string>       // to_string
#include <system_error> // std::errc

#include "fp8.hpp"
#include "literals.hpp"
#include "detail/decimal.hpp"
#include "detail/decimal_text.hpp"

namespace minifloat {

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

} // namespace minifloat

#endif // MINIFLOAT_TEXT_HPP
