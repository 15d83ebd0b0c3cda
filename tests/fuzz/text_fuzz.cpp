// libFuzzer harness 3: bytes as text -> from_chars of every 8-bit format (the parser an engine
// may run on a config file or a model's metadata). It must read exactly as far as
// std::from_chars reads a double, never past `last` (the text is copied to an exactly sized
// array), leave the value untouched on an error, and round the text's exact value as the tests'
// reference does: strtod's double d is correctly rounded, so where d and its two neighbours all
// round to the same code, so does the text. What it reads is written back by to_chars and read
// again to the same code.
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <system_error>

#include <minifloat/minifloat.hpp>

#include "../reference.hpp"
#include "formats.hpp"
#include "../ieee.hpp"

namespace {

[[noreturn]] void fail(const char* what, const std::string& text, unsigned got, unsigned expected) {
  std::fprintf(stderr, "text_fuzz: %s for \"%s\": got 0x%02X, expected 0x%02X\n", what,
               text.c_str(), got, expected);
  std::abort();
}

template <class T>
void check(const char* first, const char* last, const reference::format& format) {
  const std::uint8_t untouched = T::from_bits(0x5A).bits();
  T x = T::from_bits(untouched);
  const std::from_chars_result result = minifloat::from_chars(first, last, x);
  const std::string text(first, last);
  if (result.ptr < first || result.ptr > last) {
    fail("ptr outside the text", text, 0, 0);
  }
  // As far as std::from_chars reads a double (whose grammar is the same).
  double as_double = 0;
  const std::from_chars_result double_result = std::from_chars(first, last, as_double);
  const bool no_number = double_result.ec == std::errc::invalid_argument;
  if ((result.ec == std::errc::invalid_argument) != no_number) {
    fail("number or not, unlike std::from_chars", text, 0, 0);
  }
  if (result.ec != std::errc{} && x.bits() != untouched) {
    fail("an error changed the value", text, x.bits(), untouched);
  }
  if (no_number) {
    if (result.ptr != first) {
      fail("no number, but ptr moved", text, 0, 0);
    }
    return;
  }
  if (result.ptr != double_result.ptr) {
    fail("read a different length from std::from_chars", text,
         static_cast<unsigned>(result.ptr - first),
         static_cast<unsigned>(double_result.ptr - first));
  }
  const std::string number(first, result.ptr);
  const double d = std::strtod(number.c_str(), nullptr);
  const std::size_t sign_length = number[0] == '-' ? 1 : 0;
  const bool special = ieee::isnan(d) || number[sign_length] == 'i' || number[sign_length] == 'I';
  // A format without infinities and NaN (the MX elements) saturates; its text reader reports
  // "inf", "nan" and the numbers that round past max as out of range (docs/spec.md §7).
  const bool finite_only = format.rule == reference::nan_rule::none;
  if (special && finite_only) {
    if (result.ec != std::errc::result_out_of_range) {
      fail("inf or nan in a format without them", number, x.bits(), untouched);
    }
  } else if (special) {
    // inf, infinity, nan, nan(...): what the constructor makes of the double.
    if (result.ec != std::errc{} || x.bits() != T(d).bits()) {
      fail("inf or nan", number, x.bits(), T(d).bits());
    }
  } else {
    const reference::narrower ref(format);
    const double threshold = (ref.max_value() + ref.grid_values().back()) / 2;
    // (-1 marks a number past the range of a finite-only format.)
    const auto round = [&](double v) {
      return finite_only && std::fabs(v) >= threshold
                 ? ~0U
                 : ref.round(v, reference::mode::nearest_even, false);
    };
    const unsigned expected = round(d);
    const bool certain = round(std::nextafter(d, -ieee::positive_infinity<float>())) == expected &&
                         round(std::nextafter(d, ieee::positive_infinity<float>())) == expected;
    const bool finite = expected != ~0U && ieee::isfinite(reference::decode(format, expected));
    if (certain && finite && (result.ec != std::errc{} || x.bits() != expected)) {
      fail("rounded differently from the reference", number, x.bits(), expected);
    }
    if (certain && !finite && result.ec != std::errc::result_out_of_range) {
      fail("a number past the format's range was not out of range", number, x.bits(), expected);
    }
  }
  if (result.ec != std::errc{}) {
    return;
  }
  // Written back and read again.
  char buffer[64];
  const std::to_chars_result written = minifloat::to_chars(buffer, buffer + sizeof buffer, x);
  T again = T::from_bits(untouched);
  const std::from_chars_result reread = minifloat::from_chars(buffer, written.ptr, again);
  const bool same = minifloat::isnan(x) ? minifloat::isnan(again) : again.bits() == x.bits();
  if (written.ec != std::errc{} || reread.ec != std::errc{} || reread.ptr != written.ptr || !same) {
    fail("to_chars does not read back", std::string(buffer, written.ptr), again.bits(), x.bits());
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) {
    return 0;
  }
  const std::size_t length = size - 1;
  const std::unique_ptr<char[]> text(new char[length]);
  std::memcpy(text.get(), data + 1, length);
  const char* first = text.get();
  const char* last = first + length;
  fuzz::with_format(data[0], [&](auto type, const reference::format& format) {
    check<decltype(type)>(first, last, format);
  });
  return 0;
}
