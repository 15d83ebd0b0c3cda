// A tour of minifloat: the formats' constants (Table 1 of the FP8 paper, arXiv 2209.05433,
// computed from the library's constexpr traits), then a few conversions in every mode.
#include <minifloat/minifloat.hpp>

#include <fmt/core.h>

#include <cmath>
#include <limits>
#include <string>

namespace {

// "S.1111.110": a magnitude code as sign placeholder, exponent field, mantissa field.
template <class Format>
std::string encoding(unsigned code) {
  using info = minifloat::format_info<Format>;
  return fmt::format("S.{:0{}b}.{:0{}b}", code >> info::mantissa_bits, info::exponent_bits,
                     code & info::mantissa_mask, info::mantissa_bits);
}

// "1.75 * 2^8 = 448": a positive code's value as significand times a power of two.
template <class Format>
std::string value_of(unsigned code) {
  using info = minifloat::format_info<Format>;
  const unsigned exponent_field = code >> info::mantissa_bits;
  const double fraction = std::ldexp(code & info::mantissa_mask, -info::mantissa_bits);
  const int exponent = exponent_field == 0 ? info::min_normal_exponent
                                           : static_cast<int>(exponent_field) - info::bias;
  const double significand = (exponent_field == 0 ? 0.0 : 1.0) + fraction;
  const auto value =
      static_cast<float>(minifloat::basic_fp8<Format>::from_bits(static_cast<std::uint8_t>(code)));
  return fmt::format("{} * 2^{} = {:g}", significand, exponent, value);
}

// The NaN codes, written as the paper does: "S.1111.111" or "S.11111.{01, 10, 11}"; fnuz's
// single NaN, which is what would be -0 elsewhere, as "1.0000.000".
template <class Format>
std::string nan_encodings() {
  using info = minifloat::format_info<Format>;
  if (info::special_values == minifloat::specials::fnuz) {
    return "1." + encoding<Format>(0).substr(2);
  }
  std::string mantissas;
  unsigned count = 0;
  unsigned last = 0;
  for (unsigned code = 0; code <= info::magnitude_mask; ++code) {
    if (info::is_nan(static_cast<std::uint8_t>(code))) {
      mantissas += fmt::format("{}{:0{}b}", count == 0 ? "" : ", ", code & info::mantissa_mask,
                               info::mantissa_bits);
      ++count;
      last = code;
    }
  }
  if (count == 1) {
    return encoding<Format>(last);
  }
  if (count > 3) { // IEEE-style with a long mantissa: every non-zero mantissa
    mantissas = fmt::format("{:0{}b} to {:0{}b}", 1, info::mantissa_bits, info::mantissa_mask,
                            info::mantissa_bits);
  }
  return fmt::format("S.{:0{}b}.{{{}}}", last >> info::mantissa_bits, info::exponent_bits,
                     mantissas);
}

// "S.0000.000", or "0.0000.000" for a format with a single zero.
template <class Format>
std::string zero_encodings() {
  const std::string positive = encoding<Format>(0);
  return minifloat::format_info<Format>::has_negative_zero ? positive : "0." + positive.substr(2);
}

template <class... Formats>
void print_format_table(const char* const (&names)[sizeof...(Formats)]) {
  std::string header = fmt::format("{:<16}", "");
  for (const char* name : names) {
    header += fmt::format("| {:<28}", name);
  }
  fmt::print("{}\n{:-<{}}\n", header, "", header.size());
  const auto row = [](const char* label, auto... cells) {
    std::string line = fmt::format("{:<16}", label);
    ((line += fmt::format("| {:<28}", cells)), ...);
    fmt::print("{}\n", line);
  };
  using minifloat::format_info;
  row("Exponent bias", format_info<Formats>::bias...);
  row("Infinities",
      (format_info<Formats>::has_infinity ? encoding<Formats>(format_info<Formats>::infinity_code)
                                          : std::string("N/A"))...);
  row("NaN", nan_encodings<Formats>()...);
  row("Zeros", zero_encodings<Formats>()...);
  row("Max normal", encoding<Formats>(format_info<Formats>::max_finite_code)...);
  row("", value_of<Formats>(format_info<Formats>::max_finite_code)...);
  row("Min normal", encoding<Formats>(format_info<Formats>::min_normal_code)...);
  row("", value_of<Formats>(format_info<Formats>::min_normal_code)...);
  row("Max subnormal", encoding<Formats>(format_info<Formats>::max_subnormal_code)...);
  row("", value_of<Formats>(format_info<Formats>::max_subnormal_code)...);
  row("Min subnormal", encoding<Formats>(format_info<Formats>::min_subnormal_code)...);
  row("", value_of<Formats>(format_info<Formats>::min_subnormal_code)...);
  row("Dynamic range", fmt::format("{} binades", format_info<Formats>::dynamic_range_binades)...);
}

template <class T>
std::string show(T x) {
  return fmt::format("0x{:02X} {:<11g}", x.bits(), static_cast<float>(x));
}

template <class T>
void print_conversions(const char* name) {
  using minifloat::overflow;
  using minifloat::rounding;
  fmt::print("\n{}: {:>18} | {:<16} | {:<16} | {:<16} | {:<16}\n", name, "input", "nearest-even",
             "saturate_cast", "toward-zero", "stochastic 2^31");
  const double inf = std::numeric_limits<double>::infinity();
  const double inputs[] = {1.0,
                           0.1,
                           -3.3,
                           464.0,
                           465.0,
                           61439.0,
                           61440.0,
                           0x1p-10,
                           -1e-6,
                           1.0 + 0x1p-4 + 0x1p-30, // one rounding: 1.125 in e4m3, not 1.0
                           inf,
                           -inf,
                           std::numeric_limits<double>::quiet_NaN()};
  for (double x : inputs) {
    fmt::print("{:>24} | {} | {} | {} | {}\n", x, show(T(x)), show(minifloat::saturate_cast<T>(x)),
               show(minifloat::convert<T, rounding::toward_zero>(x)),
               show(minifloat::stochastic_cast<T>(x, 0x80000000u)));
  }
}

} // namespace

int main() {
  fmt::print(
      "minifloat {}.{}.{}: the 8-bit formats (docs/spec.md §1; Table 1 of arXiv 2209.05433)\n\n",
      MINIFLOAT_VERSION_MAJOR, MINIFLOAT_VERSION_MINOR, MINIFLOAT_VERSION_PATCH);
  using namespace minifloat::formats;
  print_format_table<e4m3, e5m2, ieee<3, 4>, ieee<2, 5>>(
      {"E4M3 (OCP, fn)", "E5M2 (OCP)", "E3M4 (IEEE-style)", "E2M5 (IEEE-style)"});
  fmt::print("\nThe format family (AMD MI300 / Graphcore fnuz, IEEE-style E4M3):\n\n");
  print_format_table<ieee<4, 3>, e4m3fnuz, e5m2fnuz, e4m3b11fnuz>(
      {"E4M3 (IEEE-style)", "E4M3FNUZ", "E5M2FNUZ", "E4M3B11FNUZ"});

  fmt::print("\nConversions of doubles (one rounding, non-saturating unless saturate_cast):");
  print_conversions<minifloat::e4m3>("e4m3");
  print_conversions<minifloat::e5m2>("e5m2");

  // The same conversions are constexpr: a unit test can static_assert on any code.
  static_assert(minifloat::e4m3(448.0f).bits() == 0b0'1111'110, "448 is e4m3's max");
  static_assert(minifloat::saturate_cast<minifloat::e5m2>(1e9f).bits() == 0x7B, "57344");
  return 0;
}
