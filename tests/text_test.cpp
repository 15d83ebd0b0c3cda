// Text: to_chars / to_string (shortest decimal that reads back), from_chars (correctly rounded
// from the text's exact value), literals, and the fmt formatter. Expected values come from the
// reference's grid and rounding, glibc's exact printf digits and std::to_chars of double.
#include <gtest/gtest.h>

#include <minifloat/fmt.hpp>
#include <minifloat/minifloat.hpp>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "formats_under_test.hpp"
#include "ieee.hpp"

namespace {

using minifloat::e4m3;
using minifloat::e5m2;
using minifloat::e8m0;
using reference::mode;

// printf's %.*e of d: glibc prints the exact binary value's digits, correctly rounded.
std::string scientific(double d, int digits_after_point) {
  std::vector<char> buffer(static_cast<std::size_t>(digits_after_point) + 32);
  std::snprintf(buffer.data(), buffer.size(), "%.*e", digits_after_point, d);
  return buffer.data();
}

// std::to_chars of a double: the shortest text that reads back to the double, in the shorter of
// fixed and scientific.
std::string shortest_double_text(double d) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, d);
  return std::string(buffer, result.ptr);
}

// Significant digits of a decimal text ("450" has 2, "0.002" 1, "1.5e+02" 2).
int significant_digits(const std::string& text) {
  std::string digits;
  for (char c : text) {
    if (c == 'e') {
      break;
    }
    if (c >= '0' && c <= '9') {
      digits += c;
    }
  }
  const auto first = digits.find_first_not_of('0');
  const auto last = digits.find_last_not_of('0');
  return first == std::string::npos ? 0 : static_cast<int>(last - first + 1);
}

template <class T>
class Text : public under_test::format_fixture<T> {
protected:
  // from_chars of the whole text: {code or -1 on an error, the error}.
  std::pair<int, std::errc> read(const std::string& text) {
    const T sentinel = T::from_bits(0x5A); // a value the failing cases must leave alone
    T x = sentinel;
    const auto result = minifloat::from_chars(text.data(), text.data() + text.size(), x);
    if (result.ec != std::errc{}) {
      EXPECT_EQ(x.bits(), sentinel.bits()) << text << ": the value changed on an error";
      return {-1, result.ec};
    }
    EXPECT_EQ(result.ptr, text.data() + text.size()) << text << ": not read to the end";
    return {x.bits(), result.ec};
  }
  // The reference's answer for a text that strtod reads exactly (or rounds far from the grid's
  // rounding boundaries): -1 where the code is not finite (out of range).
  // A format without infinities and NaN saturates; its text reader reports the numbers that
  // round past max (at or beyond the midpoint to the next value of an unbounded range).
  int expected_code(double value) {
    if (this->fmt.rule == reference::nan_rule::none &&
        std::fabs(value) >= (this->ref.max_value() + this->ref.grid_values().back()) / 2) {
      return -1;
    }
    const unsigned code = this->ref.round(value, mode::nearest_even, false);
    return ieee::isfinite(reference::decode(this->fmt, code)) ? static_cast<int>(code) : -1;
  }
};
TYPED_TEST_SUITE(Text, under_test::every_format, under_test::format_names);

// Every code: the text reads back to the same code, has as few significant digits as any text
// that does (found by trying printf's nearest texts of 1, 2, ... digits through the reference),
// and is the text std::to_chars writes for the double of those digits (same digits, and the
// same choice of fixed or scientific).
TYPED_TEST(Text, ShortestTextOfEveryCodeReadsBack) {
  for (unsigned code = 0; code < under_test::code_count<TypeParam>; ++code) {
    const TypeParam x = TypeParam::from_bits(static_cast<std::uint8_t>(code));
    const std::string text = minifloat::to_string(x);
    char buffer[64];
    const auto written = minifloat::to_chars(buffer, buffer + sizeof buffer, x);
    ASSERT_EQ(written.ec, std::errc{});
    EXPECT_EQ(std::string(buffer, written.ptr), text);
    const double value = reference::decode(this->fmt, code);
    const bool negative = (code & reference::sign_bit(this->fmt)) != 0 && this->fmt.has_sign &&
                          !(this->fmt.rule == reference::nan_rule::fnuz && code == 0x80);
    if (ieee::isnan(value)) {
      EXPECT_EQ(text, negative ? "-nan" : "nan") << code;
      EXPECT_TRUE(minifloat::isnan(
          TypeParam::from_bits(static_cast<std::uint8_t>(this->read(text).first))));
      continue;
    }
    if (ieee::isinf(value) || value == 0) {
      EXPECT_EQ(text, shortest_double_text(value)) << code; // "inf", "-inf", "0", "-0"
      EXPECT_EQ(this->read(text).first, static_cast<int>(code));
      continue;
    }
    int digits = 1;
    std::string nearest;
    for (;; ++digits) {
      nearest = scientific(value, digits - 1);
      if (this->expected_code(std::strtod(nearest.c_str(), nullptr)) == static_cast<int>(code)) {
        break;
      }
    }
    EXPECT_EQ(significant_digits(text), digits) << text << " for code " << code;
    EXPECT_EQ(text, shortest_double_text(std::strtod(nearest.c_str(), nullptr))) << code;
    EXPECT_EQ(this->read(text).first, static_cast<int>(code)) << text;
  }
}

// The mantissa of printf's exact %.200e text with a last digit appended (just above) or one
// unit of the 200th decimal place taken off (just below). Exact: every grid value and midpoint
// has fewer than 100 significant digits.
std::string nudged(const std::string& exact, bool up) {
  const auto e = exact.find('e');
  std::string mantissa = exact.substr(0, e);
  const std::string exponent = exact.substr(e);
  if (up) {
    return mantissa + "1" + exponent;
  }
  std::size_t i = mantissa.size();
  while (i-- > 0) {
    if (mantissa[i] == '.') {
      continue;
    }
    if (mantissa[i] != '0') {
      --mantissa[i];
      break;
    }
    mantissa[i] = '9';
  }
  return mantissa + exponent;
}

// Every grid value, every midpoint between neighbours (the virtual one past the largest
// included), and texts a hair above and below each, both signs: from_chars gives the
// reference's nearest-even code, or out of range, from text that no double could carry.
TYPED_TEST(Text, ReadsEveryGridValueAndMidpointExactly) {
  const std::vector<double> grid = this->ref.grid_values();
  for (std::size_t i = 0; i + 1 < grid.size(); ++i) {
    const double low = grid[i];
    const double high = grid[i + 1];
    const double midpoint = (low + high) / 2;
    for (const double sign : {1.0, -1.0}) {
      const std::string prefix = sign < 0 ? "-" : "";
      const std::string at_low = scientific(low, 200);
      const std::string at_mid = scientific(midpoint, 200);
      EXPECT_EQ(this->read(prefix + at_low).first, this->expected_code(sign * low)) << at_low;
      EXPECT_EQ(this->read(prefix + at_mid).first, this->expected_code(sign * midpoint)) << at_mid;
      EXPECT_EQ(this->read(prefix + nudged(at_mid, true)).first,
                this->expected_code(sign * (midpoint + high) / 2))
          << nudged(at_mid, true);
      EXPECT_EQ(this->read(prefix + nudged(at_mid, false)).first,
                this->expected_code(sign * (low + midpoint) / 2))
          << nudged(at_mid, false);
      if (low > 0) {
        EXPECT_EQ(this->read(prefix + nudged(at_low, false)).first,
                  this->expected_code(sign * std::nextafter(low, 0.0)))
            << nudged(at_low, false);
      }
    }
  }
}

// Random decimals of up to 17 digits across and beyond each format's range, in fixed and
// scientific notation, against the reference's rounding of strtod's double.
TYPED_TEST(Text, ReadsRandomDecimals) {
  std::mt19937_64 random(12345);
  const int top = std::ilogb(this->ref.max_value()) / 3 + 3;
  std::uniform_int_distribution<int> exponent(-50, top);
  std::uniform_int_distribution<int> length(1, 17);
  std::uniform_int_distribution<int> digit(0, 9);
  for (int trial = 0; trial < 20000; ++trial) {
    std::string digits;
    const int n = length(random);
    for (int i = 0; i < n; ++i) {
      digits += static_cast<char>('0' + digit(random));
    }
    // Built by appending: GCC 12 warns falsely (-Wrestrict, PR 105329) on "literal" + string.
    std::string scientific_text(trial % 3 == 0 ? "-" : "");
    scientific_text.append(digits, 0, 1).append(".").append(digits, 1, std::string::npos);
    scientific_text.append("e").append(std::to_string(exponent(random)));
    const double value = std::strtod(scientific_text.c_str(), nullptr);
    EXPECT_EQ(this->read(scientific_text).first, this->expected_code(value)) << scientific_text;
    // The same number in fixed notation where that is short enough.
    if (std::fabs(value) < 1e30 && std::fabs(value) > 1e-30) {
      const std::string fixed_text = std::to_string(value); // 6 places: another decimal
      EXPECT_EQ(this->read(fixed_text).first,
                this->expected_code(std::strtod(fixed_text.c_str(), nullptr)))
          << fixed_text;
    }
  }
}

// The grammar of std::from_chars's general format: what is read, how far, and the errors.
TEST(TextGrammar, ReadsTheLongestNumberAndReportsErrors) {
  struct row {
    const char* text;
    std::size_t length; // 0: invalid_argument
    std::errc error;
    int code; // e4m3 code, -1: not checked (an error)
  };
  const row rows[] = {
      {"1.5", 3, std::errc{}, 0x3C},
      {"-1.5", 4, std::errc{}, 0xBC},
      {"1.5e0", 5, std::errc{}, 0x3C},
      {"15E-1", 5, std::errc{}, 0x3C},
      {"0.15e+1", 7, std::errc{}, 0x3C},
      {".5", 2, std::errc{}, 0x30},
      {"5.", 2, std::errc{}, 0x4A},
      {"1e", 1, std::errc{}, 0x38},   // the exponent needs a digit: "1" is read
      {"1e+", 1, std::errc{}, 0x38},  // likewise
      {"1.5x", 3, std::errc{}, 0x3C}, // stops at the first character that does not fit
      {"0x10", 1, std::errc{}, 0x00}, // no hexadecimal: "0"
      {"-0", 2, std::errc{}, 0x80},
      {"0.0000", 6, std::errc{}, 0x00},
      {"inf", 3, std::errc{}, 0x7F}, // e4m3 has no infinity: inf converts to NaN
      {"-Infinity", 9, std::errc{}, 0xFF},
      {"INFINITE", 3, std::errc{}, 0x7F},
      {"nan", 3, std::errc{}, 0x7F},
      {"-NaN(123_abc)", 13, std::errc{}, 0xFF},
      {"nan(", 3, std::errc{}, 0x7F},
      {"1e-999999999999", 15, std::errc{}, 0x00},
      {"464", 3, std::errc{}, 0x7E}, // the tie goes to 448, the even code
      {"464.000000000000000000000000000001", 34, std::errc::result_out_of_range, -1},
      {"463.999999999999999999999999999999", 34, std::errc{}, 0x7E},
      {"1e999999999999", 14, std::errc::result_out_of_range, -1},
      {"-1000", 5, std::errc::result_out_of_range, -1},
      {"", 0, std::errc::invalid_argument, -1},
      {"-", 0, std::errc::invalid_argument, -1},
      {"+1", 0, std::errc::invalid_argument, -1}, // no '+', as std::from_chars
      {" 1", 0, std::errc::invalid_argument, -1}, // no leading space
      {".", 0, std::errc::invalid_argument, -1},
      {"e5", 0, std::errc::invalid_argument, -1},
      {"in", 0, std::errc::invalid_argument, -1},
      {"-.e1", 0, std::errc::invalid_argument, -1},
  };
  for (const row& r : rows) {
    const std::string text = r.text;
    e4m3 x = e4m3::from_bits(0x5A);
    const auto result = minifloat::from_chars(text.data(), text.data() + text.size(), x);
    EXPECT_EQ(result.ec, r.error) << text;
    const std::size_t read = static_cast<std::size_t>(result.ptr - text.data());
    EXPECT_EQ(read, r.length) << text;
    EXPECT_EQ(x.bits(), r.code < 0 ? 0x5A : r.code) << text;
  }
}

// Digits past any buffer still count: 464 followed by 300 zeros and a 1 is past the rounding
// boundary, 463 followed by 300 nines is below it; far-away exponents are decided.
TEST(TextGrammar, LongTextIsReadExactly) {
  const std::string above = std::string("464.").append(300, '0').append("1");
  const std::string below = std::string("463.").append(300, '9');
  const std::string tiny = std::string("0.").append(300, '0').append("1");
  const std::string many_digits = std::string(400, '1') + "e-399"; // 1.11...
  e4m3 x{};
  EXPECT_EQ(minifloat::from_chars(above.data(), above.data() + above.size(), x).ec,
            std::errc::result_out_of_range);
  EXPECT_EQ(minifloat::from_chars(below.data(), below.data() + below.size(), x).ec, std::errc{});
  EXPECT_EQ(x.bits(), 0x7E);
  EXPECT_EQ(minifloat::from_chars(tiny.data(), tiny.data() + tiny.size(), x).ec, std::errc{});
  EXPECT_EQ(x.bits(), 0x00);
  EXPECT_EQ(
      minifloat::from_chars(many_digits.data(), many_digits.data() + many_digits.size(), x).ec,
      std::errc{});
  EXPECT_EQ(x.bits(), 0x39); // 1.111 rounds to 1.125
  e8m0 s{};
  const std::string negative = "-2";
  EXPECT_EQ(minifloat::from_chars(negative.data(), negative.data() + negative.size(), s).ec,
            std::errc::result_out_of_range);
}

TEST(TextGrammar, ToCharsLeavesASmallBufferUntouched) {
  char buffer[4] = {'#', '#', '#', '#'};
  const auto result = minifloat::to_chars(buffer, buffer + 2, e4m3(0.3125f)); // "0.3"
  EXPECT_EQ(result.ec, std::errc::value_too_large);
  EXPECT_EQ(result.ptr, buffer + 2);
  EXPECT_EQ(std::string(buffer, 4), "####");
  EXPECT_EQ(minifloat::to_chars(buffer, buffer + 3, e4m3(0.3125f)).ec, std::errc{});
  EXPECT_EQ(std::string(buffer, 3), "0.3");
}

// Literals are read from their text at compile time. 1.0625 is the midpoint between 1 and
// 1.125; the literal just above it rounds up, where a double (which cannot hold the difference)
// would give the midpoint and round to even, down.
using namespace minifloat::literals;
static_assert((1.5_e4m3).bits() == 0x3C, "");
static_assert((-1.5_e4m3).bits() == 0xBC, "");
static_assert((448_e4m3).bits() == 0x7E, "");
static_assert((464_e4m3).bits() == 0x7E, "the tie at the top goes to 448");
static_assert((1.0625_e4m3).bits() == 0x38, "");
static_assert((1.06250000000000000000001_e4m3).bits() == 0x39, "");
static_assert((57'344_e5m2).bits() == 0x7B, "digit separators");
static_assert((2e-3_e5m2).bits() == e5m2(2e-3).bits(), "");
static_assert((0.25_e8m0).bits() == 0x7D, "");
static_assert((15.5_e3m4).bits() == 0x6F, "");
static_assert((240_e4m3fnuz).bits() == 0x7F, "");
static_assert((0_e4m3fnuz).bits() == 0x00, "");
TEST(TextLiterals, AgreeWithFromChars) {
  EXPECT_NE(e4m3(1.06250000000000000000001).bits(), (1.06250000000000000000001_e4m3).bits())
      << "the double rounds twice; the literal once";
  EXPECT_EQ((0.3_e4m3).bits(), e4m3(0.3).bits());
  EXPECT_EQ((1e-3_e4m3b11fnuz).bits(), minifloat::e4m3b11fnuz(1e-3).bits());
}

// to_chars is constexpr too.
constexpr bool prints(e4m3 x, const char* expected) {
  char buffer[16] = {};
  const auto result = minifloat::to_chars(buffer, buffer + sizeof buffer, x);
  int i = 0;
  for (; buffer + i != result.ptr; ++i) {
    if (buffer[i] != expected[i]) {
      return false;
    }
  }
  return expected[i] == '\0';
}
static_assert(prints(0.3125_e4m3, "0.3"), "");
static_assert(prints(448_e4m3, "450"), "448 is the only e4m3 value within 432..464");
static_assert(prints(-0.001953125_e4m3, "-0.002"), "");

// fmt: each presentation against what it is defined to be, for every code of two formats.
template <class T>
std::string fields_by_hand(T x) {
  using info = minifloat::format_info<typename T::format>;
  std::string text;
  const int top = info::total_bits - 1; // the code's bits only (e2m1: 4)
  for (int bit = top; bit >= 0; --bit) {
    text += ((x.bits() >> bit) & 1) != 0 ? '1' : '0';
    if ((info::is_signed && bit == top) || (bit == info::mantissa_bits && bit != 0)) {
      text += '|';
    }
  }
  return text;
}

// The value presentations go through {fmt}'s float formatter, whose inline code cannot tell NaN,
// infinity and -0 apart under -ffast-math (-ffinite-math-only, -fno-signed-zeros), nor see a
// float subnormal (e8m0's 2^-127) under its denormals-are-zero: there, those codes' value
// presentations are not compared (the code, field, debug and shortest-text ones are).
#if defined(__FAST_MATH__) || (defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__)
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic warning "-W#pragma-messages" // a message, not an error under -Werror
#endif
#pragma message("text_test: under fast-math, fmt's {} of NaN, inf, -0, subnormals is not checked")
#if defined(__clang__)
#pragma clang diagnostic pop
#endif
constexpr bool float_formatting_has_specials = false;
#else
constexpr bool float_formatting_has_specials = true;
#endif

// A program built with -ffast-math or -Ofast (crtfastmath.o) runs with denormals-are-zero, which
// also tells a build whose flags leave no macro behind (clang's -Ofast -fno-finite-math-only).
bool flushes_subnormals() {
  volatile float tiny = 1e-40f;
  return tiny * 1.0f == 0.0f;
}

template <class T>
void check_fmt_presentations() {
  for (unsigned code = 0; code < under_test::code_count<T>; ++code) {
    const T x = T::from_bits(static_cast<std::uint8_t>(code));
    const float value = static_cast<float>(x);
    const std::uint32_t magnitude = ieee::magnitude(value);
    const bool normal_or_plus_zero =
        ieee::to_bits(value) == 0 || (magnitude >= 0x00800000U && magnitude < 0x7F800000U);
    if ((float_formatting_has_specials && !flushes_subnormals()) || normal_or_plus_zero) {
      EXPECT_EQ(fmt::format("{}", x), fmt::format("{}", value));
      EXPECT_EQ(fmt::format("{:>12.3e}", x), fmt::format("{:>12.3e}", value));
      EXPECT_EQ(fmt::format("{:{}}", x, 9), fmt::format("{:{}}", value, 9));
    }
    EXPECT_EQ(fmt::format("{:#04x}", x), fmt::format("{:#04x}", code));
    EXPECT_EQ(fmt::format("{:X}", x), fmt::format("{:X}", code));
    EXPECT_EQ(fmt::format("{:b}", x), fields_by_hand(x));
    EXPECT_EQ(fmt::format("{:*^14b}", x), fmt::format("{:*^14}", fields_by_hand(x)));
    EXPECT_EQ(fmt::format("{:s}", x), minifloat::to_string(x));
    EXPECT_EQ(fmt::format("{:>8s}", x), fmt::format("{:>8}", minifloat::to_string(x)));
    const char* kind = minifloat::isnan(x)      ? "NaN"
                       : minifloat::isinf(x)    ? "inf"
                       : magnitude == 0         ? "zero"
                       : minifloat::isnormal(x) ? "normal"
                                                : "subnormal";
    // The debug form starts with the exact value: every digit (as many significant digits as
    // printf's exact expansion) and the same number.
    const std::string debug = fmt::format("{:?}", x);
    const std::string shown = debug.substr(0, debug.find(" ("));
    EXPECT_EQ(debug.substr(debug.find(" (")), fmt::format(" ({}, 0x{:02X})", kind, code));
    if (ieee::isfinite(value) && magnitude != 0) {
      // (The double from the bits: a -ffast-math program flushes e8m0's 2^-127 when converting.)
      const double exact = ieee::to_double(value);
      EXPECT_EQ(std::strtod(shown.c_str(), nullptr), exact) << debug;
      EXPECT_EQ(significant_digits(shown), significant_digits(scientific(exact, 120))) << debug;
    } else {
      EXPECT_EQ(shown, minifloat::to_string(x));
    }
  }
}
TEST(TextFmt, EveryPresentationOfEveryCode) {
  check_fmt_presentations<e4m3>();
  check_fmt_presentations<e5m2>();
  check_fmt_presentations<e8m0>();
  check_fmt_presentations<minifloat::e2m1>();
  check_fmt_presentations<minifloat::ue4m3>();
  EXPECT_EQ(fmt::format("{:?}", e4m3(1.5f)), "1.5 (normal, 0x3C)");
  EXPECT_EQ(fmt::format("{:b}", e4m3(1.5f)), "0|0111|100");
  EXPECT_EQ(fmt::format("{:b}", e8m0(1.0f)), "01111111");
  EXPECT_THROW((void)fmt::format(fmt::runtime("{:+b}"), e4m3(1.5f)), fmt::format_error);
  EXPECT_THROW((void)fmt::format(fmt::runtime("{:{}s}"), e4m3(1.5f), 3), fmt::format_error);
}

} // namespace
